"""Contract Rummy kernel: deal, turns (draw, buy, lay down, lay off, joker swap, discard),
reshuffles and penalty scoring, in Numba.

``_play_one`` plays one game for the engine (simulator.engine), whose block loop runs it over
blocks of game indices on a few threads and whose replay runs one game with the event log on;
deal rows are int32 columns (one row per deal and seat). ``play_deal`` inlines its per-deal
phases (``_start_deal``, ``_reshuffle``, ``_score``) once each and writes the turn out on local
arrays: a phase taking the State would cost speed in reference counting. Compile time
(docs/design.md, "Compile time"): every compiled function links and optimizes again all it
calls, so the contract search sits under as few compiled
levels as possible (``_search_of`` calls it directly; small wrappers used once are inlined),
nothing that holds play_deal's inlined phases is inlined again (that made Numba's inline
pass explode), and ``_play_one`` calls play_deal, and play_deal every strategy (built-ins
too) and ``_search_of``, through first-class function pointers in ``fns``: a call through a
pointer does not link the callee in. The strategies are reached only through the generated
dispatch (dispatch.py, view.DISPATCH): ``decide_*`` calls the pointer, and the fast paths
(``hook_deep_draws``, ``hook_lay_hints``) switch on the strategy's id. Hands are counts per
card code (view.py); table melds are records in ``public``; the stock and the pile keep card
codes in order.
Randomness: the shuffle of deal ``d`` and its reshuffles come from sub-stream (g, DEAL, d), each
seat's strategy draws from (g, SEAT, s), the first dealer from (g, SETUP, 0).
Contract layouts come from search.py (``_search``: the laying that leaves the fewest penalty
points, or whether there is one).
"""
from collections import namedtuple

import numpy as np
from numba import njit, types, uint64

from cardsim.simulator import rng as R
from cardsim.simulator import track as T
from cardsim.simulator.bits import ctz, popcount
from cardsim.simulator.engine import (
    BAD, CTX, INVARIANT, LOG_FULL, OK, ROWS_FULL, Ctx, Kernel, state_type,  # noqa: F401 (Ctx)
)
from cardsim.simulator.nrt import borrow
from cardsim.simulator.rules import Slots
from cardsim.simulator.tables import emit
from cardsim.simulator.games.contract_rummy import dispatch as D
from cardsim.simulator.games.contract_rummy import outcomes as O
from cardsim.simulator.games.contract_rummy import rules as RU
from cardsim.simulator.games.contract_rummy import view as V
from cardsim.simulator.games.contract_rummy.search import (
    _FALSE, _NONE, _TRUE, _ZERO, MELD_W, _search, _sizes, is_valid_meld,
)
from cardsim.simulator.games.contract_rummy.view import (
    BUY, D_DEEP, D_STOCK, D_TOP, DISCARD, DRAW, JOKER, LAY, LAYOFF, LEGAL_LEN, M_CARDS, M_JOK,
    M_KEY, M_KIND, M_NAT, M_OWNER, MW, NCODES, P_BUYS, P_DOWN, P_DOWN_TURN, P_HAND_N, P_MELDS,
    P_NMELDS, P_PILE, P_PILE_N, P_STOCK_N, P_TURN, RUN, SET, STOP, V_FORCED, V_LAY_CARDS,
    V_LAY_PEN, V_OFFER, V_OWN_TURN, V_TOP_TAKEN, bit, card_at, could_join, could_lay, fits_table,
    hand_penalty, layoff_code,
    rank_of_pos, run_ends, slot_open, swap_code,
)

MAX_SEATS = RU.MAX_SEATS
MAX_CARDS = RU.MAX_CARDS

# kernel status codes beyond the engine's, in the order of the adapter's decision_errors
BAD_DRAW, BAD_BUY, BAD_LAY, BAD_LAYOFF, BAD_DISCARD = range(BAD, BAD + 5)

# replay event kinds; each event is a row of LOG_W int32: kind, then fields
(EV_GAME, EV_DEAL, EV_DECK, EV_TURN, EV_DRAW, EV_TAKE, EV_BUY, EV_LAY, EV_DOWN, EV_LAYOFF,
 EV_SWAP, EV_DISCARD, EV_RESHUFFLE, EV_STOCK, EV_OUT, EV_DEAL_END, EV_SCORE, EV_GAME_END,
 EV_STALL) = range(19)
LOG_W = 20

FNS = types.UniTuple(V.DECISION_FN, MAX_SEATS)  # one decision's pointers, by strategy slot
# the strategies' part of the engine's fns: one FNS per decision, in DECISIONS order
STRATEGY_FNS = types.UniTuple(FNS, len(V.DECISIONS))

# per-seat statistics kept during a deal (stats[seat, S_*])
_S = Slots()
S_DOWN_TURN = _S.one("S_DOWN_TURN")  # own turn of the lay-down (-1: none)
S_DOWN_DEAL_TURN = _S.one("S_DOWN_DEAL_TURN")  # deal turn of it (-1: none)
S_OUT_TURN = _S.one("S_OUT_TURN")  # own turn of going out (-1: none)
S_OWN_TURNS = _S.one("S_OWN_TURNS")  # own turns played
S_JOK_USED = _S.one("S_JOK_USED")  # jokers put on the table
S_PILE_CARDS = _S.one("S_PILE_CARDS")  # cards taken from the pile
S_TOP = _S.one("S_TOP")  # top discards drawn
S_DEEP = _S.one("S_DEEP")  # deep draws
S_BUYS = _S.one("S_BUYS")  # buys
S_LAYOFFS = _S.one("S_LAYOFFS")  # cards laid off (swapped-in naturals too)
S_SWAPS = _S.one("S_SWAPS")  # joker swaps
S_DEALT_CAN = _S.one("S_DEALT_CAN")  # the dealt hand held the contract
S_JOK_DEALT = _S.one("S_JOK_DEALT")  # jokers dealt
S_W = _S.size

# deal facts (info[I_*]) passed around a deal
_I = Slots()
I_NSETS = _I.one("I_NSETS")  # sets of the contract
I_NRUNS = _I.one("I_NRUNS")  # runs of the contract
I_MIN_RUN = _I.one("I_MIN_RUN")
I_MAX_MELD = _I.one("I_MAX_MELD")  # most cards in a contract meld (0: no limit)
I_ACE_LOW = _I.one("I_ACE_LOW")
I_DISTINCT = _I.one("I_DISTINCT")  # runs_distinct_suits
I_GO_OUT = _I.one("I_GO_OUT")  # the deal is played all at once
I_LAYOFF_SETS = _I.one("I_LAYOFF_SETS")
I_DECKS = _I.one("I_DECKS")
I_NJOKERS = _I.one("I_NJOKERS")
I_W = _I.size

# The scratch arrays of one game, by name. Kernels get the unowned views (see _new_state).
State = namedtuple("State", (
    "hands",    # int64 (seat, NCODES): copies held of each card code
    "stock",    # int32: the stock, top at stock[public[P_STOCK_N] - 1]
    "deck",     # int32: the deal's shuffled deck, in dealing order
    "public",   # int32: the public record (view.P_*)
    "private",  # int32 (seat, view.V_LEN): what only a seat knows
    "legal",    # int32: the legal actions handed to a decision
    "rngs",     # uint64 (seat + 1, 2): one stream per seat, then the deal's
    "stats",    # int32 (seat, S_W): per-seat statistics of the deal (S_*)
    "params",   # float64 (seat, params): the strategy parameters of each seat this game
    "lay_out",  # int64 (4, MELD_W): a laying found by the contract search
    "comp",     # int64 64: the debug check's counts
    "work",     # int64 NCODES: a hand under test (hand + cards from the pile)
    "info",     # int64 I_W: the deal's facts (I_*)
    "rem",      # int64 (4, 13): search work arrays
    "m1",
    "stw",
    "seat_sids",  # this game's strategy of each seat (see play_game)
    "totals",   # penalty points of each seat so far this game
    "smap",     # strategy slot playing each seat (duplicate seating)
    "maybe",    # bool per seat: the hand might lay its contract (else: surely not)
    "trk",      # decision tracking (simulator.track): flags, then the deal header (H_*)
    "tape",     # int32: the tracked deal's decisions (the answers' codes, below)
))

# Tracked decisions (simulator.track), in the game's terms: the draw's code (D_STOCK, D_TOP,
# D_DEEP + i), a buy 0/1, laying down 0/1 (asked every turn before the contract, whether the
# hand could lay or not), a lay-off step's code (or STUCK when none was listed), the card
# discarded. Tracked, the steps made without asking are decisions too, so that a resampled
# deal replays its tape decision by decision.
KD_DRAW, KD_BUY, KD_LAY, KD_LAYOFF, KD_DISCARD = (np.int64(i) for i in range(5))
STUCK = -2
# the deal header, after simulator.track's flags: what a resumed game starts its deal from
_H = Slots()
H_TOTALS = T.T_HEAD + _H.block("H_TOTALS", MAX_SEATS)  # penalty points before the deal
H_CAPPED = T.T_HEAD + _H.one("H_CAPPED")  # deals capped before this one
H_STALLED = T.T_HEAD + _H.one("H_STALLED")  # deals stalled before this one
H_STREAM = T.T_HEAD + _H.block("H_STREAM", 2)  # the deal's stream after the shuffle
H_DECK = T.T_HEAD + _H.block("H_DECK", MAX_CARDS)  # the deal's cards, in dealing order
HEADER = _H.size
TAPE_CAP = 1 << 14
STREAM_ROWS = MAX_SEATS + 1


