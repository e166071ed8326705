"""Contract search: can a hand lay a contract (n sets + n runs), and with what left in hand.

Hand: ``cnt`` int64 (4, 13) copies held per (suit, rank), ``jokers`` held. Meld record (int64
row of ``MELD_W``): ``[kind, key, nat, jok]`` — a set's key is its rank and its masks are suit
bits; a run's key is its suit and its masks are position bits (0 = ace low, rank r = r + 1,
13 = ace high). ``jok`` says what the jokers stand for. Algorithm and choices:
``docs/contract_rummy_search.md``.
"""
import numpy as np
from numba import njit, uint64

from cardsim.simulator.bits import popcount

SET = 0
RUN = 1
MELD_W = 4
JOKER_PENALTY = 15
# penalty by rank 2..A
RANK_PENALTY = np.array([2, 3, 4, 5, 6, 7, 8, 9, 10, 10, 10, 10, 15], dtype=np.int64)



# Constants passed to the search as typed values: a literal argument (True, 0) would make
# Numba compile one more copy of the search for each literal value it sees.
@njit(cache=True, inline="always")
def _TRUE():
    return np.bool_(True)


@njit(cache=True, inline="always")
def _FALSE():
    return np.bool_(False)


@njit(cache=True, inline="always")
def _ZERO():
    return np.int64(0)


@njit(cache=True, inline="always")
def _NONE():
    return np.int64(-1)


@njit(cache=True, inline="always")
def _pc(x):
    return np.int64(popcount(uint64(x)))


@njit(cache=True, inline="always")
def _rank_at(p):
    """Rank of run position p (both ends are the ace)."""
    return 12 if p == 0 else p - 1


@njit(cache=True, inline="always")
def _pos_mask(m1s, ace_low):
    """Run positions of one suit held, from its mask of ranks held."""
    m = m1s << 1
    if ace_low and (m1s >> 12) & 1:
        m |= 1
    return m


@njit(cache=True, inline="always")
def _next_sub(x, free, lim):
    """Smallest subset of ``free`` greater than ``x`` with at most ``lim`` bits, or -1."""
    y = ((x | ~free) + 1) & free
    if y == 0:
        return -1
    while _pc(y) > lim:
        # round up past the lowest block of set bits (adds the low bit in free's bit space)
        y = ((y | ~free) + (y & -y)) & free
        if y == 0:
            return -1
    return y


@njit(cache=True, inline="always")
def _set_jok(nat, k):
    """Jokers of a set stand for the k lowest suits it lacks."""
    jm = 0
    miss = ~nat & 15
    for _ in range(k):
        low = miss & -miss
        jm |= low
        miss ^= low
    return jm


@njit(cache=True, inline="always")
def _next_set(key0, b0, j0, strict, m1, jrem, smin, smax):
    """First set candidate >= (or > if strict) (rank, nat, jokers) in that order."""
    for r in range(key0, 13):
        av = 0
        for s in range(4):
            av |= ((m1[s] >> r) & 1) << s
        if av == 0:
            continue
        same_r = r == key0
        bstart = b0 if same_r and b0 > 0 else 1
        for b in range(bstart, 16):
            if b & ~av:
                continue
            nb = _pc(b)
            if nb > smax:
                continue
            jlo = smin - nb
            if jlo < 0:
                jlo = 0
            jhi = smax - nb
            if jhi > jrem:
                jhi = jrem
            js = jlo
            if same_r and b == b0:
                j1 = j0 + 1 if strict else j0
                if j1 > js:
                    js = j1
            if js <= jhi:
                return True, r, b, js
    return False, 0, 0, 0


