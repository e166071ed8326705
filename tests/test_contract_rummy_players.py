"""Contract Rummy players: the table-reading behaviours of the shared heuristic, each from a
hand-made position where the other choice would differ (the njit decision functions called
directly), and the deep-draw listing against the plain one-search-per-depth reference."""
import random

import numpy as np
import pytest

from cardsim.simulator.cards import name
from cardsim.simulator.games.contract_rummy import dispatch as D
from cardsim.simulator.games.contract_rummy import turn as TU
from cardsim.simulator.games.contract_rummy import view as V
from cardsim.strategies.contract_rummy import (
    BUILTIN_IDS, REGISTRY, heuristic_discard, heuristic_draw, heuristic_lay,
)
from tests.helpers_contract_rummy import Position, codes, counts

RNG = np.zeros(2, np.uint64)


def params(preset="lay_down_at_once", **over):
    d = REGISTRY[preset]
    names = [p.name for p in d.params]
    v = np.array([p.default for p in d.params], np.float64)
    for k, x in over.items():
        v[names.index(k)] = x
    return v


def legal_of(items):
    legal = np.zeros(V.LEGAL_LEN, np.int32)
    legal[0] = len(items)
    legal[1:1 + len(items)] = items
    return legal


def discard(p, seat, text, prm):
    """The heuristic's discard from hand ``text`` of ``seat`` in position ``p``."""
    p.hand(seat, text)
    legal = legal_of(sorted(set(codes(text))))
    priv = p.private[seat].copy()
    i = heuristic_discard(p.hands[seat], p.public, priv, legal, prm, RNG)
    return name(int(legal[1 + i]))


def took(p, seat, text):
    for c in codes(text):
        p.public[V.P_TAKEN + seat * V.NCODES + c] += 1


# ---------------------------------------------------------------- safe discards


def test_never_feeds_the_next_player_the_rank_it_took():
    # two sets; seat 1 (next after seat 0) took QS and QD from the pile
    p = Position(contracts="2s:10")
    took(p, 1, "QS QD")
    hand = "QH 9C 5S 5D 8H 8C"
    assert discard(p, 0, hand, params()) == "QH"  # the dearest loner, blind to the table
    assert discard(p, 0, hand, params(safe=5)) == "9C"
    # the player before (seat 3) showing queens changes nothing: it is not next
    p2 = Position(contracts="2s:10")
    took(p2, 3, "QS QD")
    assert discard(p2, 0, hand, params(safe=5)) == "QH"


def test_never_feeds_a_run_neighbour_to_the_next_player():
    p = Position(contracts="2r:10")
    took(p, 1, "6H 7H")
    hand = "8H KS 2C 3C 4C 5C"
    assert discard(p, 0, hand, params()) == "KS"  # 8H (8, a neighbour-less loner) is cheaper
    p.hand(0, hand)
    assert discard(p, 0, "8H 9S 2C 3C 4C 5C", params()) == "9S"
    assert discard(p, 0, "8H 7S 2C 3C 4C 5C", params()) == "8H"
    assert discard(p, 0, "8H 7S 2C 3C 4C 5C", params(safe=5)) == "7S"


def test_once_the_next_player_is_down_keeps_what_it_could_lay_off():
    p = Position(contracts="2s:10").down(1)
    p.meld(1, "KS KH KD")
    p.meld(1, "4S 4H 4D")
    hand = "KC 9C 7D 7S 2H 3H"  # KC (or a 4C) would lay off on seat 1's sets
    assert discard(p, 0, hand, params()) == "KC"
    assert discard(p, 0, hand, params(safe=5)) == "9C"


# ---------------------------------------------------------------- dead cards and pairs


def test_a_pair_whose_set_is_dead_goes_first():
    # both copies of 7D and 7C are seen: 7S 7H can never become a set (no jokers)
    p = Position(contracts="2s:10").pile("7D 7C 7D 7C")
    hand = "7S 7H 2C 9S 9H 9D"
    assert discard(p, 0, hand, params()) == "2C"
    assert discard(p, 0, hand, params(dead=1)) in ("7S", "7H")
    # one 7D still out: the pair lives
    p2 = Position(contracts="2s:10").pile("7D 7C 7C")
    assert discard(p2, 0, hand, params(dead=1)) == "2C"