def _new_state(ctx):
    """Scratch arrays for one game, allocated once per block of games. Returns (owners,
    state): ``state`` holds unowned views (simulator.nrt.borrow) of the arrays in ``owners``,
    which the caller keeps alive while it plays."""
    o = State(
        np.zeros((MAX_SEATS, NCODES), np.int64), np.zeros(MAX_CARDS, np.int32),
        np.zeros(MAX_CARDS, np.int32), np.zeros(V.P_LEN, np.int32),
        np.zeros((MAX_SEATS, V.V_LEN), np.int32), np.zeros(LEGAL_LEN, np.int32),
        np.zeros((MAX_SEATS + 1, 2), np.uint64), np.zeros((MAX_SEATS, S_W), np.int32),
        ctx.params.copy(), np.zeros((4, MELD_W), np.int64), np.zeros(64, np.int64),
        np.zeros(NCODES, np.int64), np.zeros(I_W, np.int64), np.zeros((4, 13), np.int64),
        np.zeros(4, np.int64), np.zeros((4, 3), np.int64), np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.bool_), *T.track_arrays(HEADER, TAPE_CAP, STREAM_ROWS))
    st = State(
        borrow(o.hands), borrow(o.stock), borrow(o.deck), borrow(o.public), borrow(o.private),
        borrow(o.legal), borrow(o.rngs), borrow(o.stats), borrow(o.params), borrow(o.lay_out),
        borrow(o.comp), borrow(o.work), borrow(o.info), borrow(o.rem), borrow(o.m1),
        borrow(o.stw), borrow(o.seat_sids), borrow(o.totals), borrow(o.smap), borrow(o.maybe),
        borrow(o.trk), borrow(o.tape))
    return o, st


# ---------------------------------------------------------------- contract search wrappers


I64_1D = types.int64[::1]
I64_2D = types.int64[:, ::1]
SEARCH_SIG = types.int64(I64_1D, I64_1D, I64_2D, I64_1D, I64_2D, I64_2D, types.boolean,
                         types.int64)


@njit(cache=True, inline="always")
def _left_by_suits(mine, nruns):
    """Runs only: the fewest natural cards left out of ``nruns`` runs, each of one suit -- the
    cards of all suits but the ``nruns`` best held. Going out may leave one card; a hand with
    more suits cannot go out (the search would try every first run to find that out)."""
    a = np.int64(0)
    b = np.int64(0)
    c = np.int64(0)
    d = np.int64(0)
    for r in range(13):
        a += mine[r]
        b += mine[13 + r]
        c += mine[26 + r]
        d += mine[39 + r]
    if a > b:
        a, b = b, a
    if c > d:
        c, d = d, c
    if a > c:
        a, c = c, a
    if b > d:
        b, d = d, b
    if b > c:
        b, c = c, b
    if nruns >= 4:
        return np.int64(0)
    if nruns == 3:
        return a
    if nruns == 2:
        return a + b
    return a + b + c


@njit(cache=True, inline="always")
def _too_many_to_go_out(ncards, info):
    """Going out, the melds must take all cards but one: a hand of more cards than they can
    hold, plus one, never lays."""
    smin, smax, rmin, rmax = _sizes(info[I_MAX_MELD], info[I_MIN_RUN], False)
    return ncards > info[I_NSETS] * smax + info[I_NRUNS] * rmax + 1


@njit(cache=True)  # compiled by the Kernel, for SEARCH_SIG
def _search_of(mine, info, rem, m1, stw, out, optimize, bound):
    """The contract search on a hand (int64[53]) under the deal's rules ``info``: with
    ``optimize`` the laying with the fewest penalty points left (in ``out``) and that penalty,
    else the points left by the first laying found; -1 when there is none. ``bound`` >= 0
    (optimize): some laying is known to leave at most that many points (search._search; -1:
    none known). One compiled function for both, calling the search itself (not
    search.lay_contract_ws / can_lay_ws): every compiled level above the search links and
    optimizes it again."""
    if info[I_GO_OUT] == 1:
        # checked here: the search itself only finds it out below its first meld, and the
        # deep-draw listing asks it of the hand plus the whole pile (before could_lay: cheaper)
        n = np.int64(0)
        for k in range(NCODES):
            n += mine[k]
        if _too_many_to_go_out(n, info):
            return np.int64(-1)
        if info[I_NSETS] == 0 and _left_by_suits(mine, info[I_NRUNS]) > 1:
            return np.int64(-1)
    if not could_lay(mine, info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN], info[I_ACE_LOW] == 1,
                     m1):
        return np.int64(-1)
    smin, smax, rmin, rmax = _sizes(info[I_MAX_MELD], info[I_MIN_RUN],
                                    not optimize and info[I_GO_OUT] != 1)
    return _search(mine[:52].reshape((4, 13)), mine[JOKER], info[I_NSETS], info[I_NRUNS], smin,
                   smax, rmin, rmax, info[I_ACE_LOW] == 1, info[I_DISTINCT] == 1,
                   info[I_GO_OUT] == 1, optimize, out, rem, m1, stw, _FALSE(), _ZERO(), bound)


# The helpers below that search take ``search``: _search_of itself (the plain names, as the
# tests call them) or, in play_deal, its pointer (so play_deal does not link in and optimize
# the search again).


@njit(cache=True, inline="always")
def _lay_of(search, mine, info, rem, m1, stw, out):
    """search.lay_contract on a hand (int64[53]): penalty left, or -1; melds in ``out``."""
    return search(mine, info, rem, m1, stw, out, _TRUE(), _NONE())


@njit(cache=True, inline="always")
def _lay_within(search, mine, info, rem, m1, stw, out, bound):
    """_lay_of when some laying is known to leave at most ``bound`` points (-1: unknown):
    the same answer, found faster."""
    return search(mine, info, rem, m1, stw, out, _TRUE(), bound)


@njit(cache=True, inline="always")
def _can_lay_of(search, mine, info, rem, m1, stw, out):
    return search(mine, info, rem, m1, stw, out, _FALSE(), _NONE()) >= 0


@njit(cache=True, inline="always")
def lay_of(mine, info, rem, m1, stw, out):
    return _lay_of(_search_of, mine, info, rem, m1, stw, out)


@njit(cache=True, inline="always")
def lay_within(mine, info, rem, m1, stw, out, bound):
    return _lay_within(_search_of, mine, info, rem, m1, stw, out, bound)


@njit(cache=True, inline="always")
def can_lay_of(mine, info, rem, m1, stw, out):
    return _can_lay_of(_search_of, mine, info, rem, m1, stw, out)


@njit(cache=True, inline="always")
def _found_with(search, mine, c, info, work, rem, m1, stw, out):
    """The existence search on the hand with one more card ``c``: the points a laying found
    leaves, or -1 when there is none."""
    if not could_join(mine, np.int64(c), info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN],
                      info[I_ACE_LOW] == 1):
        return np.int64(-1)
    for k in range(NCODES):
        work[k] = mine[k]
    work[c] += 1
    return search(work, info, rem, m1, stw, out, _FALSE(), _NONE())


@njit(cache=True, inline="always")
def lays_with(search, mine, c, info, work, rem, m1, stw, out):
    """1 if the hand with one more card ``c`` can lay the contract, else 0."""
    return 1 if _found_with(search, mine, c, info, work, rem, m1, stw, out) >= 0 else 0


@njit(cache=True)
def layout_cards(out, k):
    t = 0
    for i in range(k):
        t += popcount(np.uint64(out[i, 2])) + popcount(np.uint64(out[i, 3]))
    return np.int64(t)


# explicit signatures: called with int32 and int64 cards, literal and variable kinds, each
# mix would compile a copy (docs/design.md, "Compile time")
@njit(types.boolean(types.int64[:, ::1], types.int64, types.int64), cache=True)
def layout_has(out, k, c):
    """Does the laying in ``out`` meld card ``c`` (a joker: any joker)?"""
    for i in range(k):
        if c == JOKER:
            if out[i, 3] != 0:
                return True
            continue
        s = c // 13
        r = c % 13
        if out[i, 0] == SET:
            if out[i, 1] == r and (out[i, 2] >> s) & 1:
                return True
        elif out[i, 1] == s:
            if (out[i, 2] >> (r + 1)) & 1 or (r == 12 and out[i, 2] & 1):
                return True
    return False


# ---------------------------------------------------------------- table actions


