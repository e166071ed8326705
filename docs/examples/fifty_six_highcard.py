"""Example 56 plug-in: bids its longest suit when it holds jacks, plays its highest legal card.

Run it with ``cardsim run fifty-six --strategy 0=docs/examples/fifty_six_highcard.py:highcard``
(add ``:min_jacks=1`` to change the parameter). A plug-in defines ``NAME_bid`` and
``NAME_play`` (and optionally ``NAME_reveal``) with the signature documented in
simulator/games/fifty_six/view.py, plus an optional ``NAME_params`` dict of defaults; the
parameters arrive in ``params`` in that order.
"""
from numba import njit

from cardsim.simulator.games.fifty_six.view import (
    L_MIN, L_OPENING, PASS, STRENGTH, bid_code, F_NUMBER_SUIT, F_SUIT_NUMBER,
)

highcard_params = {"min_jacks": 2.0}


@njit(cache=True)
def highcard_bid(hand, n, public, private, legal, params, rng):
    if legal[L_OPENING] == 0 or legal[L_MIN] == 0:
        return PASS  # only ever opens
    jacks = 0
    count = [0, 0, 0, 0]
    for i in range(n):
        jacks += STRENGTH[hand[i]] == 7
        count[hand[i] // 13] += 1
    if jacks < params[0]:
        return PASS
    best = 0
    for s in range(1, 4):
        if count[s] > count[best]:
            best = s
    has_jack = False
    for i in range(n):
        if hand[i] // 13 == best and STRENGTH[hand[i]] == 7:
            has_jack = True
    # the sheet's signal: "number, suit" when holding the suit's jack, "suit, number" otherwise
    return bid_code(legal[L_MIN], best, F_NUMBER_SUIT if has_jack else F_SUIT_NUMBER)


@njit(cache=True)
def highcard_play(hand, n, public, private, legal, params, rng):
    best = -1
    for i in range(n):
        if legal[i] and (best < 0 or STRENGTH[hand[i]] > STRENGTH[hand[best]]):
            best = i
    return best
