"""Contract Rummy kernel: deal, turns (draw, buy, lay down, lay off, joker swap, discard),
reshuffles and penalty scoring, in Numba.

``play_game`` is the one place a game is played; ``run_blocks`` runs it over blocks of game
indices in parallel and writes int32 columns (one row per deal and seat); the replay calls it
for one game with the event log on. Hands are counts per card code (view.py); table melds are
records in ``public``; the stock and the pile keep card codes in order.
Randomness: the shuffle of deal ``d`` and its reshuffles come from sub-stream (g, DEAL, d), each
seat's strategy draws from (g, SEAT, s), the first dealer from (g, SETUP, 0).
Contract layouts come from search.py (``lay_contract``: the laying that leaves the fewest
penalty points; ``can_lay_ws``; ``completing_cards``).
"""
import numpy as np
from numba import njit, prange, types

from simulator import rng as R
from simulator.bits import ctz, popcount
from simulator.nrt import borrow, keep_alive
from simulator.tables import emit
from simulator.games.contract_rummy import outcomes as O
from simulator.games.contract_rummy import rules as RU
from simulator.games.contract_rummy import view as V
from simulator.games.contract_rummy.search import (
    MELD_W, can_lay_ws, is_valid_meld, lay_contract_ws,
)
from simulator.games.contract_rummy.view import (
    BUY, D_DEEP, D_STOCK, D_TOP, DISCARD, DRAW, JOKER, LAY, LAYOFF, LEGAL_LEN, M_CARDS, M_JOK,
    M_KEY, M_KIND, M_NAT, M_OWNER, MW, NCODES, P_BUYS, P_DOWN, P_DOWN_TURN, P_HAND_N, P_MELDS,
    P_NMELDS, P_PILE, P_PILE_N, P_STOCK_N, P_TURN, RUN, SET, STOP, V_FORCED, V_LAY_CARDS,
    V_LAY_PEN, V_OFFER, V_OWN_TURN, V_TOP_TAKEN, bit, card_at, could_join, could_lay, fits_table,
    hand_penalty, layoff_code,
    rank_of_pos, run_ends, slot_open, swap_code,
)
from strategies.contract_rummy import builtin_decision, wants_deep

MAX_SEATS = RU.MAX_SEATS
MAX_CARDS = RU.MAX_CARDS

# kernel status codes (also the error kinds reported to Python)
OK, ROWS_FULL, BAD_DRAW, BAD_BUY, BAD_LAY, BAD_LAYOFF, BAD_DISCARD, INVARIANT, LOG_FULL = range(9)

# replay event kinds; each event is a row of LOG_W int32: kind, then fields
(EV_GAME, EV_DEAL, EV_DECK, EV_TURN, EV_DRAW, EV_TAKE, EV_BUY, EV_LAY, EV_DOWN, EV_LAYOFF,
 EV_SWAP, EV_DISCARD, EV_RESHUFFLE, EV_STOCK, EV_OUT, EV_DEAL_END, EV_SCORE, EV_GAME_END,
 EV_STALL) = range(19)
LOG_W = 20

FNS = types.UniTuple(V.DECISION_FN, MAX_SEATS)

# per-seat statistics kept during a deal (stats[seat, S_*])
(S_DOWN_TURN, S_DOWN_DEAL_TURN, S_OUT_TURN, S_OWN_TURNS, S_JOK_USED, S_PILE_CARDS, S_TOP,
 S_DEEP, S_BUYS, S_LAYOFFS, S_SWAPS, S_DEALT_CAN) = range(12)
S_W = 16

# deal facts (info[I_*]) passed around a deal
(I_NSETS, I_NRUNS, I_MIN_RUN, I_MAX_MELD, I_ACE_LOW, I_DISTINCT, I_GO_OUT, I_LAYOFF_SETS,
 I_DECKS, I_NJOKERS) = range(10)
I_W = 12