@njit(cache=True)
def lay_down(seat, hands, public, stats, out, k, log, log_on):
    """Put the melds of ``out[:k]`` on the table as ``seat``'s contract."""
    for i in range(k):
        m = public[P_NMELDS]
        b = P_MELDS + m * MW
        kind, key, nat, jok = out[i, 0], out[i, 1], out[i, 2], out[i, 3]
        public[b + M_KIND] = kind
        public[b + M_KEY] = key
        public[b + M_NAT] = nat
        public[b + M_JOK] = jok
        public[b + M_OWNER] = seat
        nj = popcount(np.uint64(jok))
        public[b + M_CARDS] = popcount(np.uint64(nat)) + nj
        public[P_NMELDS] = m + 1
        x = np.uint64(nat)
        while x != 0:
            slot = np.int64(ctz(x))
            x &= x - np.uint64(1)
            hands[seat, card_at(kind, key, slot)] -= 1
        hands[seat, JOKER] -= nj
        stats[seat, S_JOK_USED] += nj
        public[P_HAND_N + seat] -= public[b + M_CARDS]
        if log_on:
            emit(log, EV_LAY, seat, m, kind, key, nat, jok)


@njit(cache=True, inline="always")
def _push(legal, n, code):
    if n + 1 < LEGAL_LEN:
        n += 1
        legal[n] = code
    return n


@njit(cache=True, inline="always")
def _slots(kind, nat, jok, sets_ok):
    """Where a card could go on a meld, as range(first, end, step): a set's four suits (none
    without lay_off_sets), a run's two ends."""
    if kind == SET:
        return 0, 4 if sets_ok else 0, 1
    lo, hi = run_ends(nat | jok)
    return lo - 1, hi + 2, hi - lo + 2


@njit(cache=True)
def list_layoffs(seat, hands, public, legal, forced, info, top):
    """Fill ``legal`` with STOP (unless a deep-drawn card ``forced`` must still be laid off),
    every lay-off of a held card or joker, and -- when the contract went down on an earlier
    turn -- every joker swap followed by the joker's lay-off. Nothing before the contract is
    down. ``top``: the single top discard taken this turn and still held (-1: none); it may
    not be discarded, so when it and one other card are left, only actions that give ``top``
    itself are listed (the other card must stay, to be discarded). Returns n."""
    n = 0
    legal[0] = 0
    if public[P_DOWN + seat] == 0:
        return 0
    may_swap = public[P_DOWN_TURN + seat] < public[P_TURN]
    if forced < 0:
        n = _push(legal, n, STOP)
    ace_low = info[I_ACE_LOW] == 1
    sets_ok = info[I_LAYOFF_SETS] == 1
    nm = public[P_NMELDS]
    # only = the one card that may leave the hand (-1: any)
    only = top if (top >= 0 and public[P_HAND_N + seat] == 2 and hands[seat, top] == 1) else -1
    if only >= 0 and forced < 0:
        forced = only  # the same filter as a deep-drawn card's, but STOP stays
    jk = hands[seat, JOKER] > 0 and (forced < 0 or forced == JOKER)
    for m in range(nm):
        b = P_MELDS + m * MW
        kind, key, nat, jok = public[b + M_KIND], public[b + M_KEY], public[b + M_NAT], public[b + M_JOK]
        first, end, step = _slots(kind, nat, jok, sets_ok)
        for slot in range(first, end, step):
            if not slot_open(kind, nat, jok, slot, ace_low, sets_ok):
                continue
            c = card_at(kind, key, slot)
            if hands[seat, c] > 0 and (forced < 0 or forced == c):
                n = _push(legal, n, layoff_code(0, m, slot))
            if jk:
                n = _push(legal, n, layoff_code(1, m, slot))
    if may_swap and (forced < 0 or forced == only):
        for m in range(nm):
            b = P_MELDS + m * MW
            if public[b + M_KIND] != RUN or public[b + M_OWNER] == seat or public[b + M_JOK] == 0:
                continue
            key, nat, jok = public[b + M_KEY], public[b + M_NAT], public[b + M_JOK]
            x = np.uint64(jok)
            while x != 0:
                p = np.int64(ctz(x))
                x &= x - np.uint64(1)
                if hands[seat, key * 13 + rank_of_pos(p)] == 0 or (
                        only >= 0 and key * 13 + rank_of_pos(p) != only):
                    continue
                for m2 in range(nm):
                    b2 = P_MELDS + m2 * MW
                    kind2, nat2, jok2 = public[b2 + M_KIND], public[b2 + M_NAT], public[b2 + M_JOK]
                    if m2 == m:
                        nat2 = np.int32(nat | bit(p))  # int32 like the table's fields:
                        jok2 = np.int32(jok & ~bit(p))  # one compiled slot_open
                    first, end, step = _slots(kind2, nat2, jok2, sets_ok)
                    for slot in range(first, end, step):
                        if slot_open(kind2, nat2, jok2, slot, ace_low, sets_ok):
                            n = _push(legal, n, swap_code(m, p, m2, slot))
    legal[0] = n
    return n


@njit(cache=True)
def list_discards(seat, hands, legal, top):
    """Every card code held, except ``top`` (the single top discard taken this turn and still
    held) unless an identical second copy is held too (the other deck's: that one may go).
    Never empty in play: the lay-down and the lay-offs never leave ``top`` alone. Returns n."""
    n = 0
    for c in range(NCODES):
        if hands[seat, c] > 0 and (c != top or hands[seat, c] >= 2):
            n += 1
            legal[n] = c
    legal[0] = n
    return n


@njit(cache=True, inline="always")
def _lay_keeping_top(search, mine, top, pen, info, work, rem, m1, stw, out):
    """The laying ``out`` (penalty ``pen``, from lay_of) must not leave only ``top`` -- the
    single top discard taken this turn, held once -- in hand: it could not be discarded. Then
    the laying that melds ``top`` and leaves one other card (the lowest penalty) goes in
    ``out`` instead; -1 when there is none (no lay-down this turn). Else ``pen`` unchanged."""
    k = info[I_NSETS] + info[I_NRUNS]
    if top < 0 or mine[top] != 1 or layout_has(out, k, top):
        return pen
    held = 0
    for c in range(NCODES):
        held += mine[c]
    if held - layout_cards(out, k) != 1:
        return pen
    best = -1
    for c in range(NCODES):
        if c == top or mine[c] == 0 or (best >= 0 and V.PENALTY[c] >= V.PENALTY[best]):
            continue
        for j in range(NCODES):
            work[j] = mine[j]
        work[c] -= 1
        if _lay_of(search, work, info, rem, m1, stw, out) == 0:  # every other card melded
            best = c
    if best < 0:
        return -1
    for j in range(NCODES):
        work[j] = mine[j]
    work[best] -= 1
    _lay_of(search, work, info, rem, m1, stw, out)
    return V.PENALTY[best]


@njit(cache=True, inline="always")
def lay_keeping_top(mine, top, pen, info, work, rem, m1, stw, out):
    return _lay_keeping_top(_search_of, mine, top, pen, info, work, rem, m1, stw, out)


@njit(cache=True)
def apply_layoff(seat, code, hands, public, stats, log, log_on):
    """Make a lay-off or swap action (a code from list_layoffs)."""
    if V.code_op(code) == V.OP_LAYOFF:
        joker = (code >> 19) & 1
        m = (code >> 4) & 31
        slot = code & 15
        b = P_MELDS + m * MW
        c = card_at(public[b + M_KIND], public[b + M_KEY], slot)
        if joker:
            hands[seat, JOKER] -= 1
            public[b + M_JOK] |= bit(slot)
            stats[seat, S_JOK_USED] += 1
        else:
            hands[seat, c] -= 1
            public[b + M_NAT] |= bit(slot)
            stats[seat, S_LAYOFFS] += 1
        public[b + M_CARDS] += 1
        public[P_HAND_N + seat] -= 1
        if log_on:
            emit(log, EV_LAYOFF, seat, m, slot, joker, JOKER if joker else c, 0)
        return
    m = (code >> 14) & 31
    p = (code >> 10) & 15
    m2 = (code >> 4) & 31
    slot2 = code & 15
    b = P_MELDS + m * MW
    c = card_at(RUN, public[b + M_KEY], p)
    hands[seat, c] -= 1
    public[b + M_NAT] |= bit(p)
    public[b + M_JOK] &= ~bit(p)
    b2 = P_MELDS + m2 * MW
    public[b2 + M_JOK] |= bit(slot2)
    public[b2 + M_CARDS] += 1
    public[P_HAND_N + seat] -= 1
    stats[seat, S_LAYOFFS] += 1
    stats[seat, S_SWAPS] += 1
    stats[seat, S_JOK_USED] += 1
    if log_on:
        emit(log, EV_SWAP, seat, m, p, c, m2, slot2)


