"""56 strategies. Each is a set of @njit decision functions of the signature in
simulator/games/fifty_six/view.py (bid, play, reveal) plus named float parameters.

Built-ins are called directly by the kernel (``builtin_decision``, ``builtin_play_mask``), not
through function pointers, so LLVM may inline them; only small helpers are inlined at Numba's
level (``inline="always"``), which multiplies compile time when used on large functions. Card play of the built-ins works
on hand masks (view.SLOT_OF); ``heuristic_play`` is the same decision behind the array
interface, for plug-ins that want to reuse it and for tests.
"""
import math

import numpy as np
from numba import njit, uint64

from simulator.bits import ctz, nth_bit, popcount, top_bit
from simulator.games.fifty_six.view import (
    BID, DECK_MASK_48, DECK_MASK_64, DOUBLE, F_NOES, F_NUMBER_NT, F_NUMBER_SUIT, F_PLUS_SUIT,
    F_PLUS_TWO_NOES, F_SUIT_NUMBER, F_THANI, L_DOUBLE, L_LAST_TRUMP, L_MAX, L_MIN,
    L_PASS, L_REDOUBLE, L_THANI, NO_TRUMPS, PASS, PB_ACTIVE_N, PB_CALLS,
    PB_CONTRACT_TEAM, PB_HIGH_BIDDER, PB_HIGH_TRUMP, PB_HIGH_VALUE, PB_NCALLS,
    PB_NTEAMS, PB_PLAYED, PB_TEAM_OF, PB_THANI, PB_TRICK_BEST, PB_TRICK_CARDS, PB_TRICK_N, PB_TRICK_PTS,
    PB_TRICK_SEATS,
    PB_TRUMP, PLAY, POINTS, PV_SEAT, PV_TEAM, PV_TRUMP, RANK_MASK, REDOUBLE, SLOT_CODE,
    SLOT_OF, STRENGTH,
    SUIT, SUIT_MASK, bid_code, call_form, call_trump, call_value, nth_form,
)
from simulator.rng import below
from simulator.strategy import Param, StrategyDef

ZERO = uint64(0)
ONE = uint64(1)
LOW_COPIES = uint64(0x5555555555555555)
JACKS = RANK_MASK[7]
NINES = RANK_MASK[6]
TOPS = JACKS | NINES
ACES_TENS = RANK_MASK[5] | RANK_MASK[4]


# ---------------------------------------------------------------- random

@njit(cache=True, inline="always")
def random_bid(hand, n, public, private, legal, params, rng):
    """Uniform over the legal calls: pass, double, redouble, every (value, trump) bid and thani;
    the bid's form is then uniform over the forms that call may take."""
    return random_call(legal, rng)


@njit(cache=True, inline="always")
def random_call(legal, rng):
    """random_bid from what it reads (the kernel calls it without building arrays)."""
    nbid = (legal[L_MAX] - legal[L_MIN] + 1) * 5 if legal[L_MIN] > 0 else 0
    total = legal[L_PASS] + legal[L_DOUBLE] + legal[L_REDOUBLE] + legal[L_THANI] + nbid
    r = below(rng, total)
    if r < legal[L_PASS]:
        return PASS
    r -= legal[L_PASS]
    if r < legal[L_DOUBLE]:
        return DOUBLE
    r -= legal[L_DOUBLE]
    if r < legal[L_REDOUBLE]:
        return REDOUBLE
    r -= legal[L_REDOUBLE]
    if r < legal[L_THANI]:
        return bid_code(legal[L_MAX] + 1, NO_TRUMPS, F_THANI)
    r -= legal[L_THANI]
    value = legal[L_MIN] + r // 5
    trump = r % 5
    k = nth_form(value, trump, legal, -1)
    return bid_code(value, trump, nth_form(value, trump, legal, below(rng, k)))


@njit(cache=True, inline="always")
def random_play(hand, n, public, private, legal, params, rng):
    """Uniform over the legal cards."""
    k = 0
    for i in range(n):
        k += legal[i]
    r = below(rng, k)
    for i in range(n):  # branch-free but for the exit: random picks defeat branch prediction
        r -= legal[i]
        if r < 0:
            return i
    return -1


@njit(cache=True, inline="always")
def random_reveal(hand, n, public, private, legal, params, rng):
    """Ask for the hidden trump with probability 1/2."""
    return below(rng, 2)