def test_a_run_gap_that_is_dead_is_no_neighbour():
    # 5H _ 7H: both 6H seen on the table, so 5H and 7H cannot join through the gap
    p = Position(contracts="2r:10")
    p.meld(2, "3H 4H 5H 6H")
    p.meld(3, "6H 7H 8H 9H")
    hand = "5H 7H 2S 2C 3C 4C"
    assert discard(p, 0, hand, params()) == "2S"
    assert discard(p, 0, hand, params(dead=1)) == "7H"


def test_a_second_copy_is_kept_for_a_second_set():
    # two sets of queens: QC QC QD QD need one more suit twice
    p = Position(contracts="2s:10")
    hand = "QC QC QD QD 5H 9S"
    assert discard(p, 0, hand, params()) in ("QC", "QD")
    assert discard(p, 0, hand, params(pairs=20)) == "9S"
    # one set only (set + run): the second copy stays worthless
    p1 = Position(contracts="1s1r:10")
    assert discard(p1, 0, hand, params(pairs=20)) in ("QC", "QD")


# ---------------------------------------------------------------- draw and lay


def draw(p, seat, prm):
    down = p.public[V.P_DOWN + seat] == 1
    n = TU.list_draws(seat, p.hands, p.public, p.legal, p.work, p.info, p.lay_out, p.rem, p.m1,
                     p.stw, down, np.int64(2), np.int64(0))
    priv = p.private[seat].copy()
    priv[V.V_TOP_LAYS] = -1
    i = heuristic_draw(p.hands[seat], p.public, priv, p.legal, prm, RNG)
    c = int(p.legal[1 + i])
    assert 0 <= i < n
    return "stock" if c == V.D_STOCK else "top" if c == V.D_TOP else ("deep", c - V.D_DEEP)


def test_take_min_sets_how_well_the_top_must_fit():
    p = Position(contracts="1s1r:10").hand(0, "5H 9C 9D KS 2C 3S 4D JS QD AH")
    p.pile("KC 6H")  # 6H: a run neighbour of 5H (worth 8), no other suit of its rank
    assert draw(p, 0, params(take_top=1)) == "top"
    assert draw(p, 0, params(take_top=1, take_min=10)) == "stock"


def test_dead_top_discard_is_not_taken():
    # 9S would pair 9C, but both 9H and 9D are gone and no joker is held
    p = Position(contracts="2s:10").hand(0, "9C 2D 4S 6H 8C JD KS AH 3C 5D")
    p.pile("9H 9D 9H 9D 9S")
    assert draw(p, 0, params(take_top=1, take_min=10)) == "top"
    assert draw(p, 0, params(take_top=1, take_min=10, dead=1)) == "stock"


def lay(p, seat, left, prm):
    priv = p.private[seat].copy()
    priv[V.V_LAY_CARDS] = left
    legal = legal_of([0, 1])
    return heuristic_lay(p.hands[seat], p.public, priv, legal, prm, RNG)


def test_lay_down_by_contract_kind_and_stock_left():
    sets = Position(contracts="2s:10")
    runs = Position(contracts="2r:10")
    for p in (sets, runs):
        p.public[V.P_STOCK_N] = 30
    hold = params("hold_for_more", wait_turns=0)  # max_left 2
    assert lay(sets, 0, 4, hold) == 0 and lay(runs, 0, 4, hold) == 0
    assert lay(sets, 0, 4, params("hold_for_more", wait_turns=0, set_left=5)) == 1
    assert lay(runs, 0, 4, params("hold_for_more", wait_turns=0, set_left=5)) == 0
    assert lay(runs, 0, 4, params("hold_for_more", wait_turns=0, stock_lay=31)) == 1
    assert lay(runs, 0, 4, params("hold_for_more", wait_turns=0, stock_lay=30)) == 0


