"""Contract Rummy strategies: @njit decision functions of the signature in
simulator/games/contract_rummy/view.py (draw, buy, lay, layoff, discard) plus named float
params.

``random`` is uniform over the legal choices of every decision. The heuristics share one
parameterised player; their names are parameter presets:

- ``lay_down_at_once`` (the default): lays its contract down as soon as it can, takes the top
  discard only when it completes the contract;
- ``hold_for_more``: waits until laying down would leave at most ``max_left`` cards in hand
  (or until its own turn ``wait_turns``), to go out soon after;
- ``pile_hunter``: takes the top discard whenever it fits its hand and draws from inside the
  pile when that completes the contract (the shallowest such draw).

All of them lay off every card they can once their contract is down (naturals first, then
joker swaps, then jokers), discard the least useful card (duplicates and loners, highest
penalty first; never a joker while anything else is held when ``keep_jokers``), and buy
according to ``buy_policy`` (only matters with the rule ``buying=true``).
"""
import numpy as np
from numba import njit

from simulator.games.contract_rummy.view import (
    D_DEEP, D_STOCK, D_TOP, JOKER, OP_LAYOFF, OP_SWAP, P_ACE_LOW, P_DOWN, P_NRUNS, P_NSETS, P_PILE, P_PILE_N, PENALTY, STOP, V_LAY_CARDS,
    V_OFFER, V_OFFER_LAYS, V_OWN_TURN, V_SEAT, V_TOP_LAYS, code_op, fits_table, would_lay,
)
from simulator.legal import index_of, random_choice
from simulator.strategy import Param, StrategyDef

# parameter positions (the same for every heuristic preset)
MAX_LEFT, WAIT_TURNS, TAKE_TOP, DEEP, BUY_POLICY, KEEP_JOKERS = range(6)
BUY_NEVER, BUY_COMPLETES, BUY_USEFUL, BUY_ALWAYS = range(4)


@njit(cache=True, inline="always")
def _lays(mine, public, known, c):
    """Would card ``c`` let the hand lay its contract? (The kernel's answer when it gave one.)"""
    if known >= 0:
        return known == 1
    return would_lay(mine, public, np.int64(c))  # int64 cards: one compiled copy


@njit(cache=True)
def usefulness(mine, public, c):
    """How much card ``c`` helps a hand toward its contract: other suits of its rank held (for
    sets), cards of its suit within two ranks (for runs); a second copy of a card held adds
    nothing. Jokers: 100."""
    if c == JOKER:
        return 100.0
    s = c // 13
    r = c % 13
    u = 0.0
    if public[P_NSETS] > 0:
        for t in range(4):
            if t != s and mine[t * 13 + r] > 0:
                u += 10.0
    if public[P_NRUNS] > 0:
        for dr in (-2, -1, 1, 2):
            q = r + dr
            if q < 0 and public[P_ACE_LOW] == 1:
                q += 13  # below the 2 is the ace (low)
            if 0 <= q < 13 and q != r and mine[s * 13 + q] > 0:
                u += 8.0 if (dr == 1 or dr == -1) else 5.0
    return u


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
    if params[DEEP] >= 0.5:
        best = -1
        best_i = -1
        for i in range(legal[0]):
            code = legal[1 + i]
            if code >= D_DEEP and code > best:  # the shallowest: fewest cards taken
                best = code
                best_i = i
        if best_i >= 0:
            return best_i
    if i_top >= 0 and params[TAKE_TOP] >= 0.5 and top != JOKER and usefulness(mine, public, top) >= 8.0:
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
    if policy >= BUY_USEFUL - 0.5 and usefulness(mine, public, np.int64(c)) >= 10.0:
        return 1
    return 0


@njit(cache=True)
def heuristic_lay(mine, public, private, legal, params, rng):
    if private[V_LAY_CARDS] <= params[MAX_LEFT]:
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
    down = public[P_DOWN + private[V_SEAT]] == 1
    best = 0
    best_k = 1e18
    for i in range(legal[0]):
        c = legal[1 + i]
        if c == JOKER:
            keep = 1e9 if params[KEEP_JOKERS] >= 0.5 else -1.0
        elif down:
            keep = -PENALTY[c] * 1.0
        else:
            keep = usefulness(mine, public, np.int64(c)) - PENALTY[c] * 0.1
            if mine[c] >= 2:
                keep -= 20.0  # a second copy of a card never helps the same meld
        if keep < best_k:
            best_k = keep
            best = i
    return best


@njit(cache=True, inline="always")
def wants_deep(sid, params):
    """Does the kernel need to list the deep draws for this seat? (They cost a contract search
    per pile card; a heuristic with deep=0 never picks one.) Random and plug-ins: always."""
    return sid <= 0 or params[DEEP] >= 0.5


def _params(max_left, wait_turns, take_top, deep, buy_policy=BUY_COMPLETES, keep_jokers=1.0):
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
    )


_DEC = ("draw", "buy", "lay", "layoff", "discard")
_HEUR = {"draw": heuristic_draw, "buy": heuristic_buy, "lay": heuristic_lay,
         "layoff": heuristic_layoff, "discard": heuristic_discard}
BUILTINS = (
    StrategyDef("random", "uniform over the legal choices at every decision",
                {d: random_choice for d in _DEC}),
    StrategyDef("lay_down_at_once", "lays its contract down as soon as it can; takes the top "
                "discard only when it completes the contract", _HEUR, _params(99, 0, 0, 0)),
    StrategyDef("hold_for_more", "waits to lay down until at most max_left cards would stay "
                "in hand (or its own turn wait_turns)", _HEUR, _params(2, 6, 0, 0)),
    StrategyDef("pile_hunter", "takes the top discard whenever it fits; draws from inside the "
                "pile when that completes the contract", _HEUR, _params(99, 0, 1, 1)),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = {d.name: i for i, d in enumerate(BUILTINS)}