@njit(cache=True, inline="always")
def _next_run(key0, b0, j0, strict, m1, jrem, rmin, rmax, ace_low):
    """First run candidate >= (or > if strict) (suit, start*16+length, joker mask)."""
    for s in range(key0, 4):
        pav = _pos_mask(m1[s], ace_low)
        if pav == 0 or _pc(pav) + jrem < rmin:
            continue
        same_s = s == key0
        for start in range(0 if ace_low else 1, 14):
            for ln in range(rmin, rmax + 1):
                if start + ln > 14 or (start == 0 and ln == 14):
                    break
                bb = start * 16 + ln
                if same_s and bb < b0:
                    continue
                blk = ((1 << ln) - 1) << start
                free = blk & pav
                if free == 0:
                    continue
                must = blk & ~pav
                pm = _pc(must)
                if pm > jrem:
                    continue
                lim = jrem - pm
                same = same_s and bb == b0
                x = 0
                while x >= 0:
                    if x != free:  # at least one natural
                        jk = must | x
                        if not same or jk > j0 or (jk == j0 and not strict):
                            return True, s, bb, jk
                    x = _next_sub(x, free, lim)
    return False, 0, 0, 0


@njit(cache=True, inline="always")
def _drawable(cnt, s, r, maxc):
    return maxc <= 0 or cnt[s, r] < maxc


@njit(cache=True)
def _next_set_tok(key0, c0, strict, m1, jrem, smin, smax, cnt, maxc):
    """Set candidates with the one wild natural available: first code (nat*64 + jokers*2 +
    uses-token) >= c0 (> if strict) of rank >= key0. Returns (found, rank, code)."""
    for r in range(key0, 13):
        av = 0
        for s in range(4):
            av |= ((m1[s] >> r) & 1) << s
        for b in range(16):
            if b & ~av:
                continue
            nb = _pc(b)
            if nb > smax:
                continue
            draw = False  # the token can stand for a suit the set lacks
            for s in range(4):
                if not (b >> s) & 1 and _drawable(cnt, s, r, maxc):
                    draw = True
            for j in range(max(0, smin - nb), smax - nb + 1):
                for t in range(2):
                    code = b * 64 + j * 2 + t
                    if r == key0 and (code < c0 or (strict and code == c0)):
                        continue
                    if t == 0 and nb > 0 and j <= jrem:
                        return True, r, code
                    if t == 1 and draw and j >= 1 and j - 1 <= jrem:
                        return True, r, code
    return False, 0, 0


@njit(cache=True)
def _next_run_tok(key0, b0, c0, strict, m1, jrem, rmin, rmax, ace_low, cnt, maxc):
    """Run candidates with the one wild natural available: first (suit, start*16+length,
    joker mask*2 + uses-token) >= (key0, b0, c0) (> if strict)."""
    for s in range(key0, 4):
        pav = _pos_mask(m1[s], ace_low)
        if _pc(pav) + jrem + 1 < rmin:
            continue
        for start in range(0 if ace_low else 1, 14):
            for ln in range(rmin, rmax + 1):
                if start + ln > 14 or (start == 0 and ln == 14):
                    break
                bb = start * 16 + ln
                if s == key0 and bb < b0:
                    continue
                blk = ((1 << ln) - 1) << start
                free = blk & pav
                must = blk & ~pav
                pm = _pc(must)
                if pm > jrem + 1:
                    continue
                same = s == key0 and bb == b0
                x = 0
                while x >= 0:
                    jk = must | x
                    nj = _pc(jk)
                    for t in range(2):
                        code = jk * 2 + t
                        if same and (code < c0 or (strict and code == c0)):
                            continue
                        if t == 0 and x != free and nj <= jrem:
                            return True, s, bb, code
                        if t == 1 and nj >= 1:
                            for p in range(14):
                                if (jk >> p) & 1 and _drawable(cnt, s, _rank_at(p), maxc):
                                    return True, s, bb, code
                    x = _next_sub(x, free, jrem + 1 - pm)
    return False, 0, 0, 0


@njit(cache=True, inline="always")
def _move(rem, m1, is_set, k, b, j, tok, d):
    """Move a meld's naturals between hand and meld (d = -1 lays them, +1 takes them back).
    Returns (their penalty, how many, joker slots, 1 if the wild natural is among them)."""
    t = 0
    if tok:  # codes carry the token flag (and a set's natural mask)
        t = j & 1
        j >>= 1
        if is_set:
            b = j >> 5
            j &= 31
    if is_set:
        nat = b
        nj = j
    else:
        nat = (((1 << (b & 15)) - 1) << (b >> 4)) & ~j
        nj = _pc(j)
    pv = 0
    for p in range(14):
        if (nat >> p) & 1:
            s = p if is_set else k
            r = k if is_set else _rank_at(p)
            rem[s, r] += d
            if rem[s, r] == 0:
                m1[s] &= ~(1 << r)
            else:
                m1[s] |= 1 << r
            pv += RANK_PENALTY[r]
    return pv, _pc(nat), nj, t