@njit(cache=True)
def new_state(nparams):
    """Scratch arrays for one game, allocated once per block of games. Returns (owners, state):
    ``state`` holds unowned views (simulator.nrt.borrow) of the arrays in ``owners``."""
    hands = np.zeros((MAX_SEATS, NCODES), np.int64)
    stock = np.zeros(MAX_CARDS, np.int32)  # top at stock[n - 1]
    deck = np.zeros(MAX_CARDS, np.int32)  # the deal's shuffled deck, in dealing order
    public = np.zeros(V.P_LEN, np.int32)
    private = np.zeros((MAX_SEATS, V.V_LEN), np.int32)
    legal = np.zeros(LEGAL_LEN, np.int32)
    rngs = np.zeros((MAX_SEATS + 1, 2), np.uint64)
    stats = np.zeros((MAX_SEATS, S_W), np.int32)
    params = np.zeros((MAX_SEATS, nparams), np.float64)
    lay_out = np.zeros((4, MELD_W), np.int64)
    comp = np.zeros(64, np.int64)
    work = np.zeros(NCODES, np.int64)  # a hand under test (hand + cards from the pile)
    info = np.zeros(I_W, np.int64)
    rem = np.zeros((4, 13), np.int64)  # search work arrays
    m1 = np.zeros(4, np.int64)
    stw = np.zeros((4, 3), np.int64)
    seat_sids = np.zeros(MAX_SEATS, np.int64)  # this game's strategy of each seat (see play_game)
    owners = (hands, stock, deck, public, private, legal, rngs, stats, params, lay_out, comp,
              work, info, rem, m1, stw, seat_sids)
    state = (borrow(hands), borrow(stock), borrow(deck), borrow(public), borrow(private),
             borrow(legal), borrow(rngs), borrow(stats), borrow(params), borrow(lay_out),
             borrow(comp), borrow(work), borrow(info), borrow(rem), borrow(m1), borrow(stw),
             borrow(seat_sids))
    return owners, state


@njit(cache=True, inline="always")
def _decide(kind, sids, fns, seat, hands, public, private, legal, params, rngs):
    """``sids[seat]``: a built-in's id, or -1 - t for plug-in strategy t (``fns[t]``)."""
    sid = sids[seat]
    if sid >= 0:
        return builtin_decision(kind, sid, hands[seat], public, private[seat], legal,
                                params[seat], rngs[seat])
    return fns[-1 - sid](hands[seat], public, private[seat], legal, params[seat], rngs[seat])


# ---------------------------------------------------------------- contract search wrappers


@njit(cache=True)
def lay_of(mine, info, rem, m1, stw, out):
    """search.lay_contract on a hand (int64[53]): penalty left, or -1; melds in ``out``."""
    if not could_lay(mine, info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN], info[I_ACE_LOW] == 1,
                     m1):
        return -1
    return lay_contract_ws(mine[:52].reshape((4, 13)), mine[JOKER], info[I_NSETS],
                           info[I_NRUNS], info[I_MIN_RUN], info[I_MAX_MELD],
                           info[I_ACE_LOW] == 1, info[I_DISTINCT] == 1, info[I_GO_OUT] == 1,
                           rem, m1, stw, out)


@njit(cache=True)
def can_lay_of(mine, info, rem, m1, stw, out):
    if not could_lay(mine, info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN], info[I_ACE_LOW] == 1,
                     m1):
        return False
    return can_lay_ws(mine[:52].reshape((4, 13)), mine[JOKER], info[I_NSETS], info[I_NRUNS],
                      info[I_MIN_RUN], info[I_MAX_MELD], info[I_ACE_LOW] == 1,
                      info[I_DISTINCT] == 1, info[I_GO_OUT] == 1, rem, m1, stw, out)


@njit(cache=True)
def lays_with(mine, c, info, work, rem, m1, stw, out):
    """1 if the hand with one more card ``c`` can lay the contract, else 0."""
    if not could_join(mine, c, info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN],
                      info[I_ACE_LOW] == 1):
        return 0
    for k in range(NCODES):
        work[k] = mine[k]
    work[c] += 1
    return 1 if can_lay_of(work, info, rem, m1, stw, out) else 0