@njit(cache=True, inline="always")
def _list_draws(search, seat, hands, public, legal, work, info, lay_out, rem, m1, stw, down,
                deep, cap, top_lays):
    """Stock, the top discard, and the legal deep draws: pile[i] and every card above it, when
    pile[i] can be melded this turn -- before the contract, the laying of hand + taken cards
    (lay_contract's, the fewest penalty points left) must hold it; after, it must fit a meld on
    the table now. ``deep``: 0 none, 2 every legal deep draw (from the top down), 1 only the
    shallowest that takes at most ``cap`` cards (for a strategy that never takes another; see
    the deep_draws hook of view.DISPATCH). ``top_lays``: whether hand + the top discard can
    lay, when the caller knows it exactly (1 / 0; -1: unknown), saving that search."""
    n = 1
    legal[1] = D_STOCK
    pn = public[P_PILE_N]
    if pn >= 1:
        n += 1
        legal[n] = D_TOP
    if deep > 0 and pn >= 2:
        if down:
            for i in range(pn - 2, -1 if deep == 2 else max(-1, pn - cap - 1), -1):
                if fits_table(public, np.int64(public[P_PILE + i])):
                    n = _push(legal, n, D_DEEP + i)
                    if deep == 1:
                        break
        else:
            n = _deep_before_contract(search, seat, hands, public, legal, n, work, info,
                                      lay_out, rem, m1, stw, deep,
                                      0 if deep == 2 else max(0, pn - cap), top_lays)
    legal[0] = n
    return n


@njit(cache=True, inline="always")
def _able_from(search, seat, i, hands, public, work, info, lay_out, rem, m1, stw):
    """Can hand + pile[i:] lay the contract? The penalty points a laying found leaves (an
    upper bound of the fewest; existence search), or -1 when none. Leaves hand + pile[i:] in
    ``work``."""
    for k in range(NCODES):
        work[k] = hands[seat, k]
    for j in range(i, public[P_PILE_N]):
        work[public[P_PILE + j]] += 1
    return search(work, info, rem, m1, stw, lay_out, _FALSE(), _NONE())


@njit(cache=True, inline="always")
def _stack_layout(stw, nsets, kmeld, out):
    """The laying an existence search stopped at (its stack ``stw``) as meld records."""
    for q in range(kmeld):
        out[q, 1] = stw[q, 0]
        if q < nsets:
            out[q, 0] = SET
            out[q, 2] = stw[q, 1]
            out[q, 3] = (1 << stw[q, 2]) - 1  # only the number of jokers matters here
        else:
            out[q, 0] = RUN
            bb = stw[q, 1]
            out[q, 2] = (((1 << (bb & 15)) - 1) << (bb >> 4)) & ~stw[q, 2]
            out[q, 3] = stw[q, 2]


@njit(cache=True, inline="always")
def _needed_from(out, kmeld, hand, public, i):
    """The deepest pile index the laying in ``out`` (of hand + pile[i:]) needs, taking the
    pile's copies of a card from the top down: the laying is one of hand + pile[j:] for every
    j from i up to that index (the pile size when it needs no pile card)."""
    pn = public[P_PILE_N]
    nj = 0
    for q in range(kmeld):
        nj += popcount(np.uint64(out[q, 3]))
    for j in range(i, pn):
        c = public[P_PILE + j]
        u = nj  # copies of c the laying melds (each meld holds at most one)
        if c != JOKER:
            u = 0
            s = c // 13
            r = c % 13
            for q in range(kmeld):
                if out[q, 0] == SET:
                    if out[q, 1] == r and (out[q, 2] >> s) & 1:
                        u += 1
                elif out[q, 1] == s:
                    if (out[q, 2] >> (r + 1)) & 1 or (r == 12 and out[q, 2] & 1):
                        u += 1
        u -= hand[c]
        if u > 0:
            k = 0  # copies of c from here to the top: pile[j] is needed when all of them are
            for t in range(j, pn):
                k += public[P_PILE + t] == c
            if k <= u:
                return j
    return pn


@njit(cache=True, inline="always")
def _walk_depths(search, seat, hands, public, legal, n, work, info, lay_out, rem, m1, stw,
                 low, pen):
    """Every legal deep draw before the contract (not going out), from depth ``low`` (where
    hand + pile[low:], in ``work``, lays: the existence search left ``pen`` and its laying in
    ``stw``) up. The optimal laying L of hand + pile[i:] is also the optimal laying of hand +
    pile[j:] for every depth j from i up to the deepest pile card L needs (fewer cards: L is
    still there, and no laying the smaller hand has can beat it), so one search answers a run
    of depths; the next run starts above it. The walk ends at the shallowest depth that lays
    (``first`` of _deep_before_contract), legal whatever the laying."""
    pn = public[P_PILE_N]
    kmeld = info[I_NSETS] + info[I_NRUNS]
    nsets = info[I_NSETS]
    hand = hands[seat]
    n0 = n
    i = low
    while i < pn - 1:  # the top discard is no deep draw
        _stack_layout(stw, nsets, kmeld, lay_out)
        if _needed_from(lay_out, kmeld, hand, public, i) == i:
            # pile[i] may be the shallowest card that lays: then no optimal search is needed
            c = public[P_PILE + i]
            work[c] -= 1
            up = search(work, info, rem, m1, stw, lay_out, _FALSE(), _NONE())
            work[c] += 1
            if up < 0:
                n = _push(legal, n, D_DEEP + i)
                break
        # the existence search's laying bounds the optimal one's points (same laying found)
        pen = _lay_within(search, work, info, rem, m1, stw, lay_out, pen)
        m = min(_needed_from(lay_out, kmeld, hand, public, i), pn - 1)
        for j in range(i, m + 1):
            if j < pn - 1 and layout_has(lay_out, kmeld, np.int64(public[P_PILE + j])):
                n = _push(legal, n, D_DEEP + j)
        if m == pn - 1:
            break
        for j in range(i, m + 1):
            work[public[P_PILE + j]] -= 1
        i = m + 1
        pen = search(work, info, rem, m1, stw, lay_out, _FALSE(), _NONE())
        if pen < 0:
            break
    # pushed from the deepest up: the list goes from the top down
    a = n0 + 1
    b = n
    while a < b:
        t = legal[a]
        legal[a] = legal[b]
        legal[b] = t
        a += 1
        b -= 1
    return n


@njit(cache=True, inline="always")
def _deep_before_contract(search, seat, hands, public, legal, n, work, info, lay_out, rem, m1,
                          stw, deep, low, top_lays):
    """The deep draws of a player whose contract is not down (see _list_draws), from depth
    ``low`` up (0: the whole pile). Which depths can lay at all is found by bisection: without
    going out, more cards never take a laying away, so hand + pile[i:] can lay exactly for i up
    to some depth ``first`` (a few searches, not one per pile card). pile[first] is then legal
    (every laying of hand + pile[first:] holds it); each deeper card needs the optimal laying's
    answer. Going out (all at once) is not monotone: there the depths are tried one by one from
    the top, after the check of the whole pile the kernel has always made."""
    pn = public[P_PILE_N]
    go_out = info[I_GO_OUT] == 1
    if go_out:
        # hand + the whole pile: _search_of's first check, without filling ``work``
        if _too_many_to_go_out(public[P_HAND_N + seat] + pn, info):
            return n
    # no laying with hand + pile[low:], none from a part of it (going out: the whole pile)
    first_pen = _able_from(search, seat, 0 if go_out else low, hands, public, work, info,
                           lay_out, rem, m1, stw)
    if first_pen < 0:
        return n
    kmeld = info[I_NSETS] + info[I_NRUNS]
    if deep == 2 and not go_out:
        return _walk_depths(search, seat, hands, public, legal, n, work, info, lay_out, rem, m1,
                            stw, low, first_pen)
    if go_out:
        first = pn - 1
        while first > low and _able_from(search, seat, first, hands, public, work, info,
                                         lay_out, rem, m1, stw) < 0:
            first -= 1
        if first == low and low > 0 and _able_from(search, seat, low, hands, public, work,
                                                   info, lay_out, rem, m1, stw) < 0:
            return n
    elif top_lays == 1:
        first = pn - 1
        first_pen = -1  # not searched
    else:
        lo = low  # able
        hi = pn - 1  # not able
        top_pen = _able_from(search, seat, pn - 1, hands, public, work, info, lay_out, rem, m1,
                             stw) if top_lays < 0 else np.int64(-1)
        if top_pen >= 0:
            lo = pn - 1
            first_pen = top_pen
        while hi - lo > 1:
            mid = (lo + hi) // 2
            p = _able_from(search, seat, mid, hands, public, work, info, lay_out, rem, m1, stw)
            if p >= 0:
                lo = mid
                first_pen = p
            else:
                hi = mid
        first = lo
    if first < pn - 1:
        n = _push(legal, n, D_DEEP + first)
        if deep == 1:
            return n
    # hand + pile[first:], then one card more per depth. Without going out, a laying of the
    # depth above (the new card left in hand) bounds the penalty of this depth's best laying,
    # so the search cuts early (the same laying is found): the one the existence search found
    # at ``first``, then the optimal one of each depth.
    for k in range(NCODES):
        work[k] = hands[seat, k]
    for j in range(first, pn):
        work[public[P_PILE + j]] += 1
    pen = np.int64(-1) if go_out else first_pen
    for i in range(first - 1, low - 1, -1):
        c = public[P_PILE + i]
        work[c] += 1
        bound = pen + V.PENALTY[c] if pen >= 0 and not go_out else np.int64(-1)
        pen = _lay_within(search, work, info, rem, m1, stw, lay_out, bound)
        if pen >= 0 and layout_has(lay_out, kmeld, c):
            n = _push(legal, n, D_DEEP + i)
            if deep == 1:
                break
    return n


