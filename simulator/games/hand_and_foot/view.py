"""What a Hand and Foot player sees: card kinds, array layouts, and meld arithmetic.

Cards in play are counted by **kind** (suits matter only for telling red threes from black):
kinds 0..10 are the natural ranks 4..A, then 2, joker, black three, red three.

Every decision function of a strategy has one signature (``DECISION_SIG``)::

    fn(mine, public, private, legal, params, rng) -> int64

- ``mine``: int16 counts per kind of the cards the player holds now (hand, or foot once
  picked up);
- ``public``: the table (int32, indices ``P_*``): stock and pile sizes, the pile's top card and
  the kinds of its top cards (all of them were discarded face up), every player's card
  counts and foot status, every team's melds, books and red threes;
- ``private``: this player's own facts (indices ``V_*``): seat, team, partner, what its hand
  can still meld toward the initial minimum, points staged this turn, permission state;
- ``legal``: ``legal[0]`` = number of choices n, ``legal[1..n]`` their codes;
- ``params``: the strategy's float64 parameters; ``rng``: the player's random stream.

It returns the index (0..n-1) of its choice in ``legal[1..n]``. Decisions and codes:
DRAW (0 stock, or end the deal when the stock is empty; 1 take the pile), MELD (action codes,
see ``action``), DISCARD (kinds), ASK (0/1: ask the partner to go out), GRANT (0/1: the
partner answers; ``mine``/``private`` are then the partner's). Other hands, feet and the stock
order never reach a strategy.
"""
import numpy as np
from numba import njit, types

from cardsim.simulator.rules import Slots

DECISION_SIG = types.int64(
    types.int16[::1], types.int32[::1], types.int32[::1], types.int16[::1],
    types.float64[::1], types.uint64[::1],
)
DECISION_FN = types.FunctionType(DECISION_SIG)
DRAW, MELD, DISCARD, ASK, GRANT = range(5)
DECISIONS = ("draw", "meld", "discard", "ask", "grant")
MAX_SEATS = 6
MAX_TEAMS = 3

# card kinds
NK = 15
K_A = 10
TWO, JOKER, BLACK3, RED3 = 11, 12, 13, 14
WILD_T = 11  # meld target of the all-wild meld (targets 0..10 are the natural ranks)
N_TARGETS = 12
KIND_NAMES = ("4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A", "2", "JK", "3B", "3R")
VALUE = np.array([5, 5, 5, 5, 10, 10, 10, 10, 10, 10, 20, 20, 50, 5, 100], np.int64)
KIND_OF = np.zeros(53, np.int8)  # card code (simulator.cards) -> kind
for _c in range(52):
    _r, _s = _c % 13, _c // 13
    KIND_OF[_c] = TWO if _r == 0 else ((RED3 if _s in (1, 2) else BLACK3) if _r == 1 else _r - 2)
KIND_OF[52] = JOKER

# meld actions: code = target * 16 + op
OP_ADD_NAT, OP_ADD_TWO, OP_ADD_JOKER, OP_START3, OP_START2_TWO, OP_START2_JOKER = range(6)
OP_W300, OP_W210, OP_W120, OP_W030 = 6, 7, 8, 9  # start a wild meld: (twos, jokers) = 3-i, i
OP_B3_3, OP_B3_4 = 10, 11  # black threes melded when going out (target 12)
B3_T = 12
STOP = 1000
LEGAL_LEN = 128

# decision outcome codes
TAKE_STOCK, TAKE_PILE = 0, 1

