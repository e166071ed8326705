"""Strategy dispatch generated from cardsim.strategies.contract_rummy.BUILTINS by ``python -m
cardsim.simulator.dispatchgen``: do not edit (tests/test_dispatch.py checks it is current).
Built-in ids: random 0, lay_down_at_once 1, hold_for_more 2, pile_hunter 3, table_reader 4."""
from numba import njit

from cardsim.strategies.contract_rummy import no_lay_hints, wants_deep


@njit(cache=True, inline="always")
def decide_draw(sid, fn, mine, public, private, legal, params, rng):
    """The draw decision of the strategy whose pointer is ``fn`` (built-ins too: see
    view.DISPATCH)."""
    return fn(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_buy(sid, fn, mine, public, private, legal, params, rng):
    """The buy decision of the strategy whose pointer is ``fn`` (built-ins too: see
    view.DISPATCH)."""
    return fn(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_lay(sid, fn, mine, public, private, legal, params, rng):
    """The lay decision of the strategy whose pointer is ``fn`` (built-ins too: see
    view.DISPATCH)."""
    return fn(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_layoff(sid, fn, mine, public, private, legal, params, rng):
    """The layoff decision of the strategy whose pointer is ``fn`` (built-ins too: see
    view.DISPATCH)."""
    return fn(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def decide_discard(sid, fn, mine, public, private, legal, params, rng):
    """The discard decision of the strategy whose pointer is ``fn`` (built-ins too: see
    view.DISPATCH)."""
    return fn(mine, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def hook_deep_draws(sid, params, nruns):
    """Which deep draws the kernel lists for strategy ``sid`` (kernel._list_draws), as
    (mode, cap): 2 every one, 1 only the shallowest taking at most ``cap`` cards, 0 none;
    (2, 1 << 20), every one, for a strategy that does not say (random, plug-ins)."""
    if sid < 0:
        return (2, 1 << 20)
    if 1 <= sid <= 4:
        return wants_deep(params, nruns)
    return (2, 1 << 20)


@njit(cache=True, inline="always")
def hook_lay_hints(sid, params):
    """Does the kernel answer V_TOP_LAYS and V_OFFER_LAYS for strategy ``sid`` (a contract
    search each time)? True for a strategy that does not say (plug-ins)."""
    if sid < 0:
        return True
    if sid == 0:
        return no_lay_hints(params)
    return True