@njit(cache=True)
def layout_cards(out, k):
    t = 0
    for i in range(k):
        t += popcount(np.uint64(out[i, 2])) + popcount(np.uint64(out[i, 3]))
    return np.int64(t)


@njit(cache=True)
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


@njit(cache=True)
def _push(legal, n, code):
    if n + 1 < LEGAL_LEN:
        n += 1
        legal[n] = code
    return n


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
        if kind == SET:
            if not sets_ok:
                continue
            lo, hi = 0, 3
        else:
            lo, hi = run_ends(nat | jok)
            lo -= 1
            hi += 1
        for slot in range(lo, hi + 1):
            if kind == RUN and slot != lo and slot != hi:
                continue
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
                        nat2 = nat | bit(p)
                        jok2 = jok & ~bit(p)
                    if kind2 == SET:
                        if not sets_ok:
                            continue
                        lo, hi = 0, 3
                    else:
                        lo, hi = run_ends(nat2 | jok2)
                        lo -= 1
                        hi += 1
                    for slot in range(lo, hi + 1):
                        if kind2 == RUN and slot != lo and slot != hi:
                            continue
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


@njit(cache=True)
def lay_keeping_top(mine, top, pen, info, work, rem, m1, stw, out):
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
        if lay_of(work, info, rem, m1, stw, out) == 0:  # every other card melded
            best = c
    if best < 0:
        return -1
    for j in range(NCODES):
        work[j] = mine[j]
    work[best] -= 1
    lay_of(work, info, rem, m1, stw, out)
    return V.PENALTY[best]


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


@njit(cache=True)
def list_draws(seat, hands, public, legal, work, info, lay_out, rem, m1, stw, down, deep):
    """Stock, the top discard, and (``deep``) every legal deep draw: pile[i] and every card
    above it, when pile[i] can be melded this turn -- before the contract, the laying of hand +
    taken cards (lay_contract's, the fewest penalty points left) must hold it; after, it must
    fit a meld on the table now."""
    n = 1
    legal[1] = D_STOCK
    pn = public[P_PILE_N]
    if pn >= 1:
        n += 1
        legal[n] = D_TOP
    if deep and pn >= 2:
        if down:
            for i in range(pn - 2, -1, -1):
                if fits_table(public, public[P_PILE + i]):
                    n = _push(legal, n, D_DEEP + i)
        else:
            # the whole pile with the hand: no laying there, none from a part of it
            for k in range(NCODES):
                work[k] = hands[seat, k]
            for j in range(pn):
                work[public[P_PILE + j]] += 1
            if can_lay_of(work, info, rem, m1, stw, lay_out):
                # hand + pile[i:] for i from the top down; once it can lay it stays able
                for k in range(NCODES):
                    work[k] = hands[seat, k]
                work[public[P_PILE + pn - 1]] += 1
                able = can_lay_of(work, info, rem, m1, stw, lay_out)
                kmeld = info[I_NSETS] + info[I_NRUNS]
                for i in range(pn - 2, -1, -1):
                    c = public[P_PILE + i]
                    work[c] += 1
                    if not able:
                        if not can_lay_of(work, info, rem, m1, stw, lay_out):
                            continue
                        able = True
                        n = _push(legal, n, D_DEEP + i)  # every laying now holds c
                        continue
                    if lay_of(work, info, rem, m1, stw, lay_out) >= 0 and layout_has(
                            lay_out, kmeld, c):
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
    public[P_HAND_N + seat] += pn - i
    public[P_PILE_N] = i
    stats[seat, S_PILE_CARDS] += pn - i
    return c


@njit(cache=True)
def stock_pop(stock, public):
    n = public[P_STOCK_N] - 1
    public[P_STOCK_N] = n
    return stock[n]


@njit(cache=True)
def _emit_cards(log, kind, arr, n, reverse):
    """Card codes as rows of 16 (``reverse``: from arr[n-1] down)."""
    for off in range(0, n, 16):
        m = min(16, n - off)
        i = emit(log, kind, off, m, 0, 0, 0, 0)
        if i >= 0:
            for j in range(m):
                log[i, 3 + j] = arr[n - 1 - off - j] if reverse else arr[off + j]