@njit(cache=True, inline="always")
def _dearest(rem, jrem, cap):
    """Penalty of the ``cap`` dearest cards in hand (jokers, then aces, then down)."""
    take = min(jrem, cap)
    v = JOKER_PENALTY * take
    cap -= take
    r = 12
    while cap > 0 and r >= 0:
        for s in range(4):
            take = min(rem[s, r], cap)
            v += take * RANK_PENALTY[r]
            cap -= take
        r -= 1
    return v


@njit(cache=True)
def _search(cnt, jokers, n_sets, n_runs, smin, smax, rmin, rmax, ace_low, runs_distinct,
            go_out, optimize, out, rem, m1, st, tok, maxc, bound):
    """DFS over melds in a canonical order (sets, then runs, each level >= the one before).

    Existence (optimize False): returns at the first laying the penalty points it leaves (0
    with ``tok``), else -1. Optimize: the least
    (penalty left, jokers used, cards used) over all layings, written to ``out``.
    ``rem`` (4, 13), ``m1`` (4,), ``st`` (n, 3) are work arrays. ``tok``: the hand has one
    more card that may be any card held fewer than ``maxc`` times (existence only).
    ``bound`` >= 0 (optimize): the caller knows a laying that leaves at most that many penalty
    points, so the cut below applies from the start rather than from the first laying found;
    it cuts only layings that leave more than the best, so the answer is the same (-1: none).
    """
    n = n_sets + n_runs
    total_pen = 0
    cards = jokers + (1 if tok else 0)
    for s in range(4):
        mm = 0
        for r in range(13):
            c = cnt[s, r]
            rem[s, r] = c
            if c > 0:
                mm |= 1 << r
                total_pen += c * RANK_PENALTY[r]
                cards += c
        m1[s] = mm
    total_pen += JOKER_PENALTY * jokers
    if n == 0:
        if go_out and cards > 1:
            return -1
        return total_pen
    if n_sets > 0 and smin > smax:
        return -1
    if n_runs > 0 and rmin > rmax:
        return -1
    # cheap necessary condition: enough cards for the smallest melds
    if cards < n_sets * smin + n_runs * rmin:
        return -1

    jrem = jokers
    tokl = 1 if tok else 0
    pen = total_pen
    best = -1
    best_j = 0
    best_c = 0
    lvl = 0
    fresh = True  # the level is entered for the first time (else: advance past its meld)
    while True:
        if lvl == n:
            ok = True
            if go_out and cards > 1:
                ok = False
            if ok:
                if not optimize:
                    return pen if not tok else 0  # the points this laying leaves
                ju = jokers - jrem
                if (best < 0 or pen < best or (pen == best and (ju < best_j or (
                        ju == best_j and -cards < best_c)))):
                    best = pen
                    best_j = ju
                    best_c = -cards
                    for i in range(n):
                        out[i, 1] = st[i, 0]
                        if i < n_sets:
                            out[i, 0] = SET
                            out[i, 2] = st[i, 1]
                            out[i, 3] = _set_jok(st[i, 1], st[i, 2])
                        else:
                            out[i, 0] = RUN
                            bb = st[i, 1]
                            blk = ((1 << (bb & 15)) - 1) << (bb >> 4)
                            out[i, 2] = blk & ~st[i, 2]
                            out[i, 3] = st[i, 2]
                    if pen == 0:
                        return 0  # nothing left: every tie-break is equal too
            lvl -= 1
            fresh = False
            continue
        if lvl < 0:
            break
        is_set = lvl < n_sets
        if not fresh:
            # take back this level's meld before looking for the next one
            pv, nn, nj, t = _move(rem, m1, is_set, st[lvl, 0], st[lvl, 1], st[lvl, 2], tok, 1)
            jrem += nj - t
            tokl += t
            cards += nn + nj
            pen += pv + JOKER_PENALTY * (nj - t)
            k0 = st[lvl, 0]
            b0 = st[lvl, 1]
            j0 = st[lvl, 2]
            strict = True
        else:
            strict = False
            if lvl > 0 and (lvl - 1 < n_sets) == is_set:
                k0 = st[lvl - 1, 0]
                b0 = st[lvl - 1, 1]
                j0 = st[lvl - 1, 2]
                if not is_set and runs_distinct:
                    k0 += 1
                    b0 = 0
                    j0 = 0
            else:
                k0 = 0
                b0 = 0
                j0 = 0
        if is_set:
            if tok and tokl:
                found, k, j = _next_set_tok(k0, j0, strict, m1, jrem, smin, smax, cnt, maxc)
                b = 0
            elif tok:
                # token spent: the plain candidates, in the token code order (t = 0)
                found, k, b, nj = _next_set(k0, j0 >> 6, ((j0 >> 1) & 31) + (j0 & 1),
                                            strict and not (j0 & 1), m1, jrem, smin, smax)
                j = b * 64 + nj * 2
            else:
                found, k, b, j = _next_set(k0, b0, j0, strict, m1, jrem, smin, smax)
        else:
            if tok and tokl:
                found, k, b, j = _next_run_tok(k0, b0, j0, strict, m1, jrem, rmin, rmax,
                                               ace_low, cnt, maxc)
            elif tok:
                found, k, b, jk = _next_run(k0, b0, (j0 >> 1) + (j0 & 1),
                                            strict and not (j0 & 1), m1, jrem, rmin, rmax,
                                            ace_low)
                j = jk * 2
            else:
                found, k, b, j = _next_run(k0, b0, j0, strict, m1, jrem, rmin, rmax, ace_low)
        if not found:
            lvl -= 1
            fresh = False
            continue
        st[lvl, 0] = k
        st[lvl, 1] = b
        st[lvl, 2] = j
        pv, nn, nj, t = _move(rem, m1, is_set, k, b, j, tok, -1)
        jrem -= nj - t
        tokl -= t
        cards -= nn + nj
        pen -= pv + JOKER_PENALTY * (nj - t)
        lvl += 1
        fresh = True
        lim = bound if best < 0 or (0 <= bound < best) else best
        if go_out or (optimize and lim >= 0):
            cap = 0  # most cards the melds still to come can take
            for i in range(lvl, n):
                cap += smax if i < n_sets else rmax
            # going out: they must take all but one card; optimizing: even taking the
            # dearest cards left they must beat the best laying so far (or the bound)
            if (go_out and cards - cap > 1) or (
                    optimize and lim >= 0 and pen - _dearest(rem, jrem, cap) > lim):
                lvl -= 1  # take it back and try the next candidate
                fresh = False
    return best


