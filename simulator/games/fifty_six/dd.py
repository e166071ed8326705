"""56 double dummy: the most card points the declaring side can take from a position with every
hand open, both sides playing their best.

The search is alpha-beta on points (fail-soft, bounds kept in a transposition table at every
trick's start), as bridge solvers and Skat programs do it; what makes it fast for 56:

- hands are the kernel's slot masks (simulator.games.fifty_six.view: a suit is 16 bits, ranks
  ascend, the two copies of a card are neighbours);
- equivalent cards are searched once: cards of one player that sit next to each other in a
  suit among all cards not yet out of play (the current trick's cards count as in play) and
  carry the same points cannot change any outcome by which is played. The two copies of a
  card are the first case, and cards made equal by the ones already played the second;
- moves are ordered by what they do to the trick: a card that surely wins it for the side
  (the partner's trick: the most points on it; one's own: the cheapest winner), then cards
  whose trick is still open, then sure losers from the fewest points; leads: sure winners,
  then low cards to a partner's master, then the rest from the lowest (ties between leads:
  the ones that cut off most often so far, weighted by the cards left);
- bounds before searching a trick's start (see ``_bounds``): the points in a side's top
  trumps are that side's whatever happens, and the leader can cash the masters of a suit as
  often as no opponent holding trumps runs out of it;
- the table has two entries a bucket, the one standing for fewer cards replaced first.

The trump is open (double dummy: every card is known, so is the trump); a hidden trump's rules
do not apply. ``no_trump_lead_until_broken`` does. Thani is not solved here.

    tt = new_table(players)
    best = solve(hands, nxt, side, trump, leader, trick, broken, *tt)
    ok = makes(hands, nxt, side, trump, leader, trick, broken, target, *tt)  # best >= target

``makes`` is one null-window search (does the declaring side take ``target`` points?), a
fraction of ``solve``'s cost: ``solve`` bisects the value's range with such searches, the
table keeping their bounds (and each trick start's best lead, by its place in the suit) from
one to the next.

``hands``: uint64 slot masks per seat (empty for seats not playing); ``nxt``: the seat after
each seat in turn order; ``side``: 1 for the declaring side's seats; ``trick``: the slots
already played to the current trick, in order (-1 padded), the first by ``leader``;
``broken``: 1 when trumps may be led (``no_trump_lead_until_broken`` off, or a trump played).

``plain`` is the reference the solver is tested against: the same game searched exhaustively
over card codes, without pruning, table, ordering or merged cards.
"""
from __future__ import annotations

import numpy as np
from numba import njit
from numba.core import types
from numba.cpython.unsafe.numbers import leading_zeros, trailing_zeros
from numba.extending import intrinsic

from cardsim.simulator.games.fifty_six import view as V

ONE = np.uint64(1)
ZERO = np.uint64(0)
SLOT_POINTS = np.array([V.POINTS[V.SLOT_CODE[s]] for s in range(64)], np.int64)
SUIT_MASK = V.SUIT_MASK
TT_BITS = 18  # 262,144 entries per table
_rng = np.random.default_rng(56)
# a position's key: per suit, the cards still in play from the strongest down, each as (owner,
# points, same rank as the one before); two 64-bit hashes of it, with the leader and broken
ZOB = _rng.integers(1, 2**63, size=(2, 4, 16, 64), dtype=np.int64).astype(np.uint64)
ZOB_LEAD = _rng.integers(1, 2**63, size=(2, 8), dtype=np.int64).astype(np.uint64)
ZOB_BROKEN = _rng.integers(1, 2**63, size=2, dtype=np.int64).astype(np.uint64)
EMPTY = np.uint64(0)
USE_HIST = True
HMAX = (1 << 30) - 1


def new_table(players: int, bits: int = TT_BITS):
    """A transposition table: two independent 64-bit keys per entry (a false match needs both
    to collide), the bounds, and whether the entry is used (0: empty, else 1 + the cards the
    position had in play: buckets of two entries keep the larger). ``players`` is kept for
    the callers' sake: the key covers every seat."""
    n = 1 << max(bits, 1)
    return (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros((n, 3), np.int16),
            np.zeros(n, np.int8))


@njit(cache=True, inline="always")
def _ctz(x):
    return trailing_zeros(x)


@njit(cache=True, inline="always")
def _msb(x):
    return 63 - leading_zeros(x)


@intrinsic
def _popcount(typingctx, x):
    def codegen(context, builder, signature, args):
        return builder.ctpop(args[0])
    return types.uint64(types.uint64), codegen


