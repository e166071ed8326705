"""56 card play: the heuristic every built-in but random plays with, on hand masks (slot =
suit*16 + strength*2 + copy, see simulator/games/fifty_six/view.py), and the mask helpers the
bidders share. Its parameters come first in every heuristic's parameter vector (PLAY_PARAMS)."""
import numpy as np
from numba import njit, uint64

from cardsim.simulator.bits import ctz, popcount, top_bit
from cardsim.simulator.games.fifty_six.view import (
    DECK_MASK_48, DECK_MASK_64, PB_ACTIVE, PB_ACTIVE_N, PB_CONTRACT_TEAM, PB_NTEAMS, PB_PLAYED,
    PB_SHOWN_OUT, PB_THANI, PB_THREW, PB_TEAM_OF, PB_TRICK_BEST, PB_TRICK_CARDS, PB_TRICK_N,
    PB_TRICK_PTS, PB_TRICK_SEATS, PB_TRUMP, POINTS, PV_SEAT, PV_TEAM, PV_TRUMP, RANK_MASK,
    SLOT_CODE, SLOT_OF, STRENGTH, SUIT, SUIT_MASK,
)
from cardsim.simulator.strategy import Param

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
    Param("voids", 1.0, "1: remember who has shown out of a suit (did not follow it): no side "
          "master is cashed into an opponent's known void while trumps may be out, and a "
          "partner's card is safe from opponents known void in trumps; 0: no memory", 0, 1),
    Param("overtake_min_points", 0.0, "points in a trick worth overtaking a partner whose "
          "card an opponent still to play may beat (a stronger unseen card, or a ruff by a "
          "seat known void) with a sure winner (99: never)", 0, 99),
    Param("count_trumps", 1.0, "1: the bidding side stops drawing trumps once no opponent "
          "can hold one (known voids, unseen trumps); 0: draws while any trump is unseen",
          0, 1),
    Param("signals", 1.0, "1: a discard (void, not trumping) comes from a weak suit (no "
          "jack, nine or master) when it costs no more points, telling partner not to lead "
          "it, and a low lead keeps off suits partner threw from; 0: the cheapest card",
          0, 1),
    Param("to_play", 1.0, "1: a card is a sure winner when no opponent still to play in the "
          "trick may beat it (a stronger unseen card from a seat not known void in the suit, "
          "a ruff from a seat known void in it and not in trumps); any trump wins a ruff "
          "when those seats are known void in trumps; 0: (the old test) a master against "
          "every unseen card, whoever has played", 0, 1),
)
(P_WIN_MIN, P_TRUMP_MIN, P_FEED, P_DRAW_TRUMPS, P_REVEAL_MIN, P_VOIDS, P_OVERTAKE_MIN,
 P_COUNT_TRUMPS, P_SIGNALS, P_TO_PLAY) = range(len(PLAY_PARAMS))


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


# ---------------------------------------------------------------- what the plays tell

@njit(cache=True)
def shown_out(public):
    """(void, threw) from what the kernel keeps (PB_SHOWN_OUT, PB_THREW): bit 8 * suit + seat
    of ``void`` is set when the seat did not follow a lead of that suit (it holds none), of
    ``threw`` when it played a card of that suit while not following."""
    void = np.int64(0)
    threw = np.int64(0)
    for su in range(4):
        void |= np.int64(public[PB_SHOWN_OUT + su]) << (8 * su)
        threw |= np.int64(public[PB_THREW + su]) << (8 * su)
    return void, threw


@njit(cache=True, inline="always")
def in_suit(bits, s):
    """Seats (bit per seat) of a shown_out mask for suit s."""
    return (bits >> (8 * s)) & 0xFF


@njit(cache=True)
def _seats(public, team, mine, ntr):
    """Seats (bit per seat) of the active players of team ``team`` (``mine``) or of the other
    teams (not ``mine``) who have not played to the current trick yet."""
    m = np.int64(0)
    for s in range(8):
        if public[PB_ACTIVE + s] == 1 and (public[PB_TEAM_OF + s] == team) == mine:
            m |= np.int64(1) << s
    for j in range(ntr):
        m &= ~(np.int64(1) << public[PB_TRICK_SEATS + j])
    return m


@njit(cache=True, inline="always")
def _all_void(seats, void, s):
    """Whether every seat of the mask is known void in suit s."""
    return (seats & ~in_suit(void, s)) == 0


