"""Strategy dispatch generated from tests.toy_tricks.strategies.BUILTINS by
``python -m cardsim.simulator.dispatchgen``: do not edit (tests/test_dispatch.py checks
it is current). Built-in ids: random 0, highest 1."""
from numba import njit

from tests.toy_tricks.strategies import highest_play, random_play


@njit(cache=True)
def decide_play(sid, fn, hand, n, public, private, legal, params, rng):
    """The play decision of built-in ``sid``, or of a plug-in (sid < 0) through its pointer
    ``fn``."""
    if sid < 0:
        return fn(hand, n, public, private, legal, params, rng)
    if sid == 0:
        return random_play(hand, n, public, private, legal, params, rng)
    return highest_play(hand, n, public, private, legal, params, rng)