# public[] layout (int32): the table
_P = Slots()
P_PLAYERS = _P.one("P_PLAYERS")
P_NTEAMS = _P.one("P_NTEAMS")
P_DEAL = _P.one("P_DEAL")            # deal number, from 0
P_TURN = _P.one("P_TURN")            # turn of the deal, from 1
P_MIN_MELD = _P.one("P_MIN_MELD")    # the deal's minimum initial meld
P_STOCK_N = _P.one("P_STOCK_N")
P_PILE_N = _P.one("P_PILE_N")
P_PILE_TOP = _P.one("P_PILE_TOP")    # kind of the pile's top card (-1: empty pile)
P_SEAT = _P.one("P_SEAT")            # seat to act
P_DRAW_COUNT = _P.one("P_DRAW_COUNT")
P_NEED_CLEAN = _P.one("P_NEED_CLEAN")  # books a team needs to go out, by kind
P_NEED_DIRTY = _P.one("P_NEED_DIRTY")
P_NEED_WILD = _P.one("P_NEED_WILD")
P_PILE_TOP7 = _P.block("P_PILE_TOP7", NK)        # kinds among the top cards a take would give
P_HAND_N = _P.block("P_HAND_N", MAX_SEATS)       # cards each player holds (hand, or foot)
P_FOOT_N = _P.block("P_FOOT_N", MAX_SEATS)       # cards in each foot not yet picked up
P_IN_FOOT = _P.block("P_IN_FOOT", MAX_SEATS)     # 1 once the player picked up the foot
P_FOOT_TURNS = _P.block("P_FOOT_TURNS", MAX_SEATS)  # turns finished playing from the foot
P_TEAM_OF = _P.block("P_TEAM_OF", MAX_SEATS)     # each seat's team (-1: no such seat)
# a team's block (TEAM_W ints from team_base(team))
_T = Slots()
T_MELDED = _T.one("T_MELDED")  # 1 once the team made its initial meld
T_CLEAN = _T.one("T_CLEAN")    # books closed: clean, dirty, wild (in this order: _apply)
T_DIRTY = _T.one("T_DIRTY")
T_WILD = _T.one("T_WILD")
T_RED3 = _T.one("T_RED3")      # red threes laid out
T_POINTS = _T.one("T_POINTS")  # card values melded
# per meld target: naturals, twos and jokers of the team's unfinished meld
T_MELDS = _T.block("T_MELDS", 3 * N_TARGETS)
TEAM_W = _T.size
P_TEAMS = _P.block("P_TEAMS", MAX_TEAMS * TEAM_W)  # the teams' blocks, team_base(t) on
P_LEN = _P.size
assert T_DIRTY == T_CLEAN + 1 and T_WILD == T_CLEAN + 2  # _apply: T_CLEAN + book kind

# private[] layout (int32, one row per seat): what only the player knows
_V = Slots()
V_SEAT = _V.one("V_SEAT")
V_TEAM = _V.one("V_TEAM")
V_PARTNER = _V.one("V_PARTNER")        # -1: plays alone
V_IN_FOOT = _V.one("V_IN_FOOT")
# most points its counting cards can still add this turn (-1: the team has melded)
V_REACH = _V.one("V_REACH")
V_STAGED = _V.one("V_STAGED")  # counting points melded this turn (toward the minimum)
V_PILE_TAKEN = _V.one("V_PILE_TAKEN")  # took the pile this turn
V_PERMISSION = _V.one("V_PERMISSION")  # -1 not asked, 0 refused, 1 granted (this turn)
# per kind: cards from the pile held, which do not count toward the minimum
V_EXTRA = _V.block("V_EXTRA", NK)
V_LEN = _V.size


@njit(cache=True, inline="always")
def team_base(team):
    return P_TEAMS + team * TEAM_W


@njit(cache=True, inline="always")
def action(target, op):
    return target * 16 + op


@njit(cache=True, inline="always")
def rank_meld_ok(n, w):
    """A meld of n naturals and w wilds: 3..7 cards, at least twice as many naturals as
    wilds, and at most one wild below 6 cards."""
    z = n + w
    return 3 <= z <= 7 and 2 * w <= n and (z >= 6 or w <= 1)


MAX_C = 48  # naturals of one rank in 12 decks
MAX_U = 6  # wilds one rank can take in one turn that matter (books of 7 hold at most 2)