@njit(cache=True, inline="always")
def list_draws(seat, hands, public, legal, work, info, lay_out, rem, m1, stw, down, deep, cap,
               top_lays=-1):
    return _list_draws(_search_of, seat, hands, public, legal, work, info, lay_out, rem, m1, stw,
                       down, deep, cap, top_lays)


@njit(cache=True, inline="always")
def list_draws_plain(seat, hands, public, legal, work, info, lay_out, rem, m1, stw):
    """The reference for the deep draws before the contract (tests): one optimal laying per
    depth, no bisection (after the whole-pile check the kernel has always made)."""
    n = _list_draws(_search_of, seat, hands, public, legal, work, info, lay_out, rem, m1, stw,
                    False, np.int64(0), np.int64(0), np.int64(-1))  # the stock and the top
    pn = public[P_PILE_N]
    if pn >= 2 and _able_from(_search_of, seat, 0, hands, public, work, info, lay_out, rem, m1,
                              stw) >= 0:
        kmeld = info[I_NSETS] + info[I_NRUNS]
        for i in range(pn - 2, -1, -1):
            _able_from(_search_of, seat, i, hands, public, work, info, lay_out, rem, m1, stw)
            if _lay_of(_search_of, work, info, rem, m1, stw, lay_out) >= 0 and layout_has(
                    lay_out, kmeld, np.int64(public[P_PILE + i])):
                n = _push(legal, n, D_DEEP + i)
    legal[0] = n
    return n


@njit(cache=True)
def take_pile(seat, i, hands, public, stats):
    """pile[i] and every card above it go to the hand. Returns the card pile[i]."""
    pn = public[P_PILE_N]
    c = public[P_PILE + i]
    for j in range(i, pn):
        hands[seat, public[P_PILE + j]] += 1
        public[V.P_TAKEN + seat * NCODES + public[P_PILE + j]] += 1
    public[P_HAND_N + seat] += pn - i
    public[P_PILE_N] = i
    stats[seat, S_PILE_CARDS] += pn - i
    return c


@njit(cache=True)
def stock_pop(stock, public):
    n = public[P_STOCK_N] - 1
    public[P_STOCK_N] = n
    return stock[n]


@njit(types.void(types.int32[:, ::1], types.int64, types.int32[::1], types.int64, types.boolean),
      cache=True)
def _emit_cards(log, kind, arr, n, reverse):
    """Card codes as rows of 16 (``reverse``: from arr[n-1] down)."""
    for off in range(0, n, 16):
        m = min(16, n - off)
        i = emit(log, kind, off, m, 0, 0, 0, 0)
        if i >= 0:
            for j in range(m):
                log[i, 3 + j] = arr[n - 1 - off - j] if reverse else arr[off + j]


@njit(cache=True, inline="always")
def _buy_round(search, seat, seats, last_discarder, sids, smap, fns, hands, stock, public, private,
               legal, params, rngs, stats, rules, maybe, info, work, rem, m1, stw, out, trk,
               tape, log, log_on):
    """The top discard was passed: players after ``seat`` in turn order may buy it with a
    penalty card from the stock (the first who wants it gets it). Returns (status, seat,
    value)."""
    pn = public[P_PILE_N]
    if rules[RU.R_BUYING] == 0 or pn == 0 or public[P_STOCK_N] < 2:
        return OK, 0, 0
    top = public[P_PILE + pn - 1]
    for k in range(1, seats):
        b = (seat + k) % seats
        if b == last_discarder or public[P_BUYS + b] >= rules[RU.R_BUY_LIMIT]:
            continue
        private[b, V_OFFER] = top
        private[b, V.V_OFFER_LAYS] = -1
        if public[P_DOWN + b] == 0 and D.hook_lay_hints(sids[b], params[b]):
            private[b, V.V_OFFER_LAYS] = lays_with(search, hands[b], top, info, work, rem, m1,
                                                   stw, out)
        legal[0] = 2
        legal[1] = 0
        legal[2] = 1
        tb = T.NOT_FORCED
        if trk[T.T_ON] == 1:
            tb = T.at_decision(trk, tape, rngs, b, KD_BUY)
            if tb == T.HALT:
                private[b, V_OFFER] = -1
                return T.STOPPED, 0, 0
        if tb != T.NOT_FORCED:
            a = tb
            if a != 0 and a != 1:
                return T.BAD_TAPE, b, a
        else:
            a = D.decide_buy(sids[b], fns[smap[b]], hands[b], public, private[b], legal,
                             params[b], rngs[b])
        private[b, V_OFFER] = -1
        if a < 0 or a > 1:
            return BAD_BUY, b, a
        if trk[T.T_ON] == 1:
            T.answered(trk, tape, a)
        if a == 1:
            take_pile(b, pn - 1, hands, public, stats)
            maybe[b] = True
            pen = stock_pop(stock, public)
            hands[b, pen] += 1
            public[P_HAND_N + b] += 1
            public[P_BUYS + b] += 1
            stats[b, S_BUYS] += 1
            if log_on:
                emit(log, EV_BUY, b, top, pen, seat, 0, 0)
            break
    return OK, 0, 0


@njit(cache=True, inline="always")
def buy_round(seat, seats, last_discarder, sids, fns, hands, stock, public, private, legal,
              params, rngs, stats, rules, maybe, info, work, rem, m1, stw, out, log, log_on):
    """_buy_round with seat s played by strategy slot s (for tests), untracked."""
    trk, tape = T.track_arrays(0, 1, 1)
    return _buy_round(_search_of, seat, seats, last_discarder, sids, np.arange(MAX_SEATS), fns,
                      hands, stock, public, private, legal, params, rngs, stats, rules, maybe,
                      info, work, rem, m1, stw, out, trk, tape, log, log_on)


@njit(cache=True)
def check_table(seats, hands, stock, public, full, work, info):
    """Debug: every card in exactly one place, every meld valid. Returns -1 or a detail."""
    for k in range(NCODES):
        work[k] = 0
    for s in range(seats):
        for k in range(NCODES):
            if hands[s, k] < 0:
                return 100 + s
            work[k] += hands[s, k]
        if public[P_HAND_N + s] != hands[s].sum():
            return 200 + s
    for i in range(public[P_STOCK_N]):
        work[stock[i]] += 1
    for i in range(public[P_PILE_N]):
        work[public[P_PILE + i]] += 1
    rec = np.zeros(MELD_W, np.int64)
    for m in range(public[P_NMELDS]):
        b = P_MELDS + m * MW
        for j in range(4):
            rec[j] = public[b + j]
        if not is_valid_meld(rec, info[I_MIN_RUN], 0, info[I_ACE_LOW] == 1):
            return 300 + m
        if popcount(np.uint64(rec[2])) + popcount(np.uint64(rec[3])) != public[b + M_CARDS]:
            return 400 + m
        x = np.uint64(rec[2])
        while x != 0:
            slot = np.int64(ctz(x))
            x &= x - np.uint64(1)
            work[card_at(rec[0], rec[1], slot)] += 1
        work[JOKER] += popcount(np.uint64(rec[3]))
    for k in range(NCODES):
        if work[k] != full[k]:
            return 500 + k
    return -1


# ---------------------------------------------------------------- a deal


@njit(cache=True)
def set_deal_info(rules, d, info, public):
    """Deal ``d``'s contract and meld rules into ``info`` (kernel) and ``public`` (players)."""
    nsets = rules[RU.R_CONTRACTS + 3 * d]
    nruns = rules[RU.R_CONTRACTS + 3 * d + 1]
    go_out = rules[RU.R_ALL_AT_ONCE] == 1 and d == rules[RU.R_DEALS] - 1
    info[I_NSETS] = nsets
    info[I_NRUNS] = nruns
    info[I_MIN_RUN] = rules[RU.R_MIN_RUN]
    info[I_MAX_MELD] = 0 if go_out else rules[RU.R_MAX_MELD]
    info[I_ACE_LOW] = rules[RU.R_ACE_LOW]
    info[I_DISTINCT] = rules[RU.R_RUNS_DISTINCT]
    info[I_GO_OUT] = go_out
    info[I_LAYOFF_SETS] = rules[RU.R_LAYOFF_SETS]
    info[I_DECKS] = rules[RU.R_DECKS]
    info[I_NJOKERS] = rules[RU.R_JOKERS]
    public[V.P_DEAL] = d
    public[V.P_NSETS] = nsets
    public[V.P_NRUNS] = nruns
    public[V.P_DEALT] = rules[RU.R_CONTRACTS + 3 * d + 2]
    public[V.P_MIN_RUN] = rules[RU.R_MIN_RUN]
    public[V.P_MAX_MELD] = info[I_MAX_MELD]
    public[V.P_ACE_LOW] = rules[RU.R_ACE_LOW]
    public[V.P_RUNS_DISTINCT] = rules[RU.R_RUNS_DISTINCT]
    public[V.P_ALL_AT_ONCE] = go_out
    public[V.P_LAYOFF_SETS] = rules[RU.R_LAYOFF_SETS]
    public[V.P_BUYING] = rules[RU.R_BUYING]
    public[V.P_BUY_LIMIT] = rules[RU.R_BUY_LIMIT]
    public[V.P_DECKS] = rules[RU.R_DECKS]
    public[V.P_NJOKERS] = rules[RU.R_JOKERS]