# one compiled version for every caller (they pass literal and computed flags)
@njit("UniTuple(int64, 4)(int64, int64, boolean)", cache=True)
def _sizes(max_meld, min_run, exact):
    """(smin, smax, rmin, rmax): meld sizes the search tries."""
    smax = 4
    rmax = 13
    if max_meld > 0:
        if max_meld < smax:
            smax = max_meld
        if max_meld < rmax:
            rmax = max_meld
    smin = 3
    rmin = min_run if min_run > 1 else 1
    if exact:
        # any laying shrinks to the smallest melds (drop a joker or an end natural)
        smax = smin if smin <= smax else smax
        rmax = rmin if rmin <= rmax else rmax
    return np.int64(smin), np.int64(smax), np.int64(rmin), np.int64(rmax)


@njit(cache=True)
def _work(n_sets, n_runs):
    """Work arrays of one search: rem (4, 13), m1 (4,), st (n, 3), out (n, MELD_W)."""
    n = max(n_sets + n_runs, 1)
    return (np.empty((4, 13), np.int64), np.empty(4, np.int64), np.empty((n, 3), np.int64),
            np.empty((n, MELD_W), np.int64))


@njit(cache=True)
def lay_contract(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                 go_out, out):
    """Fewest penalty points left after laying the contract (melds in ``out``), or -1."""
    rem, m1, st, _ = _work(n_sets, n_runs)
    return lay_contract_ws(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low,
                           runs_distinct, go_out, rem, m1, st, out)


