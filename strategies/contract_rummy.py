"""Contract Rummy strategies: @njit decision functions of the signature in
simulator/games/contract_rummy/view.py (draw, buy, lay, layoff, discard) plus named float
params, and the kernel's fast paths as hooks (``wants_deep``, ``no_lay_hints``). The kernel
reaches them only through its generated dispatch (simulator/games/contract_rummy/dispatch.py,
from ``BUILTINS`` and view.DISPATCH): every decision through its pointer, the hooks by id.

``random`` is uniform over the legal choices of every decision. The heuristics share one
parameterised player; their names are parameter presets:

- ``table_reader`` (the default): ``pile_hunter`` that reads the table (tuned with ``cardsim
  tune``): worth of a card without the dead cards (``dead``), dumps its dearest cards early
  (``pen_w``) and once a rival is down and nearly out (``dump_at``), waits in the set
  contracts (``set_left``) until the stock runs low (``stock_lay``), takes the top discard
  only when it fits well (``take_min``) and never deep-draws more than ``deep_max`` cards;
- ``lay_down_at_once``: lays its contract down as soon as it can, takes the top discard only
  when it completes the contract;
- ``hold_for_more``: waits until laying down would leave at most ``max_left`` cards in hand
  (or until its own turn ``wait_turns``), to go out soon after;
- ``pile_hunter``: takes the top discard whenever it fits its hand and draws from inside the
  pile when that completes the contract (the shallowest such draw).

All of them lay off every card they can once their contract is down (naturals first, then
joker swaps, then jokers), discard the least useful card (duplicates and loners, highest
penalty first; never a joker while anything else is held when ``keep_jokers``), and buy
according to ``buy_policy`` (only matters with the rule ``buying=true``). Every parameter
added after ``keep_jokers`` is off at its default value, so the older presets play as before;
the ones read by ``heuristic_lay`` and ``heuristic_buy`` (which plug-ins borrow with their own,
zero-padded parameters) are off at 0.

What a heuristic reads of the table: the public pile history (``P_TAKEN``: the cards each
seat took from the pile), the melds and the pile (dead cards), who is down and how many cards
each player holds -- never another hand.
"""
import numpy as np
from numba import njit

from cardsim.simulator.bits import ctz
from cardsim.simulator.games.contract_rummy.view import (
    D_DEEP, D_STOCK, D_TOP, JOKER, M_KEY, M_KIND, M_NAT, MW, NCODES, OP_LAYOFF, OP_SWAP,
    P_ACE_LOW, P_DECKS, P_DOWN, P_HAND_N, P_MELDS, P_NMELDS, P_NRUNS, P_NSETS, P_PILE, P_PILE_N,
    P_PLAYERS, P_STOCK_N, P_TAKEN, PENALTY, SET, STOP, V_LAY_CARDS, V_OFFER, V_OFFER_LAYS,
    V_OWN_TURN, V_SEAT, V_TOP_LAYS, card_at, code_op, fits_table, would_lay,
)
from cardsim.strategies.rummy_legal import index_of, random_choice
from cardsim.simulator.strategy import Param, StrategyDef, builtin_ids

# parameter positions (the same for every heuristic preset)
(MAX_LEFT, WAIT_TURNS, TAKE_TOP, DEEP, BUY_POLICY, KEEP_JOKERS, TAKE_MIN, SAFE, DEAD, PAIRS,
 BUY_MORE, STOCK_LAY, SET_LEFT, PEN_W, DEEP_MAX, DUMP_AT, DEEP_SETS) = range(17)
BUY_NEVER, BUY_COMPLETES, BUY_USEFUL, BUY_ALWAYS = range(4)


@njit(cache=True, inline="always")
def _lays(mine, public, known, c):
    """Would card ``c`` let the hand lay its contract? (The kernel's answer when it gave one.)"""
    if known >= 0:
        return known == 1
    return would_lay(mine, public, np.int64(c))  # int64 cards: one compiled copy


