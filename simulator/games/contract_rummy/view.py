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
from cardsim.simulator.dispatchgen import DispatchSpec, Entry
from cardsim.simulator.games.contract_rummy.search import can_lay
from cardsim.simulator.games.contract_rummy.rules import MAX_CARDS, MAX_SEATS
from cardsim.simulator.rules import Slots

DECISION_SIG = types.int64(
    types.int64[::1], types.int32[::1], types.int32[::1], types.int32[::1],
    types.float64[::1], types.uint64[::1],
)
DECISION_FN = types.FunctionType(DECISION_SIG)
DRAW, BUY, LAY, LAYOFF, DISCARD = range(5)
DECISIONS = ("draw", "buy", "lay", "layoff", "discard")
_ARGS = ("mine", "public", "private", "legal", "params", "rng")
# The kernel's dispatch (dispatch.py), written from strategies.contract_rummy.BUILTINS by
# python -m cardsim.simulator.dispatchgen. direct=False: every decision, built-ins too, goes
# through the pointer of the strategy slot playing the seat -- direct calls would link the
# strategies (and the contract search under would_lay) into play_deal, to be optimized there
# again (docs/design.md, "Compile time"). The hooks still switch on the id.
DISPATCH = DispatchSpec(
    "cardsim.strategies.contract_rummy", "cardsim.simulator.games.contract_rummy.dispatch",
    tuple(Entry(d, _ARGS, inline=True, doc=f"the {d} decision of the strategy whose pointer "
                "is ``fn`` (built-ins too: see view.DISPATCH)") for d in DECISIONS) + (
        Entry("deep_draws", ("params", "nruns"), hook=True, default="(2, 1 << 20)",
              inline=True, doc="which deep draws the kernel lists for strategy ``sid`` "
              "(kernel._list_draws), as (mode, cap): 2 every one, 1 only the shallowest "
              "taking at most ``cap`` cards, 0 none; (2, 1 << 20), every one, for a strategy "
              "that does not say (random, plug-ins)"),
        Entry("lay_hints", ("params",), hook=True, default="True", inline=True,
              doc="does the kernel answer V_TOP_LAYS and V_OFFER_LAYS for strategy ``sid`` "
              "(a contract search each time)? True for a strategy that does not say "
              "(plug-ins)"),
    ),
    direct=False,
)

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

# meld records (public[P_MELDS + m * MW + M_*]); the first four as search.py's laying records
# (out[i, 0..3]: kind, key, nat, jok), which kernel.lay_down and check_table copy in order
_M = Slots()
M_KIND = _M.one("M_KIND")  # SET or RUN
M_KEY = _M.one("M_KEY")  # rank of a set, suit of a run
M_NAT = _M.one("M_NAT")  # bits of the naturals (a set: suits; a run: positions 0..13)
M_JOK = _M.one("M_JOK")  # bits of the jokers (the card each stands for)
M_OWNER = _M.one("M_OWNER")  # seat that laid it down
M_CARDS = _M.one("M_CARDS")  # cards in the meld
MW = _M.size
MAX_MELDS = 4 * MAX_SEATS

# public[] layout
_P = Slots()
P_PLAYERS = _P.one("P_PLAYERS")  # players at the table
P_DEAL = _P.one("P_DEAL")  # deal number, from 0
P_TURN = _P.one("P_TURN")  # deal turn (all players), from 1
P_SEAT = _P.one("P_SEAT")  # seat to play
P_STOCK_N = _P.one("P_STOCK_N")  # cards in the stock
P_PILE_N = _P.one("P_PILE_N")  # cards in the discard pile
P_NSETS = _P.one("P_NSETS")  # sets the deal's contract asks for
P_NRUNS = _P.one("P_NRUNS")  # runs it asks for
P_DEALT = _P.one("P_DEALT")  # cards dealt to each player
P_MIN_RUN = _P.one("P_MIN_RUN")  # rule min_run
P_MAX_MELD = _P.one("P_MAX_MELD")  # most cards in a contract meld (0: no limit)
P_ACE_LOW = _P.one("P_ACE_LOW")  # rule ace_low
P_RUNS_DISTINCT = _P.one("P_RUNS_DISTINCT")  # rule runs_distinct_suits
P_ALL_AT_ONCE = _P.one("P_ALL_AT_ONCE")  # this deal is played all at once
P_LAYOFF_SETS = _P.one("P_LAYOFF_SETS")  # rule lay_off_sets
P_BUYING = _P.one("P_BUYING")  # rule buying
P_BUY_LIMIT = _P.one("P_BUY_LIMIT")  # rule buy_limit
P_NMELDS = _P.one("P_NMELDS")  # melds on the table
P_RESHUFFLES = _P.one("P_RESHUFFLES")  # times the pile became the stock this deal
P_DECKS = _P.one("P_DECKS")  # 52-card decks in play
P_NJOKERS = _P.one("P_NJOKERS")  # jokers in play
P_HAND_N = _P.block("P_HAND_N", MAX_SEATS)  # cards each player holds
P_DOWN = _P.block("P_DOWN", MAX_SEATS)  # 1 once the player's contract is down
P_DOWN_TURN = _P.block("P_DOWN_TURN", MAX_SEATS)  # deal turn it went down in (0: not yet)
P_BUYS = _P.block("P_BUYS", MAX_SEATS)  # buys made this deal
P_MELDS = _P.block("P_MELDS", MAX_MELDS * MW)  # the melds on the table, MW each (M_*)
P_PILE = _P.block("P_PILE", MAX_CARDS)  # the discard pile, bottom first
# cards each seat took from the pile this deal: P_TAKEN + seat * NCODES + card
P_TAKEN = _P.block("P_TAKEN", MAX_SEATS * NCODES)
P_LEN = _P.size

# private[] layout (one row per seat)
_V = Slots()
V_SEAT = _V.one("V_SEAT")  # own seat
V_OWN_TURN = _V.one("V_OWN_TURN")  # own turn in the deal, from 1
V_LAY_CARDS = _V.one("V_LAY_CARDS")  # cards it would keep laying its contract now
V_LAY_PEN = _V.one("V_LAY_PEN")  # their penalty points
V_FORCED = _V.one("V_FORCED")  # the deep-drawn card it must still lay off (-1: none)
V_TOP_TAKEN = _V.one("V_TOP_TAKEN")  # the top discard taken this turn while held (-1: none)
V_OFFER = _V.one("V_OFFER")  # the discard on offer to buy (-1: none)
V_TOP_LAYS = _V.one("V_TOP_LAYS")  # the top discard would lay the contract (1 / 0; -1: unknown)
V_OFFER_LAYS = _V.one("V_OFFER_LAYS")  # the offer would (1 / 0; -1: unknown)
V_LEN = _V.size


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