@njit(cache=True)
def lay_contract_ws(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                    go_out, rem, m1, st, out):
    """``lay_contract`` with caller-owned work arrays (rem (4,13), m1 (4,), st (n,3))."""
    smin, smax, rmin, rmax = _sizes(max_meld, min_run, False)
    return _search(cnt, jokers, n_sets, n_runs, smin, smax, rmin, rmax, ace_low,
                   runs_distinct, go_out, _TRUE(), out, rem, m1, st, _FALSE(), _ZERO(),
                   _NONE())


@njit(cache=True)
def can_lay_ws(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
               go_out, rem, m1, st, out):
    """``can_lay`` with caller-owned work arrays (rem (4,13), m1 (4,), st (n,3), out (n,4))."""
    smin, smax, rmin, rmax = _sizes(max_meld, min_run, not go_out)
    return _search(cnt, jokers, n_sets, n_runs, smin, smax, rmin, rmax, ace_low,
                   runs_distinct, go_out, _FALSE(), out, rem, m1, st, _FALSE(), _ZERO(),
                   _NONE()) >= 0


@njit(cache=True, inline="always")
def can_lay(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct, go_out):
    """Whether the hand can lay the contract (stops at the first laying found). Inlined, and
    the search itself rather than can_lay_ws: each compiled level above the search (here
    between it and view.would_lay) links and optimizes it again."""
    rem, m1, st, out = _work(n_sets, n_runs)
    smin, smax, rmin, rmax = _sizes(max_meld, min_run, not go_out)
    return _search(cnt, jokers, n_sets, n_runs, smin, smax, rmin, rmax, ace_low,
                   runs_distinct, go_out, _FALSE(), out, rem, m1, st, _FALSE(), _ZERO(),
                   _NONE()) >= 0


@njit(cache=True)
def one_away_ws(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct, go_out,
                max_copies, max_jokers, rem, m1, st, out):
    """``one_card_away`` with caller-owned work arrays (as ``can_lay_ws``)."""
    smin, smax, rmin, rmax = _sizes(max_meld, min_run, not go_out)
    if _search(cnt, jokers, n_sets, n_runs, smin, smax, rmin, rmax, ace_low, runs_distinct,
               go_out, _FALSE(), out, rem, m1, st, _TRUE(), np.int64(max_copies),
               _NONE()) >= 0:
        return True
    # a joker may do where no natural can (a card held max_copies times)
    if max_jokers < 0 or jokers < max_jokers:
        return can_lay_ws(cnt, jokers + 1, n_sets, n_runs, min_run, max_meld, ace_low,
                          runs_distinct, go_out, rem, m1, st, out)
    return False


@njit(cache=True)
def one_card_away(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                  go_out, max_copies=0, max_jokers=-1):
    """Whether ``completing_cards`` (same arguments) would find any card, in one search: the
    extra card is a wild natural that may stand for any card held fewer than ``max_copies``
    times."""
    rem, m1, st, out = _work(n_sets, n_runs)
    return one_away_ws(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                       go_out, max_copies, max_jokers, rem, m1, st, out)


@njit(cache=True)
def penalty_of(cnt, jokers):
    t = JOKER_PENALTY * jokers
    for s in range(4):
        for r in range(13):
            t += cnt[s, r] * RANK_PENALTY[r]
    return t


@njit(cache=True)
def completing_cards(cnt, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                     go_out, out_cards, max_copies=0, max_jokers=-1):
    """Cards (codes 0..51, then 52 for a joker) one more of which makes ``can_lay`` true.

    ``max_copies`` > 0 skips cards already held that many times (the decks in play);
    ``max_jokers`` >= 0 skips the joker when that many are held.
    """
    rem, m1, st, out = _work(n_sets, n_runs)
    work = cnt.copy()
    return _completing(work, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                       go_out, out_cards, np.int64(max_copies), np.int64(max_jokers), rem, m1, st,
                       out, np.int64(-1))