# ---------------------------------------------------------------- public record, deep listing


def test_cards_taken_from_the_pile_are_public_per_seat():
    p = Position(contracts="2s:10").hand(2, "5S")
    p.pile("KC 5D 8H 3C")
    TU.take_pile(2, 1, p.hands, p.public, p.stats)
    row = p.public[V.P_TAKEN + 2 * V.NCODES:V.P_TAKEN + 3 * V.NCODES]
    assert sorted(name(c) for c in range(V.NCODES) for _ in range(row[c])) == ["3C", "5D", "8H"]
    assert p.public[V.P_TAKEN:V.P_TAKEN + 2 * V.NCODES].sum() == 0


def test_heuristic_lists_only_the_shallowest_deep_draw():
    # the kernel asks through its dispatch, by strategy id (a plug-in's is negative)
    deep = D.hook_deep_draws
    heur, rnd = BUILTIN_IDS["pile_hunter"], BUILTIN_IDS["random"]
    assert deep(heur, params(), 1)[0] == 0 and deep(heur, params("pile_hunter"), 0) == (1, 99)
    assert deep(heur, params("pile_hunter", deep_max=3), 1) == (1, 3)
    for sid in (rnd, -1, -3):  # random and plug-ins: every deep draw, whatever the params
        assert deep(sid, params(), 0) == (2, 1 << 20) == deep(sid, params("pile_hunter"), 1)
    for name_, sid in BUILTIN_IDS.items():  # every heuristic preset reads its own params
        if name_ != "random":
            assert deep(sid, params(), 1)[0] == 0
            assert deep(sid, params("table_reader"), 1) == (1, 6)
    # deep_sets=0: nothing listed in a contract of sets only (it would not take it)
    assert deep(heur, params("pile_hunter", deep_sets=0), 0)[0] == 0
    assert deep(heur, params("pile_hunter", deep_sets=0), 1) == (1, 99)
    p = Position(contracts="2s:10").hand(0, "5S 5H 9C 9D 9S 3D 4S JS QD KH")
    p.pile("9H 5D 8H 3C")  # 5D completes 2 sets, and 9H fills the nines (fewest points left)
    assert p.draws(0) == ["stock", "top", ("deep", 1), ("deep", 0)]
    assert p.draws(0, deep=1) == ["stock", "top", ("deep", 1)]
    assert draw(p, 0, params("pile_hunter")) == ("deep", 1)
    # at most 2 cards: pile[1] would take 3, so nothing; 3 cards: pile[1]
    assert p.draws(0, deep=1, cap=2) == ["stock", "top"]
    assert p.draws(0, deep=1, cap=3) == ["stock", "top", ("deep", 1)]
    assert draw(p, 0, params("pile_hunter", deep_max=2, take_top=0)) == "stock"
    # no deep draw in a contract of sets only with deep_sets=0; with a run it stays
    assert draw(p, 0, params("pile_hunter", deep_sets=0, take_top=0)) == "stock"
    r = Position(contracts="1s1r:10").hand(0, "5S 5H 9C 10C JC 2D 3D 4S JS KH")
    r.pile("QC 5D 8H 3C")  # taking QC too: 5S 5H 5D and 9C 10C JC QC
    assert draw(r, 0, params("pile_hunter", deep_sets=0, take_top=0)) == ("deep", 0)


def test_lay_hints_for_every_strategy_but_random():
    """The kernel answers V_TOP_LAYS / V_OFFER_LAYS (a contract search) for every strategy
    but random, which never reads them: the heuristics and plug-ins (negative ids)."""
    for name_, sid in BUILTIN_IDS.items():
        assert D.hook_lay_hints(sid, params()) == (name_ != "random")
    for sid in (-1, -2, -8):
        assert D.hook_lay_hints(sid, params())


