"""56 strategies. Each is a set of @njit decision functions of the signature in
simulator/games/fifty_six/view.py (bid, play, reveal) plus named float parameters."""
from numba import njit

from simulator.games.fifty_six.view import (
    BID, PLAY, DOUBLE, L_DOUBLE, L_MAX, L_MIN, L_PASS, L_REDOUBLE, L_THANI, NO_TRUMPS, PASS, REDOUBLE,
    F_THANI, bid_code, nth_form,
)
from simulator.bits import nth_bit, popcount
from simulator.rng import below
from simulator.strategy import StrategyDef


@njit(cache=True, inline="always")
def random_bid(hand, n, public, private, legal, params, rng):
    """Uniform over the legal calls: pass, double, redouble, every (value, trump) bid and thani;
    the bid's form is then uniform over the forms that call may take."""
    nbid = (legal[L_MAX] - legal[L_MIN] + 1) * 5 if legal[L_MIN] > 0 else 0
    total = legal[L_PASS] + legal[L_DOUBLE] + legal[L_REDOUBLE] + legal[L_THANI] + nbid
    r = below(rng, total)
    if r < legal[L_PASS]:
        return PASS
    r -= legal[L_PASS]
    if r < legal[L_DOUBLE]:
        return DOUBLE
    r -= legal[L_DOUBLE]
    if r < legal[L_REDOUBLE]:
        return REDOUBLE
    r -= legal[L_REDOUBLE]
    if r < legal[L_THANI]:
        return bid_code(legal[L_MAX] + 1, NO_TRUMPS, F_THANI)
    r -= legal[L_THANI]
    value = legal[L_MIN] + r // 5
    trump = r % 5
    k = nth_form(value, trump, legal, -1)
    return bid_code(value, trump, nth_form(value, trump, legal, below(rng, k)))


@njit(cache=True, inline="always")
def random_play(hand, n, public, private, legal, params, rng):
    """Uniform over the legal cards."""
    k = 0
    for i in range(n):
        k += legal[i]
    r = below(rng, k)
    for i in range(n):  # branch-free but for the exit: random picks defeat branch prediction
        r -= legal[i]
        if r < 0:
            return i
    return -1


@njit(cache=True, inline="always")
def random_reveal(hand, n, public, private, legal, params, rng):
    """Ask for the hidden trump with probability 1/2."""
    return below(rng, 2)


@njit(cache=True)
def never_reveal(hand, n, public, private, legal, params, rng):
    """Never asks for a hidden trump (the default for plug-ins without a reveal function)."""
    return 0


@njit(cache=True, inline="always")
def random_play_mask(legal_mask, rng):
    """random_play on the kernel's hand masks: the same choice (the r-th legal card in slot
    order) without building arrays."""
    return nth_bit(legal_mask, below(rng, popcount(legal_mask)))


@njit(cache=True, inline="always")
def builtin_play_mask(sid, legal_mask, rng):
    """Card choice of a built-in that can decide from the legal-card mask alone (a slot), or
    -1 to be asked through the array interface."""
    if sid == 0:
        return random_play_mask(legal_mask, rng)
    return -1


@njit(cache=True, inline="always")
def builtin_decision(kind, sid, hand, n, public, private, legal, params, rng):
    """Direct calls to the built-ins (sid = position in BUILTINS): no function pointer, no
    reference counting per call, and the compiler may inline them into the kernel."""
    if sid == 0:
        if kind == BID:
            return random_bid(hand, n, public, private, legal, params, rng)
        if kind == PLAY:
            return random_play(hand, n, public, private, legal, params, rng)
        return random_reveal(hand, n, public, private, legal, params, rng)
    return -1


BUILTINS = (
    StrategyDef(
        "random",
        "uniform over legal actions at every decision (call, card, asking for a hidden trump)",
        {"bid": random_bid, "play": random_play, "reveal": random_reveal},
    ),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = {d.name: i for i, d in enumerate(BUILTINS)}