@njit(cache=True)
def never_reveal(hand, n, public, private, legal, params, rng):
    """Never asks for a hidden trump (the default for plug-ins without a reveal function)."""
    return 0


@njit(cache=True, inline="always")
def random_play_mask(legal_mask, rng):
    """random_play on the kernel's hand masks: the same choice (the r-th legal card in slot
    order) without building arrays."""
    return nth_bit(legal_mask, below(rng, popcount(legal_mask)))


# ---------------------------------------------------------------- heuristic parameters

PARAMS = (
    # hand valuation: expected card points for the team, as offsets from an average hand
    Param("base", 0.0, "points added to every valuation (optimism)", -28, 28),
    Param("w_points", 1.0, "per card point held above an average hand", 0, 10),
    Param("w_jack", 1.5, "per jack held above an average hand", 0, 20),
    Param("w_nine", 0.5, "per nine held above an average hand", 0, 20),
    Param("w_trump", 1.5, "per card of the trump suit above the suit's average share", 0, 20),
    Param("w_trump_top", 1.5, "per jack or nine of the trump suit (on top of w_jack/w_nine)",
          0, 20),
    Param("w_void", 1.0, "per void side suit when holding 3+ trumps", 0, 20),
    Param("nt_penalty", 3.0, "points taken off a no-trumps valuation", -28, 56),
    Param("w_opp_suit", 3.0, "points taken off a trump suit an opponent has bid", 0, 56),
    Param("w_partner", 0.5, "share of my surplus over an average hand added to partner's bid "
          "in partner's trump", 0, 2),
    Param("margin", 0.0, "bid only up to valuation - margin", -28, 28),
    Param("raise_step", 3.0, "over partner's bid only when the ceiling is this much higher",
          0, 28),
    Param("double_margin", 4.0, "double when my hand's surplus over an average one (as "
          "defender) exceeds 1 + this", -56, 56),
    Param("redouble_margin", 6.0, "redouble when the ceiling beats the doubled bid by this",
          -56, 56),
    Param("thani_min", 99.0, "no-trumps valuation from which to bid thani (99 = never)", 0, 99),
    # reading partner's bid forms (conventional bidder)
    Param("w_read_jack", 3.0, "worth of partner showing the trump jack (number, suit) or "
          "completing it", 0, 28),
    Param("w_read_void", 3.0, "points off a suit partner shows no card of (noes)", 0, 28),
    # card play
    Param("win_min_points", 1.0, "points in a trick worth overtaking an opponent with a card "
          "that may still be beaten", 0, 56),
    Param("trump_min_points", 1.0, "points in a trick worth trumping in when void", 0, 56),
    Param("feed", 1.0, "1: give points to a partner who is sure to win the trick; 0: never",
          0, 1),
    Param("draw_trumps", 1.0, "1: the bidding side leads its master trumps; 0: never", 0, 1),
    Param("reveal_min_points", 1.0, "points in the trick worth asking for a hidden trump", 0,
          56),
    Param("jump_back", 99.0, "opens or overcalls at once at its ceiling less this many points "
          "(a jump) rather than the lowest legal bid; 99: never (jumping to the ceiling lost "
          "92% of games against not jumping, 4 below it 66%)", 0, 99),
    Param("tie_points", -1.0, "of two trumps valued alike: -1 the one whose cards hold fewer "
          "points (the others' points are then side cards to cash), 1 more, 0 the first in "
          "suit order", -1, 1),
)
(P_BASE, P_W_POINTS, P_W_JACK, P_W_NINE, P_W_TRUMP, P_W_TRUMP_TOP, P_W_VOID, P_NT_PENALTY,
 P_W_OPP_SUIT, P_W_PARTNER, P_MARGIN, P_RAISE_STEP, P_DOUBLE_MARGIN, P_REDOUBLE_MARGIN,
 P_THANI_MIN, P_W_READ_JACK, P_W_READ_VOID, P_WIN_MIN, P_TRUMP_MIN, P_FEED, P_DRAW_TRUMPS,
 P_REVEAL_MIN, P_JUMP_BACK, P_TIE_POINTS) = range(len(PARAMS))


def _with(**changes):
    names = {p.name for p in PARAMS}
    assert set(changes) <= names, set(changes) - names
    return tuple(Param(p.name, changes.get(p.name, p.default), p.doc, p.lo, p.hi)
                 for p in PARAMS)