@njit(cache=True)
def _fresh_chain(c, u):
    """Most naturals melded from c naturals into new melds of one rank (books of 7, then at
    most one unfinished meld) using exactly u wilds; -1 if impossible."""
    best = -1
    for k in range(0, (c + u) // 7 + 1):
        for bf in range(0, min(u, 2) + 1):
            wb = u - bf  # wilds in the k books, at most 2 each
            if wb > 2 * k:
                continue
            nb = 7 * k - wb
            if nb > c:
                continue
            for af in range(0, 7):
                if af + bf == 0:
                    tot = nb
                elif rank_meld_ok(af, bf) and af + bf < 7 and nb + af <= c:
                    tot = nb + af
                else:
                    continue
                if tot > best:
                    best = tot
    return best


@njit(cache=True)
def chain_table():
    """CHAIN[n0, w0, c, u]: most naturals of c that can be melded, growing the team's
    unfinished meld of n0 naturals and w0 wilds (0, 0: none) and then new melds of the rank,
    with exactly u wilds; -1 if impossible."""
    fresh = np.full((MAX_C + 1, MAX_U + 1), -1, np.int64)
    for c in range(MAX_C + 1):
        for u in range(MAX_U + 1):
            fresh[c, u] = _fresh_chain(c, u)
    t = np.full((8, 3, MAX_C + 1, MAX_U + 1), -1, np.int8)
    for n0 in range(8):
        for w0 in range(3):
            for c in range(MAX_C + 1):
                for u in range(MAX_U + 1):
                    if n0 + w0 == 0:
                        t[n0, w0, c, u] = fresh[c, u]
                        continue
                    if n0 + w0 >= 7:
                        continue
                    best = -1
                    room = 7 - n0 - w0
                    for b in range(0, min(u, room) + 1):
                        for a in range(0, min(c, room - b) + 1):
                            n1 = n0 + a
                            w1 = w0 + b
                            if 2 * w1 > n1 or (n1 + w1 < 6 and w1 > 1):
                                continue
                            if n1 + w1 == 7:
                                rest = fresh[c - a, u - b]
                                if rest >= 0 and a + rest > best:
                                    best = a + rest
                            elif b == u and a > best:
                                best = a
                    t[n0, w0, c, u] = best
    return t


CHAIN = chain_table()


@njit(cache=True)
def _wild_chain_ok(s0, x):
    """Can x wilds go into the all-wild meld (s0 cards so far) and new wild melds?"""
    if x == 0:
        return True
    if s0 > 0:
        if x <= 7 - s0:
            return True
        x -= 7 - s0
    r = x % 7
    return r == 0 or r >= 3


@njit(cache=True)
def reach(cnt, public, team):
    """Most points the cards ``cnt`` (counts per kind) can add to the team's melds this turn
    (books of 7 close and new melds of a rank may follow; red and black threes never count).
    Exact for the meld rules: a small knapsack over ranks and wild cards."""
    base = team_base(team) + T_MELDS
    wt = np.int64(cnt[TWO])
    wj = np.int64(cnt[JOKER])
    W = wt + wj
    NEG = -(1 << 40)
    dp = np.empty(W + 1, np.int64)
    for i in range(W + 1):
        dp[i] = NEG
    dp[0] = 0
    nd = np.empty(W + 1, np.int64)
    for r in range(11):
        c = np.int64(cnt[r])
        n0 = public[base + 3 * r]
        w0 = public[base + 3 * r + 1] + public[base + 3 * r + 2]
        if c == 0 and (n0 == 0 or 2 * (w0 + 1) > n0 or n0 + w0 >= 7):
            continue  # nothing of this rank can be melded
        for i in range(W + 1):
            nd[i] = NEG
        for u in range(0, min(W, MAX_U) + 1):
            f = np.int64(CHAIN[n0, w0, min(c, MAX_C), u])
            if f < 0:
                continue
            gain = f * VALUE[r]
            for i in range(W + 1 - u):
                if dp[i] > NEG and dp[i] + gain > nd[i + u]:
                    nd[i + u] = dp[i] + gain
        for i in range(W + 1):
            dp[i] = nd[i]
    s0 = public[base + 3 * WILD_T + 1] + public[base + 3 * WILD_T + 2]
    best = 0
    for used in range(W + 1):  # wilds in rank melds
        if dp[used] <= NEG:
            continue
        for x in range(0, W - used + 1):  # wilds in wild melds
            if not _wild_chain_ok(s0, x):
                continue
            t = used + x
            val = dp[used] + min(t, wj) * VALUE[JOKER] + max(0, t - wj) * VALUE[TWO]
            if val > best:
                best = val
    return best


@njit(cache=True)
def reach_lower_bound(cnt, public, team):
    """A quick lower bound of reach(): naturals added to unfinished melds up to a book, ranks
    held 3 to 7 times without a meld, and wilds in the all-wild meld (no wild elsewhere)."""
    base = team_base(team) + T_MELDS
    lb = 0
    for r in range(11):
        c = cnt[r]
        z = public[base + 3 * r] + public[base + 3 * r + 1] + public[base + 3 * r + 2]
        if z > 0:
            lb += min(c, 7 - z) * VALUE[r]
        elif 3 <= c <= 7:
            lb += c * VALUE[r]
    wt = cnt[TWO]
    wj = cnt[JOKER]
    s0 = public[base + 3 * WILD_T + 1] + public[base + 3 * WILD_T + 2]
    room = 7 - s0 if s0 > 0 else (7 if wt + wj >= 3 else 0)
    x = min(wt + wj, room)  # the cheapest wilds: twos first
    lb += min(x, wt) * VALUE[TWO] + max(0, x - wt) * VALUE[JOKER]
    return lb


@njit(cache=True, inline="always")
def points_of(cnt):
    """Card points of counts per kind (red threes at 100)."""
    t = 0
    for k in range(NK):
        t += cnt[k] * VALUE[k]
    return t