STATE = state_type(_new_state, CTX)  # for play_deal's signature
I32_2D = types.int32[:, ::1]
# play_deal's fns: the decisions' pointers (STRATEGY_FNS), then (_search_of,): the search
# through its pointer, not linked into play_deal
DEAL_FNS = types.Tuple((STRATEGY_FNS, types.UniTuple(types.FunctionType(SEARCH_SIG), 1)))
PLAY_DEAL_SIG = types.UniTuple(types.int64, 3)(
    uint64, types.int64, types.int64, types.int64[::1], DEAL_FNS, STATE, I32_2D, types.int64,
    I32_2D, types.boolean, types.boolean, types.int32[::1])


# ---------------------------------------------------------------- a deal, by phases
# The per-deal phases, each inlined into play_deal once: the source is split, the compiled deal
# is one function (as calls over the state arrays they would cost speed in reference counting).


@njit(cache=True, inline="always")
def _start_deal(search, seed_key, d, dealer, rules, st, log, log_on, preset):
    """Deal ``d``'s rules, shuffle (or the preset deck), the reset and the deal itself.
    Returns the first seat to play."""
    hands, stock, deck, public, private, stats = (st.hands, st.stock, st.deck, st.public,
                                                  st.private, st.stats)
    info = st.info
    seats = rules[RU.R_PLAYERS]
    ncards = rules[RU.R_NCARDS]
    ndecks = rules[RU.R_DECKS]
    set_deal_info(rules, d, info, public)
    each = rules[RU.R_CONTRACTS + 3 * d + 2]
    first = (dealer + 1) % seats

    dr = st.rngs[MAX_SEATS]
    R.substream(dr, seed_key, R.SUB_DEAL, d)
    trk = st.trk
    tracked = T.deal_starts(trk, d)
    if tracked and trk[T.T_RESUME] == 1:  # a position's cards, and the stream after them
        for i in range(ncards):
            deck[i] = trk[H_DECK + i]
        dr[0] = np.uint64(trk[H_STREAM])
        dr[1] = np.uint64(trk[H_STREAM + 1])
    else:
        for i in range(ncards):
            deck[i] = i % 52 if i < 52 * ndecks else JOKER
        R.shuffle_or_preset(deck, ncards, preset, d == 0, dr)
        if tracked:  # the header a resumed game starts this deal from
            for i in range(ncards):
                trk[H_DECK + i] = deck[i]
            trk[H_STREAM] = np.int64(dr[0])
            trk[H_STREAM + 1] = np.int64(dr[1])
            for s in range(MAX_SEATS):
                trk[H_TOTALS + s] = st.totals[s]
    if log_on:
        i = emit(log, EV_DEAL, d, dealer, first, info[I_NSETS], info[I_NRUNS], each)
        if i >= 0:
            log[i, 7] = info[I_GO_OUT] == 1
            log[i, 8] = ncards
        _emit_cards(log, EV_DECK, deck, ncards, False)

    # reset the deal's state
    for s in range(MAX_SEATS):
        for k in range(NCODES):
            hands[s, k] = 0
            public[V.P_TAKEN + s * NCODES + k] = 0
        for j in range(S_W):
            stats[s, j] = 0
        stats[s, S_DOWN_TURN] = -1
        stats[s, S_DOWN_DEAL_TURN] = -1
        stats[s, S_OUT_TURN] = -1
        public[P_HAND_N + s] = 0
        public[P_DOWN + s] = 0
        public[P_DOWN_TURN + s] = 0
        public[P_BUYS + s] = 0
        private[s, V_OWN_TURN] = 0
        private[s, V_FORCED] = -1
        private[s, V_TOP_TAKEN] = -1
        private[s, V_OFFER] = -1
        st.maybe[s] = False
    public[P_TURN] = 0
    public[P_NMELDS] = 0
    public[V.P_RESHUFFLES] = 0
    # deal one card at a time from the dealer's left; the next card starts the pile
    pos = seats * each
    for i in range(pos):
        s = (first + i) % seats
        hands[s, deck[i]] += 1
    for s in range(seats):
        public[P_HAND_N + s] = each
    public[P_PILE] = deck[pos]
    public[P_PILE_N] = 1
    nst = ncards - pos - 1
    for j in range(nst):
        stock[j] = deck[ncards - 1 - j]  # stock top = deck[pos + 1] = stock[nst - 1]
    public[P_STOCK_N] = nst
    for s in range(seats):
        stats[s, S_JOK_DEALT] = hands[s, JOKER]
        stats[s, S_DEALT_CAN] = _can_lay_of(search, hands[s], info, st.rem, st.m1, st.stw,
                                            st.lay_out)
        st.maybe[s] = stats[s, S_DEALT_CAN] == 1
    return first


@njit(cache=True, inline="always")
def _reshuffle(d, turn, rules, st, log, log_on):
    """The stock is empty: the pile but its top card becomes the stock, shuffled. False when
    the deal stalls instead (no reshuffle left, or nothing to shuffle)."""
    public, stock = st.public, st.stock
    pn = public[P_PILE_N]
    if public[V.P_RESHUFFLES] >= rules[RU.R_MAX_RESHUFFLES] or pn < 2:
        if log_on:
            emit(log, EV_STALL, d, turn, 0, 0, 0, 0)
        return False
    for j in range(pn - 1):
        stock[j] = public[P_PILE + j]
    public[P_PILE] = public[P_PILE + pn - 1]
    public[P_PILE_N] = 1
    public[P_STOCK_N] = pn - 1
    R.shuffle(st.rngs[MAX_SEATS], stock, pn - 1)
    public[V.P_RESHUFFLES] += 1
    if log_on:
        emit(log, EV_RESHUFFLE, d, public[V.P_RESHUFFLES], pn - 1, 0, 0, 0)
        _emit_cards(log, EV_STOCK, stock, pn - 1, True)
    return True


@njit(cache=True, inline="always")
def _score(d, dealer, first, turn, end, out_seat, rules, st, deal_cols, row, log, log_on):
    """Penalty points of the hands left, and the deal's row of each seat."""
    hands, public, stats, totals = st.hands, st.public, st.stats, st.totals
    seats = rules[RU.R_PLAYERS]
    if log_on:
        emit(log, EV_DEAL_END, d, end, turn, out_seat, public[V.P_RESHUFFLES], 0)
    for s in range(seats):
        pen = hand_penalty(hands[s])
        totals[s] += pen
        r = deal_cols[:, row + s]
        r[O.D_DEAL] = d
        r[O.D_SEAT] = s
        r[O.D_PLAYERS] = seats
        r[O.D_DECKS] = rules[RU.R_DECKS]
        r[O.D_JOKERS] = rules[RU.R_JOKERS]
        r[O.D_SETS] = st.info[I_NSETS]
        r[O.D_RUNS] = st.info[I_NRUNS]
        r[O.D_DEALT] = rules[RU.R_CONTRACTS + 3 * d + 2]
        r[O.D_ALL_AT_ONCE] = st.info[I_GO_OUT]
        r[O.D_DEALER] = dealer
        r[O.D_FIRST] = first
        r[O.D_ORDER] = (s - first + seats) % seats
        r[O.D_TURNS] = turn
        r[O.D_END] = end
        r[O.D_RESHUFFLES] = public[V.P_RESHUFFLES]
        r[O.D_OUT_SEAT] = out_seat
        r[O.D_DEALT_CAN_LAY] = stats[s, S_DEALT_CAN]
        r[O.D_DOWN_TURN] = stats[s, S_DOWN_TURN]
        r[O.D_DOWN_DEAL_TURN] = stats[s, S_DOWN_DEAL_TURN]
        r[O.D_WENT_OUT] = s == out_seat
        r[O.D_OUT_TURN] = stats[s, S_OUT_TURN]
        r[O.D_OWN_TURNS] = stats[s, S_OWN_TURNS]
        r[O.D_PENALTY] = pen
        r[O.D_CUMULATIVE] = totals[s]
        r[O.D_CARDS_LEFT] = public[P_HAND_N + s]
        r[O.D_JOKERS_DEALT] = stats[s, S_JOK_DEALT]
        r[O.D_JOKERS_HELD] = hands[s, JOKER]
        r[O.D_JOKERS_USED] = stats[s, S_JOK_USED]
        r[O.D_PILE_CARDS] = stats[s, S_PILE_CARDS]
        r[O.D_TOP_DRAWS] = stats[s, S_TOP]
        r[O.D_DEEP_DRAWS] = stats[s, S_DEEP]
        r[O.D_BUYS] = stats[s, S_BUYS]
        r[O.D_LAY_OFFS] = stats[s, S_LAYOFFS]
        r[O.D_SWAPS] = stats[s, S_SWAPS]
        r[O.D_STRATEGY] = st.smap[s]
        if log_on:
            emit(log, EV_SCORE, d, s, pen, totals[s], public[P_HAND_N + s], hands[s, JOKER])


