"""56 `expert`: a player that searches its card play (perfect-information Monte Carlo).

At each card with a choice it deals the cards it cannot see ``samples`` ways consistent with
what it has seen (the cards played, the suits each player has shown out of:
simulator/determinize.py), plays every candidate card on every one of those deals and the
rest of the deal out with the card-play heuristic (simulator/games/fifty_six/rollout.py), and
plays the card whose play-outs pay its side best: the contract's stake from the payout table
(made or beaten, at its level), then ``point_weight`` per card point. The same deals serve
every candidate, so the candidates are compared on common cards. It reads nothing hidden:
the deals are drawn from its own hand and the public record only.

Its bidding and the moments it does not search (a hidden trump not yet shown, one candidate)
are `tuned`'s: its parameter vector is tuned's, its own parameters after it (``base``: where
they start; strategies/fifty_six.py, which holds tuned's, binds it).
"""
import numpy as np
from numba import njit, uint64

from cardsim.simulator.bits import ctz
from cardsim.simulator.determinize import deal_unseen
from cardsim.simulator.games.fifty_six.rollout import (
    play_card, play_out, players, start_play, views,
)
from cardsim.simulator.games.fifty_six.view import (
    L_DOUBLE, L_MAX, L_MIN, L_REDOUBLE, PB_HIGH_BIDDER,
    PB_TEAM_OF, PB_ACTIVE, PB_BID, PB_CONTRACT_TEAM, PB_HAND_N,
    PB_LEVEL, PB_PAY_LOSE, PB_PAY_WIN, PB_SEATS, PB_SHOWN_OUT, PB_TEAM_POINTS, PB_THANI,
    PB_TRICK_CARDS, PB_TRICK_N, PB_TRUMP, POINTS, PV_LEN, PV_SEAT, PV_TEAM, SLOT_CODE,
    SLOT_OF, TRUMP_HIDDEN,
)
from cardsim.simulator.strategy import Param
from cardsim.strategies.fifty_six_play import deck_of, heuristic_play_mask, unseen

