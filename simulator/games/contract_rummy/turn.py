"""What a Contract Rummy turn may do: the contract search as the kernel calls it, the legal
lists (draws, deep draws, lay-offs, discards) and the moves that apply them (lay down, lay off,
take from the pile, pop the stock), with the per-seat statistics (S_*), the deal facts (I_*)
and the replay's event kinds (EV_*) they write. The kernel (kernel.py) plays the turns; the
strategies see the lists through view.py. Split from kernel.py by phase: the same compiled
code, so the same speed.
"""
import numpy as np
from numba import njit, types

from cardsim.simulator.bits import ctz, popcount
from cardsim.simulator.rules import Slots
from cardsim.simulator.tables import emit
from cardsim.simulator.games.contract_rummy import rules as RU
from cardsim.simulator.games.contract_rummy import view as V
from cardsim.simulator.games.contract_rummy.search import (
    _FALSE, _NONE, _TRUE, _ZERO, _search, _sizes,
)
from cardsim.simulator.games.contract_rummy.view import (
    D_DEEP, D_STOCK, D_TOP, JOKER, LEGAL_LEN, M_CARDS, M_JOK, M_KEY, M_KIND, M_NAT, M_OWNER,
    MW, NCODES, P_DOWN, P_DOWN_TURN, P_HAND_N, P_MELDS, P_NMELDS, P_PILE, P_PILE_N, P_STOCK_N,
    P_TURN, RUN, SET, STOP, bit, card_at, could_join, could_lay, fits_table, layoff_code,
    rank_of_pos, run_ends, slot_open, swap_code,
)

MAX_SEATS = RU.MAX_SEATS

# replay event kinds; each event is a row of LOG_W int32: kind, then fields
(EV_GAME, EV_DEAL, EV_DECK, EV_TURN, EV_DRAW, EV_TAKE, EV_BUY, EV_LAY, EV_DOWN, EV_LAYOFF,
 EV_SWAP, EV_DISCARD, EV_RESHUFFLE, EV_STOCK, EV_OUT, EV_DEAL_END, EV_SCORE, EV_GAME_END,
 EV_STALL) = range(19)

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
