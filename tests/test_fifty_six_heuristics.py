"""56 heuristic strategies: each decision from a hand-made position where another decision rule
would answer differently. Bids go through the real kernel (seat 0 speaks first); card play is
asked directly through the array interface with a hand-made table."""
import numpy as np
import polars as pl
import pytest

from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.cards import name, parse
from cardsim.simulator.games.fifty_six import view as V
from cardsim.simulator.games.fifty_six.view import DOUBLE, PASS
from cardsim.simulator.strategy import StrategyDef
from cardsim.strategies import fifty_six as S
from cardsim.strategies import fifty_six_play as SP
from tests.helpers_fifty_six import GAME, TRUMPS, bid, play_deal, script_spec

FULL = [f"{r}{s}" for s in "SHDC" for r in ("J", "9", "A", "10", "K", "Q")] * 2


def hands_with(**given):
    """Hands for seats given as seat0="...", seat2="..."; the rest of the 48 cards go to the
    other seats in deck order."""
    rest = list(FULL)
    for text in given.values():
        for c in text.split():
            rest.remove(c)
    hands = []
    for s in range(4):
        if f"seat{s}" in given:
            hands.append(given[f"seat{s}"])
        else:
            hands.append(" ".join(rest[:12]))
            rest = rest[12:]
    return hands


def calls_of(events):
    return [e for e in events if e["event"] == "call"]


STRONG_HEARTS = "JH JH 9H AH 10H KH QS QD KD QC KC 10S"  # both jacks of hearts


# ---------------------------------------------------------------- evaluator bidding

def test_both_jacks_of_a_suit_name_that_suit_in_the_jack_form():
    ev, _ = play_deal(hands_with(seat0=STRONG_HEARTS), strategies=["evaluator"])
    first = calls_of(ev)[0]
    assert (first["seat"], first["call"], first["value"], first["trump"], first["form"]) == \
        (0, "bid", 28, "H", "number_suit")


def test_long_suit_without_its_jack_is_bid_suit_first():
    hand = "9H 9H AH AH 10H 10H KH JS JD AS AD 10C"
    first = calls_of(play_deal(hands_with(seat0=hand), strategies=["evaluator"])[0])[0]
    assert (first["trump"], first["form"]) == ("H", "suit_number")


@pytest.mark.parametrize("hand,expected", [
    # spades and hearts alike (four cards, jack and nine); spades hold 7 points, hearts 5
    ("JS 9S AS 10S JH 9H KH QH KD QD KC QC", {-1: "H", 0: "S", 1: "S"}),
    # hearts hold the 7 points
    ("JS 9S KS QS JH 9H AH 10H KD QD KC QC", {-1: "S", 0: "S", 1: "H"}),
])
def test_a_tie_between_trumps_goes_by_the_points_in_the_suit(hand, expected):
    for tie, trump in expected.items():
        first = calls_of(play_deal(hands_with(seat0=hand),
                                   strategies=[f"evaluator:tie_points={tie}"])[0])[0]
        assert (first["call"], first["trump"]) == ("bid", trump), tie


def test_jump_back_opens_at_the_ceiling_less_that_many_points():
    # STRONG_HEARTS: a hearts ceiling of 32.x at margin 0; the default never jumps
    values = {}
    for jb in (None, 0, 2, 10):
        strategy = "evaluator" if jb is None else f"evaluator:jump_back={jb}"
        first = calls_of(play_deal(hands_with(seat0=STRONG_HEARTS), strategies=[strategy])[0])[0]
        assert (first["call"], first["trump"]) == ("bid", "H")
        values[jb] = first["value"]
    assert values == {None: 28, 0: 32, 2: 30, 10: 28}