ZERO = uint64(0)
ONE = uint64(1)
SUIT_OF_SLOT = np.array([s // 16 for s in range(64)], np.int64)

EXPERT_PARAMS = (
    Param("samples", 24.0, "deals of the unseen cards searched per card decision (0: play "
          "as tuned)", 0, 1000),
    Param("point_weight", 0.02, "worth of one card point for the side, in tables (the "
          "contract's stake decides first)", 0, 10),
    Param("bid_samples", 0.0, "deals of the unseen cards per trump when choosing a bid by "
          "simulation (0: bid as tuned; 16 lost 0.34 of games to 0 over 150 boards)", 0,
          1000),
    Param("bid_edge", 0.0, "bid only a contract whose expected stake (tables) is above this",
          -5, 5),
)
P_SAMPLES, P_POINT_WEIGHT, P_BID_SAMPLES, P_BID_EDGE = range(4)  # after tuned's parameters


def params_of(tuned):
    """expert's parameter tuple: tuned's, then its own."""
    return tuple(tuned) + EXPERT_PARAMS


@njit(cache=True)
def outcome(public, lost, my_team, w_points):
    """What a finished deal pays ``my_team`` (tables, from the contract's stake and level),
    plus ``w_points`` per card point it took."""
    cteam = public[PB_CONTRACT_TEAM]
    bid = public[PB_BID]
    if public[PB_THANI] == 1:
        made = not lost
        v = 56
        extra = 1
    else:
        made = public[PB_TEAM_POINTS + cteam] >= bid
        v = min(bid, 56)
        extra = 0
    stake = ((public[PB_PAY_WIN + v] if made else public[PB_PAY_LOSE + v]) + extra) \
        * public[PB_LEVEL]
    u = np.float64(stake if made else -stake)
    if my_team != cteam:
        u = -u
    return u + w_points * public[PB_TEAM_POINTS + my_team]


@njit(cache=True)
def candidates(lm, out, public):
    """The legal cards worth trying: of two cards of one suit with the same points and no
    card between them still to come or in the trick (identical copies, or K and Q with
    nothing between), only the lower."""
    live = out
    for j in range(public[PB_TRICK_N]):
        b = uint64(SLOT_OF[public[PB_TRICK_CARDS + j]])
        live |= (ONE << b) | (ONE << (b + ONE))
    keep = ZERO
    prev = -1
    x = lm
    while x != ZERO:
        c = np.int64(ctz(x))
        x &= x - ONE
        if prev >= 0 and SUIT_OF_SLOT[prev] == SUIT_OF_SLOT[c] \
                and POINTS[SLOT_CODE[prev]] == POINTS[SLOT_CODE[c]]:
            between = ((ONE << uint64(c)) - ONE) & ~((ONE << uint64(prev + 1)) - ONE)
            if (between & live) == ZERO:
                prev = c
                continue
        keep |= ONE << uint64(c)
        prev = c
    return keep


@njit(cache=True)
def deal_samples(h, public, me, out, k, rng):
    """``k`` deals of the cards ``out`` to the other seats (their hand sizes, no card of a
    suit a seat has shown out of), my hand ``h`` at ``me``; (samples, all consistent)."""
    seats = public[PB_SEATS]
    caps = np.zeros(seats, np.int64)
    barred = np.zeros(seats, np.int64)
    for s in range(seats):
        if s != me and public[PB_ACTIVE + s] == 1:
            caps[s] = public[PB_HAND_N + s]
            for su in range(4):
                barred[s] |= ((public[PB_SHOWN_OUT + su] >> s) & 1) << su
    free = np.zeros(seats, np.int64)
    samples = np.zeros((k, seats), np.uint64)
    consistent = True
    for i in range(k):
        if not deal_unseen(out, SUIT_OF_SLOT, caps, barred, rng, samples[i]):
            consistent = False  # voids that contradict: deal without them
            deal_unseen(out, SUIT_OF_SLOT, caps, free, rng, samples[i])
        samples[i, me] = h
    return samples, consistent


@njit(cache=True)
def search_play(h, lm, public, priv, params, played, deck, rng, base):
    """The slot expert plays (``base``: where its own parameters start in ``params``)."""
    if (lm & (lm - ONE)) == ZERO:
        return np.int64(ctz(lm))
    k = np.int64(params[base + P_SAMPLES])
    if k <= 0 or public[PB_TRUMP] == TRUMP_HIDDEN:
        return heuristic_play_mask(h, lm, public, priv, params, played, deck)
    out = unseen(deck, played, h)
    cands = candidates(lm, out, public)
    if (cands & (cands - ONE)) == ZERO:
        return np.int64(ctz(cands))
    me = np.int64(priv[PV_SEAT])
    my_team = priv[PV_TEAM]
    w_points = params[base + P_POINT_WEIGHT]
    samples, _ = deal_samples(h, public, me, out, k, rng)
    seats = public[PB_SEATS]
    pub = public.copy()
    hands = np.empty(seats, np.uint64)
    privs = np.zeros((seats, PV_LEN), np.int16)
    views(public, privs)
    n_play = players(public)
    best = np.int64(-1)
    best_u = -1e300
    x = cands
    while x != ZERO:
        c = np.int64(ctz(x))
        x &= x - ONE
        total = 0.0
        for i in range(k):
            pub[:] = public
            hands[:] = samples[i]
            pl = play_card(pub, hands, played, me, c, n_play)
            lost = play_out(pub, hands, pl, privs, params, deck)
            total += outcome(pub, lost, my_team, w_points)
        if total > best_u:
            best_u = total
            best = c
    return best


# ---------------------------------------------------------------- bidding

@njit(cache=True)
def search_bid(hm, public, priv, legal, params, rng, base):
    """A bid by simulation as (value, trump): value 0 to pass, -1 to leave the call to tuned
    (partner holds the bid, a redouble, no bid legal, or nothing worth bidding while a
    double is open). Each trump is
    played out from the first lead on ``bid_samples`` deals of the unseen cards (the same
    deals for every trump) by the card-play heuristic; each value's chance of making is the
    share of deals the team takes that many points, and the contract bid is the value and
    trump with the best expected stake (payout table), if it beats ``bid_edge``."""
    k = np.int64(params[base + P_BID_SAMPLES])
    lo = np.int64(legal[L_MIN])
    me = np.int64(priv[PV_SEAT])
    my_team = priv[PV_TEAM]
    high_b = public[PB_HIGH_BIDDER]
    if k <= 0 or lo <= 0 or legal[L_REDOUBLE] == 1 or (
            high_b >= 0 and public[PB_TEAM_OF + high_b] == my_team):
        return np.int64(-1), np.int64(-1)
    top = np.int64(legal[L_MAX])
    deck = deck_of(public)
    out = deck & ~hm
    samples, _ = deal_samples(hm, public, me, out, k, rng)
    seats = public[PB_SEATS]
    pub = public.copy()
    hands = np.empty(seats, np.uint64)
    privs = np.zeros((seats, PV_LEN), np.int16)
    takes = np.zeros(k, np.int64)
    best_ev = params[base + P_BID_EDGE]
    best_v = np.int64(0)
    best_t = np.int64(-1)
    for t in range(5):
        for i in range(k):
            pub[:] = public
            start_play(pub, me, t, lo)
            if i == 0:
                views(pub, privs)
            hands[:] = samples[i]
            play_out(pub, hands, ZERO, privs, params, deck)
            takes[i] = pub[PB_TEAM_POINTS + my_team]
        for v in range(lo, top + 1):
            if v > lo and public[PB_PAY_WIN + v] == public[PB_PAY_WIN + v - 1] \
                    and public[PB_PAY_LOSE + v] == public[PB_PAY_LOSE + v - 1]:
                continue  # within a band the lowest value pays the same and makes more
            made = 0
            for i in range(k):
                made += takes[i] >= v
            p = made / k
            ev = p * public[PB_PAY_WIN + v] - (1.0 - p) * public[PB_PAY_LOSE + v]
            if ev > best_ev:
                best_ev = ev
                best_v = v
                best_t = t
    if best_v == 0 and legal[L_DOUBLE] == 1:
        return np.int64(-1), np.int64(-1)
    return best_v, best_t