@njit(cache=True)
def buy_round(seat, seats, last_discarder, sids, fns, hands, stock, public, private, legal,
              params, rngs, stats, rules, maybe, info, work, rem, m1, stw, out, log, log_on):
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
        if sids[b] != 0 and public[P_DOWN + b] == 0:
            private[b, V.V_OFFER_LAYS] = lays_with(hands[b], top, info, work, rem, m1, stw, out)
        legal[0] = 2
        legal[1] = 0
        legal[2] = 1
        a = _decide(BUY, sids, fns, b, hands, public, private, legal, params, rngs)
        private[b, V_OFFER] = -1
        if a < 0 or a > 1:
            return BAD_BUY, b, a
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


@njit(cache=True)
def play_deal(seed_key, d, dealer, rules, sids, fns, st, totals, deal_cols, row, log, log_on,
              debug, preset, smap):
    """Deal, play and score one deal; seat s's row is column ``row + s`` of deal_cols.
    Returns (status, error seat, value)."""
    (hands, stock, deck, public, private, legal, rngs, stats, params, lay_out, comp, work,
     info, rem, m1, stw, _) = st
    draw_fns, buy_fns, lay_fns, layoff_fns, discard_fns = fns
    seats = rules[RU.R_PLAYERS]
    ncards = rules[RU.R_NCARDS]
    ndecks = rules[RU.R_DECKS]
    set_deal_info(rules, d, info, public)
    nsets = info[I_NSETS]
    nruns = info[I_NRUNS]
    each = rules[RU.R_CONTRACTS + 3 * d + 2]
    go_out = info[I_GO_OUT] == 1
    k_melds = nsets + nruns
    first = (dealer + 1) % seats

    dr = rngs[MAX_SEATS]
    R.substream(dr, seed_key, R.SUB_DEAL, d)
    if preset.shape[0] == ncards and d == 0:
        for i in range(ncards):
            deck[i] = preset[i]
    else:
        for i in range(ncards):
            deck[i] = i % 52 if i < 52 * ndecks else JOKER
        R.shuffle(dr, deck, ncards)
    if log_on:
        i = emit(log, EV_DEAL, d, dealer, first, nsets, nruns, each)
        if i >= 0:
            log[i, 7] = go_out
            log[i, 8] = ncards
        _emit_cards(log, EV_DECK, deck, ncards, False)

    # reset the deal's state
    for s in range(MAX_SEATS):
        for k in range(NCODES):
            hands[s, k] = 0
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
    maybe = np.zeros(MAX_SEATS, np.bool_)  # the hand might lay its contract (else: surely not)
    for s in range(seats):
        stats[s, S_DEALT_CAN] = can_lay_of(hands[s], info, rem, m1, stw, lay_out)
        maybe[s] = stats[s, S_DEALT_CAN] == 1
    full = work  # expected counts for the debug check (work is reused below)
    if debug:
        full = np.zeros(NCODES, np.int64)
        for i in range(ncards):
            full[deck[i]] += 1

    # ---- turns
    seat = first
    end = O.END_CAP
    out_seat = -1
    turn = 0
    last_discarder = -1
    max_turns = rules[RU.R_MAX_TURNS]
    while turn < max_turns:
        if public[P_STOCK_N] == 0:
            pn = public[P_PILE_N]
            if public[V.P_RESHUFFLES] >= rules[RU.R_MAX_RESHUFFLES] or pn < 2:
                end = O.END_STALL
                if log_on:
                    emit(log, EV_STALL, d, turn, 0, 0, 0, 0)
                break
            for j in range(pn - 1):
                stock[j] = public[P_PILE + j]
            public[P_PILE] = public[P_PILE + pn - 1]
            public[P_PILE_N] = 1
            public[P_STOCK_N] = pn - 1
            R.shuffle(dr, stock, pn - 1)
            public[V.P_RESHUFFLES] += 1
            if log_on:
                emit(log, EV_RESHUFFLE, d, public[V.P_RESHUFFLES], pn - 1, 0, 0, 0)
                _emit_cards(log, EV_STOCK, stock, pn - 1, True)
        turn += 1
        public[P_TURN] = turn
        public[V.P_SEAT] = seat
        private[seat, V_OWN_TURN] += 1
        own = private[seat, V_OWN_TURN]
        stats[seat, S_OWN_TURNS] = own
        private[seat, V_FORCED] = -1
        private[seat, V_TOP_TAKEN] = -1
        top = -1  # the single top discard taken this turn, while it is held
        top_n = 0  # copies of it held after taking it
        down = public[P_DOWN + seat] == 1
        if log_on:
            emit(log, EV_TURN, seat, turn, own, 0, 0, 0)
        # -- draw
        private[seat, V.V_TOP_LAYS] = -1
        if sids[seat] != 0 and not down and public[P_PILE_N] > 0:  # not for random
            private[seat, V.V_TOP_LAYS] = lays_with(hands[seat], public[P_PILE + public[P_PILE_N] - 1],
                                                    info, work, rem, m1, stw, lay_out)
        n = list_draws(seat, hands, public, legal, work, info, lay_out, rem, m1, stw, down,
                       wants_deep(sids[seat], params[seat]))
        i = _decide(DRAW, sids, draw_fns, seat, hands, public, private, legal, params, rngs)
        if i < 0 or i >= n:
            return BAD_DRAW, seat, i
        code = legal[1 + i]
        forced = -1
        if code == D_STOCK:
            status, es, ev = buy_round(seat, seats, last_discarder, sids, buy_fns, hands, stock,
                                       public, private, legal, params, rngs, stats, rules,
                                       maybe, info, work, rem, m1, stw, lay_out, log, log_on)
            if status != OK:
                return status, es, ev
            c = stock_pop(stock, public)
            if not down and not maybe[seat] and could_join(
                    hands[seat], c, nsets, nruns, info[I_MIN_RUN], info[I_ACE_LOW] == 1):
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
        # -- lay the contract down
        if not down and maybe[seat]:
            pen = -1
            if forced >= 0 or can_lay_of(hands[seat], info, rem, m1, stw, lay_out):
                pen = lay_of(hands[seat], info, rem, m1, stw, lay_out)
            maybe[seat] = pen >= 0  # discarding never makes a hand able to lay
            if pen >= 0 and top >= 0:  # never leave only the taken top discard in hand
                pen = lay_keeping_top(hands[seat], top, pen, info, work, rem, m1, stw,
                                      lay_out)
            if pen >= 0:
                lay = True
                if forced < 0:
                    private[seat, V_LAY_PEN] = pen
                    private[seat, V_LAY_CARDS] = public[P_HAND_N + seat] - layout_cards(lay_out, k_melds)
                    legal[0] = 2
                    legal[1] = 0
                    legal[2] = 1
                    a = _decide(LAY, sids, lay_fns, seat, hands, public, private, legal, params,
                                rngs)
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
            elif debug and forced >= 0:
                return INVARIANT, seat, 601
        # -- lay off (and swap jokers) once the contract is down
        if down and public[P_HAND_N + seat] > 0:
            while public[P_HAND_N + seat] > 0:
                private[seat, V_FORCED] = forced
                n = list_layoffs(seat, hands, public, legal, forced, info, top)
                if n == 0:
                    if forced >= 0:
                        return INVARIANT, seat, 602
                    break
                a = 0
                if n > 1 or forced >= 0:
                    a = _decide(LAYOFF, sids, layoff_fns, seat, hands, public, private, legal,
                                params, rngs)
                if a < 0 or a >= n:
                    return BAD_LAYOFF, seat, a
                code = legal[1 + a]
                if code == STOP:
                    break
                apply_layoff(seat, code, hands, public, stats, log, log_on)
                forced = -1
                if top >= 0 and hands[seat, top] < top_n:  # the taken card was laid off
                    top = -1
                    private[seat, V_TOP_TAKEN] = -1
            private[seat, V_FORCED] = -1
        # -- discard, or out
        went_out = False
        if public[P_HAND_N + seat] == 0:
            went_out = True
        else:
            n = list_discards(seat, hands, legal, top)
            if n == 0:
                return INVARIANT, seat, 603
            a = 0
            if n > 1:
                a = _decide(DISCARD, sids, discard_fns, seat, hands, public, private, legal,
                            params, rngs)
            if a < 0 or a >= n:
                return BAD_DISCARD, seat, a
            c = legal[1 + a]
            hands[seat, c] -= 1
            public[P_HAND_N + seat] -= 1
            public[P_PILE + public[P_PILE_N]] = c
            public[P_PILE_N] += 1
            last_discarder = seat
            if log_on:
                emit(log, EV_DISCARD, seat, c, 0, 0, 0, 0)
            went_out = public[P_HAND_N + seat] == 0 and down
        if debug:
            bad = check_table(seats, hands, stock, public, full, comp, info)
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

    # ---- score
    if log_on:
        emit(log, EV_DEAL_END, d, end, turn, out_seat, public[V.P_RESHUFFLES], 0)
    for s in range(seats):
        pen = hand_penalty(hands[s])
        totals[s] += pen
        r = deal_cols[:, row + s]
        r[O.D_DEAL] = d
        r[O.D_SEAT] = s
        r[O.D_PLAYERS] = seats
        r[O.D_DECKS] = ndecks
        r[O.D_JOKERS] = rules[RU.R_JOKERS]
        r[O.D_SETS] = nsets
        r[O.D_RUNS] = nruns
        r[O.D_DEALT] = each
        r[O.D_ALL_AT_ONCE] = go_out
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
        r[O.D_JOKERS_HELD] = hands[s, JOKER]
        r[O.D_JOKERS_USED] = stats[s, S_JOK_USED]
        r[O.D_PILE_CARDS] = stats[s, S_PILE_CARDS]
        r[O.D_TOP_DRAWS] = stats[s, S_TOP]
        r[O.D_DEEP_DRAWS] = stats[s, S_DEEP]
        r[O.D_BUYS] = stats[s, S_BUYS]
        r[O.D_LAY_OFFS] = stats[s, S_LAYOFFS]
        r[O.D_SWAPS] = stats[s, S_SWAPS]
        r[O.D_STRATEGY] = smap[s]
        if log_on:
            emit(log, EV_SCORE, d, s, pen, totals[s], public[P_HAND_N + s], hands[s, JOKER])
    return OK, 0, 0