@pytest.mark.parametrize("strategy,payout,value", [
    # STRONG_HEARTS valued about 45.5 for hearts (base 12): with spread 3 a 40 makes 98% of
    # the time, so 40 (stake 2/3) beats 28 (1/2); 48 (3/4) makes only 20% of the time
    ("evaluator:base=12,spread=3,band_gain=0", "sheet", 40),
    ("evaluator:base=12,spread=3,band_gain=0", "28-56:1/2", 28),  # one band: nothing to gain
    ("evaluator:base=12,spread=3,band_gain=2", "sheet", 28),  # the gain (0.9) is below 2
    ("evaluator:base=12,spread=3", "sheet", 28),  # off by default
    ("evaluator:base=12,spread=12,band_gain=0", "sheet", 28),  # a wide spread: 40 too risky
])
def test_band_gain_opens_at_a_higher_stake_band_when_its_expected_stake_is_higher(
        strategy, payout, value):
    first = calls_of(play_deal(hands_with(seat0=STRONG_HEARTS), rules={"payout": payout},
                               strategies=[strategy])[0])[0]
    assert (first["call"], first["trump"], first["value"]) == ("bid", "H", value)


def test_jacks_count_more_in_no_trumps_with_w_nt_jack():
    # four jacks, every suit three long: no-trumps and the best suit differ by the jack term
    hand = "JS 9S QS JH AH QH JD 10D KD JC KC QC"
    trumps = {}
    for w in (0, 2):
        first = calls_of(play_deal(hands_with(seat0=hand), strategies=[
            f"evaluator:nt_penalty=1,w_nt_jack={w},margin=-4"])[0])[0]
        trumps[w] = (first["call"], first["trump"], first["form"])
    assert trumps == {0: ("bid", "S", "number_suit"), 2: ("bid", "NT", "number_nt")}


def test_weak_hand_passes():
    hand = "KS KS QS QS KH KH QH QH KD KD QD QC"
    first = calls_of(play_deal(hands_with(seat0=hand), strategies=["evaluator"])[0])[0]
    assert first["call"] == "pass"


def test_margin_parameter_turns_a_bid_into_a_pass():
    # STRONG_HEARTS values about 33.5 points for hearts: bids 28 at margin 0, not at 10
    hands = hands_with(seat0=STRONG_HEARTS)
    assert calls_of(play_deal(hands, strategies=["evaluator:margin=0"])[0])[0]["call"] == "bid"
    assert calls_of(play_deal(hands, strategies=["evaluator:margin=10"])[0])[0]["call"] == "pass"


def _after_opponent_bids_50_spades(seat1):
    hands = hands_with(seat0="QS QS KS KH QH KD QD KC QC 10S 10H 10D", seat1=seat1)
    script = script_spec([bid(50, "S"), PASS, PASS, PASS, PASS, PASS])
    return calls_of(play_deal(hands, strategies=[f"0={script}", "1=evaluator"])[0])[1]


def test_strong_defender_doubles_a_high_bid():
    call = _after_opponent_bids_50_spades("JS JS 9S 9S AH AH 10H JD JC 9D AC 10C")
    assert call["call"] == "double"


def test_weak_defender_does_not_double():
    call = _after_opponent_bids_50_spades("KS KH QH KD QD KC QC 10C 10C 10S 10H 10D")
    assert call["call"] == "pass"


def _redouble_after_double(seat2):
    hands = hands_with(seat0=STRONG_HEARTS, seat2=seat2)
    script = script_spec([PASS, DOUBLE, PASS, PASS, PASS, PASS])
    calls = calls_of(play_deal(hands, strategies=["0=evaluator", f"1={script}"])[0])
    assert [c["call"] for c in calls[:2]] == ["bid", "double"]
    return calls[2]


def test_strong_partner_redoubles():
    assert _redouble_after_double("9H AH 10H QH JS JS 9S 9S JD JD JC AC")["call"] == "redouble"


def test_weak_partner_does_not_redouble():
    assert _redouble_after_double("QS KS KS QH QH KH QD KD QC KC 10D 10C")["call"] == "pass"


# ---------------------------------------------------------------- conventional bidding

def _partner_answer(seat2, strategy="conventional"):
    """Seat 0 opens 28 hearts holding the jack; seat 1 passes; seat 2 answers."""
    hands = hands_with(seat0="JH JH AH AH 10H KH QS QD KD QC KC 10S", seat2=seat2)
    calls = calls_of(play_deal(hands, strategies=[f"0={strategy}",
                                                  f"1={script_spec([PASS] * 8)}"])[0])
    assert (calls[0]["value"], calls[0]["trump"], calls[0]["form"]) == (28, "H", "number_suit")
    return calls[2]


