"""Lowball: draws from the stock, takes the top discard only when it is a 2-5, and discards its
highest-penalty card (never a joker while anything else is held). Lays down, lays off and buys
like the built-in heuristic (the defaults for the decisions it does not define).

    cardsim run contract-rummy --games 1000 --strategy 0=docs/examples/contract_rummy_lowball.py:lowball

The signature and the codes are documented in simulator/games/contract_rummy/view.py.
"""
from numba import njit

from cardsim.simulator.games.contract_rummy.view import D_STOCK, D_TOP, JOKER, P_PILE, P_PILE_N, PENALTY

lowball_params = {"low": 5.0}  # the highest rank (face value) it takes from the pile


@njit(cache=True)
def lowball_draw(mine, public, private, legal, params, rng):
    n = public[P_PILE_N]
    top = public[P_PILE + n - 1] if n > 0 else -1
    want = top >= 0 and top != JOKER and (top % 13) + 2 <= params[0]
    for i in range(legal[0]):
        if legal[1 + i] == (D_TOP if want else D_STOCK):
            return i
    return 0


@njit(cache=True)
def lowball_discard(mine, public, private, legal, params, rng):
    best = 0
    worst = -1
    for i in range(legal[0]):
        c = legal[1 + i]
        p = -1 if c == JOKER else PENALTY[c]
        if p > worst:
            worst = p
            best = i
    return best
