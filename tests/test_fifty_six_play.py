"""56 card play from what the plays so far tell (strategies/fifty_six_play.py): who has shown
out of a suit, overtaking partner, counting trumps, signals. Each behaviour from a hand-made
position where it plays another card than with its parameter off; the positions carry the
whole record of plays (PB_PLAYS), seat by seat, and what it shows (PB_SHOWN_OUT, PB_THREW,
which the kernel keeps up to date; a test checks it against a plain scan of the plays)."""
import numpy as np
import pytest
from numba import njit

from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.cards import name, parse
from cardsim.simulator.games.fifty_six import view as V
from cardsim.simulator.strategy import StrategyDef
from cardsim.strategies import fifty_six as S
from cardsim.strategies import fifty_six_play as SP
from tests.helpers_fifty_six import GAME, TRUMPS

OFF = {"voids": 0, "count_trumps": 0, "signals": 0, "overtake_min_points": 99}


@njit(cache=True)
def scan_shown_out(public, n_play, n_played, void, threw):
    """Plain reference for PB_SHOWN_OUT / PB_THREW (per suit, bit per seat): every card of a
    trick (n_play cards each) not of the led suit marks its seat void in that suit and as
    having thrown its own suit."""
    void[:] = 0
    threw[:] = 0
    for i in range(n_played):
        seat = public[V.PB_PLAYS + 2 * i]
        led = public[V.PB_PLAYS + 2 * (i - i % n_play) + 1] // 13
        cs = public[V.PB_PLAYS + 2 * i + 1] // 13
        if cs != led:
            void[led] |= 1 << seat
            threw[cs] |= 1 << seat


