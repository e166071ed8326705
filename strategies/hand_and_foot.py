"""Hand and Foot strategies: @njit decision functions of the signature in
simulator/games/hand_and_foot/view.py (draw, meld, discard, ask, grant) plus named float params.

``random`` is uniform over the legal choices of every decision. The three heuristics share one
parameterised player; their names are parameter presets that play differently:

- ``early_melder``: melds as soon as its hand reaches the minimum, uses wilds freely, rushes
  to the foot;
- ``patient_builder``: waits for points above the minimum, starts melds with four naturals,
  keeps wilds out of melds until they finish a book, takes only big piles;
- ``pile_taker``: takes the pile whenever the rules let it;
- ``waiting_melder``: the early melder (``hold=150``) that waits to open until its hand can meld
  150 points above the minimum (or a pile take opens it); the strongest preset measured, and
  the game's default strategy (larger holds play no better: 200 and 1000 tie with 150).
"""
from numba import njit

from simulator.games.hand_and_foot.view import (
    ASK, BLACK3, B3_T, DISCARD, DRAW, JOKER, MELD, OP_ADD_JOKER, OP_ADD_NAT, P_HAND_N,
    OP_ADD_TWO, OP_START2_JOKER, OP_START2_TWO, OP_START3, P_MIN_MELD, P_NEED_WILD, P_PILE_N,
    STOP, T_MELDS, T_WILD, TWO, V_IN_FOOT, V_REACH, V_SEAT, V_STAGED, V_TEAM, VALUE, WILD_T,
    points_of,
    team_base,
)
from simulator.legal import index_of, random_choice
from simulator.strategy import Param, StrategyDef

# parameter positions (the same for every heuristic preset)
HOLD, PILE_MIN, WILD_NAT, START_NAT, FOOT_RUSH, GRANT_PTS, ASK_OUT = range(7)


@njit(cache=True, inline="always")
def _meld_score(code, mine, public, team, params, rush, cards):
    if code == STOP:
        return 0.0
    t = code // 16
    op = code % 16
    if t == B3_T:
        return 100.0  # only offered when it takes the player out
    base = team_base(team) + T_MELDS + 3 * t
    need_wild = public[team_base(team) + T_WILD] < public[P_NEED_WILD]
    if cards <= 2:
        return 90.0  # every legal action that empties the hand this far is a way out or in
    if t == WILD_T:
        return 30.0 if (need_wild or rush) else -1.0
    if op == OP_ADD_NAT:
        return 50.0 + VALUE[t]
    if op == OP_START3:
        return 40.0 + VALUE[t] if (mine[t] >= params[START_NAT] or rush) else -1.0
    if op == OP_START2_TWO or op == OP_START2_JOKER:
        ok = params[WILD_NAT] <= 2.0 or rush
        return (20.0 + (op == OP_START2_TWO)) if ok else -1.0
    if op == OP_ADD_TWO or op == OP_ADD_JOKER:
        ok = public[base] >= params[WILD_NAT] or rush
        return (10.0 + (op == OP_ADD_TWO)) if ok else -1.0
    return -1.0


@njit(cache=True)
def heuristic_meld(mine, public, private, legal, params, rng):
    """Greedy: the best-scoring legal action, or STOP when nothing scores above it. Before
    the team's initial meld it starts only with ``hold`` points to spare over the minimum."""
    team = private[V_TEAM]
    cards = public[P_HAND_N + private[V_SEAT]]
    rush = cards <= params[FOOT_RUSH] and private[V_IN_FOOT] == 0
    waiting = (private[V_REACH] >= 0 and private[V_STAGED] == 0
               and private[V_REACH] < public[P_MIN_MELD] + params[HOLD])
    best = -1
    best_s = -1e18
    for i in range(legal[0]):
        code = legal[1 + i]
        s = _meld_score(code, mine, public, team, params, rush, cards)
        if waiting and code != STOP:
            s = -1e9
        if s > best_s:
            best_s = s
            best = i
    return best