@njit(cache=True, inline="always")
def board_of(game_index, rot_k):
    """Duplicate seating (rot_k > 0): games come in sets of rot_k that share their deals (the
    same board), the strategies moving one seat on from game to game."""
    return game_index // rot_k if rot_k > 0 else game_index


@njit(cache=True)
def play_game(seed_key, game_index, rules, sids, fns, run_params, st, deal_cols, row, row_end,
              game_row, totals, log, log_on, debug, preset, rot_k, smap):
    """Play game ``game_index``: its deal rows (one per seat) go to deal_cols[:, row:row_end].
    Seat s is played by strategy smap[s] = (s + rotation) % players (rotation = game_index %
    rot_k with duplicate seating, else 0). Returns (status, rows written, error seat, value)."""
    seats = rules[RU.R_PLAYERS]
    public = st[3]
    private = st[4]
    rngs = st[6]
    params = st[8]
    seat_sids = st[16]
    rot = game_index % rot_k if rot_k > 0 else 0
    for s in range(MAX_SEATS):
        t = (s + rot) % seats if s < seats else s
        smap[s] = t
        seat_sids[s] = sids[t] if sids[t] >= 0 else -1 - t
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
    for d in range(ndeals):
        if row + seats > row_end:
            return ROWS_FULL, written, 0, 0
        status, es, ev = play_deal(seed_key, d, (dealer0 + d) % seats, rules, seat_sids, fns,
                                   st, totals, deal_cols, row, log, log_on, debug, preset, smap)
        if status != OK:
            return status, written, es, ev
        if log_on and log[0, 1] != 0:
            return LOG_FULL, written, 0, 0
        for s in range(seats):
            deal_cols[O.D_GAME, row + s] = 0
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
    return OK, written, 0, 0


