"""Test strategies for 56: play a script given in the parameter vector (hand-made positions).

params = [n_calls, call_0, ..., call_{n-1}, card_0, card_1, ...]: call k of the auction and
the k-th card played in the deal (card codes); past the script, pass and play the first legal
card. ``reveal`` always asks. Built as plug-ins, so these tests also cover the function-pointer
path of the kernel.
"""
from numba import njit

from cardsim.simulator.games.fifty_six.view import PB_NCALLS, PB_PLAYED, PASS
from cardsim.simulator.strategy import Param, StrategyDef


@njit(cache=True)
def script_bid(hand, n, public, private, legal, params, rng):
    k = public[PB_NCALLS]
    if k < params[0]:
        return int(params[1 + k])
    return PASS


@njit(cache=True)
def script_play(hand, n, public, private, legal, params, rng):
    played = 0
    for c in range(53):
        played += public[PB_PLAYED + c]
    at = 1 + int(params[0]) + played
    if at < params.shape[0] and params[at] >= 0:
        want = int(params[at])
        for i in range(n):
            if hand[i] == want:
                return i
        return -1  # not in hand: the kernel must refuse it
    for i in range(n):
        if legal[i]:
            return i
    return -1


@njit(cache=True)
def ask_reveal(hand, n, public, private, legal, params, rng):
    return 1


@njit(cache=True)
def first_card(hand, n, public, private, legal, params, rng):
    """Ignores legality: plays its last (highest) card (to show illegal plays are caught)."""
    return n - 1


def scripted(width: int = 160) -> StrategyDef:
    return StrategyDef(
        "scripted", "plays a script", {"bid": script_bid, "play": script_play,
                                       "reveal": ask_reveal},
        params=tuple(Param(f"p{i}", -1.0 if i else 0.0, "script") for i in range(width)),
        plugin=True)


def reckless() -> StrategyDef:
    return StrategyDef("reckless", "passes, plays its last card whatever the lead",
                       {"bid": script_bid, "play": first_card, "reveal": ask_reveal},
                       params=(Param("p0", 0.0, "no calls"),), plugin=True)