@njit(cache=True, inline="always")
def run_rank(r, dr, ace_low):
    """The rank ``dr`` away from rank ``r`` along a run (below the 2 is the ace when
    ``ace_low``), or -1 when there is none."""
    q = r + dr
    if q < 0 and ace_low:
        q += 13
    return q if 0 <= q < 13 and q != r else -1


# near, usefulness, seen_cards, worth, danger and near_out are inlined into the decisions:
# as calls (per card held, every discard) they cost the discard about a quarter of its time
@njit(cache=True, inline="always")
def near(counts, base, public, c, w_set, w_next, w_gap):
    """Weighted count of the card codes near ``c`` present in ``counts[base + code]``: each
    other suit of its rank (``w_set``, when the contract has sets), each card of its suit one
    rank away (``w_next``) and two ranks away (``w_gap``, when it has runs)."""
    s = c // 13
    r = c % 13
    u = 0.0
    if public[P_NSETS] > 0:
        for t in range(4):
            if t != s and counts[base + t * 13 + r] > 0:
                u += w_set
    if public[P_NRUNS] > 0:
        for dr in (-2, -1, 1, 2):
            q = run_rank(r, dr, public[P_ACE_LOW] == 1)
            if q >= 0 and counts[base + s * 13 + q] > 0:
                u += w_next if (dr == 1 or dr == -1) else w_gap
    return u


@njit(cache=True, inline="always")
def usefulness(mine, public, c):
    """How much card ``c`` helps a hand toward its contract: other suits of its rank held (for
    sets), cards of its suit within two ranks (for runs); a second copy of a card held adds
    nothing. Jokers: 100."""
    if c == JOKER:
        return 100.0
    return near(mine, 0, public, c, 10.0, 8.0, 5.0)


@njit(cache=True, inline="always")
def seen_cards(mine, public, seen):
    """Copies of each card code the player can see: its hand, the discard pile, the naturals of
    every meld on the table. ``decks`` minus this is how many may still come (live)."""
    for k in range(NCODES):
        seen[k] = mine[k]
    for j in range(public[P_PILE_N]):
        seen[public[P_PILE + j]] += 1
    for m in range(public[P_NMELDS]):
        b = P_MELDS + m * MW
        x = np.uint64(public[b + M_NAT])
        while x != 0:
            slot = np.int64(ctz(x))
            x &= x - np.uint64(1)
            seen[card_at(public[b + M_KIND], public[b + M_KEY], slot)] += 1


@njit(cache=True, inline="always")
def worth(mine, public, c, params, seen):
    """``usefulness`` with the dead cards left out (param ``dead``: a set partner counts only
    while three suits of the rank can still be had, a run neighbour two ranks away only while
    the card between is held or live) and a second copy valued for a second set of its rank
    (param ``pairs``, contracts of two sets or more: per other suit also held twice).
    ``seen``: seen_cards' counts (read only with ``dead``)."""
    if c == JOKER:
        return 100.0
    if params[DEAD] < 0.5:
        u = usefulness(mine, public, c)
    else:
        decks = public[P_DECKS]
        s = c // 13
        r = c % 13
        u = 0.0
        if public[P_NSETS] > 0:
            suits = 0  # suits of rank r held or still to come, c's own included
            held = 0.0
            for t in range(4):
                x = t * 13 + r
                if t == s or mine[x] > 0 or seen[x] < decks:
                    suits += 1
                if t != s and mine[x] > 0:
                    held += 10.0
            if suits + mine[JOKER] >= 3:
                u += held
        if public[P_NRUNS] > 0:
            for dr in (-2, -1, 1, 2):
                q = run_rank(r, dr, public[P_ACE_LOW] == 1)
                if q >= 0 and mine[s * 13 + q] > 0:
                    if dr == 1 or dr == -1:
                        u += 8.0
                    else:
                        g = r + dr // 2
                        if g < 0:
                            g += 13
                        gc = s * 13 + g
                        if mine[gc] > 0 or seen[gc] < decks or mine[JOKER] > 0:
                            u += 5.0
    if mine[c] >= 2:
        u -= 20.0  # a second copy never helps the same meld ...
        if public[P_NSETS] >= 2 and params[PAIRS] > 0:  # ... but may make a second set
            s = c // 13
            r = c % 13
            for t in range(4):
                if t != s and mine[t * 13 + r] >= 2:
                    u += params[PAIRS]
    return u


