"""Counter-based random streams.

Every random number of a game comes from a stream keyed by (run seed, game index, sub-stream),
so a game's dice never depend on which thread, chunk or backend played it, and any game can be
replayed from its index alone. A stream is a two-word array ``[key, counter]``; draw ``k`` is
``mix64(key + k * GOLDEN)`` (SplitMix64's output function over a per-stream start point).

Sub-streams keep unrelated randomness apart: the shuffle of deal ``d`` does not move when a
strategy draws more or fewer numbers, so two strategies can be compared on identical deals.
"""
import numpy as np
from numba import njit, uint64

GOLDEN = np.uint64(0x9E3779B97F4A7C15)
_M1 = np.uint64(0xBF58476D1CE4E5B9)
_M2 = np.uint64(0x94D049BB133111EB)
_S30 = np.uint64(30)
_S27 = np.uint64(27)
_S31 = np.uint64(31)
_S32 = np.uint64(32)
_ONE = np.uint64(1)

# sub-stream tags (any distinct constants)
SUB_SETUP = np.uint64(0x5E7)
SUB_DEAL = np.uint64(0xDEA1_0000)
SUB_SEAT = np.uint64(0x5EA7_0000)
SUB_FIXED = np.uint64(0xF1ED_0000)  # a constrained deal (simulator.constrained), apart from
# the deal's own stream, which a kernel goes on drawing from (burials, reshuffles)


@njit(cache=True, inline="always")
def mix64(z):
    z = uint64(z)
    z = (z ^ (z >> _S30)) * _M1
    z = (z ^ (z >> _S27)) * _M2
    return z ^ (z >> _S31)


@njit(cache=True)
def game_key(seed, game_index):
    """Key of one game's stream: a bijection of the game index for a fixed seed."""
    return mix64(mix64(uint64(seed) ^ GOLDEN) + uint64(game_index) * GOLDEN)


@njit(cache=True, inline="always")
def substream(rng, game_key_, tag, index):
    """Point ``rng`` (a uint64[2] array) at sub-stream (tag, index) of a game."""
    rng[0] = mix64(game_key_ ^ mix64(tag + uint64(index)))
    rng[1] = uint64(0)


@njit(cache=True, inline="always")
def next_u64(rng):
    rng[1] += _ONE
    return mix64(rng[0] + rng[1] * GOLDEN)


@njit(cache=True, inline="always")
def below(rng, n):
    """Uniform integer in [0, n) for 0 < n < 2**32 (multiply-shift; bias < n / 2**32)."""
    return np.int64(((next_u64(rng) >> _S32) * uint64(n)) >> _S32)


@njit(cache=True)
def shuffle(rng, a, n):
    """Fisher-Yates over a[:n], two 32-bit draws per 64-bit word."""
    i = n - 1
    while i > 0:
        w = next_u64(rng)
        j = np.int64(((w >> _S32) * uint64(i + 1)) >> _S32)
        t = a[i]
        a[i] = a[j]
        a[j] = t
        i -= 1
        if i > 0:
            j = np.int64(((w & uint64(0xFFFFFFFF)) * uint64(i + 1)) >> _S32)
            t = a[i]
            a[i] = a[j]
            a[j] = t
            i -= 1



@njit(cache=True, inline="always")
def shuffle_or_preset(deck, n, preset, use_preset, rng):
    """The deck of a deal, filled in order by the caller: replaced by ``preset`` (a hand-made
    position, for tests and replays of given hands) when ``use_preset`` and the preset has
    the deck's ``n`` cards, else shuffled."""
    if use_preset and preset.shape[0] == n:
        for i in range(n):
            deck[i] = preset[i]
    else:
        shuffle(rng, deck, n)