def _plain(p, seat=0):
    n = TU.list_draws_plain(seat, p.hands, p.public, p.legal, p.work, p.info, p.lay_out, p.rem,
                           p.m1, p.stw)
    return [int(c) for c in p.legal[1:n + 1]]


def _fast(p, deep, seat=0, cap=1 << 20, top_lays=-1):
    n = TU.list_draws(seat, p.hands, p.public, p.legal, p.work, p.info, p.lay_out, p.rem, p.m1,
                     p.stw, False, np.int64(deep), np.int64(cap), np.int64(top_lays))
    return [int(c) for c in p.legal[1:n + 1]]


def _planted(rng, nsets, nruns, size, go_out):
    """A hand one or two cards short of a contract, the missing cards somewhere in a pile of
    other cards (for going out: cards that extend the runs, so the whole lot can be laid)."""
    melds = []
    for r in rng.sample(range(13), nsets):
        melds.append([s * 13 + r for s in rng.sample(range(4), 3)])
    for _ in range(nruns):
        s, lo = rng.randrange(4), rng.randrange(1, 9)
        melds.append([s * 13 + (lo + k) % 13 for k in range(4)])
    cards = [c for m in melds for c in m]
    rng.shuffle(cards)
    missing = cards[:rng.randrange(1, 3)]
    hand = cards[len(missing):]
    while len(hand) < size:
        hand.append(rng.randrange(53))
    if go_out:
        extra = []
        for m in melds[nsets:]:
            top = max(m, key=lambda c: c % 13)
            if top % 13 < 12:
                extra.append(top + 1)
        hand = hand[:size - 1 + (len(hand) > size)]
        pile = extra[:rng.randrange(0, len(extra) + 1)] + [rng.randrange(52)]
    else:
        pile = [rng.randrange(53) for _ in range(rng.randrange(1, 30))]
    for c in missing:
        pile.insert(rng.randrange(len(pile) + 1), c)
    return hand[:size], pile


def _hand_and_pile(rng, p, deck, k, longest, go_out):
    """Seat 0's hand and the pile of test case ``k`` put into ``p``: dealt from the shuffled
    ``deck`` (odd k, a pile of 2 to ``longest`` - 1 cards) or planted (even k)."""
    size = int(p.public[V.P_DEALT])
    if k % 2:
        rng.shuffle(deck)
        cards, pile = deck[:size], deck[size:size + rng.randrange(2, longest)]
    else:
        cards, pile = _planted(rng, int(p.public[V.P_NSETS]), int(p.public[V.P_NRUNS]), size,
                               go_out)
    p.hands[0] = 0
    for c in cards:
        p.hands[0, c] += 1
    p.public[V.P_PILE:V.P_PILE + len(pile)] = pile
    p.public[V.P_PILE_N] = len(pile)
    return cards, pile


@pytest.mark.parametrize("deal", range(7))
def test_deep_draw_listing_matches_one_search_per_depth(deal):
    """Bisection for the first depth that lays, then the optimal laying per deeper card: the
    same list (and order) as a full search at every depth, on random hands and piles and on
    hands planted one or two cards short of the contract; the shallowest alone for deep=1."""
    rng = random.Random(100 + deal)
    p = Position(deal=deal, last_deal_all_at_once=True)
    go_out = p.public[V.P_ALL_AT_ONCE] == 1
    deck = [c % 52 for c in range(104)] + [52, 52]
    listed = 0
    for k in range(300):
        cards, pile = _hand_and_pile(rng, p, deck, k, 40, go_out)
        if len(pile) < 2:
            continue
        plain = _plain(p)
        assert _fast(p, 2) == plain, (cards, pile)
        assert _fast(p, 1) == plain[:3], (cards, pile)
        # the kernel passes whether hand + top discard lays when it knows (saves that search)
        with_top = p.hands[0].copy()
        with_top[pile[-1]] += 1
        tl = int(TU.can_lay_of(with_top, p.info, p.rem, p.m1, p.stw, p.lay_out))
        assert _fast(p, 2, top_lays=tl) == plain and _fast(p, 1, top_lays=tl) == plain[:3]
        assert _fast(p, 0) == plain[:2]
        cap = rng.randrange(2, 12)  # the shallowest of at most cap cards
        within = [c for c in plain[2:] if len(pile) - (c - V.D_DEEP) <= cap]
        assert _fast(p, 1, cap=cap) == plain[:2] + within[:1], (cards, pile, cap)
        listed += len(plain) > 2
    assert listed >= 20  # the comparison met real deep draws