@njit(cache=True)
def heuristic_discard(mine, public, private, legal, params, rng):
    """Black threes first (they block the pile), never a wild while anything else is held,
    otherwise the lone low natural the team is not building."""
    team = private[V_TEAM]
    base = team_base(team) + T_MELDS
    best = 0
    best_keep = 1e18
    for i in range(legal[0]):
        k = legal[1 + i]
        if k == BLACK3:
            keep = -100.0
        elif k == TWO or k == JOKER:
            keep = 1000.0 + VALUE[k]
        else:
            keep = 20.0 * mine[k] + VALUE[k] + (40.0 if public[base + 3 * k] > 0 else 0.0)
        if keep < best_keep:
            best_keep = keep
            best = i
    return best


@njit(cache=True)
def heuristic_draw(mine, public, private, legal, params, rng):
    take = 1 if public[P_PILE_N] >= params[PILE_MIN] else 0
    return index_of(legal, take, 0)


@njit(cache=True)
def heuristic_ask(mine, public, private, legal, params, rng):
    return index_of(legal, 1 if params[ASK_OUT] >= 0.5 else 0, 0)


@njit(cache=True)
def heuristic_grant(mine, public, private, legal, params, rng):
    return index_of(legal, 1 if points_of(mine) <= params[GRANT_PTS] else 0, 0)


@njit(cache=True, inline="always")
def builtin_decision(kind, sid, mine, public, private, legal, params, rng):
    """Direct calls to the built-ins (sid = position in BUILTINS): no function pointer. Each
    decision its own function: one taking ``kind`` would be compiled once per kind (a
    constant at every call site)."""
    if sid == 0:
        return random_choice(mine, public, private, legal, params, rng)
    if kind == DRAW:
        return heuristic_draw(mine, public, private, legal, params, rng)
    if kind == MELD:
        return heuristic_meld(mine, public, private, legal, params, rng)
    if kind == DISCARD:
        return heuristic_discard(mine, public, private, legal, params, rng)
    if kind == ASK:
        return heuristic_ask(mine, public, private, legal, params, rng)
    return heuristic_grant(mine, public, private, legal, params, rng)


def _params(hold, pile_min, wild_nat, start_nat, foot_rush, grant_pts, ask_out=1.0):
    return (
        Param("hold", hold, "points above the minimum its hand must reach before the team's "
              "initial meld", 0, 10000),
        Param("pile_min", pile_min, "smallest discard pile it takes (when the rules allow)",
              0, 1000),
        Param("wild_naturals", wild_nat, "naturals a meld must hold before it adds a wild "
              "(2 or less: also starts melds with a wild)", 0, 7),
        Param("start_naturals", start_nat, "naturals of a rank it holds before starting a "
              "meld of it (3: at once)", 3, 30),
        Param("foot_rush", foot_rush, "cards in hand at or below which it melds all it can, "
              "wilds too, to reach the foot", 0, 60),
        Param("grant_points", grant_pts, "as partner, grants going out when holding at most "
              "this many points", 0, 10000),
        Param("ask_out", ask_out, "1: asks to go out whenever it may, 0: never", 0, 1),
    )


_HEUR = {"draw": heuristic_draw, "meld": heuristic_meld, "discard": heuristic_discard,
         "ask": heuristic_ask, "grant": heuristic_grant}
BUILTINS = (
    StrategyDef("random", "uniform over the legal choices at every decision",
                {d: random_choice for d in _HEUR}),
    StrategyDef("early_melder", "melds as soon as the minimum is reached; wilds used freely; "
                "rushes to the foot", _HEUR, _params(0, 3, 2, 3, 13, 1000)),
    StrategyDef("patient_builder", "waits for points above the minimum; builds clean books; "
                "wilds only to finish books; takes big piles only", _HEUR,
                _params(60, 6, 5, 4, 3, 100)),
    StrategyDef("pile_taker", "takes the discard pile whenever the rules allow", _HEUR,
                _params(0, 1, 3, 3, 6, 1000)),
    StrategyDef("waiting_melder", "the early melder waiting for 150 points above the minimum "
                "before its initial meld (the strongest preset; the default)", _HEUR,
                _params(150, 3, 2, 3, 13, 1000)),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = {d.name: i for i, d in enumerate(BUILTINS)}