def play(hand, tricks, me=0, trump="H", shown=True, contract_team=0, strategy="evaluator",
         **params):
    """The card seat ``me`` (4 players, teams by seat parity) plays from ``hand`` after
    ``tricks``: lists of (seat, card) in play order, the last one the trick in progress
    (empty when ``me`` leads), with the parameters of ``strategy`` changed by ``params``."""
    public = np.zeros(V.PB_LEN, np.int16)
    public[[V.PB_SEATS, V.PB_ACTIVE_N, V.PB_NTEAMS]] = (4, 4, 2)
    public[V.PB_TEAM_OF:V.PB_TEAM_OF + 4] = (0, 1, 0, 1)
    public[V.PB_ACTIVE:V.PB_ACTIVE + 4] = 1
    t = TRUMPS[trump]
    public[V.PB_TRUMP] = t if shown else V.TRUMP_HIDDEN
    public[V.PB_CONTRACT_TEAM] = contract_team
    plays = [(seat, parse(c)) for trick in tricks for seat, c in trick]
    for k, (seat, card) in enumerate(plays):
        public[V.PB_PLAYS + 2 * k:V.PB_PLAYS + 2 * k + 2] = (seat, card)
        public[V.PB_PLAYED + card] += 1
    scan_shown_out(public, 4, len(plays), public[V.PB_SHOWN_OUT:V.PB_SHOWN_OUT + 4],
                   public[V.PB_THREW:V.PB_THREW + 4])
    now = [(seat, parse(c)) for seat, c in tricks[-1]]
    public[V.PB_TRICK] = len(tricks) - 1
    public[V.PB_TRICK_N] = len(now)
    public[V.PB_LED_SUIT] = now[0][1] // 13 if now else -1
    for j, (seat, card) in enumerate(now):
        public[V.PB_TRICK_SEATS + j] = seat
        public[V.PB_TRICK_CARDS + j] = card
    if now:
        public[V.PB_TRICK_BEST] = V.trick_winner(public, V.PB_TRICK_CARDS, len(now),
                                                 t if shown else -1)
        public[V.PB_TRICK_PTS] = sum(V.POINTS[c] for _, c in now)
    private = np.zeros(V.PV_LEN, np.int16)
    private[[V.PV_SEAT, V.PV_TEAM, V.PV_TRUMP]] = (me, me % 2, public[V.PB_TRUMP])
    h = np.array([parse(c) for c in hand.split()], np.int8)
    follow = [now and c // 13 == now[0][1] // 13 for c in h]
    legal = np.array(follow if any(follow) else [True] * len(h), np.int8)
    p = S.REGISTRY[strategy].param_vector(params, len(S.PARAMS))
    i = S.heuristic_play(h, len(h), public, private, legal, p, np.zeros(2, np.uint64))
    return name(h[i])


# seat 1 (an opponent) shows out of spades; both jacks and nines of spades are gone
SPADES_GONE = [[(0, "JS"), (1, "QD"), (2, "9S"), (3, "JS")],
               [(0, "9S"), (1, "KD"), (2, "QS"), (3, "10S")]]


def test_shown_out_reads_who_did_not_follow():
    public = np.zeros(V.PB_LEN, np.int16)
    plays = SPADES_GONE[0] + [(0, "AH"), (1, "KC")]  # seat 1 also out of hearts
    for k, (seat, card) in enumerate(plays):
        public[V.PB_PLAYS + 2 * k:V.PB_PLAYS + 2 * k + 2] = (seat, parse(card))
    scan_shown_out(public, 4, len(plays), public[V.PB_SHOWN_OUT:V.PB_SHOWN_OUT + 4],
                   public[V.PB_THREW:V.PB_THREW + 4])
    void, threw = SP.shown_out(public)
    assert void == (1 << 8 * 0 + 1) | (1 << 8 * 1 + 1)  # seat 1: spades, hearts
    assert threw == (1 << 8 * 2 + 1) | (1 << 8 * 3 + 1)  # it threw a diamond and a club


def test_no_master_is_cashed_into_an_opponents_known_void():
    hand = "AS KS KD QD QC"  # the ace of spades is a master, but seat 1 ruffs it
    assert play(hand, SPADES_GONE + [[]], voids=0) == "AS"
    assert play(hand, SPADES_GONE + [[]]) == "QD"  # spades kept off: low from diamonds
    # no trump left unseen: nobody can ruff, the ace is cashed
    gone = [[(0, r + "H"), (1, r + "H"), (2, q + "H"), (3, q + "H")]
            for r, q in (("J", "9"), ("A", "10"), ("K", "Q"))]
    assert play(hand, SPADES_GONE + gone + [[]]) == "AS"
    # a trump I do not know (hidden) cannot be counted: the ace goes as before
    assert play(hand, SPADES_GONE + [[]], shown=False) == "AS"


def test_a_partner_is_safe_from_an_opponent_known_void_in_trumps():
    tricks = [[(0, "JS"), (1, "9S"), (2, "JS"), (3, "9S")],
              [(0, "QH"), (1, "JH"), (2, "KH"), (3, "QD")],  # seat 3 has no trump
              [(1, "QS"), (2, "AS")]]  # partner's ace is the best spade left
    assert play("10S KS KH", tricks, voids=0) == "KS"  # seat 3 might ruff: nothing given
    assert play("10S KS KH", tricks) == "10S"  # it cannot: feed the ten


def test_overtakes_a_partner_who_may_be_beaten_with_a_sure_winner():
    trick = [[(1, "10S"), (2, "AS")]]  # partner's ace; jacks and nines of spades are out
    assert play("JS KS KD", trick, overtake_min_points=99) == "KS"
    assert play("JS KS KD", trick) == "JS"  # my jack is first (the default: any points)
    assert play("JS KS KD", trick, overtake_min_points=3) == "KS"  # 2 points: not worth it
    # void in spades: a master trump is a sure winner too
    assert play("JH JH KD", trick, overtake_min_points=2) == "JH"
    assert play("JH JH KD", trick, overtake_min_points=99) == "KD"
    # partner's jack fears only a ruff from a seat not known to be void: no trump spent on it
    assert play("JH JH KD", [[(1, "QS"), (2, "JS")]], overtake_min_points=2) == "KD"


def test_stops_drawing_trumps_when_no_opponent_can_hold_one():
    tricks = [[(0, "9H"), (1, "QS"), (2, "KH"), (3, "QD")], []]  # both opponents out of hearts
    hand = "JH 10H AS KS QC"
    assert play(hand, tricks, count_trumps=0) == "JH"  # the other trumps are partner's
    assert play(hand, tricks) == "KS"
    assert play(hand, [[]]) == "JH"  # nothing known: draw


def test_discards_from_a_weak_suit():
    trick = [[(1, "KC")]]  # void in clubs, no trump: a discard
    assert play("JS QS KD QD", trick, signals=0) == "QS"  # the cheapest card, from the jack
    assert play("JS QS KD QD", trick) == "QD"  # kept: the suit with the jack
    # ... but no point is thrown for it: the ace is the weak suit's cheapest card
    assert play("JS QS AD", trick) == "QS"


def test_a_low_lead_keeps_off_the_suit_partner_threw_from():
    tricks = [[(0, "JC"), (1, "QC"), (2, "KS"), (3, "9C")], []]  # partner threw a spade
    assert play("KS QS KD QD", tricks, signals=0) == "QS"
    assert play("KS QS KD QD", tricks) == "QD"


def test_every_new_parameter_off_plays_as_before():
    # the positions above, each with its old answer
    assert play("AS KS KD QD QC", SPADES_GONE + [[]], **OFF) == "AS"
    assert play("JS QS KD QD", [[(1, "KC")]], **OFF) == "QS"
    assert play("JS KS KD", [[(1, "10S"), (2, "AS")]], **OFF) == "KS"


@njit(cache=True)
def _checking_play(hand, n, public, private, legal, params, rng):
    """The heuristic's card, or -1 (an illegal answer stops the run) when the kernel's
    PB_SHOWN_OUT / PB_THREW differ from a plain scan of the plays."""
    n_play = public[V.PB_ACTIVE_N]
    if public[V.PB_THANI] == 1:
        n_play -= n_play // public[V.PB_NTEAMS] - 1
    void = np.zeros(4, np.int16)
    threw = np.zeros(4, np.int16)
    scan_shown_out(public, n_play, public[V.PB_TRICK] * n_play + public[V.PB_TRICK_N], void,
                   threw)
    for su in range(4):
        if void[su] != public[V.PB_SHOWN_OUT + su] or threw[su] != public[V.PB_THREW + su]:
            return -1
    return S.heuristic_play(hand, n, public, private, legal, params, rng)


@pytest.mark.parametrize("rules", [{}, {"hidden_trump": True}, {"thani": True},
                                   {"players": 6, "team_layout": "pairs"}, {"players": 8},
                                   {"players": 8, "thani": True}])
def test_the_kernel_keeps_who_has_shown_out_as_a_scan_of_the_plays_finds(rules):
    checking = StrategyDef("checking", "evaluator whose play checks the shown-out record",
                           {"bid": S.evaluator_bid, "play": _checking_play,
                            "reveal": S.heuristic_reveal}, S.PARAMS, plugin=True)
    runner = Runner(RunSpec(GAME, GAME.rules.resolve(rules), ["checking"], 3, 200,
                            registry={"checking": checking}))
    deals = runner.play_chunk(0, 200, 2)[0]  # an illegal card would raise
    assert deals.height > 200