@pytest.mark.parametrize("deal", range(6))
def test_deep_draw_listing_matches_on_long_piles(deal):
    """The listing against the plain reference on piles of 25-60 cards (a long stalled deal's),
    where the bounded searches of the deeper depths run many times per listing."""
    rng = random.Random(200 + deal)
    p = Position(deal=deal)
    size = int(p.public[V.P_DEALT])
    deck = [c % 52 for c in range(104)] + [52, 52]
    deep = 0
    for _ in range(25):
        rng.shuffle(deck)
        pile = deck[size:size + rng.randrange(25, 61)]
        p.hands[0] = 0
        for c in deck[:size]:
            p.hands[0, c] += 1
        p.public[V.P_PILE:V.P_PILE + len(pile)] = pile
        p.public[V.P_PILE_N] = len(pile)
        plain = _plain(p)
        assert _fast(p, 2) == plain, (deck[:size], pile)
        deep += len(plain) - 2
    assert deep >= 50


@pytest.mark.parametrize("deal", range(6))
def test_bounded_search_finds_the_plain_optimal_laying(deal):
    """lay_within, given the penalty of some laying as its bound (the optimum itself, more,
    or what the existence search's first laying leaves), finds the same laying as the
    unbounded search; the existence search's penalty is a real laying's (never below the
    optimum)."""
    from cardsim.simulator.games.contract_rummy import search as S

    rng = random.Random(300 + deal)
    p = Position(deal=deal, max_contract_meld=5 if deal == 3 else "none")
    k = int(p.info[TU.I_NSETS] + p.info[TU.I_NRUNS])
    deck = [c % 52 for c in range(104)] + [52, 52]
    laid = 0
    for _ in range(150):
        rng.shuffle(deck)
        hand = counts(" ".join(name(c) for c in deck[:rng.randrange(8, 60)]))
        best = TU.lay_of(hand, p.info, p.rem, p.m1, p.stw, p.lay_out)
        out = p.lay_out.copy()
        found = TU._search_of(hand, p.info, p.rem, p.m1, p.stw, p.lay_out, False, -1)
        assert (found >= 0) == (best >= 0), hand
        if best < 0:
            continue
        laid += 1
        assert found >= best
        for bound in (best, best + rng.randrange(1, 30), found):
            p.lay_out[:] = -7
            assert TU.lay_within(hand, p.info, p.rem, p.m1, p.stw, p.lay_out, bound) == best
            assert (p.lay_out[:k] == out[:k]).all(), (hand, bound)
        assert S.penalty_of(hand[:52].reshape(4, 13), hand[52]) >= best
    assert laid >= 40


def test_going_out_card_count_check_agrees_with_the_search():
    """kernel._search_of refuses, going out, a hand with more cards than the melds can hold plus
    one; the search itself (search.lay_contract, no such check) agrees on hands around that
    size, planted near three long runs."""
    from cardsim.simulator.games.contract_rummy import search as S

    rng = random.Random(7)
    p = Position(deal=6, last_deal_all_at_once=True)  # 3 runs, going out
    assert p.info[TU.I_GO_OUT] == 1
    out = np.zeros((3, S.MELD_W), np.int64)
    agree = refused = laid = 0
    for _ in range(200):
        n = rng.randrange(36, 44)
        hand = np.zeros(V.NCODES, np.int64)
        for s in rng.sample(range(4), 3):  # three long runs, then noise
            for r in range(13):
                hand[s * 13 + r] += rng.random() < 0.95
        while hand.sum() < n:
            hand[rng.randrange(53)] += 1
        while hand.sum() > n:
            c = rng.randrange(53)
            if hand[c]:
                hand[c] -= 1
        fast = TU.lay_of(hand, p.info, p.rem, p.m1, p.stw, p.lay_out)
        plain = S.lay_contract(hand[:52].reshape(4, 13).copy(), hand[52], 0, 3, 4, 0, True,
                               False, True, out)
        assert fast == plain, hand
        agree += 1
        refused += n > 40
        laid += plain >= 0
    assert agree == 200 and refused > 20 and laid >= 5  # both sides of the bound met


