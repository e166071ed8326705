"""Toy-tricks strategies: @njit functions of view.DECISION_SIG, called by the kernel through
its generated dispatch (dispatch.py: built-ins directly by id, plug-ins through pointers)."""
from numba import njit

from cardsim.simulator.rng import below
from cardsim.simulator.strategy import Param, StrategyDef, builtin_ids

from tests.toy_tricks.view import P_BEST_RANK, P_LED_SUIT


@njit(cache=True)
def random_play(hand, n, public, private, legal, params, rng):
    """Uniform over the legal cards."""
    k = 0
    for i in range(n):
        k += legal[i]
    pick = below(rng, k)
    for i in range(n):
        if legal[i]:
            if pick == 0:
                return i
            pick -= 1
    return -1


@njit(cache=True)
def highest_play(hand, n, public, private, legal, params, rng):
    """The highest legal card; with duck = 1, the lowest when it cannot win the trick."""
    hi = -1
    lo = -1
    for i in range(n):
        if legal[i]:
            if hi < 0 or hand[i] % 13 > hand[hi] % 13:
                hi = i
            if lo < 0 or hand[i] % 13 < hand[lo] % 13:
                lo = i
    led = public[P_LED_SUIT]
    if params[0] >= 0.5 and led >= 0:
        beats = hand[hi] // 13 == led and hand[hi] % 13 > public[P_BEST_RANK]
        if not beats:
            return lo
    return hi


BUILTINS = (
    StrategyDef("random", "uniform over the legal cards", {"play": random_play}, id=0),
    StrategyDef("highest", "plays its highest legal card", {"play": highest_play},
                (Param("duck", 1.0, "1: the lowest legal card when the highest cannot win",
                       0.0, 1.0),), id=1),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = builtin_ids(BUILTINS)