@njit(cache=True, inline="always")
def _any_ruffer(seats, void, s, t):
    """Whether a seat of the mask is known void in suit s but not known void in trumps t."""
    return (seats & in_suit(void, s) & ~in_suit(void, t)) != 0


@njit(cache=True)
def _beatable(card, out, opp, void, eff_t, guess):
    """Whether a seat of ``opp`` may beat ``card`` (the trick's best card): by a stronger
    unseen card of its suit unless known void in that suit, or by a trump (when trumps have
    power, ``card`` is no trump and trumps are unseen) unless known void in trumps; a trump
    from any such seat if ``guess``, else only from one known void in ``card``'s suit."""
    cs = np.int64(SUIT[card])
    vs = in_suit(void, cs)
    if (out & above(card)) != ZERO and (opp & ~vs) != 0:
        return True
    if eff_t >= 0 and cs != eff_t and (out & SUIT_MASK[eff_t]) != ZERO:
        may = opp & ~in_suit(void, eff_t)
        return (may if guess else may & vs) != 0
    return False


# ---------------------------------------------------------------- card play

@njit(cache=True)
def heuristic_play_mask(h, lm, public, priv, params, played, deck):
    """Slot of the card to play: win cheaply when it pays, feed a partner who is sure to win,
    trump in when void and the trick is worth it, keep jacks, lead masters; unseen cards are
    counted from everything played so far, voids from who did not follow."""
    my_team = priv[PV_TEAM]
    kt = priv[PV_TRUMP]  # the trump as this player knows it (7: hidden from me)
    tmask = SUIT_MASK[kt] if kt < 4 else ZERO
    out = unseen(deck, played, h)
    side = lm & ~tmask
    ntr = public[PB_TRICK_N]
    n_play = np.int64(public[PB_ACTIVE_N])
    if public[PB_THANI] == 1:
        n_play -= n_play // public[PB_NTEAMS] - 1  # the thani bidder's partners sit out
    if ntr == 0:
        return _lead(lm, side, public, priv, params, out, tmask, kt)
    shown = public[PB_TRUMP] < 4
    eff_t = np.int64(public[PB_TRUMP]) if shown else np.int64(-1)
    wi = public[PB_TRICK_BEST]
    wcard = public[PB_TRICK_CARDS + wi]
    wseat = public[PB_TRICK_SEATS + wi]
    wsuit = np.int64(SUIT[wcard])
    pts = public[PB_TRICK_PTS]
    last = ntr + 1 == n_play
    led = np.int64(SUIT[public[PB_TRICK_CARDS]])
    if public[PB_TEAM_OF + wseat] == my_team:
        ruff_risk = eff_t >= 0 and wsuit != eff_t and (out & SUIT_MASK[eff_t]) != ZERO
        safe = last or ((out & above(wcard)) == ZERO and not ruff_risk)
        pool = side if side != ZERO else lm
        feed = params[P_FEED] > 0.5
        if safe and feed:
            return richest(pool, True)
        void = np.int64(0)
        opp = np.int64(0)
        to_play = params[P_TO_PLAY] > 0.5
        if to_play:  # the seats still to play and what they have shown decide
            opp = _seats(public, my_team, False, np.int64(ntr))
            if params[P_VOIDS] > 0.5:
                void = shown_out(public)[0]
            if not safe and feed and not _beatable(np.int64(wcard), out, opp, void, eff_t, True):
                return richest(pool, True)
            if pts >= params[P_OVERTAKE_MIN] \
                    and _beatable(np.int64(wcard), out, opp, void, eff_t, False):
                mine = _sure_winner(lm, wcard, out, opp, void, eff_t, True, True)
                if mine >= 0:
                    return mine
            return _discard(lm, side, led, out, params)
        # what has been shown is read only where it may change the card: a richer one to
        # feed, or a sure winner to overtake with
        over = pts >= params[P_OVERTAKE_MIN] and _sure_winner(
            lm, wcard, out, opp, void, eff_t, False, False) >= 0
        if not safe and (over or (feed and params[P_VOIDS] > 0.5
                                  and richest(pool, True) != cheapest(pool))):
            opp = _seats(public, my_team, False, np.int64(ntr))
            if params[P_VOIDS] > 0.5:
                void = shown_out(public)[0]
                if feed and not _beatable(np.int64(wcard), out, opp, void, eff_t, True):
                    return richest(pool, True)
        if over and _beatable(np.int64(wcard), out, opp, void, eff_t, False):
            mine = _sure_winner(lm, wcard, out, opp, void, eff_t, True, False)
            if mine >= 0:
                return mine
        return _discard(lm, side, led, out, params)
    beat = lm & above(wcard)  # same suit as the winning card, stronger
    if beat != ZERO:  # following (or over-trumping): cheapest sure winner, else try the top
        if last:
            best = np.int64(ctz(beat))
            if pts >= params[P_WIN_MIN] or STRENGTH[SLOT_CODE[best]] < 6:
                return best
        elif params[P_TO_PLAY] > 0.5:  # the cheapest card nobody still to play may beat
            opp = _seats(public, my_team, False, np.int64(ntr))
            void = shown_out(public)[0] if params[P_VOIDS] > 0.5 else np.int64(0)
            c = _sure_winner(beat, wcard, out, opp, void, eff_t, True, True)
            if c >= 0 and (pts >= params[P_WIN_MIN] or STRENGTH[SLOT_CODE[c]] < 6):
                return c
        else:
            sure = masters(out, beat, wsuit)
            if sure != ZERO and (pts >= params[P_WIN_MIN]
                                 or STRENGTH[SLOT_CODE[ctz(sure)]] < 6):
                return np.int64(ctz(sure))
    elif eff_t >= 0 and wsuit != eff_t and (lm & SUIT_MASK[eff_t]) != ZERO \
            and pts >= params[P_TRUMP_MIN]:  # void in the led suit: trump in, cheaply
        return cheapest(lm & SUIT_MASK[eff_t])
    return _discard(lm, side, led, out, params)