def test_going_out_suit_count_check_agrees_with_the_search():
    """Going out with runs only, kernel._search_of refuses a hand whose cards outside its
    best ``runs`` suits are more than the one card it may keep; the search itself
    (search.lay_contract / can_lay, no such check) agrees, on hands of three suits plus
    0-3 cards of a fourth (jokers too), for three and for two runs."""
    from cardsim.simulator.games.contract_rummy import search as S

    rng = random.Random(11)
    for contracts, nruns in (("2s:10,3r:12", 3), ("2s:10,2r:10", 2)):
        p = Position(deal=1, contracts=contracts, last_deal_all_at_once=True)
        assert p.info[TU.I_GO_OUT] == 1 and p.info[TU.I_NSETS] == 0
        out = np.zeros((nruns, S.MELD_W), np.int64)
        refused = laid = 0
        for _ in range(300):
            hand = np.zeros(V.NCODES, np.int64)
            suits = rng.sample(range(4), 4)
            for s in suits[:nruns]:  # runs of the best suits (some with gaps)
                lo = rng.randrange(0, 8)
                for r in range(lo, lo + rng.randrange(3, 7)):
                    if r < 13 and rng.random() < 0.9:
                        hand[s * 13 + r] += 1
            for _ in range(rng.randrange(0, 4)):  # strays of the other suits
                hand[rng.choice(suits[nruns:]) * 13 + rng.randrange(13)] += 1
            hand[V.JOKER] = rng.randrange(0, 3)
            cnt = hand[:52].reshape(4, 13).copy()
            plain = S.lay_contract(cnt, hand[52], 0, nruns, 4, 0, True, False, True, out)
            assert TU.lay_of(hand, p.info, p.rem, p.m1, p.stw, p.lay_out) == plain, hand
            assert TU.can_lay_of(hand, p.info, p.rem, p.m1, p.stw, p.lay_out) == (
                S.can_lay(cnt, hand[52], 0, nruns, 4, 0, True, False, True)), hand
            refused += TU._left_by_suits(hand, nruns) > 1
            laid += plain >= 0
        assert refused > 50 and laid > 20  # both sides met


@pytest.mark.parametrize("rules", [
    {"min_run": 3}, {"max_contract_meld": "none"}, {"ace_low": False},
    {"runs_distinct_suits": True, "min_run": 3}, {"players": 2}, {"min_run": 5}])
def test_deep_draw_walk_matches_one_search_per_depth_under_other_rules(rules):
    """Every deep draw (deep=2, as random and plug-ins get them) walks up the pile: the
    optimal laying of hand + pile[i:] stays the optimal laying of the depths above i up to the
    deepest pile card it needs, so one search answers all of them. Against the plain
    reference, on random and planted hands and piles, every deal but the all-at-once one."""
    rng = random.Random(300 + len(str(rules)))
    listed = 0
    for deal in range(6):
        p = Position(deal=deal, **rules)
        deck = [c % 52 for c in range(52 * p.rules_dict["decks"])] + [52] * p.rules_dict["jokers"]
        for k in range(150):
            cards, pile = _hand_and_pile(rng, p, deck, k, 30, False)
            if len(pile) < 2:
                continue
            plain = _plain(p)
            assert _fast(p, 2) == plain, (rules, deal, cards, pile)
            listed += len(plain) - 2
    assert listed >= 40