@njit(cache=True)
def _could_meld(work, jokers, s, r, n_sets, n_runs, smin, smax, rmin, rmax, ace_low):
    """Whether card (s, r) could sit in any meld with the cards held and the jokers."""
    if n_sets > 0 and smin <= smax:
        others = 0
        for t in range(4):
            if t != s and work[t, r] > 0:
                others += 1
        if others + jokers >= smin - 1:
            return True
    if n_runs > 0 and rmin <= rmax:
        m1s = 0
        for q in range(13):
            if work[s, q] > 0:
                m1s |= 1 << q
        pav = _pos_mask(m1s, ace_low)
        lo = 0 if ace_low else 1
        for p in (r + 1, 0 if r == 12 and ace_low else -1):
            if p < 0:
                continue
            for a in range(max(lo, p - rmin + 1), p + 1):
                if a + rmin > 14 or (a == 0 and rmin == 14):
                    break
                win = ((1 << rmin) - 1) << a
                if _pc(pav & win & ~(1 << p)) + jokers >= rmin - 1:
                    return True
    return False


@njit(cache=True)
def _completing(work, jokers, n_sets, n_runs, min_run, max_meld, ace_low, runs_distinct,
                go_out, out_cards, max_copies, max_jokers, rem, m1, st, out, base):
    """``completing_cards`` on a hand ``work`` it changes and restores, with work arrays;
    ``base`` is 1/0 when the caller knows whether the hand lays the contract, else -1."""
    if base < 0:
        base = 1 if can_lay_ws(work, jokers, n_sets, n_runs, min_run, max_meld, ace_low,
                               runs_distinct, go_out, rem, m1, st, out) else 0
    smin, smax, rmin, rmax = _sizes(max_meld, min_run, not go_out)
    k = 0
    for c in range(52):
        s = c // 13
        r = c % 13
        if max_copies > 0 and work[s, r] >= max_copies:
            continue
        if base == 1 and not go_out:
            ok = True  # a laying stays a laying with one more card
        elif base == 0 and not _could_meld(work, jokers, s, r, n_sets, n_runs, smin, smax,
                                           rmin, rmax, ace_low):
            ok = False  # the new card would have to sit in a meld, and cannot
        else:
            work[s, r] += 1
            ok = can_lay_ws(work, jokers, n_sets, n_runs, min_run, max_meld, ace_low,
                            runs_distinct, go_out, rem, m1, st, out)
            work[s, r] -= 1
        if ok:
            out_cards[k] = c
            k += 1
    if max_jokers < 0 or jokers < max_jokers:
        if can_lay_ws(work, jokers + 1, n_sets, n_runs, min_run, max_meld, ace_low,
                      runs_distinct, go_out, rem, m1, st, out):
            out_cards[k] = 52
            k += 1
    return k


@njit(cache=True)
def meld_cards(rec, out_codes):
    """Card codes of a meld's natural cards (into ``out_codes``); returns how many."""
    k = 0
    nat = rec[2]
    if rec[0] == SET:
        for s in range(4):
            if (nat >> s) & 1:
                out_codes[k] = s * 13 + rec[1]
                k += 1
    else:
        for p in range(14):
            if (nat >> p) & 1:
                out_codes[k] = rec[1] * 13 + _rank_at(p)
                k += 1
    return k


@njit(cache=True)
def meld_size(rec):
    return _pc(rec[2]) + _pc(rec[3])


@njit(cache=True)
def is_valid_meld(rec, min_run, max_meld, ace_low):
    """Whether a meld record obeys the meld rules (a contract meld when ``max_meld`` > 0)."""
    kind = rec[0]
    key = rec[1]
    nat = rec[2]
    jok = rec[3]
    if nat <= 0 or jok < 0 or nat & jok:
        return False
    size = _pc(nat) + _pc(jok)
    if max_meld > 0 and size > max_meld:
        return False
    if kind == SET:
        return 0 <= key < 13 and (nat | jok) < 16 and size >= 3
    if kind != RUN or not 0 <= key < 4:
        return False
    blk = nat | jok
    if blk >= 1 << 14 or size < min_run:
        return False
    if (blk & 1) and not ace_low:
        return False
    if (blk & 1) and (blk >> 13) & 1:
        return False
    low = blk & -blk
    return ((blk + low) & blk) == 0  # one contiguous block