CAUTIOUS = _with(margin=3.0, raise_step=5.0, double_margin=7.0, redouble_margin=9.0,
                 win_min_points=2.0, trump_min_points=2.0)
AGGRESSIVE = _with(base=2.0, margin=-2.0, raise_step=1.0, double_margin=1.0,
                   redouble_margin=3.0, win_min_points=0.0, trump_min_points=1.0)
# cautious with ten parameters tuned by `cardsim tune` (TPE, 150 candidates x 1,000 boards
# against cautious, evaluator and conventional, seed 7), rounded to two decimals
TUNED = _with(margin=5.97, raise_step=5.51, double_margin=8.24, redouble_margin=11.03,
              nt_penalty=4.74, w_trump=2.91, w_trump_top=2.16, w_jack=0.0, w_partner=0.51,
              w_opp_suit=5.25, win_min_points=2.0, trump_min_points=2.0)


# ---------------------------------------------------------------- hand masks

@njit(cache=True, inline="always")
def hand_mask(hand, n):
    m = ZERO
    for i in range(n):
        b = uint64(SLOT_OF[hand[i]])
        b += (m >> b) & ONE  # the second copy of an identical card
        m |= ONE << b
    return m


@njit(cache=True, inline="always")
def pc(m):
    return np.int64(popcount(m))


@njit(cache=True, inline="always")
def mask_points(m):
    return 3 * pc(m & JACKS) + 2 * pc(m & NINES) + pc(m & ACES_TENS)


@njit(cache=True, inline="always")
def above(card):
    """Slots of the same suit stronger than ``card``."""
    top = ONE << uint64(SLOT_OF[card] + 1)  # the pair's upper bit
    # not (ONE << (slot + 2)) - ONE: for the top slot (jack of clubs) that shift is by 64
    return SUIT_MASK[SUIT[card]] & ~(top | (top - ONE))


@njit(cache=True, inline="always")
def unseen(deck, played, h):
    """Cards not yet played and not in hand ``h``, as a mask with the right count per card
    (which of a pair's two bits is set does not matter)."""
    cp = (played & LOW_COPIES) + ((played >> ONE) & LOW_COPIES)  # copies per card, 0..2
    ch = (h & LOW_COPIES) + ((h >> ONE) & LOW_COPIES)
    s = cp + ch
    known = s | ((s & ~LOW_COPIES) >> ONE)  # count 2 -> both bits
    return deck & ~known


@njit(cache=True, inline="always")
def cheapest(m):
    """Lowest-strength card of m (strength order is also point order: K Q 8 7 score 0)."""
    for st in range(8):
        x = m & RANK_MASK[st]
        if x != ZERO:
            return np.int64(ctz(x))
    return np.int64(ctz(m))


@njit(cache=True, inline="always")
def richest(m, no_jacks):
    """Card of m with the most points (jacks left out if ``no_jacks`` and possible)."""
    lo = 6 if no_jacks else 7
    for st in range(lo, 3, -1):
        x = m & RANK_MASK[st]
        if x != ZERO:
            return np.int64(ctz(x))
    return cheapest(m)


@njit(cache=True, inline="always")
def masters(out, m, s):
    """Cards of m in suit s that no unseen card of that suit can beat once played: at least
    as strong as the best unseen one (an identical card played later does not win)."""
    u = out & SUIT_MASK[s]
    if u == ZERO:
        return m & SUIT_MASK[s]
    base = uint64(top_bit(u) & ~1)  # lower bit of the best unseen card's pair
    return m & SUIT_MASK[s] & ~((ONE << base) - ONE)


# ---------------------------------------------------------------- card play