@njit(cache=True)
def _sure_winner(lm, wcard, out, opp, void, eff_t, check, to_play):
    """Cheapest card of lm that wins the trick over ``wcard`` whatever the seats of ``opp``
    still play, or -1. With ``to_play`` (``opp``: the opponents still to play in the trick):
    the cheapest card of wcard's suit above it, or when void in that suit (no trump) of
    trumps, that no seat of ``opp`` may beat (_beatable: a stronger unseen card from a seat
    not known void in the suit, a ruff from a seat known void in it), so a low trump ruffs
    when those seats are known void in trumps. Without (the old test): a master of wcard's
    suit against every unseen card that no seat known void in it may ruff (if ``check``), or
    a master trump when void in the led suit."""
    wsuit = np.int64(SUIT[wcard])
    if to_play:
        cand = lm & above(wcard)
        if cand == ZERO and eff_t >= 0 and wsuit != eff_t and (lm & SUIT_MASK[wsuit]) == ZERO:
            cand = lm & SUIT_MASK[eff_t]
        while cand != ZERO:  # one suit: lower slots are weaker cards
            c = np.int64(ctz(cand))
            if not _beatable(np.int64(SLOT_CODE[c]), out, opp, void, eff_t, False):
                return c
            cand &= ~(ONE << uint64(c))
        return np.int64(-1)
    sure = masters(out, lm & above(wcard), wsuit)
    if sure != ZERO:
        c = np.int64(ctz(sure))
        if not (check and _beatable(np.int64(SLOT_CODE[c]), out, opp, void, eff_t, False)):
            return c
    elif eff_t >= 0 and wsuit != eff_t and (lm & SUIT_MASK[wsuit]) == ZERO:  # void: ruff
        sure = masters(out, lm & SUIT_MASK[eff_t], eff_t)
        if sure != ZERO:
            return np.int64(ctz(sure))
    return np.int64(-1)


@njit(cache=True)
def _discard(lm, side, led, out, params):
    """Cheapest card of the side suits (else of all); void in the led suit with ``signals``,
    one as cheap in points from a weak suit (no jack, nine or master), telling partner not
    to lead it."""
    pool = side if side != ZERO else lm
    low = cheapest(pool)
    if params[P_SIGNALS] > 0.5 and (lm & SUIT_MASK[led]) == ZERO:
        weak = ZERO
        for s in range(4):
            m = pool & SUIT_MASK[s]
            if m != ZERO and (m & TOPS) == ZERO and masters(out, m, s) == ZERO:
                weak |= m
        if weak != ZERO:
            w = cheapest(weak)
            if POINTS[SLOT_CODE[w]] <= POINTS[SLOT_CODE[low]]:
                return w
    return low