@njit(cache=True, inline="always")
def danger(public, seat, c):
    """How much discarding ``c`` helps the next player, from what it showed: once its
    contract is down, a card it can lay off (3); before, one point per card it took from the
    pile that ``c`` would join (another suit of the rank when the contract has sets; the same
    suit within two ranks when it has runs). A joker: 3."""
    nxt = seat + 1 if seat + 1 < public[P_PLAYERS] else 0
    if c == JOKER:
        return 3.0
    if public[P_DOWN + nxt] == 1:
        return 3.0 if fits_table(public, c) else 0.0
    return near(public, P_TAKEN + nxt * NCODES, public, c, 1.0, 1.0, 1.0)


@njit(cache=True, inline="always")
def near_out(public, seat, k):
    """Is another player down with at most ``k`` cards left (the deal may end any moment)?"""
    for s in range(public[P_PLAYERS]):
        if s != seat and public[P_DOWN + s] == 1 and public[P_HAND_N + s] <= k:
            return True
    return False


@njit(cache=True)
def heuristic_draw(mine, public, private, legal, params, rng):
    pn = public[P_PILE_N]
    top = public[P_PILE + pn - 1] if pn > 0 else -1
    i_top = index_of(legal, D_TOP, -1)
    down = public[P_DOWN + private[V_SEAT]] == 1
    if down:
        if i_top >= 0 and fits_table(public, top):
            return i_top
        return index_of(legal, D_STOCK, -1)
    if i_top >= 0 and _lays(mine, public, private[V_TOP_LAYS], top):
        return i_top
    if params[DEEP] >= 0.5 and (public[P_NRUNS] > 0 or params[DEEP_SETS] >= 0.5):
        best = -1
        best_i = -1
        for i in range(legal[0]):
            code = legal[1 + i]
            if code >= D_DEEP and code > best and pn - (code - D_DEEP) <= params[DEEP_MAX]:
                # the shallowest: fewest cards taken
                best = code
                best_i = i
        if best_i >= 0:
            return best_i
    if i_top >= 0 and params[TAKE_TOP] >= 0.5 and top != JOKER:
        # worth counts the top as held once taken (a second copy), not before
        if params[DEAD] >= 0.5:
            seen = np.empty(NCODES, np.int64)  # only then: this runs every draw
            seen_cards(mine, public, seen)
            w = worth(mine, public, np.int64(top), params, seen)
        else:
            w = usefulness(mine, public, top)
        if w >= params[TAKE_MIN]:
            return i_top
    if i_top >= 0 and top == JOKER and params[TAKE_TOP] >= 0.5:
        return i_top
    return index_of(legal, D_STOCK, -1)


@njit(cache=True)
def heuristic_buy(mine, public, private, legal, params, rng):
    policy = params[BUY_POLICY]
    c = private[V_OFFER]
    if policy >= BUY_ALWAYS - 0.5:
        return 1
    if policy < BUY_COMPLETES - 0.5 or public[P_DOWN + private[V_SEAT]] == 1:
        return 0
    if _lays(mine, public, private[V_OFFER_LAYS], c):
        return 1
    if (policy >= BUY_USEFUL - 0.5
            and usefulness(mine, public, np.int64(c)) >= 10.0 + params[BUY_MORE]):
        return 1
    return 0


@njit(cache=True)
def heuristic_lay(mine, public, private, legal, params, rng):
    max_left = params[MAX_LEFT]
    if params[SET_LEFT] > 0 and public[P_NRUNS] == 0:
        max_left = params[SET_LEFT] - 1
    if private[V_LAY_CARDS] <= max_left:
        return 1
    if public[P_STOCK_N] < params[STOCK_LAY]:
        return 1
    if params[WAIT_TURNS] > 0 and private[V_OWN_TURN] >= params[WAIT_TURNS]:
        return 1
    return 0


