"""Choices from a legal list, the form the rummy kernels offer decisions in: ``legal[0]`` is
the number of choices n and ``legal[1..n]`` their action codes; a strategy answers with an
index 0..n-1."""
from numba import njit

from cardsim.simulator.rng import below


@njit(cache=True, inline="always")
def random_choice(mine, public, private, legal, params, rng):
    """Uniform over the legal choices (every rummy decision's signature)."""
    return below(rng, legal[0])


@njit(cache=True, inline="always")
def index_of(legal, code, missing):
    """The index of action ``code`` in the list, ``missing`` when it is not offered."""
    for i in range(legal[0]):
        if legal[1 + i] == code:
            return i
    return missing
