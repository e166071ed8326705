"""56 card play: the heuristic every built-in but random plays with, on hand masks (slot =
suit*16 + strength*2 + copy, see simulator/games/fifty_six/view.py), and the mask helpers the
bidders share. Its parameters come first in every heuristic's parameter vector (PLAY_PARAMS)."""
import numpy as np
from numba import njit, uint64

from simulator.bits import ctz, popcount, top_bit
from simulator.games.fifty_six.view import (
    DECK_MASK_48, DECK_MASK_64, PB_ACTIVE_N, PB_CONTRACT_TEAM, PB_NTEAMS, PB_PLAYED, PB_THANI,
    PB_TEAM_OF, PB_TRICK_BEST, PB_TRICK_CARDS, PB_TRICK_N, PB_TRICK_PTS, PB_TRICK_SEATS,
    PB_TRUMP, POINTS, PV_TEAM, PV_TRUMP, RANK_MASK, SLOT_CODE, SLOT_OF, STRENGTH, SUIT,
    SUIT_MASK,
)
from simulator.strategy import Param

ZERO = uint64(0)
ONE = uint64(1)
LOW_COPIES = uint64(0x5555555555555555)
JACKS = RANK_MASK[7]
NINES = RANK_MASK[6]
TOPS = JACKS | NINES
ACES_TENS = RANK_MASK[5] | RANK_MASK[4]

PLAY_PARAMS = (
    Param("win_min_points", 1.0, "points in a trick worth overtaking an opponent with a card "
          "that may still be beaten", 0, 56),
    Param("trump_min_points", 1.0, "points in a trick worth trumping in when void", 0, 56),
    Param("feed", 1.0, "1: give points to a partner who is sure to win the trick; 0: never",
          0, 1),
    Param("draw_trumps", 1.0, "1: the bidding side leads its master trumps; 0: never", 0, 1),
    Param("reveal_min_points", 1.0, "points in the trick worth asking for a hidden trump", 0,
          56),
)
P_WIN_MIN, P_TRUMP_MIN, P_FEED, P_DRAW_TRUMPS, P_REVEAL_MIN = range(len(PLAY_PARAMS))


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