FNS5 = types.Tuple((FNS, FNS, FNS, FNS, FNS))

_BLOCK_SIG = types.void(
    types.uint64, types.int64[::1], types.boolean, types.int64[::1], FNS, FNS, FNS, FNS, FNS,
    types.float64[:, ::1], types.int64, types.int64[::1], types.int64[::1], types.int64[::1],
    types.int64[::1], types.int32[:, ::1], types.int64[::1], types.int32[:, ::1],
    types.int64[::1], types.int64[:, ::1],
)


@njit(_BLOCK_SIG, cache=True, parallel=True)
def run_blocks(seed, rules, debug, sids, draw_fns, buy_fns, lay_fns, layoff_fns, discard_fns,
               params, rot_k, starts, ends, row_starts, row_ends, deal_cols, deal_n, game_rows,
               stopped, errs):
    """Play games starts[b]..ends[b]-1 for every block b in parallel (the contract of the
    other games' kernels). errs[b] = (kind, game, seat, strategy of the seat, value) of the
    first error."""
    nb = starts.shape[0]
    g0 = starts[0]
    log = np.zeros((1, LOG_W), np.int32)
    no_preset = np.zeros(0, np.int32)
    for b in prange(nb):
        owners, st = new_state(params.shape[1])
        fns = (draw_fns, buy_fns, lay_fns, layoff_fns, discard_fns)
        totals = np.zeros(MAX_SEATS, np.int64)
        smap = np.zeros(MAX_SEATS, np.int64)
        row = row_starts[b]
        row_end = row_ends[b]
        stopped[b] = -1
        for g in range(starts[b], ends[b]):
            key = R.game_key(seed, board_of(g, rot_k))
            status, nd, es, ev = play_game(key, g, rules, sids, fns, params, st, deal_cols, row,
                                           row_end, game_rows[g - g0], totals, log, False,
                                           debug, no_preset, rot_k, smap)
            if status == ROWS_FULL:
                stopped[b] = g
                break
            if status != OK:
                errs[b, 0] = status
                errs[b, 1] = g
                errs[b, 2] = es
                errs[b, 3] = smap[es] if 0 <= es < MAX_SEATS else es  # the seat's strategy
                errs[b, 4] = ev
                stopped[b] = g
                break
            for k in range(nd):
                deal_cols[O.D_GAME, row + k] = g - g0
            row += nd
        deal_n[b] = row - row_starts[b]
        keep_alive(owners)


