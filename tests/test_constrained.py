"""Constrained dealing (simulator/constrained.py): fixed cards are where they were put, every
deal is the deck's cards, every constraint holds on every deal, the deals are uniform among
those that satisfy the constraints (chi-square against the enumerated set), reproducible per
seed and game index, and every bad specification is one line."""
import itertools
import math

import numpy as np
import pytest

from cardsim.simulator import constrained as C
from cardsim.simulator.cards import deck as make_deck, parse
from cardsim.simulator.errors import UsageError

# a 56-style deck: two copies of J 9 A 10 K Q in four suits, four hands of 12
RANKS_56 = [9, 7, 12, 8, 11, 10]  # J 9 A 10 K Q as rank indices
POINTS = np.zeros(53, np.int64)
for _c in range(52):
    POINTS[_c] = {9: 3, 7: 2, 12: 1, 8: 1}.get(_c % 13, 0)
DECK = make_deck(RANKS_56, copies=2)
HANDS = {f"hand{s}": list(range(12 * s, 12 * s + 12)) for s in range(4)}


def cards(text):
    return C.parse_cards(text)


def test_fixed_cards_stay_put_cards_are_conserved_and_constraints_hold():
    cons = [C.parse_constraint(t, HANDS) for t in
            ("hand1:points:10..20", "hand2:suit=C:0..1", "hand3:holds=JS", "hand0:rank=A:1..2")]
    fixed = {"hand0": cards("JC JC 9C")}
    spec = C.build(DECK, HANDS, fixed, cons, POINTS)
    decks, tries = C.deals(spec, seed=5, n=2000)
    assert (tries >= 1).all()
    full = sorted(DECK.tolist())
    for d in decks:
        assert sorted(d.tolist()) == full  # every card once (twice: two decks)
        assert d[:3].tolist() == cards("JC JC 9C")  # where they were put
        h = {p: d[at] for p, at in HANDS.items()}
        assert 10 <= POINTS[h["hand1"]].sum() <= 20
        assert ((h["hand2"] // 13) == 3).sum() <= 1  # clubs are suit 3
        assert parse("JS") in h["hand3"].tolist()
        assert 1 <= ((h["hand0"] % 13) == 12).sum() <= 2
    # the constraints bite: without them, such hands are not the rule
    plain, _ = C.deals(C.build(DECK, HANDS, fixed, [], POINTS), seed=5, n=2000)
    free_ok = [10 <= POINTS[d[HANDS["hand1"]]].sum() <= 20 for d in plain]
    assert 0.05 < np.mean(free_ok) < 0.95


def _wilson_hilferty(df, z=3.29):
    """The chi-square quantile for ``df`` degrees of freedom at about p = 0.0005."""
    return df * (1 - 2 / (9 * df) + z * math.sqrt(2 / (9 * df))) ** 3


def test_deals_are_uniform_among_those_that_satisfy_the_constraints():
    """A 6-card deck, two hands of three: the first card of hand A fixed, hand B holding at
    least two hearts. The plain reference enumerates every arrangement; the dealer's
    frequencies must fit the uniform distribution on exactly that set."""
    deck = np.array(cards("2S 3S 4H 5H 6H 7D"), np.int64)
    places = {"A": [0, 1, 2], "B": [3, 4, 5]}
    fixed = {"A": cards("2S")}
    cons = [C.parse_constraint("B:suit=H:2..3", places)]
    spec = C.build(deck, places, fixed, cons)
    rest = [c for c in deck.tolist() if c != parse("2S")]
    allowed = set()
    for perm in itertools.permutations(rest):
        d = (parse("2S"),) + perm
        if sum(c // 13 == 1 for c in d[3:]) >= 2:  # hearts are suit 1
            allowed.add(d)
    assert 0 < len(allowed) < math.factorial(5)
    n = 40_000
    decks, _ = C.deals(spec, seed=11, n=n)
    counts = {}
    for d in map(tuple, decks.tolist()):
        assert d in allowed
        counts[d] = counts.get(d, 0) + 1
    assert set(counts) == allowed  # every satisfying deal comes up
    e = n / len(allowed)
    chi2 = sum((counts[d] - e) ** 2 / e for d in allowed)
    assert chi2 < _wilson_hilferty(len(allowed) - 1), chi2


def test_deals_reproduce_per_seed_and_game_index():
    spec = C.build(DECK, HANDS, {"hand2": cards("JH")},
                   [C.parse_constraint("hand0:points:12..30", HANDS)], POINTS)
    a, ta = C.deals(spec, seed=3, n=30)
    b, tb = C.deals(spec, seed=3, n=30)
    assert (a == b).all() and (ta == tb).all()
    tail, _ = C.deals(spec, seed=3, n=10, first=20)
    assert (tail == a[20:]).all()  # deal g depends only on (seed, g)
    other, _ = C.deals(spec, seed=4, n=30)
    assert not (other == a).all()


@pytest.mark.parametrize("make, says", [
    (lambda: C.build(DECK, HANDS, {"hand0": cards("JC JC JC")}), "JC is fixed more often"),
    (lambda: C.build(DECK, HANDS, {"hand9": cards("JC")}), "no place 'hand9'"),
    (lambda: C.build(DECK, HANDS, {"hand0": cards("JC 9C AC 10C KC QC JD 9D AD 10D KD QD JH")}),
     "13 cards fixed, but it holds 12"),
    (lambda: C.parse_cards("JC 11H"), "'11H' is not a card"),
    (lambda: C.parse_constraint("hand0:points:20..10", HANDS), "is empty"),
    (lambda: C.parse_constraint("hand7:points:1..2", HANDS), "no place 'hand7'"),
    (lambda: C.parse_constraint("hand0:colour=H:1", HANDS), "not a constraint kind"),
    (lambda: C.parse_constraint("hand0:suit=X:1", HANDS), "suit takes one of"),
    (lambda: C.parse_constraint("hand0:holds=JC 9C", HANDS), "holds takes one card"),
    (lambda: C.build(DECK, HANDS, {}, [C.parse_constraint("hand0:points:1..2", HANDS)]),
     "no card points"),
    (lambda: C.deals(C.build(DECK, HANDS, {}, [C.parse_constraint("hand0:points:40..60",
                                                                   HANDS)], POINTS),
                     seed=1, n=1, max_tries=20_000), "no deal met the constraints"),
])
def test_a_bad_specification_is_one_line(make, says):
    with pytest.raises(UsageError) as e:
        make()
    msg = str(e.value)
    assert says in msg and "\n" not in msg