def test_switch_margin_keeps_a_partner_in_their_suit():
    # no heart, long spades with both jacks: at margin 0 spades value well over 29; a switch
    # margin of 20 makes hearts (partner's) or a pass the answer, never a new suit
    seat2 = "JS JS 9S AS 10S KS JD 9D AD 10D JC 9C"
    plain = _partner_answer(seat2, "evaluator:margin=0")
    assert (plain["call"], plain["value"], plain["trump"]) == ("bid", 29, "S")
    kept = _partner_answer(seat2, "evaluator:margin=0,switch_margin=20")
    assert kept["call"] == "pass" or kept["trump"] == "H"


def test_conventional_shows_exactly_two_top_cards_with_plus_two():
    c = _partner_answer("9H 9H JS JS 9S AS JD JD 9D AD 10D JC")
    assert (c["value"], c["trump"], c["form"]) == (30, "H", "plus_suit")


def test_conventional_void_in_partners_suit_bids_noes():
    void = "JS JS 9S AS JD JD 9D AD 10D JC 9C AC"
    c = _partner_answer(void, "conventional:raise_step=3")
    assert (c["value"], c["trump"], c["form"]) == (30, "H", "plus_two_noes")
    c = _partner_answer(void, "conventional:raise_step=15")
    assert (c["value"], c["trump"], c["form"]) == (29, "H", "noes")


def test_conventional_reads_partners_jack_form():
    # a thin hand with two small hearts raises only if partner's 'number, suit' counts
    thin = "10H QH QS KS QD KD QC KC 10S 10D AS AC"
    assert _partner_answer(thin, "conventional:w_read_jack=0")["call"] == "pass"
    c = _partner_answer(thin, "conventional:w_read_jack=25")
    assert (c["call"], c["value"], c["trump"]) == ("bid", 29, "H")
    # the evaluator ignores forms: the same hand passes whatever w_read_jack says
    assert _partner_answer(thin, "evaluator:w_read_jack=25")["call"] == "pass"


# ---------------------------------------------------------------- card play

