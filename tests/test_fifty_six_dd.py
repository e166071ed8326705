"""56 double dummy (simulator.games.fifty_six.dd): hand-made endings with a known best result,
and the solver against the plain exhaustive search on random endings of every player count,
trump, partial trick and trump-lead rule."""
import numpy as np
import pytest

from cardsim.simulator.cards import parse
from cardsim.simulator.games.fifty_six import dd
from cardsim.simulator.games.fifty_six import view as V

S, H, D, C, NT = 0, 1, 2, 3, -1


def _hands(*cards_by_seat):
    out = np.zeros(len(cards_by_seat), np.uint64)
    for seat, text in enumerate(cards_by_seat):
        for name in text.split():
            slot = int(V.SLOT_OF[parse(name)])
            if int(out[seat]) >> slot & 1:  # the second copy
                slot += 1
            out[seat] |= np.uint64(1 << slot)
    return out


def _solve(hands, trump, leader=0, trick=(), broken=1, side=None):
    n = len(hands)
    nxt = np.array([(s + 1) % n for s in range(n)], np.int64)
    side = np.array([s % 2 == 0 for s in range(n)], np.int64) if side is None else side
    t = np.full(8, -1, np.int64)
    for i, name in enumerate(trick):
        t[i] = V.SLOT_OF[parse(name)]
    got = dd.solve(hands, nxt, side, trump, leader, t, broken, *dd.new_table(n, 12))
    assert got == dd.plain(hands, nxt, side, trump, leader, t, broken)
    return got


def test_a_ruff_takes_the_last_trick():
    # seat 1 (defence) holds the master JH; with spades trump seat 2, void in hearts, ruffs
    hands = _hands("9H", "JH", "QS", "AH")
    assert _solve(hands, NT) == 0  # the jack wins for the defence
    assert _solve(hands, S) == 2 + 3 + 0 + 1  # the ruff wins all six points
    assert _solve(hands, H) == 0  # hearts trump: the jack again


def test_the_first_of_two_identical_cards_wins():
    hands = _hands("JS", "JS", "9S", "AS")
    assert _solve(hands, NT) == 3 + 3 + 2 + 1  # seat 0's jack, played first, takes it
    assert _solve(hands, NT, leader=1) == 0  # seat 1 leads its jack: seat 0's is second


def test_a_trick_already_started_counts_its_cards():
    # seat 0 has led the 10D; seat 1 follows with the JD, seat 2 is void, seat 3 has the AD
    hands = _hands("", "JD", "QC", "AD")
    assert _solve(hands, NT, trick=("10D",)) == 0  # the JD takes it for the defence
    assert _solve(hands, C, trick=("10D",)) == 1 + 3 + 0 + 1  # seat 2 ruffs with the QC


def test_the_defence_keeps_its_master_for_the_trick_that_counts():
    # two tricks, seat 0 leads; seat 1 holds JH and QD. Declarer's side can take at most what
    # the defence lets it: the exhaustive search and the solver agree on the value
    hands = _hands("9H 9D", "JH QD", "AH 10D", "KH JD")
    got = _solve(hands, NT)
    # by hand: 9H led, the JH wins hearts (3+2+1+0 = 6 for the defence); the defence's
    # seat 1 then leads QD: 9D, 10D, JD... seat 3's JD wins (defence): declarer gets nothing;
    # leading 9D first instead: JD of seat 3 wins 2+0+1+3; then seat 3 leads KH: seat 0 9H
    # takes nothing against seat 1's JH. Every line leaves declarer 0
    assert got == 0


def test_trumps_unbroken_keep_a_trump_lead_out():
    # seat 0 holds only the JS and the QH; with trumps unbroken it must lead the QH
    hands = _hands("JS QH", "9S 9H", "KS AH", "QS 10H")
    assert _solve(hands, S, broken=0) == _solve(hands, S, broken=1) == 5


def _random_endings(seed, players, n):
    """``n`` random endings of 1 to 3 tricks (1 or 2 for 6 and 8 players), every trump, a
    trick started or not, trumps broken or not: (tricks, trump, the ending's tuple)."""
    rng = np.random.default_rng(seed)
    for _ in range(n):
        tricks = int(rng.integers(1, 4 if players == 4 else 3))
        trump = int(rng.integers(-1, 4))
        yield tricks, trump, dd.random_ending(rng, players, tricks, trump, int(rng.integers(2)),
                                              int(rng.integers(players)))


@pytest.mark.parametrize("players", [4, 6, 8])
def test_the_solver_equals_exhaustive_search_on_random_endings(players):
    table = dd.new_table(players, 12)
    for i, (tricks, trump, ending) in enumerate(_random_endings(players, players, 400)):
        hands, nxt, side, leader, trick, br = ending
        for a in table:
            a[:] = 0
        got = dd.solve(hands, nxt, side, trump, leader, trick, br, *table)
        want = dd.plain(hands, nxt, side, trump, leader, trick, br)
        assert got == want, (i, tricks, trump)


def test_the_answer_does_not_depend_on_the_table_size():
    rng = np.random.default_rng(9)
    for _ in range(20):
        hands, nxt, side, leader, trick, br = dd.random_ending(rng, 4, 5, int(rng.integers(-1, 4)),
                                                               1, int(rng.integers(4)))
        small = dd.solve(hands, nxt, side, 0, leader, trick, br, *dd.new_table(4, 6))
        large = dd.solve(hands, nxt, side, 0, leader, trick, br, *dd.new_table(4, 16))
        assert small == large


