"""What a Contract Rummy player sees: array layouts, decision codes and meld arithmetic.

Cards are the shared codes (simulator/cards.py): ``suit * 13 + rank``, ranks 0..12 = 2..A,
``JOKER`` = 52. A hand is ``mine``: int64 counts per code (53 entries, ``mine[52]`` = jokers);
``mine[:52].reshape(4, 13)`` is the ``cnt`` the search functions (search.py) take.

Table melds are records of ``MW`` int32 (``M_*``): kind (SET 0 / RUN 1), key (rank of a set,
suit of a run), ``nat`` and ``jok`` bit masks (a set: suit bits 0..3; a run: positions 0..13
with the ace low at 0, ranks 2..K at 1..12 and the ace high at 13), the owner seat and the
number of cards. A joker's declared card is the bit it holds in ``jok``.

Every decision function of a strategy has one signature (``DECISION_SIG``)::

    fn(mine, public, private, legal, params, rng) -> int64

- ``mine``: the player's hand (int64[53], see above);
- ``public``: the table (int32, indices ``P_*``): the deal's contract and rules, stock and
  pile sizes, the whole discard pile (bottom first; every card was face up), each player's
  card count, whether and when their contract went down, buys, and every meld on the table;
  the decks and jokers in play (``P_DECKS``, ``P_NJOKERS``); and per seat the cards it took
  from the discard pile this deal (``P_TAKEN + seat * NCODES + card``: counts of the top
  discards, deep draws and bought discards it took -- every player saw them go, so they are
  public; they stay counted after being melded or laid off);
- ``private``: this player's own facts (``V_*``): seat, own turn, cards and penalty it would
  keep if it laid its contract now, the card a deep draw obliges it to lay off, the top
  discard it took this turn while it is held (-1 once it, or an identical copy, is melded:
  it may not be discarded unless a second copy is held, and no lay-off or lay-down leaves it
  alone in hand -- the legal lists already say so), the discard on offer to buy, and
  whether the top discard (at DRAW) or the discard on offer (at BUY) would let it lay its
  contract (1 / 0; -1: not computed -- the kernel skips it for ``random``; ``would_lay``
  answers the same from public facts);
- ``legal``: ``legal[0]`` = n, ``legal[1..n]`` the codes of the legal choices;
- ``params``: the strategy's float64 parameters; ``rng``: the player's random stream.

It returns the index (0..n-1) of its choice. Decisions and their codes:

- DRAW: ``D_STOCK`` (0), ``D_TOP`` (1), or ``D_DEEP + i`` to take pile[i] and every card
  above it (only offered when the player can meld pile[i] this turn);
- BUY: 0 no, 1 yes (``private[V_OFFER]`` is the discard on offer);
- LAY: 0 wait, 1 lay the contract down now (the layout is the one with the fewest penalty
  points left, from search.lay_contract);
- LAYOFF: ``STOP`` (0), a lay-off ``layoff_code(joker, meld, slot)``, or a joker swap
  ``swap_code(meld, pos, meld2, slot2)`` (take the joker at ``pos`` of run ``meld`` for the
  natural card, then lay that joker at ``slot2`` of ``meld2``);
- DISCARD: a card code held (52 = a joker).

Other hands and the stock order never reach a strategy.
"""
import numpy as np
from numba import njit, types, uint64

from cardsim.simulator.bits import ctz, popcount, top_bit
from cardsim.simulator.games.contract_rummy.search import can_lay
from cardsim.simulator.games.contract_rummy.rules import MAX_CARDS, MAX_SEATS

DECISION_SIG = types.int64(
    types.int64[::1], types.int32[::1], types.int32[::1], types.int32[::1],
    types.float64[::1], types.uint64[::1],
)
DECISION_FN = types.FunctionType(DECISION_SIG)
DRAW, BUY, LAY, LAYOFF, DISCARD = range(5)
DECISIONS = ("draw", "buy", "lay", "layoff", "discard")

JOKER = 52
NCODES = 53
SET, RUN = 0, 1
PENALTY = np.array([r + 2 if r < 9 else (15 if r == 12 else 10) for _s in range(4)
                    for r in range(13)] + [15], np.int64)

# draw codes
D_STOCK, D_TOP, D_DEEP = 0, 1, 2
# lay-off codes
STOP = 0
OP_LAYOFF, OP_SWAP = 1, 2
LEGAL_LEN = 1024

# meld records
M_KIND, M_KEY, M_NAT, M_JOK, M_OWNER, M_CARDS = range(6)
MW = 6
MAX_MELDS = 4 * MAX_SEATS