def decide(hand, trick=(), trump="H", shown=True, me=0, contract_team=0, played=(),
           players=4, **params):
    """The card the heuristic plays from ``hand`` at a hand-made table: ``trick`` is a list
    of (seat, card) already played to this trick; ``played`` more cards gone earlier."""
    public = np.zeros(V.PB_LEN, np.int16)
    public[V.PB_SEATS] = players
    public[V.PB_ACTIVE_N] = players
    public[V.PB_NTEAMS] = 2
    for s in range(players):
        public[V.PB_TEAM_OF + s] = s % 2
        public[V.PB_ACTIVE + s] = 1
    t = TRUMPS[trump]
    public[V.PB_TRUMP] = t if shown else V.TRUMP_HIDDEN
    public[V.PB_CONTRACT_TEAM] = contract_team
    public[V.PB_TRICK_N] = len(trick)
    for j, (seat, card) in enumerate(trick):
        public[V.PB_TRICK_SEATS + j] = seat
        public[V.PB_TRICK_CARDS + j] = parse(card)
        public[V.PB_PLAYED + parse(card)] += 1
    for card in played:
        public[V.PB_PLAYED + parse(card)] += 1
    if trick:
        public[V.PB_LED_SUIT] = parse(trick[0][1]) // 13
        public[V.PB_TRICK_BEST] = V.trick_winner(public, V.PB_TRICK_CARDS, len(trick),
                                                 t if shown else -1)
        public[V.PB_TRICK_PTS] = sum(V.POINTS[parse(c)] for _, c in trick)
    private = np.zeros(V.PV_LEN, np.int16)
    private[V.PV_SEAT] = me
    private[V.PV_TEAM] = me % 2
    private[V.PV_TRUMP] = public[V.PB_TRUMP]
    h = np.array([parse(c) for c in hand.split()], np.int8)
    led = parse(trick[0][1]) // 13 if trick else -1
    follow = [c // 13 == led for c in h]
    legal = np.array(follow if any(follow) else [True] * len(h), np.int8)
    p = S.REGISTRY["evaluator"].param_vector(params, len(S.PARAMS))
    rng = np.zeros(2, np.uint64)
    i = S.heuristic_play(h, len(h), public, private, legal, p, rng)
    return name(h[i])


def test_last_player_overtakes_with_the_cheapest_winning_card():
    trick = [(1, "10S"), (2, "KS"), (3, "QS")]  # opponent's ten wins so far
    assert decide("AS 9S JS KH QH", trick) == "AS"


def test_second_player_ducks_unless_it_holds_a_sure_winner():
    trick = [(3, "10S")]
    # both jacks and nines of spades still out: the ace may be beaten, so play low
    assert decide("AS QS KH QH", trick) == "QS"
    # once they have been played the ace is sure to win: take the ten with it
    assert decide("AS QS KH QH", trick, played=["JS", "JS", "9S", "9S"]) == "AS"


def test_feeds_points_to_a_partner_who_is_sure_to_win():
    trick = [(1, "QS"), (2, "JS"), (3, "KS")]  # partner (seat 2) wins with the jack
    assert decide("9S AS QS KH", trick) == "9S"
    assert decide("9S AS QS KH", trick, feed=0) == "QS"


def test_does_not_feed_when_an_opponent_may_still_overtake():
    trick = [(1, "QS"), (2, "AS")]  # partner's ace; jacks and nines of spades are out
    assert decide("9S 10S KS KH", trick) == "KS"


def test_trumps_in_when_void_and_the_trick_is_worth_it():
    trick = [(1, "AD")]
    assert decide("QH 9H KC JC", trick) == "QH"  # cheapest trump
    assert decide("QH 9H KC JC", trick, trump_min_points=5) == "KC"  # not worth it: throw
    # ... and the jack is kept: the cheapest side card goes


def test_does_not_trump_a_pointless_trick_and_keeps_jacks():
    trick = [(1, "KD")]
    assert decide("QH 9H KC JC", trick) == "KC"


def test_bidding_side_draws_trumps_with_a_sure_winner():
    # one jack of hearts is out, but an identical card played later cannot beat mine
    assert decide("JH 10H KS QS AC", contract_team=0) == "JH"
    assert decide("JH 10H KS QS AC", contract_team=0, draw_trumps=0) != "JH"
    assert decide("JH 10H KS QS AC", contract_team=1) != "JH"  # defenders keep it


def test_cashes_a_side_suit_master_with_points():
    gone = ["JS", "JS", "9S", "9S"]
    assert decide("AS KS KH QD", contract_team=1, played=gone) == "AS"
    # without the count the ace is not a sure winner: lead low from the longest side suit
    assert decide("AS KS KH QD", contract_team=1) == "KS"


def test_hidden_trump_is_not_counted_by_a_player_who_does_not_know_it():
    trick = [(1, "AD")]
    assert decide("9H AH KC JC", trick) == "AH"  # trumps in, with the cheapest trump
    # the trump (hearts) is hidden: a heart does not win, so the cheapest card is thrown
    assert decide("9H AH KC JC", trick, shown=False) == "KC"


# ---------------------------------------------------------------- kernel paths

ARRAYS = StrategyDef("evaluator-arrays", "the evaluator through function pointers",
                     {"bid": S.evaluator_bid, "play": S.heuristic_play,
                      "reveal": S.heuristic_reveal}, S.PARAMS, plugin=True)


def _deals(strategy, rules, registry=None, n=300):
    runner = Runner(RunSpec(GAME, GAME.rules.resolve(rules), [strategy], 11, n,
                            registry=registry))
    return runner.play_chunk(0, n, 2)[0]


@pytest.mark.parametrize("rules", [
    {}, {"players": 6}, {"players": 8, "team_layout": "pairs"}, {"hidden_trump": "on"},
    {"thani": "on", "no_trump_lead_until_broken": "on"},
])
def test_mask_path_plays_exactly_like_the_array_interface(rules):
    """The kernel asks built-ins with hand masks it keeps up to date (cards played so far);
    the same heuristic through the array interface rebuilds them from the public record."""
    a = _deals("evaluator", rules)
    b = _deals("evaluator-arrays", rules, {"evaluator-arrays": ARRAYS})
    assert a.height > 300
    assert a.equals(b)


def test_heuristics_keep_every_invariant_with_random_rules():
    for players in (4, 6, 8):
        for name_ in ("evaluator", "conventional", "cautious", "aggressive", "tuned"):
            rules = GAME.rules.resolve({"players": players, "hidden_trump": "on"})
            runner = Runner(RunSpec(GAME, rules, [name_, "1=random"], 5, 200, debug=True))
            deals = runner.play_chunk(0, 200, 2)[0]
            assert (deals["bidding_team_points"] + deals["opponent_points"] == 56).all()


def test_parameter_values_share_one_compiled_kernel():
    from cardsim.simulator.games.fifty_six.kernel import KERNEL

    play_block = KERNEL.play_blocks

    _deals("evaluator:margin=0", {}, n=10)
    before = len(play_block.signatures)
    for v in (1, 2, 3):
        _deals(f"evaluator:margin={v}", {}, n=10)
    assert len(play_block.signatures) == before == 1


def test_presets_differ_from_the_evaluator_only_in_parameters():
    ev = {p.name: p.default for p in S.REGISTRY["evaluator"].params}
    for preset in ("cautious", "aggressive", "tuned"):
        d = S.REGISTRY[preset]
        assert [p.name for p in d.params] == list(ev)
        assert d.decisions["bid"] is S.evaluator_bid
        assert any(p.default != ev[p.name] for p in d.params)
    caut = {p.name: p.default for p in S.REGISTRY["cautious"].params}
    aggr = {p.name: p.default for p in S.REGISTRY["aggressive"].params}
    assert caut["margin"] > ev["margin"] > aggr["margin"]


def test_cautious_bids_less_and_makes_more_than_aggressive():
    caut = _deals("cautious", {}, n=2000).filter(pl.col("bidder").is_not_null())
    aggr = _deals("aggressive", {}, n=2000).filter(pl.col("bidder").is_not_null())
    assert caut["bid"].mean() < aggr["bid"].mean()
    assert caut["made"].mean() > aggr["made"].mean()


def test_above_is_every_stronger_card_of_the_suit_for_every_card():
    """The mask fast path against a plain reference, card by card: the slots of the same suit
    whose strength is higher. The jack of clubs holds the top slot, where a shift by 64 once
    made every club look stronger than it."""
    from cardsim.simulator.games.fifty_six.kernel import DECK_64

    cards = sorted(set(int(c) for c in DECK_64))  # the 32 cards of the 8-player deck
    assert len(cards) == 32
    for c in cards:
        want = 0
        for slot in range(64):
            if slot // 16 == c // 13 and slot % 16 // 2 > V.STRENGTH[c]:
                want |= 1 << slot
        assert int(SP.above(c)) == want, name(c)


def test_no_card_is_thought_to_beat_a_led_jack_of_clubs():
    # the other jack of clubs is gone: the nine is the best club still out, so with the old
    # shift the nine looked like a sure winner over the led jack and was thrown under it
    trick = [(3, "JC")]
    assert decide("9C AC QC KH", trick, played=["JC"]) == "QC"
    # the same position in spades (no top-slot shift) always played low
    assert decide("9S AS QS KH", [(3, "JS")], played=["JS"]) == "QS"


def test_the_default_valuation_is_the_committed_fit():
    import json
    from pathlib import Path

    fit = json.loads((Path(__file__).parent.parent / "docs/fits/fifty_six_valuation.json")
                     .read_text())
    tuned = {p.name: p.default for p in S.REGISTRY["tuned"].params}
    for name in ("base", "w_points", "w_jack", "w_nine", "w_trump", "spread"):
        assert tuned[name] == fit["params"][name], name