def _play_deal(seed_key, d, dealer, rules, fns, st, deal_cols, row, log, log_on, debug, preset):
    """Deal, play and score one deal; seat s's row is column ``row + s`` of deal_cols.
    Returns (status, error seat, value).

    The turn (draw, buy round, lay down, lay offs, discard) is written out on local arrays,
    not split into inlined phases taking ``st``: every array of a State handed to an inlined
    function is reference counted on entry and exit (a call each, unowned views too), which
    cost 8-11% of the game's speed (perf: 4% of the time in the calls themselves)."""
    hands, stock, public, private, legal, params, rngs, stats = (
        st.hands, st.stock, st.public, st.private, st.legal, st.params, st.rngs, st.stats)
    info, work, rem, m1, stw, lay_out, smap, sids, maybe = (
        st.info, st.work, st.rem, st.m1, st.stw, st.lay_out, st.smap, st.seat_sids, st.maybe)
    seats = rules[RU.R_PLAYERS]
    trk, tape = st.trk, st.tape
    dec = fns[0]  # the decisions' pointers, dec[DRAW][slot] ... (see DEAL_FNS)
    search = fns[1][0]  # _search_of
    first = _start_deal(search, seed_key, d, dealer, rules, st, log, log_on, preset)
    k_melds = info[I_NSETS] + info[I_NRUNS]
    full = work  # expected counts for the debug check (work is reused below)
    if debug:
        full = np.zeros(NCODES, np.int64)
        for i in range(rules[RU.R_NCARDS]):
            full[st.deck[i]] += 1

    seat = first
    end = O.END_CAP
    out_seat = -1
    turn = 0
    last_discarder = -1
    max_turns = rules[RU.R_MAX_TURNS]
    while turn < max_turns:
        if public[P_STOCK_N] == 0 and not _reshuffle(d, turn, rules, st, log, log_on):
            end = O.END_STALL
            break
        turn += 1
        public[P_TURN] = turn
        public[V.P_SEAT] = seat
        private[seat, V_OWN_TURN] += 1
        own = private[seat, V_OWN_TURN]
        stats[seat, S_OWN_TURNS] = own
        private[seat, V_FORCED] = -1
        private[seat, V_TOP_TAKEN] = -1
        down = public[P_DOWN + seat] == 1
        if log_on:
            emit(log, EV_TURN, seat, turn, own, 0, 0, 0)

        # -- draw: from the stock (after the buy round), the top discard or deep in the pile;
        # ``top`` is the top discard taken (-1: none), held ``top_n`` times, ``forced`` a card
        # drawn deep that must be melded
        top = -1
        top_n = 0
        forced = -1
        private[seat, V.V_TOP_LAYS] = -1
        tl = -1  # hand + top discard can lay, when known exactly (saves searches below)
        tl_pen = np.int64(-1)  # then the points the laying found leaves
        if not down and public[P_PILE_N] > 0 and D.hook_lay_hints(sids[seat], params[seat]):
            tc = public[P_PILE + public[P_PILE_N] - 1]
            tl_pen = _found_with(search, hands[seat], tc, info, work, rem, m1, stw, lay_out)
            tl = 1 if tl_pen >= 0 else 0
            private[seat, V.V_TOP_LAYS] = tl
            # lays_with answers 0 unsearched when c joins no meld: exact unless the hand
            # itself might lay
            if tl == 0 and maybe[seat] and not could_join(
                    hands[seat], np.int64(tc), info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN],
                    info[I_ACE_LOW] == 1):
                tl = -1
        deep, cap = D.hook_deep_draws(sids[seat], params[seat], info[I_NRUNS])
        if deep == 1 and private[seat, V.V_TOP_LAYS] == 1:
            deep = 0  # the top discard lays the contract: the heuristic takes it
        tt = T.NOT_FORCED
        if trk[T.T_ON] == 1:
            tt = T.at_decision(trk, tape, rngs, seat, KD_DRAW)
            if tt == T.HALT:
                return T.STOPPED, 0, 0
            if tt != T.NOT_FORCED:  # the tape's draw: any legal one, whoever plays on
                deep = 2
                cap = 1 << 20
        n = _list_draws(search, seat, hands, public, legal, work, info, lay_out, rem, m1, stw,
                        down, deep, cap, tl)
        if tt != T.NOT_FORCED:
            a = T.listed(legal, n, tt)
            if a < 0:
                return T.BAD_TAPE, seat, tt
        else:
            a = D.decide_draw(sids[seat], dec[DRAW][smap[seat]], hands[seat], public,
                              private[seat], legal, params[seat], rngs[seat])
            if a < 0 or a >= n:
                return BAD_DRAW, seat, a
        code = legal[1 + a]
        if trk[T.T_ON] == 1:
            T.answered(trk, tape, code)
        if code == D_STOCK:
            if rules[RU.R_BUYING] != 0:
                status, es, ev = _buy_round(search, seat, seats, last_discarder, sids, smap,
                                            dec[BUY], hands, stock, public, private, legal,
                                            params, rngs, stats, rules, maybe, info, work, rem,
                                            m1, stw, lay_out, trk, tape, log, log_on)
                if status != OK:
                    return status, es, ev
            c = stock_pop(stock, public)
            if not down and not maybe[seat] and could_join(
                    hands[seat], np.int64(c), info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN],
                    info[I_ACE_LOW] == 1):
                maybe[seat] = True
            hands[seat, c] += 1
            public[P_HAND_N + seat] += 1
            if log_on:
                emit(log, EV_DRAW, seat, c, 0, 0, 0, 0)
        else:
            idx = public[P_PILE_N] - 1 if code == D_TOP else code - D_DEEP
            cnt = public[P_PILE_N] - idx
            c = take_pile(seat, idx, hands, public, stats)
            maybe[seat] = True
            if code == D_TOP:
                stats[seat, S_TOP] += 1
                private[seat, V_TOP_TAKEN] = c
                top = c
                top_n = hands[seat, c]
            else:
                stats[seat, S_DEEP] += 1
                forced = c
            if log_on:
                emit(log, EV_TAKE, seat, idx, cnt, c, 0, 0)

        # -- lay the contract down, if the hand can (the strategy decides, unless a deep draw
        # forces it)
        tl_ = T.NOT_FORCED
        was_down = down
        if trk[T.T_ON] == 1 and not down:
            tl_ = T.at_decision(trk, tape, rngs, seat, KD_LAY)
            if tl_ == T.HALT:
                return T.STOPPED, 0, 0
            if tl_ != T.NOT_FORCED and tl_ != 0 and tl_ != 1:
                return T.BAD_TAPE, seat, tl_
        if not down and maybe[seat]:
            pen = -1
            # a laying found by the existence search bounds the optimal one's points (the
            # search then cuts from the start; the same laying is found)
            bound = tl_pen if top >= 0 and tl == 1 else np.int64(-1)
            able = forced >= 0 or (top >= 0 and tl == 1)
            if not able and not (top >= 0 and tl == 0):
                bound = search(hands[seat], info, rem, m1, stw, lay_out, _FALSE(), _NONE())
                able = bound >= 0
            if able:
                pen = _lay_within(search, hands[seat], info, rem, m1, stw, lay_out, bound)
            maybe[seat] = pen >= 0  # discarding never makes a hand able to lay
            if pen >= 0 and top >= 0:  # never leave only the taken top discard in hand
                pen = _lay_keeping_top(search, hands[seat], top, pen, info, work, rem, m1, stw,
                                       lay_out)
            if pen >= 0:
                lay = True
                if forced < 0:
                    private[seat, V_LAY_PEN] = pen
                    private[seat, V_LAY_CARDS] = (public[P_HAND_N + seat]
                                                  - layout_cards(lay_out, k_melds))
                    legal[0] = 2
                    legal[1] = 0
                    legal[2] = 1
                    if tl_ != T.NOT_FORCED:
                        lay = tl_ == 1
                    else:
                        a = D.decide_lay(sids[seat], dec[LAY][smap[seat]], hands[seat], public,
                                         private[seat], legal, params[seat], rngs[seat])
                        if a < 0 or a > 1:
                            return BAD_LAY, seat, a
                        lay = a == 1
                elif debug and not layout_has(lay_out, k_melds, forced):
                    return INVARIANT, seat, 600
                if lay:
                    lay_down(seat, hands, public, stats, lay_out, k_melds, log, log_on)
                    if top >= 0 and hands[seat, top] < top_n:  # the taken card was melded
                        top = -1
                        private[seat, V_TOP_TAKEN] = -1
                    public[P_DOWN + seat] = 1
                    public[P_DOWN_TURN + seat] = turn
                    stats[seat, S_DOWN_TURN] = own
                    stats[seat, S_DOWN_DEAL_TURN] = turn
                    down = True
                    if log_on:
                        emit(log, EV_DOWN, seat, own, turn, forced >= 0, pen, 0)
                    forced = -1
            elif forced >= 0 and tl_ != T.NOT_FORCED:  # the tape's deep draw cannot be laid
                return T.BAD_TAPE, seat, 601
            elif debug and forced >= 0:
                return INVARIANT, seat, 601
        if trk[T.T_ON] == 1 and not was_down:
            if tl_ != T.NOT_FORCED and (tl_ == 1) != down:
                return T.BAD_TAPE, seat, tl_
            T.answered(trk, tape, 1 if down else 0)

        # -- lay off (and swap jokers) until the strategy stops or the hand is empty; a card
        # drawn deep first
        if down and public[P_HAND_N + seat] > 0:
            while public[P_HAND_N + seat] > 0:
                private[seat, V_FORCED] = forced
                n = list_layoffs(seat, hands, public, legal, forced, info, top)
                to = T.NOT_FORCED
                if trk[T.T_ON] == 1:
                    to = T.at_decision(trk, tape, rngs, seat, KD_LAYOFF)
                    if to == T.HALT:
                        return T.STOPPED, 0, 0
                    if to != T.NOT_FORCED and (to == STUCK) != (n == 0):
                        return T.BAD_TAPE, seat, to
                    if n == 0:
                        T.answered(trk, tape, STUCK)
                if n == 0:
                    if forced >= 0:
                        return INVARIANT, seat, 602
                    break
                a = 0
                if to != T.NOT_FORCED:
                    a = T.listed(legal, n, to)
                    if a < 0:
                        return T.BAD_TAPE, seat, to
                elif n > 1 or forced >= 0:
                    a = D.decide_layoff(sids[seat], dec[LAYOFF][smap[seat]], hands[seat],
                                        public, private[seat], legal, params[seat], rngs[seat])
                if a < 0 or a >= n:
                    return BAD_LAYOFF, seat, a
                code = legal[1 + a]
                if trk[T.T_ON] == 1:
                    T.answered(trk, tape, code)
                if code == STOP:
                    break
                apply_layoff(seat, code, hands, public, stats, log, log_on)
                forced = -1
                if top >= 0 and hands[seat, top] < top_n:  # the taken card was laid off
                    top = -1
                    private[seat, V_TOP_TAKEN] = -1
            private[seat, V_FORCED] = -1

        # -- discard one card (never the top discard taken this turn), unless the hand is
        # empty
        went_out = public[P_HAND_N + seat] == 0
        if not went_out:
            n = list_discards(seat, hands, legal, top)
            if n == 0:
                return INVARIANT, seat, 603
            a = 0
            td = T.NOT_FORCED
            if trk[T.T_ON] == 1:
                td = T.at_decision(trk, tape, rngs, seat, KD_DISCARD)
                if td == T.HALT:
                    return T.STOPPED, 0, 0
            if td != T.NOT_FORCED:
                a = T.listed(legal, n, td)
                if a < 0:
                    return T.BAD_TAPE, seat, td
            elif n > 1:
                a = D.decide_discard(sids[seat], dec[DISCARD][smap[seat]], hands[seat], public,
                                     private[seat], legal, params[seat], rngs[seat])
            if a < 0 or a >= n:
                return BAD_DISCARD, seat, a
            c = legal[1 + a]
            if trk[T.T_ON] == 1:
                T.answered(trk, tape, c)
            hands[seat, c] -= 1
            public[P_HAND_N + seat] -= 1
            public[P_PILE + public[P_PILE_N]] = c
            public[P_PILE_N] += 1
            if log_on:
                emit(log, EV_DISCARD, seat, c, 0, 0, 0, 0)
            last_discarder = seat
            went_out = public[P_HAND_N + seat] == 0 and down
        if debug:
            bad = check_table(seats, hands, stock, public, full, st.comp, info)
            if bad >= 0:
                return INVARIANT, seat, bad
        if went_out:
            end = O.END_OUT
            out_seat = seat
            stats[seat, S_OUT_TURN] = own
            if log_on:
                emit(log, EV_OUT, seat, turn, own, 0, 0, 0)
            break
        seat = seat + 1 if seat + 1 < seats else 0
    _score(d, dealer, first, turn, end, out_seat, rules, st, deal_cols, row, log, log_on)
    return OK, 0, 0


