"""The heuristic player's choices on hand-made positions: each test sets up a hand, a pile and
a table where the new behaviour and the old one choose differently, and calls the compiled
decision function directly."""
import numpy as np

from cardsim.simulator.games.hand_and_foot import view as V
from cardsim.strategies.hand_and_foot import (
    REGISTRY, heuristic_discard, heuristic_draw, heuristic_grant, heuristic_meld, pile_value,
)
from tests.helpers_hand_and_foot import KIND, Position

RNG = np.zeros(2, np.uint64)


def params(name="early_melder", **over):
    d = REGISTRY[name]
    return d.param_vector(over, len(d.params))


def legal(*codes):
    a = np.zeros(V.LEGAL_LEN, np.int16)
    a[0] = len(codes)
    a[1:len(codes) + 1] = codes
    return a


def code(target, op):
    t = V.WILD_T if target == "wild" else KIND[target]
    return V.action(t, op)


def opened(pos):
    """The position after the team's initial meld (V_REACH -1: no minimum to wait for)."""
    pos.private[:, V.V_REACH] = -1
    return pos


def decide(fn, pos, seat, lg, prm):
    return int(fn(pos.hands[seat], pos.public, pos.private[seat], lg, prm, RNG))


# ---------------------------------------------------------------- the pile by its contents


def _pile_position(pile):
    pos = Position().hand(0, "K K 8 9 J 5 6").books(0, clean=1).meld(0, "9", 4)
    pos.public[V.P_STOCK_N] = 40
    return pos.pile_of(pile)


def test_pile_value_counts_cards_that_fit_and_charges_junk():
    p = params("table_reader", pile_eval=1, pile_wild=2, pile_junk=0.5)
    # top K (melded with the two held), a 9 for the team's meld, a 2, two lone naturals
    pos = _pile_position("4 7 2 9 K")
    assert pile_value(pos.hands[0], pos.public, 0, p) == 1 + 1 + 2 - 0.5 * 2
    # pile_junk -1 and pile_wild 1: every card counts 1, the pile's size (the old rule)
    p = params("table_reader", pile_eval=1, pile_wild=1, pile_junk=-1)
    assert pile_value(pos.hands[0], pos.public, 0, p) == 5


def test_draw_refuses_a_pile_of_junk_the_size_rule_takes():
    lg = legal(V.TAKE_STOCK, V.TAKE_PILE)
    junk = _pile_position("4 7 Q 10 K")  # only the top fits
    useful = _pile_position("9 2 9 JK K")  # 9s join the team's meld; two wilds
    by_size = params("early_melder")  # pile_min 3 cards
    by_content = params("table_reader", pile_eval=1, pile_min=3, pile_wild=2, pile_junk=0.5)
    assert decide(heuristic_draw, junk, 0, lg, by_size) == 1
    assert decide(heuristic_draw, junk, 0, lg, by_content) == 0
    assert decide(heuristic_draw, useful, 0, lg, by_content) == 1


# ---------------------------------------------------------------- wilds kept for wild books


def test_wilds_stay_out_of_rank_melds_while_the_wild_book_is_missing():
    # the team has its two dirty books but no wild book: a 2 should not start a dirty meld
    pos = opened(Position().hand(0, "K K 2 5 6 7 8 9").books(0, clean=2, dirty=2))
    lg = legal(code("K", V.OP_START2_TWO), V.STOP)
    assert decide(heuristic_meld, pos, 0, lg, params("early_melder", foot_rush=0)) == 0
    assert decide(heuristic_meld, pos, 0, lg,
                  params("early_melder", foot_rush=0, wild_books=1)) == 1
    # still short of dirty books: the wild may go into a rank meld
    pos.books(0, clean=2, dirty=1)
    assert decide(heuristic_meld, pos, 0, lg,
                  params("early_melder", foot_rush=0, wild_books=1)) == 0
    # ... unless a rank meld holding a wild will already make that book
    pos.meld(0, "Q", 3, twos=1)
    assert decide(heuristic_meld, pos, 0, lg,
                  params("early_melder", foot_rush=0, wild_books=1)) == 1


