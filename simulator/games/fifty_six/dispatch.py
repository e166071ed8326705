"""Strategy dispatch generated from cardsim.strategies.fifty_six.BUILTINS by ``python -m
cardsim.simulator.dispatchgen``: do not edit (tests/test_dispatch.py checks it is current).
Built-in ids: random 0, evaluator 1, conventional 2, cautious 3, aggressive 4, tuned 5, expert
6."""
from numba import njit

from cardsim.strategies.fifty_six import (
    conventional_bid, evaluator_bid, heuristic_bid_mask, heuristic_play_slot, random_bid,
    random_bid_mask, random_play, random_play_slot, random_reveal,
)
from cardsim.strategies.fifty_six_play import heuristic_play, heuristic_reveal


@njit(cache=True)
def decide_bid(sid, fn, hand, n, public, private, legal, params, rng):
    """The bid decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(hand, n, public, private, legal, params, rng)
    if sid == 0:
        return random_bid(hand, n, public, private, legal, params, rng)
    if sid == 1 or 3 <= sid <= 5:
        return evaluator_bid(hand, n, public, private, legal, params, rng)
    return conventional_bid(hand, n, public, private, legal, params, rng)


@njit(cache=True)
def decide_play(sid, fn, hand, n, public, private, legal, params, rng):
    """The play decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(hand, n, public, private, legal, params, rng)
    if sid == 0:
        return random_play(hand, n, public, private, legal, params, rng)
    return heuristic_play(hand, n, public, private, legal, params, rng)


@njit(cache=True)
def decide_reveal(sid, fn, hand, n, public, private, legal, params, rng):
    """The reveal decision of built-in ``sid``, or of a plug-in (sid < 0) through its
    pointer ``fn``."""
    if sid < 0:
        return fn(hand, n, public, private, legal, params, rng)
    if sid == 0:
        return random_reveal(hand, n, public, private, legal, params, rng)
    return heuristic_reveal(hand, n, public, private, legal, params, rng)


@njit(cache=True, inline="always")
def hook_bid_mask(sid, hm, public, priv, legal, params, rng):
    """The bid_mask fast path of built-in ``sid``; -1 for the others."""
    if sid < 0:
        return -1
    if sid == 0:
        return random_bid_mask(sid, hm, public, priv, legal, params, rng)
    return heuristic_bid_mask(sid, hm, public, priv, legal, params, rng)


@njit(cache=True, inline="always")
def hook_play_mask(sid, h, lm, public, priv, params, played, deck, rng):
    """The play_mask fast path of built-in ``sid``; -1 for the others."""
    if sid < 0:
        return -1
    if sid == 0:
        return random_play_slot(h, lm, public, priv, params, played, deck, rng)
    return heuristic_play_slot(h, lm, public, priv, params, played, deck, rng)