@njit(cache=True)
def heuristic_layoff(mine, public, private, legal, params, rng):
    """Naturals first, then joker swaps, then jokers; STOP when nothing is left."""
    best = -1
    best_s = -1
    for i in range(legal[0]):
        code = legal[1 + i]
        if code == STOP:
            s = 0
        elif code_op(code) == OP_SWAP:
            s = 2
        elif code_op(code) == OP_LAYOFF and (code >> 19) & 1:
            s = 1
        else:
            s = 3
        if s > best_s:
            best_s = s
            best = i
    return best


@njit(cache=True)
def heuristic_discard(mine, public, private, legal, params, rng):
    seat = private[V_SEAT]
    down = public[P_DOWN + seat] == 1 or near_out(public, seat, params[DUMP_AT])
    # worth (hence seen) is asked only before the contract; down, the penalty decides
    need = params[DEAD] >= 0.5 and not down
    seen = np.empty(NCODES if need else 1, np.int64)
    if need:
        seen_cards(mine, public, seen)
    best = 0
    best_k = 1e18
    for i in range(legal[0]):
        c = legal[1 + i]
        if c == JOKER:
            keep = 1e9 if params[KEEP_JOKERS] >= 0.5 else -1.0
        elif down:
            keep = -PENALTY[c] * 1.0
        elif params[DEAD] >= 0.5 or params[PAIRS] > 0:
            keep = worth(mine, public, np.int64(c), params, seen) - PENALTY[c] * params[PEN_W]
        else:
            keep = usefulness(mine, public, np.int64(c)) - PENALTY[c] * 0.1
            if mine[c] >= 2:
                keep -= 20.0  # a second copy of a card never helps the same meld
        if params[SAFE] > 0 and c != JOKER:
            keep += params[SAFE] * danger(public, seat, np.int64(c))
        if keep < best_k:
            best_k = keep
            best = i
    return best


@njit(cache=True, inline="always")
def wants_deep(params, nruns):
    """The heuristics' ``deep_draws`` hook: which deep draws the kernel lists for them
    (kernel._list_draws), as (mode, cap): 1, for deep=1, only the one it takes -- the
    shallowest, of at most ``deep_max`` cards, and none when the top discard lays the contract
    (it takes the top then); 0, none (deep=0 never takes one, nor deep_sets=0 in a contract of
    sets only -- ``nruns`` 0 --, and listing costs contract searches). A strategy without the
    hook (random, plug-ins) gets mode 2, all of them (view.DISPATCH)."""
    if params[DEEP] < 0.5 or (nruns == 0 and params[DEEP_SETS] < 0.5):
        return np.int64(0), np.int64(0)
    return np.int64(1), np.int64(min(params[DEEP_MAX], 1 << 20))


@njit(cache=True, inline="always")
def no_lay_hints(params):
    """random's ``lay_hints`` hook: it never reads V_TOP_LAYS or V_OFFER_LAYS, so the kernel
    spares the contract searches that answer them (they stay -1)."""
    return False