@njit(cache=True)
def heuristic_play_mask(h, lm, public, priv, params, played, deck):
    """Slot of the card to play: win cheaply when it pays, feed a partner who is sure to win,
    trump in when void and the trick is worth it, keep jacks, lead masters; unseen cards are
    counted from everything played so far."""
    my_team = priv[PV_TEAM]
    kt = priv[PV_TRUMP]  # the trump as this player knows it (7: hidden from me)
    tmask = SUIT_MASK[kt] if kt < 4 else ZERO
    out = unseen(deck, played, h)
    side = lm & ~tmask
    ntr = public[PB_TRICK_N]
    if ntr == 0:
        return _lead(lm, side, public, params, out, tmask, kt, my_team)
    shown = public[PB_TRUMP] < 4
    eff_t = np.int64(public[PB_TRUMP]) if shown else np.int64(-1)
    wi = public[PB_TRICK_BEST]
    wcard = public[PB_TRICK_CARDS + wi]
    wseat = public[PB_TRICK_SEATS + wi]
    wsuit = np.int64(SUIT[wcard])
    pts = public[PB_TRICK_PTS]
    n_play = public[PB_ACTIVE_N]
    if public[PB_THANI] == 1:
        n_play -= n_play // public[PB_NTEAMS] - 1  # the thani bidder's partners sit out
    last = ntr + 1 == n_play
    if public[PB_TEAM_OF + wseat] == my_team:
        ruff_risk = eff_t >= 0 and wsuit != eff_t and (out & SUIT_MASK[eff_t]) != ZERO
        safe = last or ((out & above(wcard)) == ZERO and not ruff_risk)
        if safe and params[P_FEED] > 0.5:
            return richest(side if side != ZERO else lm, True)
        return cheapest(side if side != ZERO else lm)
    beat = lm & above(wcard)  # same suit as the winning card, stronger
    if beat != ZERO:  # following (or over-trumping): cheapest sure winner, else try the top
        if last:
            best = np.int64(ctz(beat))
            if pts >= params[P_WIN_MIN] or STRENGTH[SLOT_CODE[best]] < 6:
                return best
        else:
            sure = masters(out, beat, wsuit)
            if sure != ZERO and (pts >= params[P_WIN_MIN]
                                 or STRENGTH[SLOT_CODE[ctz(sure)]] < 6):
                return np.int64(ctz(sure))
    elif eff_t >= 0 and wsuit != eff_t and (lm & SUIT_MASK[eff_t]) != ZERO \
            and pts >= params[P_TRUMP_MIN]:  # void in the led suit: trump in, cheaply
        return cheapest(lm & SUIT_MASK[eff_t])
    return cheapest(side if side != ZERO else lm)


@njit(cache=True)
def _lead(lm, side, public, params, out, tmask, kt, my_team):
    if (tmask & lm) != ZERO and (out & tmask) != ZERO and params[P_DRAW_TRUMPS] > 0.5 \
            and public[PB_CONTRACT_TEAM] == my_team:
        top = masters(out, lm, kt)  # draw the opponents' trumps with sure winners
        if top != ZERO:
            return np.int64(top_bit(top))
    best = np.int64(-1)  # cash the richest sure winner of a side suit
    best_pts = 0
    for s in range(4):
        m = masters(out, side, s)
        if m != ZERO:
            top = np.int64(top_bit(m))
            p = POINTS[SLOT_CODE[top]]
            if p > best_pts:
                best = top
                best_pts = p
    if best >= 0:
        return best
    pool = side if side != ZERO else lm  # else lead low from the longest side suit
    longest = ZERO
    for s in range(4):
        m = pool & SUIT_MASK[s]
        if pc(m) > pc(longest):
            longest = m
    return cheapest(longest)


@njit(cache=True)
def played_mask(public):
    """Every card played so far, as a slot mask (from the public record)."""
    m = ZERO
    for c in range(52):
        k = public[PB_PLAYED + c]
        if k > 0:
            b = uint64(SLOT_OF[c])
            m |= ONE << b
            if k > 1:
                m |= ONE << (b + ONE)
    return m


@njit(cache=True)
def heuristic_play(hand, n, public, private, legal, params, rng):
    """heuristic_play_mask behind the array interface (hand in any order)."""
    h = ZERO
    lm = ZERO
    for i in range(n):
        b = uint64(SLOT_OF[hand[i]])
        b += (h >> b) & ONE
        h |= ONE << b
        if legal[i]:
            lm |= ONE << b
    deck = DECK_MASK_64 if public[PB_ACTIVE_N] * 8 == 64 else DECK_MASK_48
    slot = heuristic_play_mask(h, lm, public, private, params, played_mask(public), deck)
    m = ZERO
    for i in range(n):
        b = uint64(SLOT_OF[hand[i]])
        b += (m >> b) & ONE
        m |= ONE << b
        if np.int64(b) == slot:
            return i
    return -1