def test_a_partner_with_trumps_only_stops_the_cashing_of_masters():
    # seat 1 (defence) leads from JC JC: its partner, seat 3, holds trumps only and must ruff
    # the first club, then lead a trump into seat 0's 9S. Counting both clubs as cashed (the
    # bound without the partner's ruff) says the defence is sure of more than it gets
    hands = _hands("9S 10H KC 10C", "10S 9H JC JC", "9H KD QC AC", "QS QS KS KS")
    assert _solve(hands, S, leader=1) == 4


def test_a_suit_of_masters_is_cashed_while_every_opponent_with_trumps_follows():
    # seat 0 holds the top three hearts; seat 1 (trumps) has two hearts, seat 3 (no trumps)
    # one: two rounds are sure (on the third seat 1 ruffs): JH 9H, seat 1's QH KH and seat 3's
    # 10H, 6 of the 11 points at least; the JS is the defence's whatever happens
    hands = _hands("JH 9H AH", "QH KH JS", "QD KD 10D", "10H QC KC")
    table = np.zeros(2, np.int64), np.zeros(4, np.int64)
    nxt = np.array([1, 2, 3, 0], np.int64)
    side = np.array([1, 0, 1, 0], np.int64)
    all_cards = np.uint64(np.bitwise_or.reduce(hands))
    lo, hi = dd._bounds(hands, nxt, side, 4, 0, S, 1, all_cards, 11, *table)
    assert (lo, hi) == (3 + 2 + 0 + 0 + 1, 11 - 3)
    assert lo <= _solve(hands, S) <= hi


@pytest.mark.parametrize("players", [4, 6, 8])
def test_the_bounds_hold_the_value_on_random_endings(players):
    rng = np.random.default_rng(100 + players)
    sure, rr = np.zeros(2, np.int64), np.zeros(4, np.int64)
    for _ in range(300):
        tricks = int(rng.integers(1, 4 if players == 4 else 3))
        trump = int(rng.integers(-1, 4))
        hands, nxt, side, leader, trick, br = dd.random_ending(
            rng, players, tricks, trump, int(rng.integers(2)))
        all_cards = np.uint64(np.bitwise_or.reduce(hands))
        remaining = sum(int(dd.SLOT_POINTS[b]) for b in range(64) if int(all_cards) >> b & 1)
        lo, hi = dd._bounds(hands, nxt, side, players, leader, trump, br, all_cards,
                            remaining, sure, rr)
        assert lo <= dd.plain(hands, nxt, side, trump, leader, trick, br) <= hi


def _makes(hands, trump, target, leader=0, trick=(), broken=1):
    n = len(hands)
    nxt = np.array([(s + 1) % n for s in range(n)], np.int64)
    side = np.array([s % 2 == 0 for s in range(n)], np.int64)
    t = np.full(8, -1, np.int64)
    for i, name in enumerate(trick):
        t[i] = V.SLOT_OF[parse(name)]
    return dd.makes(hands, nxt, side, trump, leader, t, broken, target, *dd.new_table(n, 12))


def test_makes_answers_the_hand_made_endings():
    hands = _hands("9H", "JH", "QS", "AH")
    assert _makes(hands, S, 6) and not _makes(hands, S, 7)  # the ruff takes all six
    assert _makes(hands, NT, 0) and not _makes(hands, NT, 1)  # the jack wins for the defence
    hands = _hands("", "JD", "QC", "AD")
    assert _makes(hands, C, 5, trick=("10D",)) and not _makes(hands, C, 6, trick=("10D",))
    assert not _makes(hands, NT, 1, trick=("10D",))
    hands = _hands("JS QH", "9S 9H", "KS AH", "QS 10H")
    assert _makes(hands, S, 5, broken=0) and not _makes(hands, S, 6, broken=0)
    hands = _hands("9S 10H KC 10C", "10S 9H JC JC", "9H KD QC AC", "QS QS KS KS")
    assert _makes(hands, S, 4, leader=1) and not _makes(hands, S, 5, leader=1)


@pytest.mark.parametrize("players", [4, 6, 8])
def test_makes_agrees_with_exhaustive_search_at_the_value_and_either_side(players):
    rng = np.random.default_rng(300 + players)
    table = dd.new_table(players, 12)
    for i, (tricks, trump, ending) in enumerate(_random_endings(200 + players, players, 150)):
        hands, nxt, side, leader, trick, br = ending
        want = dd.plain(hands, nxt, side, trump, leader, trick, br)
        for target in (want - 1, want, want + 1, int(rng.integers(0, 30))):
            for a in table:
                a[:] = 0
            got = dd.makes(hands, nxt, side, trump, leader, trick, br, target, *table)
            assert got == (want >= target), (i, tricks, trump, target, want)


def test_makes_and_solve_share_a_table_on_longer_endings():
    # the table kept between the targets of one position (and solve's probes) changes nothing
    rng = np.random.default_rng(31)
    for _ in range(6):
        trump = int(rng.integers(-1, 4))
        hands, nxt, side, leader, trick, br = dd.random_ending(rng, 4, 6, trump, 1)
        table = dd.new_table(4, 14)
        v = dd.solve(hands, nxt, side, trump, leader, trick, br, *dd.new_table(4, 14))
        for target in (v + 1, v, v - 3, v + 4, v - 1):
            assert dd.makes(hands, nxt, side, trump, leader, trick, br, target,
                            *table) == (v >= target)
        assert dd.solve(hands, nxt, side, trump, leader, trick, br, *table) == v