def test_a_second_wild_only_closes_a_dirty_book_the_team_needs():
    pos = opened(Position().hand(0, "2 5 6 7 8 9 10 J").meld(0, "Q", 5, twos=1))
    lg = legal(code("Q", V.OP_ADD_TWO), V.STOP)
    p = params("early_melder", foot_rush=0, wild_books=1)
    pos.books(0, clean=2, dirty=1)
    assert decide(heuristic_meld, pos, 0, lg, p) == 0
    pos.books(0, clean=2, dirty=2)
    assert decide(heuristic_meld, pos, 0, lg, p) == 1
    assert decide(heuristic_meld, pos, 0, lg, params("early_melder", foot_rush=0)) == 0


def test_wilds_start_a_wild_meld_below_wild_books_even_with_the_needed_book():
    pos = opened(Position().hand(0, "2 2 JK 5 6 7 8 9").books(0, clean=2, dirty=2, wild=1))
    lg = legal(code("wild", V.OP_W210), V.STOP)
    assert decide(heuristic_meld, pos, 0, lg, params("early_melder", foot_rush=0)) == 1
    assert decide(heuristic_meld, pos, 0, lg,
                  params("early_melder", foot_rush=0, wild_books=2)) == 0


def test_in_the_foot_wilds_are_released_once_the_books_to_go_out_are_there():
    pos = opened(Position().hand(0, "2 5 6 7 8 9").books(0, clean=2, dirty=2, wild=1))
    pos.foot(0, "", picked=True)
    lg = legal(code("K", V.OP_ADD_TWO), V.STOP)
    pos.meld(0, "K", 4)
    p = params("early_melder", foot_rush=0, wild_books=2)
    assert decide(heuristic_meld, pos, 0, lg, p) == 0
    pos.foot(0, "", picked=False)
    pos.private[0, V.V_IN_FOOT] = 0
    assert decide(heuristic_meld, pos, 0, lg, p) == 1


# ---------------------------------------------------------------- the next player's pile


def test_discard_keeps_the_rank_the_next_player_can_take_the_pile_with():
    # 8 and 9 are equally worth keeping to the player; the next seat's team has a meld of
    # five 9s (no room for the pile's three) and nothing in 8s
    pos = Position().hand(0, "8 9 K K K").meld(1, "9", 5).pile_of("4 5 6 7 Q")
    lg = legal(KIND["8"], KIND["9"], KIND["K"])
    assert decide(heuristic_discard, pos, 0, lg, params("early_melder")) == 0
    assert decide(heuristic_discard, pos, 0, lg, params("early_melder", discard_open=5)) == 1
    # a meld of four 9s has room for three: both ranks are open to the next player
    pos.meld(1, "9", 4)
    assert decide(heuristic_discard, pos, 0, lg,
                  params("early_melder", discard_open=5, discard_meld=0)) == 1
    assert decide(heuristic_discard, pos, 0, lg,
                  params("early_melder", discard_open=5, discard_meld=10)) == 0


# ---------------------------------------------------------------- permission and timing


def test_grant_by_the_stock_left():
    pos = Position().hand(2, "A A K K JK")  # 150 points held by the partner (seat 2)
    pos.public[V.P_STOCK_N] = 6
    lg = legal(0, 1)
    assert decide(heuristic_grant, pos, 2, lg, params("early_melder", grant_points=100)) == 0
    assert decide(heuristic_grant, pos, 2, lg,
                  params("early_melder", grant_points=100, grant_stock=10)) == 1
    pos.public[V.P_STOCK_N] = 20
    assert decide(heuristic_grant, pos, 2, lg,
                  params("early_melder", grant_points=100, grant_stock=10)) == 0


def test_hold_frac_waits_in_proportion_to_the_minimum():
    pos = Position(need=90).hand(0, "K K K Q Q Q J J J A A A 9")
    pos.private[0, V.V_REACH] = 200
    lg = legal(code("K", V.OP_START3), V.STOP)
    assert decide(heuristic_meld, pos, 0, lg, params("early_melder", hold=100)) == 0
    assert decide(heuristic_meld, pos, 0, lg,
                  params("early_melder", hold=100, hold_frac=0.5)) == 1  # waits for 235
