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
- moves are ordered: the cheapest card that takes the trick first, then the lowest loser;
- a position's value lies between 0 and the points still out (a quick bound).

The trump is open (double dummy: every card is known, so is the trump); a hidden trump's rules
do not apply. ``no_trump_lead_until_broken`` does. Thani is not solved here.

    tt = new_table(players)
    best = solve(hands, nxt, side, trump, leader, trick, broken, tt)

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


def new_table(players: int, bits: int = TT_BITS):
    """A transposition table: two independent 64-bit keys per entry (a false match needs both
    to collide), the bounds, and whether the entry is used. ``players`` is kept for the
    callers' sake: the key covers every seat."""
    n = 1 << bits
    return (np.zeros(n, np.uint64), np.zeros(n, np.uint64), np.zeros((n, 2), np.int16),
            np.zeros(n, np.int8))


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
    for su in range(4):
        at = 0
        prev = -1
        for slot in range(16 * su + 15, 16 * su - 1, -1):
            bit = ONE << np.uint64(slot)
            if (all_cards & bit) == ZERO:
                continue
            owner = 0
            while (hands[owner] & bit) == ZERO:
                owner += 1
            same = 1 if (slot >> 1) == prev else 0
            code = owner * 8 + SLOT_POINTS[slot] * 2 + same
            h1 ^= ZOB[0, su, at, code]
            h2 ^= ZOB[1, su, at, code]
            prev = slot >> 1
            at += 1
    return h1, h2


@njit(cache=True, inline="always")
def _ctz(x):
    n = 0
    while (x & ONE) == ZERO:
        x >>= ONE
        n += 1
    return n


@njit(cache=True, inline="always")
def _key(slot, trump, led):
    s = slot >> 4
    return (s == trump) * 32 + (s == led) * 16 + ((slot & 15) >> 1)


@njit(cache=True)
def _moves(h, others, k, led, trump, broken, best_key, out):
    """The distinct moves of a hand ``h`` (one per class of equivalent cards) into ``out``,
    ordered; ``others``: every other card still in play. Returns how many."""
    if k == 0:
        legal = h
        if trump >= 0 and broken == 0:
            no_trump = h & ~SUIT_MASK[trump]
            if no_trump != ZERO:
                legal = no_trump
    else:
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
    # order: leading, strongest first (as listed); following, the cheapest winner first,
    # then losers from the fewest points
    if k > 0:
        score = np.empty(n, np.int64)
        for i in range(n):
            key = _key(out[i], trump, led)
            if key > best_key:
                score[i] = key
            else:
                score[i] = 1000 + SLOT_POINTS[out[i]] * 64 + ((out[i] & 15) >> 1)
        for i in range(1, n):  # insertion sort: a handful of moves
            j = i
            while j > 0 and score[j - 1] > score[j]:
                score[j - 1], score[j] = score[j], score[j - 1]
                out[j - 1], out[j] = out[j], out[j - 1]
                j -= 1
    return n


BIG = 1 << 20
MAX_DEPTH = 72  # one level per card still to play, and one for the end