play_deal = njit(cache=True)(_play_deal)  # compiled by the Kernel, for PLAY_DEAL_SIG


@njit(cache=True, inline="always")
def board_of(game_index, rot_k):
    """Duplicate seating (rot_k > 0): games come in sets of rot_k that share their deals (the
    same board), the strategies moving one seat on from game to game."""
    return game_index // rot_k if rot_k > 0 else game_index


def _play_one(ctx, fns, st, game_index, deal_cols, row, row_end, game_row, err, log, log_on, debug,
              preset):
    """Play game ``game_index`` for the engine (simulator.engine): its deal rows (one per seat)
    go to deal_cols[:, row:row_end]. Seat s is played by strategy st.smap[s] = (s + rotation)
    % players (rotation = game_index % rot_k with duplicate seating, else 0). Returns (status,
    rows written); on an error ``err`` = (seat, strategy slot of the seat, value). Contract
    Rummy has no deals mode (ctx.deals_mode is False). Written here rather than called, and
    play_deal called through its pointer in ``fns``: each compiled level over play_deal that
    links it in optimizes it again."""
    rules, sids, run_params, rot_k = ctx.rules, ctx.sids, ctx.params, ctx.rot_k
    seed_key = R.game_key(ctx.seed, board_of(game_index, rot_k))
    seats = rules[RU.R_PLAYERS]
    public, private, rngs, params = st.public, st.private, st.rngs, st.params
    smap, totals = st.smap, st.totals
    rot = game_index % rot_k if rot_k > 0 else 0
    for s in range(MAX_SEATS):
        t = (s + rot) % seats if s < seats else s
        smap[s] = t
        st.seat_sids[s] = sids[t] if sids[t] >= 0 else -1 - t
        for j in range(params.shape[1]):
            params[s, j] = run_params[t, j]
    public[V.P_PLAYERS] = seats
    for s in range(MAX_SEATS):
        private[s, V.V_SEAT] = s
        totals[s] = 0
    for s in range(seats):
        R.substream(rngs[s], seed_key, R.SUB_SEAT, s)
    R.substream(rngs[MAX_SEATS], seed_key, R.SUB_SETUP, 0)
    dealer0 = R.below(rngs[MAX_SEATS], seats)
    ndeals = rules[RU.R_DEALS]
    if log_on:
        emit(log, EV_GAME, game_index, seats, dealer0, ndeals, rot, 0)
    capped = 0
    stalled = 0
    written = 0
    deal_fn = fns[1][0]  # play_deal, the first of the kernel's own pointers (see KERNEL)
    deal_fns = (fns[0], (fns[1][1],))  # the strategies' pointers and _search_of's
    trk = st.trk
    d0 = 0
    if T.resuming(trk):  # from a position: its deal, the totals and counts before it
        d0 = trk[T.T_DEAL]
        capped = trk[H_CAPPED]
        stalled = trk[H_STALLED]
        for s in range(MAX_SEATS):
            totals[s] = trk[H_TOTALS + s]
    for d in range(d0, ndeals):
        if row + seats > row_end:
            return ROWS_FULL, written
        if trk[T.T_WANT] == 1 and trk[T.T_DEAL] == d and trk[T.T_RESUME] == 0:
            trk[H_CAPPED] = capped
            trk[H_STALLED] = stalled
        status, es, ev = deal_fn(seed_key, d, (dealer0 + d) % seats, rules, deal_fns, st,
                                 deal_cols, row, log, log_on, debug, preset)
        if status != OK:
            err[0] = es
            err[1] = smap[es] if 0 <= es < MAX_SEATS else es
            err[2] = ev
            return status, written
        if log_on and log[0, 1] != 0:
            return LOG_FULL, written
        capped += deal_cols[O.D_END, row] == O.END_CAP
        stalled += deal_cols[O.D_END, row] == O.END_STALL
        row += seats
        written += seats
    winner = -1
    best = 1 << 40
    tied = 0
    for s in range(seats):
        if totals[s] < best:
            best = totals[s]
            winner = s
            tied = 1
        elif totals[s] == best:
            tied += 1
    game_row[O.G_DEALS] = ndeals
    game_row[O.G_PLAYERS] = seats
    game_row[O.G_DEALER] = dealer0
    game_row[O.G_WINNER] = winner if tied == 1 else -1
    game_row[O.G_ROTATION] = rot
    game_row[O.G_WINNER_STRATEGY] = smap[winner] if tied == 1 else -1
    game_row[O.G_TIED] = tied
    game_row[O.G_CAPPED] = capped
    game_row[O.G_STALLED] = stalled
    for s in range(MAX_SEATS):
        game_row[O.G_TOTAL0 + s] = totals[s] if s < seats else -1
    if log_on:
        i = emit(log, EV_GAME_END, game_row[O.G_WINNER], tied, ndeals, 0, 0, 0)
        if i >= 0:
            for s in range(seats):
                log[i, 7 + s] = totals[s]
    return OK, written


# the engine passes _play_one fns = (the strategies' pointers, these pointers in this order):
# _play_one calls play_deal through fns[1][0], so its compile does not link in and optimize
# again all of play_deal (about 10 s of every cold start), and play_deal the search through
# fns[1][1]
KERNEL = Kernel(_new_state, _play_one, CTX, STRATEGY_FNS, np.int32, LOG_W,
                pointers=((play_deal, PLAY_DEAL_SIG), (_search_of, SEARCH_SIG)))
