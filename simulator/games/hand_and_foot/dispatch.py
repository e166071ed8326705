"""Strategy dispatch generated from cardsim.strategies.hand_and_foot.BUILTINS by ``python -m
cardsim.simulator.dispatchgen``: do not edit (tests/test_dispatch.py checks it is current).
Built-in ids: random 0, early_melder 1, patient_builder 2, pile_taker 3, waiting_melder 4,
table_reader 5."""
from numba import njit

from cardsim.strategies.hand_and_foot import (
    heuristic_ask, heuristic_discard, heuristic_draw, heuristic_grant, heuristic_meld,
    heuristic_waits,
)
from cardsim.strategies.rummy_legal import random_choice


@njit(cache=True, inline="always")
def decide_draw(sid, fn, mine, public, private, legal, params, rng):
    """The draw decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(mine, public, private, legal, params, rng)
    if sid == 0:
        return random_choice(mine, public, private, legal, params, rng)
    return heuristic_draw(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_meld(sid, fn, mine, public, private, legal, params, rng):
    """The meld decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(mine, public, private, legal, params, rng)
    if sid == 0:
        return random_choice(mine, public, private, legal, params, rng)
    return heuristic_meld(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_discard(sid, fn, mine, public, private, legal, params, rng):
    """The discard decision of built-in ``sid``, or of a plug-in (sid < 0) through its
    pointer ``fn``."""
    if sid < 0:
        return fn(mine, public, private, legal, params, rng)
    if sid == 0:
        return random_choice(mine, public, private, legal, params, rng)
    return heuristic_discard(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_ask(sid, fn, mine, public, private, legal, params, rng):
    """The ask decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(mine, public, private, legal, params, rng)
    if sid == 0:
        return random_choice(mine, public, private, legal, params, rng)
    return heuristic_ask(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_grant(sid, fn, mine, public, private, legal, params, rng):
    """The grant decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(mine, public, private, legal, params, rng)
    if sid == 0:
        return random_choice(mine, public, private, legal, params, rng)
    return heuristic_grant(mine, public, private, legal, params, rng)


@njit(cache=True)
def hook_meld_stops(sid, public, private, params):
    """True when built-in ``sid`` answers STOP to any meld list that holds STOP, so the
    kernel need not build the list (the heuristics while they wait to open); False for the
    others. Monotone in ``V_REACH``: true for a reach, it is true for every smaller one (0
    or more), so the kernel may ask it with an upper bound of the reach first."""
    if sid < 0:
        return False
    if 1 <= sid <= 5:
        return heuristic_waits(public, private, params)
    return False