@njit(cache=True)
def _lead(lm, side, public, priv, params, out, tmask, kt):
    my_team = priv[PV_TEAM]
    voids_on = params[P_VOIDS] > 0.5
    have_opp = False  # opp and the shown-out record read (the seat mask is a loop)
    void = np.int64(0)
    threw = np.int64(0)
    opp = np.int64(0)
    trumps_out = kt < 4 and (out & tmask) != ZERO
    if (tmask & lm) != ZERO and (out & tmask) != ZERO and params[P_DRAW_TRUMPS] > 0.5 \
            and public[PB_CONTRACT_TEAM] == my_team:
        top = masters(out, lm, kt)  # draw the opponents' trumps with sure winners
        if top != ZERO and params[P_COUNT_TRUMPS] > 0.5:
            void, threw = shown_out(public)
            have_opp = True
            opp = _seats(public, my_team, False, np.int64(0))
            if _all_void(opp, void, kt):  # the unseen trumps are partner's
                top = ZERO
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
                if voids_on and trumps_out:  # not into an opponent's known void
                    if not have_opp:
                        void, threw = shown_out(public)
                        have_opp = True
                        opp = _seats(public, my_team, False, np.int64(0))
                    if _any_ruffer(opp, void, s, kt):
                        continue
                best = top
                best_pts = p
    if best >= 0:
        return best
    pool = side if side != ZERO else lm  # else lead low from the longest side suit
    nsuits = 0
    for s in range(4):
        nsuits += (pool & SUIT_MASK[s]) != ZERO
    if nsuits < 2 or not (voids_on or params[P_SIGNALS] > 0.5):
        longest = ZERO
        for s in range(4):
            m = pool & SUIT_MASK[s]
            if pc(m) > pc(longest):
                longest = m
        return cheapest(longest)
    if not have_opp:
        void, threw = shown_out(public)
        opp = _seats(public, my_team, False, np.int64(0))
    partner = _seats(public, my_team, True, np.int64(0)) & ~(np.int64(1) << priv[PV_SEAT])
    longest = ZERO
    best_key = np.int64(-1000)
    for s in range(4):
        m = pool & SUIT_MASK[s]
        if m == ZERO:
            continue
        key = pc(m)
        if voids_on and trumps_out and s != kt and _any_ruffer(opp, void, s, kt):
            key -= 100  # an opponent ruffs it
        if params[P_SIGNALS] > 0.5 and s != kt:
            # each partner who threw from it (not wanted there) takes 20 off
            key -= 20 * pc(uint64(partner & in_suit(threw, s)))
        if key > best_key:
            best_key = key
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
def array_masks(hand, n, legal):
    """(hand, legal cards) as slot masks from the array interface's arguments (the second
    copy of an identical card takes the pair's upper bit)."""
    h = ZERO
    lm = ZERO
    for i in range(n):
        b = uint64(SLOT_OF[hand[i]])
        b += (h >> b) & ONE
        h |= ONE << b
        if legal[i]:
            lm |= ONE << b
    return h, lm


@njit(cache=True)
def index_of(hand, n, slot):
    """The position in ``hand`` of the card at ``slot`` (copies numbered as array_masks
    numbers them), or -1."""
    m = ZERO
    for i in range(n):
        b = uint64(SLOT_OF[hand[i]])
        b += (m >> b) & ONE
        m |= ONE << b
        if np.int64(b) == slot:
            return i
    return -1


@njit(cache=True, inline="always")
def deck_of(public):
    """The deal's cards as a slot mask (48 or 64 cards)."""
    return DECK_MASK_64 if public[PB_ACTIVE_N] * 8 == 64 else DECK_MASK_48


@njit(cache=True)
def heuristic_play(hand, n, public, private, legal, params, rng):
    """heuristic_play_mask behind the array interface (hand in any order)."""
    h, lm = array_masks(hand, n, legal)
    slot = heuristic_play_mask(h, lm, public, private, params, played_mask(public),
                               deck_of(public))
    return index_of(hand, n, slot)


@njit(cache=True)
def heuristic_reveal(hand, n, public, private, legal, params, rng):
    """Ask for the hidden trump when the trick holds enough points."""
    return 1 if public[PB_TRICK_PTS] >= params[P_REVEAL_MIN] else 0