@njit(cache=True)
def heuristic_reveal(hand, n, public, private, legal, params, rng):
    """Ask for the hidden trump when the trick holds enough points."""
    return 1 if public[PB_TRICK_PTS] >= params[P_REVEAL_MIN] else 0


# ---------------------------------------------------------------- bidding

@njit(cache=True, inline="always")
def _common(hm, n_act, nteams, params):
    """The part of a valuation that does not depend on the trump."""
    avg = 1.0 / n_act
    e = 56.0 / nteams + params[P_BASE]
    e += params[P_W_POINTS] * (mask_points(hm) - 56.0 * avg)
    e += params[P_W_JACK] * (pc(hm & JACKS) - 8.0 * avg)
    e += params[P_W_NINE] * (pc(hm & NINES) - 8.0 * avg)
    return e


@njit(cache=True, inline="always")
def _trump_terms(hm, t, n_act, params):
    if t >= 4:
        return -params[P_NT_PENALTY]
    avg = 1.0 / n_act
    suit_cards = 16.0 if n_act == 8 else 12.0
    tm = hm & SUIT_MASK[t]
    k = pc(tm)
    e = params[P_W_TRUMP] * (k - suit_cards * avg)
    e += params[P_W_TRUMP_TOP] * (pc(tm & TOPS) - 4.0 * avg)
    if k >= 3:
        for s in range(4):
            if s != t and hm & SUIT_MASK[s] == ZERO:
                e += params[P_W_VOID]
    return e


@njit(cache=True, inline="always")
def _value(hm, t, n_act, nteams, params):
    """Expected card points for my team with trump ``t`` (4: no-trumps), from my hand alone
    (partner and opponents average)."""
    return _common(hm, n_act, nteams, params) + _trump_terms(hm, t, n_act, params)


@njit(cache=True)
def _choose(hm, public, priv, params, conventional):
    """(best trump, its valuation, partner's first bid value, latest trump and form) after
    reading the auction: partner's bid in a trump supports it, an opponent's bid in a suit
    spoils it, and (conventional) partner's forms tell of jacks and voids."""
    me = priv[PV_SEAT]
    my_team = priv[PV_TEAM]
    n_act = public[PB_ACTIVE_N]
    nteams = public[PB_NTEAMS]
    p_val = 0
    p_t = np.int64(-1)  # not literals: _read_form would be compiled for them too
    p_f = np.int64(-1)
    opp_suits = 0
    for k in range(public[PB_NCALLS]):
        seat = public[PB_CALLS + 2 * k]
        code = public[PB_CALLS + 2 * k + 1]
        if code < 64 or seat == me:
            continue
        t = call_trump(code)
        if public[PB_TEAM_OF + seat] == my_team:
            if p_val == 0:  # partner's first bid: later ones may rest on my own support
                p_val = call_value(code)
            p_t = t
            p_f = call_form(code)
        elif t < 4:
            opp_suits |= 1 << t
    avg_team = 56.0 / nteams
    best_t = 4
    best_e = -1e9
    best_pts = -1000
    sign = 1 if params[P_TIE_POINTS] >= 0.5 else (-1 if params[P_TIE_POINTS] <= -0.5 else 0)
    common = _common(hm, n_act, nteams, params)
    for t in range(5):
        e = common + _trump_terms(hm, t, n_act, params)
        if t < 4 and (opp_suits >> t) & 1:
            e -= params[P_W_OPP_SUIT]
        if conventional and p_t < 5 and p_t >= 0:
            e += _read_form(hm, t, p_t, p_f, params)
        if t == p_t:  # partner's claim plus my surplus
            e = max(e, p_val + params[P_W_PARTNER] * (e - avg_team))
        # a tie (equal lengths and tops) goes by the points held in the suit (tie_points),
        # not to the first suit: suit order made spades trump 28% of the time, clubs 22%
        pts = sign * mask_points(hm & SUIT_MASK[t]) if t < 4 else -999
        if e > best_e or (e == best_e and pts > best_pts):
            best_e = e
            best_t = t
            best_pts = pts
    return best_t, best_e, p_val, p_t, p_f