# public[] layout
(P_PLAYERS, P_DEAL, P_TURN, P_SEAT, P_STOCK_N, P_PILE_N, P_NSETS, P_NRUNS, P_DEALT,
 P_MIN_RUN, P_MAX_MELD, P_ACE_LOW, P_RUNS_DISTINCT, P_ALL_AT_ONCE, P_LAYOFF_SETS, P_BUYING,
 P_BUY_LIMIT, P_NMELDS, P_RESHUFFLES, P_DECKS, P_NJOKERS) = range(21)
P_HAND_N = 24       # [8] cards each player holds
P_DOWN = 32         # [8] 1 once the player's contract is down
P_DOWN_TURN = 40    # [8] deal turn in which it went down (0: not yet)
P_BUYS = 48         # [8] buys made this deal
P_MELDS = 64        # [MAX_MELDS x MW]
P_PILE = P_MELDS + MAX_MELDS * MW  # [MAX_CARDS] the discard pile, bottom first
P_TAKEN = P_PILE + MAX_CARDS  # [MAX_SEATS x NCODES] cards each seat took from the pile
P_LEN = P_TAKEN + MAX_SEATS * NCODES

# private[] layout (one row per seat)
(V_SEAT, V_OWN_TURN, V_LAY_CARDS, V_LAY_PEN, V_FORCED, V_TOP_TAKEN, V_OFFER, V_TOP_LAYS,
 V_OFFER_LAYS) = range(9)
V_LEN = 12


@njit(cache=True, inline="always")
def layoff_code(joker, m, slot):
    return (OP_LAYOFF << 20) | (joker << 19) | (m << 4) | slot


@njit(cache=True, inline="always")
def swap_code(m, pos, m2, slot2):
    return (OP_SWAP << 20) | (m << 14) | (pos << 10) | (m2 << 4) | slot2


@njit(cache=True, inline="always")
def code_op(code):
    return code >> 20


@njit(cache=True, inline="always")
def rank_of_pos(p):
    """Rank (0..12) of run position p (0 and 13 are the ace)."""
    return 12 if (p == 0 or p == 13) else p - 1


@njit(cache=True, inline="always")
def card_at(kind, key, slot):
    """Card code of a natural at ``slot`` of a meld (suit bit of a set, position of a run)."""
    if kind == SET:
        return slot * 13 + key
    return key * 13 + rank_of_pos(slot)


@njit(cache=True, inline="always")
def bit(i):
    return np.int64(1) << np.int64(i)


@njit(cache=True)
def run_ends(occ):
    """(lowest, highest) occupied position of a run mask."""
    lo = np.int64(ctz(np.uint64(occ)))
    hi = np.int64(top_bit(np.uint64(occ)))
    return lo, hi


@njit(cache=True)
def slot_open(kind, nat, jok, slot, ace_low, layoff_sets):
    """Can one more card go at ``slot`` of a meld on the table (laying off)? A run grows at
    either end (no wrap; the ace low only with ace_low; never the ace at both ends); a set
    takes a missing suit up to 4 cards (with lay_off_sets)."""
    occ = nat | jok
    if kind == SET:
        return layoff_sets and (occ & bit(slot)) == 0
    if slot < 0 or slot > 13 or (slot == 0 and not ace_low):
        return False
    lo, hi = run_ends(occ)
    if slot != lo - 1 and slot != hi + 1:
        return False
    if (slot == 0 and (occ & bit(13)) != 0) or (slot == 13 and (occ & bit(0)) != 0):
        return False
    return True


@njit(cache=True)
def fits_table(public, c):
    """Can card ``c`` be laid off on some meld on the table now?"""
    ace_low = public[P_ACE_LOW] == 1
    sets_ok = public[P_LAYOFF_SETS] == 1
    for m in range(public[P_NMELDS]):
        b = P_MELDS + m * MW
        kind, key, nat, jok = public[b + M_KIND], public[b + M_KEY], public[b + M_NAT], public[b + M_JOK]
        if kind == SET:
            for s in range(4):
                if (c == JOKER or c == s * 13 + key) and slot_open(kind, nat, jok, s, ace_low,
                                                                    sets_ok):
                    return True
        else:
            lo, hi = run_ends(nat | jok)
            for slot in (lo - 1, hi + 1):
                if slot_open(kind, nat, jok, slot, ace_low, sets_ok) and (
                        c == JOKER or card_at(kind, key, slot) == c):
                    return True
    return False


@njit(cache=True, inline="always")
def hand_penalty(mine):
    t = 0
    for c in range(NCODES):
        t += mine[c] * PENALTY[c]
    return t