def _params(max_left, wait_turns, take_top, deep, buy_policy=BUY_COMPLETES, keep_jokers=1.0,
            take_min=8.0, safe=0.0, dead=0.0, pairs=0.0, buy_more=0.0, stock_lay=0.0,
            set_left=0.0, pen_w=0.1, deep_max=99.0, dump_at=0.0, deep_sets=1.0):
    return (
        Param("max_left", max_left, "lays its contract down only when at most this many cards "
              "would stay in hand (99: at once)", 0, 99),
        Param("wait_turns", wait_turns, "lays down anyway from this own turn on (0: no "
              "limit)", 0, 1000),
        Param("take_top", take_top, "1: takes the top discard when it fits its hand (a rank or "
              "run neighbour held); 0: only when it completes the contract", 0, 1),
        Param("deep", deep, "1: draws from inside the pile when that completes the contract "
              "(the shallowest such card); 0: never", 0, 1),
        Param("buy_policy", buy_policy, "with buying on: 0 never, 1 when the discard completes "
              "its contract, 2 also when it fits its hand, 3 always", 0, 3),
        Param("keep_jokers", keep_jokers, "1: never discards a joker while holding another "
              "card", 0, 1),
        Param("take_min", take_min, "with take_top: the least worth of the top discard to take "
              "it (8: a run neighbour; 10: another suit of its rank)", 0, 40),
        Param("safe", safe, "weight against discarding what helps the next player (a card it "
              "lays off once down; before, per card it took from the pile that this one joins); "
              "0: off", 0, 40),
        Param("dead", dead, "1: a card's worth leaves out dead cards (sets that can no longer "
              "get three suits, run gaps all seen); 0: off", 0, 1),
        Param("pairs", pairs, "with two sets or more in the contract, worth of a second copy "
              "per other suit of its rank also held twice (a second set); 0: off", 0, 40),
        Param("buy_more", buy_more, "buy_policy 2: buys a discard worth at least 10 + this "
              "(10: another suit of its rank held)", -10, 30),
        Param("stock_lay", stock_lay, "lays down anyway when the stock holds fewer cards than "
              "this (0: off)", 0, 100),
        Param("set_left", set_left, "in contracts of sets only, max_left is this minus 1 (0: "
              "max_left as in the others)", 0, 100),
        Param("pen_w", pen_w, "with dead or pairs on: weight of a card's penalty points "
              "against its worth when discarding before the contract", 0, 5),
        Param("deep_max", deep_max, "with deep: the most cards a deep draw may take", 2, 99),
        Param("dump_at", dump_at, "once another player is down with at most this many cards, "
              "discards the dearest card, as after its own contract (0: off)", 0, 12),
        Param("deep_sets", deep_sets, "with deep: 1 deep-draws in contracts of sets only too; "
              "0 only when the contract has a run (taken cards rarely lay off on full sets)",
              0, 1),
    )


_DEC = ("draw", "buy", "lay", "layoff", "discard")
_HEUR = {"draw": heuristic_draw, "buy": heuristic_buy, "lay": heuristic_lay,
         "layoff": heuristic_layoff, "discard": heuristic_discard}
_DEEP = {"deep_draws": wants_deep}
# ids pinned (simulator.strategy.StrategyDef.id): the kernel's dispatch and saved run.json
BUILTINS = (
    StrategyDef("random", "uniform over the legal choices at every decision",
                {d: random_choice for d in _DEC}, id=0, hooks={"lay_hints": no_lay_hints}),
    StrategyDef("lay_down_at_once", "lays its contract down as soon as it can; takes the top "
                "discard only when it completes the contract", _HEUR, _params(99, 0, 0, 0),
                id=1, hooks=_DEEP),
    StrategyDef("hold_for_more", "waits to lay down until at most max_left cards would stay "
                "in hand (or its own turn wait_turns)", _HEUR, _params(2, 6, 0, 0), id=2,
                hooks=_DEEP),
    StrategyDef("pile_hunter", "takes the top discard whenever it fits; draws from inside the "
                "pile when that completes the contract", _HEUR, _params(99, 0, 1, 1), id=3,
                hooks=_DEEP),
    StrategyDef("table_reader", "the default: pile_hunter that reads the table -- leaves out "
                "dead cards, keeps pairs for two sets of a rank, feeds the next player "
                "nothing it showed, dumps dear cards early, deep-draws at most 6 cards and "
                "only when the contract has a run (fewer stalled deals); tuned",
                _HEUR, _params(99, 0, 1, 1, take_min=10.4, safe=2.5, dead=1.0, pairs=11.0,
                               pen_w=0.8, deep_max=6.0, set_left=9.9, stock_lay=2.3,
                               dump_at=1.5, deep_sets=0.0), id=4, hooks=_DEEP),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = builtin_ids(BUILTINS)