_REPLAY_SIG = types.Tuple((types.int64, types.int32[:, ::1], types.int32[::1],
                           types.int64[::1]))(
    types.uint64, types.int64, types.int64[::1], types.int64[::1], FNS5,
    types.float64[:, ::1], types.int32[:, ::1], types.boolean, types.int32[::1], types.int64,
)


@njit(_REPLAY_SIG, cache=True)
def replay_game(seed, game_index, rules, sids, fns, params, log, debug, preset, rot_k):
    """One game with the event log on (the same play_game as the batch kernel). Returns
    (status, deal rows, game row, error detail (seat, strategy of the seat, value))."""
    owners, st = new_state(params.shape[1])
    smap = np.zeros(MAX_SEATS, np.int64)
    nrows = rules[RU.R_DEALS] * MAX_SEATS
    deal_cols = np.zeros((O.D_NCOLS, nrows), np.int32)
    game_row = np.zeros(O.G_NCOLS, np.int32)
    totals = np.zeros(MAX_SEATS, np.int64)
    key = R.game_key(seed, board_of(game_index, rot_k))
    status, nd, es, ev = play_game(key, game_index, rules, sids, fns, params, st, deal_cols, 0,
                                   nrows, game_row, totals, log, True, debug, preset, rot_k,
                                   smap)
    keep_alive(owners)
    err = np.array([es, smap[es] if 0 <= es < MAX_SEATS else es, ev], np.int64)
    return status, deal_cols[:, :nd].copy(), game_row, err