@njit(cache=True)
def _search(hands, nxt, side, n_act, trump, leader0, k0, tslots, tseats, broken0, alpha0,
            beta0, keys, tt_hands, tt_bounds, tt_used):
    """Points the declaring side takes from the position (the current trick's cards
    included). Alpha-beta written with an explicit stack: Numba cannot load a recursive
    function from its cache (numba issue 6061)."""
    nseat = hands.shape[0]
    mask_bits = np.uint64(keys.shape[0] - 1)
    D = MAX_DEPTH
    moves = np.empty((D, 16), np.int64)
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
    f_hit = np.zeros(D, np.bool_)
    f_rem = np.zeros(D, np.int64)
    f_lo = np.zeros(D, np.int64)  # the table's bounds met on entering (0, remaining: none)
    f_hi = np.zeros(D, np.int64)
    d = 0
    f_leader[0], f_t[0], f_k[0], f_broken[0] = leader0, 0, k0, broken0
    f_alpha[0], f_beta[0], f_gain[0] = alpha0, beta0, 0
    ENTER, NEXT, RETURN = 0, 1, 2
    state = ENTER
    ret = 0
    while True:
        if state == ENTER:
            t, k, leader = f_t[d], f_k[d], f_leader[d]
            alpha, beta = f_alpha[d], f_beta[d]
            f_hit[d] = False
            state = NEXT
            if k == 0:
                all_cards = ZERO
                for s in range(nseat):
                    all_cards |= hands[s]
                if all_cards == ZERO:
                    ret, state = 0, RETURN
                    continue
                # the quick bound: between nothing and every point still out
                remaining = 0
                x = all_cards
                while x != ZERO:
                    remaining += SLOT_POINTS[_ctz(x)]
                    x &= x - ONE
                f_rem[d] = remaining
                if alpha >= remaining:
                    ret, state = remaining, RETURN
                    continue
                if beta <= 0:
                    ret, state = 0, RETURN
                    continue
                h, h2 = _position_key(hands, all_cards, leader, f_broken[d])
                at = np.int64(h & mask_bits)
                hit = tt_used[at] == 1 and keys[at] == h and tt_hands[at] == h2
                f_h[d], f_h2[d], f_at[d], f_hit[d] = h, h2, at, hit
                f_lo[d], f_hi[d] = 0, remaining
                if hit:
                    lo, hi = np.int64(tt_bounds[at, 0]), np.int64(tt_bounds[at, 1])
                    f_lo[d], f_hi[d] = lo, hi
                    if lo == hi or lo >= beta:
                        ret, state = lo, RETURN
                        continue
                    if hi <= alpha:
                        ret, state = hi, RETURN
                        continue
                    alpha = max(alpha, lo)
                    beta = min(beta, hi)
            f_alpha[d], f_beta[d] = alpha, beta
            f_alpha0[d], f_beta0[d] = alpha, beta
            seat = leader if k == 0 else nxt[tseats[t, k - 1]]
            f_seat[d] = seat
            led = -1
            best_key = -1
            if k > 0:
                led = tslots[t, 0] >> 4
                for j in range(k):
                    kk = _key(tslots[t, j], trump, led)
                    if kk > best_key:
                        best_key = kk
            others = ZERO
            for s in range(nseat):
                if s != seat:
                    others |= hands[s]
            for j in range(k):
                others |= ONE << np.uint64(tslots[t, j])
            f_n[d] = _moves(hands[seat], others, k, led, trump, f_broken[d], best_key,
                            moves[d])
            f_i[d] = 0
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
                if f_k[d] == 0:
                    at = f_at[d]
                    # merged with the bounds read on entry: the entry itself may since have
                    # been taken by another position
                    lo, hi = f_lo[d], f_hi[d]
                    if best <= f_alpha0[d]:
                        hi = min(hi, best)
                    elif best >= f_beta0[d]:
                        lo = max(lo, best)
                    else:
                        lo, hi = best, best
                    keys[at] = f_h[d]
                    tt_hands[at] = f_h2[d]
                    tt_bounds[at, 0] = lo
                    tt_bounds[at, 1] = hi
                    tt_used[at] = 1
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
                if f_best[d] > f_alpha[d]:
                    f_alpha[d] = f_best[d]
            else:
                if v < f_best[d]:
                    f_best[d] = v
                if f_best[d] < f_beta[d]:
                    f_beta[d] = f_best[d]
            state = NEXT


@njit(cache=True)
def solve(hands, nxt, side, trump, leader, trick, broken, keys, tt_hands, tt_bounds, tt_used):
    """The most points the declaring side (``side[s] == 1``) takes from this position with
    every hand open, the current trick's cards included (see the module's text). The table's
    entries stay valid from one call to the next of the same seats, side and trump."""
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
    # null-window searches bisect the value's range; each leaves true bounds in the
    # table (keyed by hands, leader and broken: a new trump or side needs a new table)
    lo, hi = 0, 0
    for j in range(k):
        hi += SLOT_POINTS[tslots[0, j]]
    for s in range(hands.shape[0]):
        x = hands[s]
        while x != ZERO:
            hi += SLOT_POINTS[_ctz(x)]
            x &= x - ONE
    work = hands.copy()
    while lo < hi:
        b = (lo + hi + 1) // 2  # bisection: a handful of probes, not one per point
        g = _search(work, nxt, side, n_act, trump, leader, k, tslots, tseats, broken, b - 1, b,
                    keys, tt_hands, tt_bounds, tt_used)
        if g < b:
            hi = g
        else:
            lo = g
    return lo


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