@njit(cache=True, inline="always")
def _count(x):
    return np.int64(_popcount(x))


# the slots of the jacks (3 points), nines (2), aces and tens (1) in every suit
J_SLOTS = np.uint64(0xC000C000C000C000)
NINE_SLOTS = np.uint64(0x3000300030003000)
ONE_SLOTS = np.uint64(0x0F000F000F000F00)


@njit(cache=True, inline="always")
def _points(x):
    return 3 * _count(x & J_SLOTS) + 2 * _count(x & NINE_SLOTS) + _count(x & ONE_SLOTS)


@njit(cache=True)
def _position_key(hands, all_cards, leader, broken):
    """The two keys of a trick's start. Cards already out of play leave no trace: positions
    that differ only in which cards are gone, with the same order of owners and points in
    every suit, share their value (and their key)."""
    h1 = ZOB_LEAD[0, leader]
    h2 = ZOB_LEAD[1, leader]
    if broken == 1:
        h1 ^= ZOB_BROKEN[0]
        h2 ^= ZOB_BROKEN[1]
    p0, p1, p2 = ZERO, ZERO, ZERO  # the owner's number, bit by bit
    for s in range(hands.shape[0]):
        if s & 1:
            p0 |= hands[s]
        if s & 2:
            p1 |= hands[s]
        if s & 4:
            p2 |= hands[s]
    for su in range(4):
        at = 0
        prev = -1
        x = all_cards & SUIT_MASK[su]
        while x != ZERO:
            slot = _msb(x)
            x ^= ONE << np.uint64(slot)
            u = np.uint64(slot)
            owner = np.int64(((p0 >> u) & ONE) | (((p1 >> u) & ONE) << ONE)
                             | (((p2 >> u) & ONE) << np.uint64(2)))
            same = 1 if (slot >> 1) == prev else 0
            code = owner * 8 + SLOT_POINTS[slot] * 2 + same
            h1 ^= ZOB[0, su, at, code]
            h2 ^= ZOB[1, su, at, code]
            prev = slot >> 1
            at += 1
    return h1, h2


@njit(cache=True, inline="always")
def _key(slot, trump, led):
    s = slot >> 4
    return (s == trump) * 32 + (s == led) * 16 + ((slot & 15) >> 1)


@njit(cache=True, inline="always")
def _top_key(h, led, trump):
    """The strongest key the hand ``h`` can put on a trick led in ``led``: its best card of
    that suit, else its best trump, else -1 (whatever it discards loses)."""
    m = h & SUIT_MASK[led]
    if m != ZERO:
        return _key(_msb(m), trump, led)
    if trump >= 0:
        m = h & SUIT_MASK[trump]
        if m != ZERO:
            return _key(_msb(m), trump, led)
    return -1


