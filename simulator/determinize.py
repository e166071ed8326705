"""Dealing the cards a player cannot see, consistently with what it has seen: the sampling
step of players that search (perfect-information Monte Carlo, as bridge's GIB and Skat's
programs do it). Written for any game whose hands are uint64 masks of card slots.

``deal_unseen`` hands the cards of a mask to seats with a given number of cards each, never
a card of a kind (a suit) that seat is known to lack. Cards are dealt the most constrained
kind first, each to a seat drawn in proportion to the room it has left among the seats that
may hold it; a dead end (a card no seat may take) starts the deal again. This is close to,
not exactly, uniform over the consistent deals; exact rejection sampling can need thousands
of tries late in a deal with many voids shown.
"""
import numpy as np
from numba import njit, uint64

from cardsim.simulator.bits import ctz
from cardsim.simulator.rng import below

ZERO = uint64(0)
ONE = uint64(1)
TRIES = 50


@njit(cache=True)
def deal_unseen(out, kind_of, caps, barred, rng, hands):
    """Deal the cards (slots) of mask ``out`` into ``hands`` (uint64 per seat, OR-ed in):
    seat s gets ``caps[s]`` of them, none of a kind k with bit k of ``barred[s]`` set
    (``kind_of[slot]``: a card's kind, below 32). Returns False, dealing nothing, when no
    consistent deal was found in TRIES starts (the constraints may contradict each other)."""
    n_seats = caps.shape[0]
    cards = np.empty(64, np.int64)
    n = 0
    x = out
    while x != ZERO:
        cards[n] = np.int64(ctz(x))
        n += 1
        x &= x - ONE
    # the kinds in order of how many seats may hold them (fewest first), cards shuffled
    # within a kind by the draws below
    order = np.empty(n, np.int64)
    rank = np.empty(n, np.int64)
    for i in range(n):
        k = kind_of[cards[i]]
        allowed = 0
        for s in range(n_seats):
            allowed += caps[s] > 0 and (barred[s] >> k) & 1 == 0
        rank[i] = allowed * 64 + k
    idx = np.argsort(rank, kind="mergesort")
    for i in range(n):
        order[i] = cards[idx[i]]
    room = np.empty(n_seats, np.int64)
    got = np.empty(n_seats, np.uint64)
    for _ in range(TRIES):
        for s in range(n_seats):
            room[s] = caps[s]
            got[s] = ZERO
        ok = True
        for i in range(n):
            c = order[i]
            k = kind_of[c]
            total = 0
            for s in range(n_seats):
                if (barred[s] >> k) & 1 == 0:
                    total += room[s]
            if total == 0:
                ok = False
                break
            r = below(rng, total)
            for s in range(n_seats):
                if (barred[s] >> k) & 1 == 0:
                    r -= room[s]
                    if r < 0:
                        got[s] |= ONE << uint64(c)
                        room[s] -= 1
                        break
        if ok:
            for s in range(n_seats):
                hands[s] |= got[s]
            return True
    return False