@njit(cache=True)
def _read_form(hm, t, p_t, p_f, params):
    """What partner's bid form says about trump ``t`` given my hand (the sheet's signals)."""
    if t >= 4 or p_t >= 4:
        if p_f == F_NUMBER_NT and t < 4:
            return 0.5 * params[P_W_READ_JACK]  # partner holds jacks: any trump is better
        return 0.0
    if t != p_t:
        return 0.0
    mine_j = (hm & SUIT_MASK[t] & JACKS) != ZERO
    if p_f == F_NUMBER_SUIT or p_f == F_PLUS_SUIT:
        return params[P_W_READ_JACK] * (1.0 if not mine_j else 0.5)  # partner has the top
    if p_f == F_SUIT_NUMBER:
        return params[P_W_READ_JACK] if mine_j else 0.0  # partner is long but lacks the jack
    if p_f == F_NOES or p_f == F_PLUS_TWO_NOES:
        return -params[P_W_READ_VOID]
    return 0.0


@njit(cache=True, inline="always")
def _honest_form(hm, t):
    if t == NO_TRUMPS:
        return F_NUMBER_NT
    return F_NUMBER_SUIT if (hm & SUIT_MASK[t] & JACKS) != ZERO else F_SUIT_NUMBER


@njit(cache=True)
def _bid(hm, public, private, legal, params, conventional):
    my_team = private[PV_TEAM]
    best_t, best_e, p_val, p_t, p_f = _choose(hm, public, private, params, conventional)
    ceiling = best_e - params[P_MARGIN]
    high_v = np.int64(public[PB_HIGH_VALUE])
    lo = np.int64(legal[L_MIN])
    high_b = public[PB_HIGH_BIDDER]
    ours = high_b >= 0 and public[PB_TEAM_OF + high_b] == my_team
    if legal[L_REDOUBLE] == 1:
        return REDOUBLE if ceiling >= high_v + params[P_REDOUBLE_MARGIN] else PASS
    if legal[L_THANI] == 1 and _value(hm, 4, public[PB_ACTIVE_N], public[PB_NTEAMS],
                                      params) >= params[P_THANI_MIN]:
        return bid_code(legal[L_MAX] + 1, NO_TRUMPS, F_THANI)
    if lo > 0:
        need = lo + (params[P_RAISE_STEP] if ours else 0.0)
        if conventional and ours and high_b != private[PV_SEAT]:
            code = _signal(hm, lo, high_v, ceiling, legal, public, params)
            if code > 0:
                return code
        if ceiling >= need:
            v = lo
            if not ours and params[P_JUMP_BACK] < 98.5:  # a jump tells the table at once
                v = max(lo, min(np.int64(legal[L_MAX]),
                                np.int64(math.floor(ceiling - params[P_JUMP_BACK]))))
            return bid_code(v, best_t, _honest_form(hm, best_t))
    if legal[L_DOUBLE] == 1:
        # The bid tells that the opponents expect high_v with an average partner; what my
        # hand holds above an average one (their trump's tops counting double) is what we
        # may take beyond 56 - high_v.
        t = public[PB_HIGH_TRUMP]
        surplus = _common(hm, public[PB_ACTIVE_N], public[PB_NTEAMS], params) \
            - params[P_BASE] - 56.0 / public[PB_NTEAMS]
        if t < 4:
            surplus += params[P_W_TRUMP_TOP] * pc(hm & SUIT_MASK[t] & TOPS)
        if 56 - high_v + surplus >= 57 - high_v + params[P_DOUBLE_MARGIN]:
            return DOUBLE
    return PASS


@njit(cache=True)
def _signal(hm, lo, high_v, ceiling, legal, public, params):
    """Conventional answers to partner's suit bid: 'plus 2, suit' with exactly the two top
    cards of it, 'noes' / 'plus two, noes' with none of it. 0 when no signal fits."""
    t = public[PB_HIGH_TRUMP]
    if t >= 4 or legal[L_LAST_TRUMP] != t:
        return 0
    tm = hm & SUIT_MASK[t]
    if pc(tm) == 2 and pc(tm & TOPS) == 2 and high_v + 2 <= legal[L_MAX] \
            and ceiling >= high_v + 2:
        return bid_code(high_v + 2, t, F_PLUS_SUIT)
    if tm == ZERO and ceiling >= lo + params[P_RAISE_STEP]:
        if high_v + 2 <= legal[L_MAX] and ceiling >= lo + 2 * params[P_RAISE_STEP]:
            return bid_code(high_v + 2, t, F_PLUS_TWO_NOES)
        return bid_code(lo, t, F_NOES)
    return 0