@njit(cache=True)
def _moves(hands, seat, nxt, side, n_act, k, trow, srow, trump, broken, out, score, tmp, hist):
    """The distinct moves of ``seat`` (one per class of equivalent cards) into ``out``,
    ordered (``score``, ``tmp``: scratch); ``trow``/``srow``: the current trick's slots and
    seats. Returns how many."""
    h = hands[seat]
    others = ZERO
    for s in range(hands.shape[0]):
        if s != seat:
            others |= hands[s]
    for j in range(k):
        others |= ONE << np.uint64(trow[j])
    if k == 0:
        led = -1
        legal = h
        if trump >= 0 and broken == 0:
            no_trump = h & ~SUIT_MASK[trump]
            if no_trump != ZERO:
                legal = no_trump
    else:
        led = trow[0] >> 4
        legal = h & SUIT_MASK[led]
        if legal == ZERO:
            legal = h
    n = 0
    for s in range(4):
        m = legal & SUIT_MASK[s]
        if m == ZERO:
            continue
        prev_pts = -1
        prev_mine = False
        for st in range(7, -1, -1):  # strongest first, one rank (both copies) at a time
            two = np.uint64(3) << np.uint64(16 * s + 2 * st)
            mine = m & two
            foreign = (others | (h & ~m)) & two
            if mine != ZERO:
                pts = SLOT_POINTS[16 * s + 2 * st]
                # the other copy in another hand: which one is played first decides ties
                if foreign != ZERO or not (prev_mine and pts == prev_pts):
                    out[n] = _ctz(mine)
                    n += 1
                prev_mine, prev_pts = foreign == ZERO, pts
            elif foreign != ZERO:
                prev_mine = False  # a card of another player between
    if n < 2:
        return n
    me = side[seat]
    if k > 0:
        wk, ws = -1, -1  # the card winning the trick so far, and its seat
        for j in range(k):
            kk = _key(trow[j], trump, led)
            if kk > wk:
                wk, ws = kk, srow[j]
        opp, mate = -1, -1  # the best the players still to come can put on it, per side
        p = seat
        for j in range(k + 1, n_act):
            p = nxt[p]
            tk = _top_key(hands[p], led, trump)
            if side[p] == me:
                mate = max(mate, tk)
            else:
                opp = max(opp, tk)
        for i in range(n):
            slot = out[i]
            km = _key(slot, trump, led)
            pts = SLOT_POINTS[slot]
            rank = (slot & 15) >> 1
            top = max(km, wk)
            ours = km > wk or side[ws] == me
            if ours and opp < top:  # the side surely takes the trick
                score[i] = (3 - pts) * 8 + rank if km <= wk else 100 + rank
            elif not ours and mate <= top:  # surely lost
                score[i] = 300 + pts * 8 + rank
            else:
                score[i] = 200 + pts * 8 + rank
    else:
        for s in range(4):
            tmp[s], tmp[4 + s] = -1, -1
        p = seat
        for j in range(1, n_act):
            p = nxt[p]
            at = 4 if side[p] == me else 0
            for s in range(4):
                tk = _top_key(hands[p], s, trump)
                if tk > tmp[at + s]:
                    tmp[at + s] = tk
        for i in range(n):
            slot = out[i]
            s = slot >> 4
            kc = _key(slot, trump, s)
            pts = SLOT_POINTS[slot]
            rank = (slot & 15) >> 1
            if tmp[s] < kc:  # no opponent can beat it
                score[i] = (3 - pts) * 8 + rank
            elif tmp[4 + s] > tmp[s]:  # a partner's card beats the opponents'
                score[i] = 100 + pts * 8 + rank
            else:
                score[i] = 200 + pts * 8 + rank
    if USE_HIST and k == 0:
        for i in range(n):
            hv = min(hist[seat, out[i]], HMAX)
            score[i] = ((score[i] // 100) << 40) | ((HMAX - hv) << 8) | (score[i] % 100)
    for i in range(1, n):  # insertion sort: a handful of moves
        j = i
        while j > 0 and score[j - 1] > score[j]:
            score[j - 1], score[j] = score[j], score[j - 1]
            out[j - 1], out[j] = out[j], out[j - 1]
            j -= 1
    return n


@njit(cache=True)
def _sure_trumps(hands, side, trump, all_cards, sure):
    """``sure[x]``: the points in side x's top trumps (every trump above them, and the other
    copy of each, held by side x too): whichever trick such a card falls in, a trump of side
    x wins it."""
    sure[0], sure[1] = 0, 0
    if trump < 0:
        return
    m = all_cards & SUIT_MASK[trump]
    run = -1
    while m != ZERO:
        slot = _msb(m)
        two = m & (np.uint64(3) << np.uint64(slot & ~1))  # the rank's cards in play
        m &= ~two
        x = -1
        pts = 0
        while two != ZERO:
            bit = ONE << np.uint64(_ctz(two))
            two ^= bit
            owner = 0
            while (hands[owner] & bit) == ZERO:
                owner += 1
            if x == -1:
                x = side[owner]
            elif side[owner] != x:
                return  # the two copies on both sides: neither is sure
            pts += SLOT_POINTS[slot]
        if run != -1 and x != run:
            return
        run = x
        sure[x] += pts


@njit(cache=True)
def _cash(hands, nxt, side, n_act, leader, trump, broken, all_cards, sure, rr):
    """The most points the leader's side is sure of by cashing masters: the leader's cards of
    a suit at least as strong as every other card of it (led first, a tie wins), led from
    the top as many times as no opponent holding a trump runs out of the suit and no partner
    is left with trumps only (it would have to ruff, and lead next), every other player
    following with its cheapest cards of the suit. One suit, or every plain suit in turn
    (counting only the players who can follow every round). The side's top trumps are added
    when no trump is cashed (their points are the side's anyway, in tricks of their own).
    Trumps are cashed only when they may be led. ``rr``: scratch, 4 entries."""
    ls = side[leader]
    h = hands[leader]
    size = _count(h)
    lim = size + 1  # the rounds of plain suits before a partner must ruff
    if trump >= 0:
        p = leader
        for _ in range(1, n_act):
            p = nxt[p]
            t = _count(hands[p] & SUIT_MASK[trump])
            if side[p] == ls and t > 0:
                lim = min(lim, size - t + 1)
    best = 0
    multi, rounds = 0, 0
    for s in range(4):
        rr[s] = 0
        mine = h & SUIT_MASK[s]
        if mine == ZERO or (s == trump and broken == 0 and h != mine):
            continue
        rest = all_cards & SUIT_MASK[s] & ~mine
        if rest != ZERO:
            mine &= ~((ONE << np.uint64(2 * (_msb(rest) >> 1))) - ONE)
        r = _count(mine)
        if trump >= 0 and s != trump:
            r = min(r, lim)
            p = leader
            for _ in range(1, n_act):
                p = nxt[p]
                if side[p] != ls and (hands[p] & SUIT_MASK[trump]) != ZERO:
                    r = min(r, _count(hands[p] & SUIT_MASK[s]))  # void, it would ruff
        if r == 0:
            continue
        rr[s] = r
        own = 0
        for _ in range(r):
            slot = _msb(mine)
            mine ^= ONE << np.uint64(slot)
            own += SLOT_POINTS[slot]
        pts = own
        p = leader
        for _ in range(1, n_act):
            p = nxt[p]
            x = hands[p] & SUIT_MASK[s]
            for _ in range(r):
                if x == ZERO:
                    break
                pts += SLOT_POINTS[_ctz(x)]
                x &= x - ONE
        if s != trump:
            pts += sure[ls]
            multi += own
            rounds += r
        best = max(best, pts)
    if rounds > 0 and rounds <= lim:
        p = leader
        for _ in range(1, n_act):
            p = nxt[p]
            follows = True
            for s in range(4):
                if s != trump and _count(hands[p] & SUIT_MASK[s]) < rr[s]:
                    follows = False
            if follows:
                for s in range(4):
                    if s != trump:
                        x = hands[p] & SUIT_MASK[s]
                        for _ in range(rr[s]):
                            multi += SLOT_POINTS[_ctz(x)]
                            x &= x - ONE
        best = max(best, multi + sure[ls])
    return best


@njit(cache=True)
def _bounds(hands, nxt, side, n_act, leader, trump, broken, all_cards, remaining, sure, rr):
    """Bounds on the declaring side's points from a trick's start: (lo, hi)."""
    _sure_trumps(hands, side, trump, all_cards, sure)
    cash = _cash(hands, nxt, side, n_act, leader, trump, broken, all_cards, sure, rr)
    if side[leader] == 1:
        return max(sure[1], cash), remaining - sure[0]
    return sure[1], remaining - max(sure[0], cash)


BIG = 1 << 20
MAX_DEPTH = 72  # one level per card still to play, and one for the end


@njit(cache=True)
def _tt_store(keys, tt_hands, tt_bounds, tt_used, at, h, h2, lo, hi, depth, move):
    """Into the bucket of ``at`` (two entries): the entry of the same position, else an
    empty one, else the one that stood for fewer cards."""
    b = at ^ 1
    if tt_used[at] != 0 and keys[at] == h and tt_hands[at] == h2:
        e = at
    elif tt_used[b] != 0 and keys[b] == h and tt_hands[b] == h2:
        e = b
    elif tt_used[at] <= tt_used[b]:
        e = at
    else:
        e = b
    keys[e] = h
    tt_hands[e] = h2
    tt_bounds[e, 0] = lo
    tt_bounds[e, 1] = hi
    tt_bounds[e, 2] = move
    tt_used[e] = depth


@njit(cache=True)
def _move_code(all_cards, slot):
    """A lead as the key sees it: 1 + its suit * 16 + the cards of that suit in play above it
    (positions sharing a key lead the same card by the same code; 0: none)."""
    if slot < 0:
        return 0
    su = slot >> 4
    above = all_cards & SUIT_MASK[su] & ~(((ONE << np.uint64(slot)) << ONE) - ONE)
    return 1 + su * 16 + _count(above)


@njit(cache=True)
def _code_slot(all_cards, code):
    """The slot of a ``_move_code`` in this position, -1 when there is none."""
    if code <= 0:
        return -1
    su = (code - 1) >> 4
    x = all_cards & SUIT_MASK[su]
    for _ in range((code - 1) & 15):
        if x == ZERO:
            return -1
        x ^= ONE << np.uint64(_msb(x))
    if x == ZERO:
        return -1
    return _msb(x)


@njit(cache=True)
def _search(hands, nxt, side, n_act, trump, leader0, k0, tslots, tseats, broken0, alpha0,
            beta0, keys, tt_hands, tt_bounds, tt_used, stats, hist):
    """Points the declaring side takes from the position (the current trick's cards
    included). Alpha-beta written with an explicit stack: Numba cannot load a recursive
    function from its cache (numba issue 6061). ``stats[0]``: nodes entered."""
    nseat = hands.shape[0]
    mask_bits = np.uint64(keys.shape[0] - 1)
    D = MAX_DEPTH
    moves = np.empty((D, 16), np.int64)
    scores = np.empty(16, np.int64)
    tmp = np.empty(8, np.int64)
    sure = np.zeros(2, np.int64)
    rr = np.zeros(4, np.int64)
    f_n = np.zeros(D, np.int64)
    f_i = np.zeros(D, np.int64)
    f_seat = np.zeros(D, np.int64)
    f_leader = np.zeros(D, np.int64)
    f_t = np.zeros(D, np.int64)
    f_k = np.zeros(D, np.int64)
    f_broken = np.zeros(D, np.int64)
    f_alpha = np.zeros(D, np.int64)
    f_beta = np.zeros(D, np.int64)
    f_alpha0 = np.zeros(D, np.int64)
    f_beta0 = np.zeros(D, np.int64)
    f_best = np.zeros(D, np.int64)
    f_gain = np.zeros(D, np.int64)  # points the node's entry gave the declaring side
    f_h = np.zeros(D, np.uint64)
    f_h2 = np.zeros(D, np.uint64)
    f_at = np.zeros(D, np.int64)
    f_depth = np.zeros(D, np.int64)
    f_lo = np.zeros(D, np.int64)  # the bounds known on entering (0, remaining: none)
    f_hi = np.zeros(D, np.int64)
    f_bm = np.zeros(D, np.int64)  # the move that gave the node's best value so far
    f_all = np.zeros(D, np.uint64)  # the cards in play at a trick's start
    d = 0
    f_leader[0], f_t[0], f_k[0], f_broken[0] = leader0, 0, k0, broken0
    f_alpha[0], f_beta[0], f_gain[0] = alpha0, beta0, 0
    ENTER, NEXT, RETURN = 0, 1, 2
    state = ENTER
    ret = 0
    while True:
        if state == ENTER:
            stats[0] += 1
            t, k, leader = f_t[d], f_k[d], f_leader[d]
            alpha, beta = f_alpha[d], f_beta[d]
            state = NEXT
            ttm = 0
            all_cards = ZERO
            if k == 0:
                all_cards = ZERO
                for s in range(nseat):
                    all_cards |= hands[s]
                if all_cards == ZERO:
                    ret, state = 0, RETURN
                    continue
                # the quick bound: between nothing and every point still out
                remaining = _points(all_cards)
                cards = _count(all_cards)
                if alpha >= remaining:
                    ret, state = remaining, RETURN
                    continue
                if beta <= 0:
                    ret, state = 0, RETURN
                    continue
                if cards == n_act:  # the last trick: every card is forced
                    w, wk = leader, -1
                    lead_suit = _msb(hands[leader]) >> 4
                    s = leader
                    for _ in range(n_act):  # in turn: of two equal cards the first wins
                        kk = _key(_msb(hands[s]), trump, lead_suit)
                        if kk > wk:
                            w, wk = s, kk
                        s = nxt[s]
                    ret = remaining if side[w] == 1 else 0
                    state = RETURN
                    continue
                h, h2 = _position_key(hands, all_cards, leader, f_broken[d])
                at = np.int64(h & mask_bits)
                lo, hi = 0, remaining
                ttm = 0
                for e in (at, at ^ 1):
                    if tt_used[e] != 0 and keys[e] == h and tt_hands[e] == h2:
                        lo, hi = np.int64(tt_bounds[e, 0]), np.int64(tt_bounds[e, 1])
                        ttm = np.int64(tt_bounds[e, 2])
                        break
                f_all[d] = all_cards
                f_h[d], f_h2[d], f_at[d], f_depth[d] = h, h2, at, cards + 1
                stats[4] += 1
                if lo == hi or lo >= beta:
                    ret, state = lo, RETURN
                    stats[5] += 1
                    continue
                if hi <= alpha:
                    ret, state = hi, RETURN
                    stats[5] += 1
                    continue
                # the sure points of either side, and the leader's cashing
                blo, bhi = _bounds(hands, nxt, side, n_act, leader, trump, f_broken[d],
                                   all_cards, remaining, sure, rr)
                lo, hi = max(lo, blo), min(hi, bhi)
                f_lo[d], f_hi[d] = lo, hi
                if lo >= beta:
                    ret, state = lo, RETURN
                    stats[6] += 1
                    continue
                if hi <= alpha:
                    ret, state = hi, RETURN
                    stats[6] += 1
                    continue
                alpha = max(alpha, lo)
                beta = min(beta, hi)
            f_alpha[d], f_beta[d] = alpha, beta
            f_alpha0[d], f_beta0[d] = alpha, beta
            seat = leader if k == 0 else nxt[tseats[t, k - 1]]
            f_seat[d] = seat
            nm = _moves(hands, seat, nxt, side, n_act, k, tslots[t], tseats[t], trump,
                        f_broken[d], moves[d], scores, tmp, hist)
            if k == 0 and ttm > 0 and nm > 1:  # the table's best lead first
                want = _code_slot(all_cards, ttm)
                if want >= 0:
                    for i in range(nm):
                        if (moves[d, i] >> 1) == (want >> 1):
                            mv = moves[d, i]
                            for j in range(i, 0, -1):
                                moves[d, j] = moves[d, j - 1]
                            moves[d, 0] = mv
                            break
            f_n[d] = nm
            f_i[d] = 0
            f_bm[d] = -1
            f_best[d] = -1 if side[seat] == 1 else BIG
        elif state == NEXT:
            if f_i[d] < f_n[d] and f_alpha[d] < f_beta[d]:
                slot = moves[d, f_i[d]]
                f_i[d] += 1
                seat, t, k = f_seat[d], f_t[d], f_k[d]
                hands[seat] ^= ONE << np.uint64(slot)
                tslots[t, k] = slot
                tseats[t, k] = seat
                nb = 1 if (f_broken[d] == 1 or (trump >= 0 and (slot >> 4) == trump)) else 0
                c = d + 1
                f_broken[c] = nb
                if k + 1 == n_act:  # the trick is complete
                    lead_suit = tslots[t, 0] >> 4
                    w, wk, pts = 0, -1, 0
                    for j in range(n_act):
                        kk = _key(tslots[t, j], trump, lead_suit)
                        if kk > wk:
                            w, wk = j, kk
                        pts += SLOT_POINTS[tslots[t, j]]
                    winner = tseats[t, w]
                    gain = pts if side[winner] == 1 else 0
                    f_leader[c], f_t[c], f_k[c], f_gain[c] = winner, t + 1, 0, gain
                else:
                    gain = 0
                    f_leader[c], f_t[c], f_k[c], f_gain[c] = f_leader[d], t, k + 1, 0
                f_alpha[c], f_beta[c] = f_alpha[d] - gain, f_beta[d] - gain
                d = c
                state = ENTER
            else:
                best = f_best[d]
                if f_alpha[d] >= f_beta[d]:
                    sz = _count(hands[f_seat[d]]) + 1
                    hist[f_seat[d], moves[d, f_i[d] - 1]] += sz * sz
                    off = 7 if f_k[d] == 0 else 2
                    if f_i[d] == 1:
                        stats[off] += 1
                    else:
                        stats[off + 1] += 1
                if f_k[d] == 0:
                    # merged with the bounds known on entry: the entry itself may since have
                    # been taken by another position
                    lo, hi = f_lo[d], f_hi[d]
                    if best <= f_alpha0[d]:
                        hi = min(hi, best)
                    elif best >= f_beta0[d]:
                        lo = max(lo, best)
                    else:
                        lo, hi = best, best
                    _tt_store(keys, tt_hands, tt_bounds, tt_used, f_at[d], f_h[d], f_h2[d],
                              lo, hi, f_depth[d], _move_code(f_all[d], f_bm[d]))
                ret = best
                state = RETURN
        else:  # RETURN: the value of node d goes to its parent
            if d == 0:
                return ret
            v = ret + f_gain[d]
            d -= 1
            slot = moves[d, f_i[d] - 1]
            hands[f_seat[d]] ^= ONE << np.uint64(slot)
            if side[f_seat[d]] == 1:
                if v > f_best[d]:
                    f_best[d] = v
                    f_bm[d] = slot
                if f_best[d] > f_alpha[d]:
                    f_alpha[d] = f_best[d]
            else:
                if v < f_best[d]:
                    f_best[d] = v
                    f_bm[d] = slot
                if f_best[d] < f_beta[d]:
                    f_beta[d] = f_best[d]
            state = NEXT


@njit(cache=True)
def _setup(hands, nxt, leader, trick):
    """The players in turn, the trick rows of the search (the current trick's cards in row 0),
    how many cards that trick has, and every point still to be won (its cards included)."""
    n_act = 1
    s = nxt[leader]
    while s != leader:
        n_act += 1
        s = nxt[s]
    tslots = np.full((17, 8), -1, np.int64)
    tseats = np.full((17, 8), -1, np.int64)
    k = 0
    s = leader
    while k < trick.shape[0] and trick[k] >= 0:
        tslots[0, k] = trick[k]
        tseats[0, k] = s
        s = nxt[s]
        k += 1
    total = 0
    for j in range(k):
        total += SLOT_POINTS[tslots[0, j]]
    for s in range(hands.shape[0]):
        total += _points(hands[s])
    return n_act, tslots, tseats, k, total


@njit(cache=True)
def _solve(hands, nxt, side, trump, leader, trick, broken, keys, tt_hands, tt_bounds, tt_used,
           stats):
    n_act, tslots, tseats, k, hi = _setup(hands, nxt, leader, trick)
    # null-window searches bisect the value's range; each leaves true bounds in the
    # table (keyed by hands, leader and broken: a new trump or side needs a new table)
    lo = 0
    work = hands.copy()
    hist = np.zeros((hands.shape[0], 64), np.int64)
    while lo < hi:
        b = (lo + hi + 1) // 2  # bisection: a handful of probes, not one per point
        g = _search(work, nxt, side, n_act, trump, leader, k, tslots, tseats, broken, b - 1, b,
                    keys, tt_hands, tt_bounds, tt_used, stats, hist)
        stats[1] += 1
        if g < b:
            hi = g
        else:
            lo = g
    return lo


@njit(cache=True)
def _makes(hands, nxt, side, trump, leader, trick, broken, target, keys, tt_hands, tt_bounds,
           tt_used, stats):
    n_act, tslots, tseats, k, total = _setup(hands, nxt, leader, trick)
    if target <= 0:
        return True
    if target > total:
        return False
    hist = np.zeros((hands.shape[0], 64), np.int64)
    g = _search(hands.copy(), nxt, side, n_act, trump, leader, k, tslots, tseats, broken,
                target - 1, target, keys, tt_hands, tt_bounds, tt_used, stats, hist)
    stats[1] += 1
    return g >= target


@njit(cache=True)
def solve(hands, nxt, side, trump, leader, trick, broken, keys, tt_hands, tt_bounds, tt_used):
    """The most points the declaring side (``side[s] == 1``) takes from this position with
    every hand open, the current trick's cards included (see the module's text). The table's
    entries stay valid from one call to the next of the same seats, side and trump."""
    return _solve(hands, nxt, side, trump, leader, trick, broken, keys, tt_hands, tt_bounds,
                  tt_used, np.zeros(16, np.int64))


@njit(cache=True)
def makes(hands, nxt, side, trump, leader, trick, broken, target, keys, tt_hands, tt_bounds,
          tt_used):
    """Whether the declaring side takes at least ``target`` points from this position, both
    sides playing their best (``solve(...) >= target``, the current trick's cards included),
    by one null-window search. ``solve``'s inputs, the target after ``broken``; the table can
    be shared with ``solve`` and between targets of one position (its entries are bounds)."""
    return _makes(hands, nxt, side, trump, leader, trick, broken, target, keys, tt_hands,
                  tt_bounds, tt_used, np.zeros(16, np.int64))


def solve_stats(hands, nxt, side, trump, leader, trick, broken, *tt):
    """``solve``'s answer, with the nodes it entered and the null-window probes it made."""
    stats = np.zeros(16, np.int64)
    v = _solve(hands, nxt, side, trump, leader, trick, broken, *tt, stats)
    return v, int(stats[0]), int(stats[1]), stats


def makes_stats(hands, nxt, side, trump, leader, trick, broken, target, *tt):
    """``makes``'s answer, with the nodes it entered."""
    stats = np.zeros(16, np.int64)
    v = _makes(hands, nxt, side, trump, leader, trick, broken, target, *tt, stats)
    return bool(v), int(stats[0]), stats


# ---------------------------------------------------------------- the plain reference

@njit  # recursive: not cached (numba issue 6061); only the tests and checks call it
def _plain(hands, nxt, side, n_act, trump, leader, trick, k, broken):
    """Exhaustive minimax over card codes: ``hands`` (seat, card) holds codes, -1 when played."""
    seat = leader
    for _ in range(k):
        seat = nxt[seat]
    led = trick[0] // 13 if k > 0 else -1
    m = hands.shape[1]
    has_led = False
    has_other = False
    for i in range(m):
        c = hands[seat, i]
        if c >= 0:
            if c // 13 == led:
                has_led = True
            if trump < 0 or c // 13 != trump:
                has_other = True
    best = -1
    worst = 1 << 20
    any_move = False
    for i in range(m):
        c = hands[seat, i]
        if c < 0:
            continue
        if k > 0 and has_led and c // 13 != led:
            continue
        if k == 0 and broken == 0 and trump >= 0 and c // 13 == trump and has_other:
            continue
        any_move = True
        hands[seat, i] = -1
        trick[k] = c
        nb = 1 if broken == 1 or (trump >= 0 and c // 13 == trump) else 0
        if k + 1 == n_act:
            win, win_key, pts = 0, -1, 0
            for j in range(n_act):
                cj = trick[j]
                key = ((cj // 13 == trump) * 32 + (cj // 13 == trick[0] // 13) * 16
                       + V.STRENGTH[cj])
                if key > win_key:  # identical cards: the first played keeps the trick
                    win, win_key = j, key
                pts += V.POINTS[cj]
            wseat = leader
            for _ in range(win):
                wseat = nxt[wseat]
            saved = trick.copy()
            v = _plain(hands, nxt, side, n_act, trump, wseat, np.full(8, -1, np.int64), 0, nb)
            trick[:] = saved
            v += pts if side[wseat] == 1 else 0
        else:
            v = _plain(hands, nxt, side, n_act, trump, leader, trick, k + 1, nb)
        hands[seat, i] = c
        best = max(best, v)
        worst = min(worst, v)
    if not any_move:
        return 0
    return best if side[seat] == 1 else worst


def plain(hands, nxt, side, trump, leader, trick, broken) -> int:
    """``solve``'s question answered by exhaustive search (slot masks in, as ``solve``)."""
    n = len(hands)
    codes = np.full((n, 16), -1, np.int64)
    for s_ in range(n):
        cards = [int(V.SLOT_CODE[b]) for b in range(64) if (int(hands[s_]) >> b) & 1]
        codes[s_, :len(cards)] = cards
    n_act, s_ = 1, int(nxt[leader])
    while s_ != leader:
        n_act, s_ = n_act + 1, int(nxt[s_])
    t = np.full(8, -1, np.int64)
    k = 0
    for x in trick:
        if x < 0:
            break
        t[k] = V.SLOT_CODE[x]
        k += 1
    return int(_plain(codes, np.asarray(nxt, np.int64), np.asarray(side, np.int64), n_act,
                      int(trump), int(leader), t, k, int(broken)))


def random_ending(rng: np.random.Generator, players: int, tricks: int, trump: int,
                  broken: int, played: int = 0):
    """A random position ``tricks`` tricks from the end (``played`` cards already in the
    current trick, chosen at random among legal ones): (hands, nxt, side, leader, trick),
    two teams alternating, turn order seat + 1."""
    deck = V.DECK_MASK_64 if players == 8 else V.DECK_MASK_48
    slots = [b for b in range(64) if (int(deck) >> b) & 1]
    pick = rng.permutation(len(slots))[:players * tricks]
    hands = np.zeros(players, np.uint64)
    for i, j in enumerate(pick):
        hands[i % players] |= np.uint64(1 << slots[j])
    nxt = np.array([(s + 1) % players for s in range(players)], np.int64)
    side = np.array([s % 2 for s in range(players)], np.int64)
    leader = int(rng.integers(players))
    trick = np.full(8, -1, np.int64)
    seat = leader
    for k in range(played):
        h = int(hands[seat])
        mine = [b for b in range(64) if (h >> b) & 1]
        if k > 0:
            follow = [b for b in mine if b // 16 == trick[0] // 16]
            mine = follow or mine
        elif trump >= 0 and not broken:
            plain_ = [b for b in mine if b // 16 != trump]
            mine = plain_ or mine
        b = mine[int(rng.integers(len(mine)))]
        hands[seat] &= ~np.uint64(1 << b)
        trick[k] = b
        if trump >= 0 and b // 16 == trump:
            broken = 1
        seat = int(nxt[seat])
    return hands, nxt, side, leader, trick, broken