@njit(cache=True)
def could_join(mine, c, nsets, nruns, min_run, ace_low):
    """Could card ``c`` be part of a meld with what ``mine`` holds? A set needs another suit of
    its rank or two jokers; a run a natural of its suit within (jokers + 1) positions or
    min_run - 1 jokers. When it could not, a hand that cannot lay its contract cannot lay it
    with ``c`` either (the contract search can be skipped)."""
    if c == JOKER:
        return True
    j = mine[JOKER]
    s = c // 13
    r = c % 13
    if nsets > 0:
        if j >= 2:
            return True
        for t in range(4):
            if t != s and mine[t * 13 + r] > 0:
                return True
    if nruns > 0:
        if j >= min_run - 1:
            return True
        p = r + 1
        for q in range(13):
            if q == r or mine[s * 13 + q] == 0:
                continue
            pq = q + 1
            dist = abs(pq - p)
            if ace_low:
                if r == 12:
                    dist = min(dist, pq)  # c as the low ace
                if q == 12:
                    dist = min(dist, p)
            if dist <= j + 1:
                return True
    return False


@njit(cache=True)
def would_lay(mine, public, c):
    """Could the hand lay this deal's contract with one more card ``c``? (Public rules only.)"""
    # int64, as the kernel passes them: the search is then compiled once, not again for int32
    nsets = np.int64(public[P_NSETS])
    nruns = np.int64(public[P_NRUNS])
    min_run = np.int64(public[P_MIN_RUN])
    ace_low = public[P_ACE_LOW] == 1
    if not could_join(mine, c, nsets, nruns, min_run, ace_low):
        return False
    h = mine.copy()
    h[c] += 1
    if not could_lay(h, nsets, nruns, min_run, ace_low, np.empty(4, np.int64)):
        return False
    return can_lay(h[:52].reshape((4, 13)), h[JOKER], nsets, nruns, min_run,
                   np.int64(public[P_MAX_MELD]), ace_low, public[P_RUNS_DISTINCT] == 1,
                   public[P_ALL_AT_ONCE] == 1)


@njit(cache=True, inline="always")
def _keep_smallest(best, k, v):
    """Insert v into best[:k] (ascending, the k smallest so far)."""
    if v >= best[k - 1]:
        return
    i = k - 1
    while i > 0 and best[i - 1] > v:
        best[i] = best[i - 1]
        i -= 1
    best[i] = v


@njit(cache=True)
def could_lay(mine, nsets, nruns, min_run, ace_low, best):
    """A quick necessary condition for laying the contract: the jokers held cover the fewest
    jokers the cheapest sets and runs would need, sets and runs counted apart (a laying shrinks
    to sets of 3 and runs of min_run). k sets of one rank take at most min(held, k) cards of
    each suit and 3k cards in all, so they lack at least 3k - min(3k, sum of those); the
    sets' cheapest choice takes the smallest of these steps over the ranks (they grow with k).
    A run lacks min_run minus the naturals in its window, at most once per window and copy
    layer. False means surely not. ``best``: int64 scratch of at least 4."""
    j = mine[JOKER]
    big = 1 << 30
    need = 0
    if nsets > 0:
        for i in range(nsets):
            best[i] = big
        for r in range(13):
            x0 = mine[r]
            x1 = mine[13 + r]
            x2 = mine[26 + r]
            x3 = mine[39 + r]
            c = x0 + x1 + x2 + x3
            lack = 0  # 3k - (cards k sets of this rank can hold), k = 0, 1, ...
            prev = 0  # jokers the k sets need: max(0, lack)
            for k in range(1, min(c, nsets) + 1):
                lack += 3 - ((x0 >= k) + (x1 >= k) + (x2 >= k) + (x3 >= k))
                now = max(lack, 0)
                if now - prev >= best[nsets - 1]:
                    break  # the steps only grow
                _keep_smallest(best, nsets, now - prev)
                prev = now
        for i in range(nsets):
            need += best[i]
        if need > j:
            return False
    if nruns > 0:
        for i in range(nruns):
            best[i] = big
        lo_p = 0 if ace_low else 1
        win = (1 << min_run) - 1
        for s in range(4):
            b = s * 13
            for layer in range(1, 4):
                m = 0  # run positions held at least ``layer`` times (rank r: r + 1)
                for r in range(13):
                    if mine[b + r] >= layer:
                        m |= 1 << (r + 1)
                if m == 0:
                    break
                if ace_low and (m >> 13) & 1:
                    m |= 1
                for p in range(lo_p, 15 - min_run):
                    c = np.int64(popcount(uint64((m >> p) & win)))
                    if c > 0:
                        _keep_smallest(best, nruns, min_run - c)
        for i in range(nruns):
            need += best[i]
        if need > j:
            return False
    return True