@njit(cache=True)
def evaluator_bid(hand, n, public, private, legal, params, rng):
    """Values the hand for each trump (points, jacks, nines, trump length and top cards,
    voids), supports partner's trump and avoids opponents' suits; bids the lowest legal value
    up to valuation - margin in the best trump; doubles and redoubles by margins."""
    return _bid(hand_mask(hand, n), public, private, legal, params, np.bool_(False))


@njit(cache=True)
def conventional_bid(hand, n, public, private, legal, params, rng):
    """The evaluator, speaking the sheet's forms: 'number, suit' with the trump jack, 'suit,
    number' without it, 'number, no-trumps', 'plus 2, suit' with exactly two top cards of
    partner's suit, 'noes' without any; and reading those forms from partner."""
    return _bid(hand_mask(hand, n), public, private, legal, params, np.bool_(True))


# ---------------------------------------------------------------- dispatch for the kernel

@njit(cache=True, inline="always")
def builtin_bid_mask(sid, hm, public, priv, legal, params, rng):
    """Call of a built-in (sid >= 0) from its hand mask, or -1 for plug-ins."""
    if sid >= 1:  # the flag as a variable: a constant would compile _bid twice
        return _bid(hm, public, priv, legal, params, sid == 2)
    if sid == 0:
        return random_call(legal, rng)
    return -1


@njit(cache=True, inline="always")
def builtin_play_mask(sid, h, lm, public, priv, params, played, deck, rng):
    """Card choice of a built-in from the hand masks (a slot), or -1 to be asked through the
    array interface."""
    if sid < 0:
        return -1
    if sid == 0:
        return random_play_mask(lm, rng)
    return heuristic_play_mask(h, lm, public, priv, params, played, deck)


@njit(cache=True)
def builtin_decision(kind, sid, hand, n, public, private, legal, params, rng):
    """Direct calls to the built-ins (sid = position in BUILTINS): no function pointer, no
    reference counting per call."""
    if sid == 0:
        if kind == BID:
            return random_bid(hand, n, public, private, legal, params, rng)
        if kind == PLAY:
            return random_play(hand, n, public, private, legal, params, rng)
        return random_reveal(hand, n, public, private, legal, params, rng)
    if kind == BID:
        if sid == 2:
            return conventional_bid(hand, n, public, private, legal, params, rng)
        return evaluator_bid(hand, n, public, private, legal, params, rng)
    if kind == PLAY:
        return heuristic_play(hand, n, public, private, legal, params, rng)
    return heuristic_reveal(hand, n, public, private, legal, params, rng)


_HEURISTIC_PLAY = {"play": heuristic_play, "reveal": heuristic_reveal}
BUILTINS = (
    StrategyDef(
        "random",
        "uniform over legal actions at every decision (call, card, asking for a hidden trump)",
        {"bid": random_bid, "play": random_play, "reveal": random_reveal},
    ),
    StrategyDef(
        "evaluator",
        "hand-evaluation bidder (trump and ceiling from weighted jacks, nines, points, trump "
        "length, voids and the auction) with the card-play heuristic",
        {"bid": evaluator_bid, **_HEURISTIC_PLAY}, PARAMS,
    ),
    StrategyDef(
        "conventional",
        "the evaluator bidding in the sheet's signalling forms and reading partner's forms, "
        "with the card-play heuristic",
        {"bid": conventional_bid, **_HEURISTIC_PLAY}, PARAMS,
    ),
    StrategyDef("cautious", "evaluator preset: bids and doubles only with margin, wins "
                "tricks only for 2+ points", {"bid": evaluator_bid, **_HEURISTIC_PLAY},
                CAUTIOUS),
    StrategyDef("aggressive", "evaluator preset: optimistic valuation, bids over its "
                "ceiling, doubles readily", {"bid": evaluator_bid, **_HEURISTIC_PLAY},
                AGGRESSIVE),
    StrategyDef("tuned", "evaluator preset tuned by `cardsim tune`: bids only to its valuation "
                "less 6, weighs trump length and top trumps heavily and jacks only as points, "
                "keeps out of suits the opponents bid; wins tricks only for 2+ points",
                {"bid": evaluator_bid, **_HEURISTIC_PLAY}, TUNED),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = {d.name: i for i, d in enumerate(BUILTINS)}
