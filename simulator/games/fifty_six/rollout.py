"""56 play-outs from any moment of the card play: the rest of a deal played by the card-play
heuristic on given hands, in Numba, for players that search (strategies/fifty_six_expert.py).

A play-out works on a copy of the public record (view.PB_*) as the kernel keeps it, so the
heuristic reads the same table it reads in a real deal; the hands are slot masks
(view.SLOT_OF) per seat. Every step follows the kernel's trick play (simulator/games/fifty_six/
kernel.py ``tricks``) with the trump public: a play-out of a hidden trump is not defined (the
searching player does not search until the trump is shown). tests/test_fifty_six_rollout.py
checks that a play-out from a deal's first lead, on the true hands, gives the kernel's deal
card for card.
"""
import numpy as np
from numba import njit, uint64

from cardsim.simulator.bits import ctz
from cardsim.simulator.games.fifty_six.view import (
    MAX_TEAMS, PB_ACTIVE, PB_BID, PB_BIDDER, PB_FIRST, PB_PHASE, PB_CONTRACT_TEAM, PB_HAND_N,
    PB_LEADER, PB_LED_SUIT, PB_PLAYED, PB_PLAYS,
    PB_RULE_NO_TRUMP_LEAD, PB_SEATS, PB_SHOWN_OUT, PB_STEP, PB_TEAM_OF, PB_TEAM_POINTS,
    PB_THANI, PB_THREW, PB_TRICK, PB_TRICK_BEST, PB_TRICK_CARDS, PB_TRICK_N, PB_TRICK_PTS,
    PB_TRICK_SEATS, PB_TRICK_WINNERS, PB_TRUMP, PB_TRUMP_BROKEN, POINTS, PV_SEAT, PV_SITS_OUT,
    PV_TEAM, PV_TRUMP, SLOT_CODE, SLOT_OF, SUIT, SUIT_MASK, trick_key,
)
from cardsim.strategies.fifty_six_play import heuristic_play_mask

ZERO = uint64(0)
ONE = uint64(1)


@njit(cache=True, inline="always")
def sits_out(public, s):
    """Whether seat s sits out this deal's tricks (a partner of a thani bidder)."""
    return public[PB_THANI] == 1 and public[PB_TEAM_OF + s] == public[PB_CONTRACT_TEAM] \
        and s != public[PB_BIDDER]


@njit(cache=True)
def next_player(public, s):
    """The seat after s in the play's direction that plays to tricks."""
    step = public[PB_STEP]
    seats = public[PB_SEATS]
    while True:
        s += step
        s = s - seats if s >= seats else (s + seats if s < 0 else s)
        if public[PB_ACTIVE + s] == 1 and not sits_out(public, s):
            return s


@njit(cache=True)
def to_move(public):
    """The seat to play next."""
    n = public[PB_TRICK_N]
    if n == 0:
        return np.int64(public[PB_LEADER])
    return next_player(public, np.int64(public[PB_TRICK_SEATS + n - 1]))


@njit(cache=True)
def players(public):
    """How many seats play to each trick."""
    n = 0
    for s in range(public[PB_SEATS]):
        n += public[PB_ACTIVE + s] == 1 and not sits_out(public, s)
    return n


@njit(cache=True)
def legal_cards(public, h):
    """The cards of hand h that may be played now (the trump public)."""
    t = public[PB_TRUMP]
    if public[PB_TRICK_N] == 0:
        if public[PB_RULE_NO_TRUMP_LEAD] == 1 and t < 4 and public[PB_TRUMP_BROKEN] == 0:
            m = h & ~SUIT_MASK[t]
            if m != ZERO:
                return m
        return h
    m = h & SUIT_MASK[public[PB_LED_SUIT]]
    return m if m != ZERO else h


@njit(cache=True)
def play_card(public, hands, played, seat, slot, n_play):
    """Seat plays the card of ``slot``: the public record, the hand and ``played`` (returned)
    as the kernel keeps them; a full trick goes to its winner, who leads next."""
    hands[seat] &= ~(ONE << uint64(slot))
    card = SLOT_CODE[slot]
    ntr = public[PB_TRICK_N]
    t = public[PB_TRUMP]
    public[PB_HAND_N + seat] -= 1
    public[PB_TRICK_SEATS + ntr] = seat
    public[PB_TRICK_CARDS + ntr] = card
    k = public[PB_TRICK] * n_play + ntr  # cards played so far (the kernel keeps 64)
    if k < 64:
        public[PB_PLAYS + 2 * k] = seat
        public[PB_PLAYS + 2 * k + 1] = card
    public[PB_PLAYED + card] += 1
    pb = uint64(SLOT_OF[card])
    played |= ONE << (pb + ((played >> pb) & ONE))
    if t < 4 and SUIT[card] == t:
        public[PB_TRUMP_BROKEN] = 1
    if ntr == 0:
        public[PB_LED_SUIT] = SUIT[card]
        public[PB_TRICK_BEST] = 0
        public[PB_TRICK_PTS] = 0
    elif SUIT[card] != public[PB_LED_SUIT]:
        public[PB_SHOWN_OUT + public[PB_LED_SUIT]] |= 1 << seat
        public[PB_THREW + SUIT[card]] |= 1 << seat
    tr = t if t < 4 else -1
    led = public[PB_LED_SUIT]
    if ntr > 0 and trick_key(card, tr, led) > trick_key(
            public[PB_TRICK_CARDS + public[PB_TRICK_BEST]], tr, led):
        public[PB_TRICK_BEST] = ntr
    public[PB_TRICK_PTS] += POINTS[card]
    ntr += 1
    public[PB_TRICK_N] = ntr
    if ntr == n_play:
        wseat = public[PB_TRICK_SEATS + public[PB_TRICK_BEST]]
        public[PB_TEAM_POINTS + public[PB_TEAM_OF + wseat]] += public[PB_TRICK_PTS]
        public[PB_TRICK_WINNERS + public[PB_TRICK]] = wseat
        public[PB_TRICK] += 1
        public[PB_TRICK_N] = 0
        public[PB_LEADER] = wseat
        public[PB_LED_SUIT] = -1
        public[PB_TRICK_BEST] = -1
        public[PB_TRICK_PTS] = 0
    return played


@njit(cache=True)
def start_play(public, bidder, trump, value):
    """``public`` (a copy of the auction's record) as at the first lead of a contract of
    ``value`` in ``trump`` (4: no-trumps) bid by ``bidder``, shown; the first seat leads."""
    public[PB_PHASE] = 1
    public[PB_BIDDER] = bidder
    public[PB_CONTRACT_TEAM] = public[PB_TEAM_OF + bidder]
    public[PB_BID] = value
    public[PB_TRUMP] = trump
    public[PB_THANI] = 0
    public[PB_TRICK] = 0
    public[PB_TRICK_N] = 0
    public[PB_LEADER] = public[PB_FIRST]
    public[PB_LED_SUIT] = -1
    public[PB_TRICK_BEST] = -1
    public[PB_TRICK_PTS] = 0
    public[PB_TRUMP_BROKEN] = 0
    for t in range(MAX_TEAMS):
        public[PB_TEAM_POINTS + t] = 0


@njit(cache=True)
def views(public, privs):
    """Every seat's private row as the play-out's players see it: seat, team, the (public)
    trump, sitting out."""
    for s in range(public[PB_SEATS]):
        privs[s, PV_SEAT] = s
        privs[s, PV_TEAM] = public[PB_TEAM_OF + s]
        privs[s, PV_TRUMP] = public[PB_TRUMP]
        privs[s, PV_SITS_OUT] = 1 if sits_out(public, s) else 0


@njit(cache=True)
def play_out(public, hands, played, privs, params, deck):
    """Plays the deal to its end from ``public`` (changed in place) with every seat's card
    chosen by the heuristic with ``params``; returns whether the contract team lost a trick
    in the play-out or before it (thani's test). Points end in PB_TEAM_POINTS."""
    n_play = players(public)
    cteam = public[PB_CONTRACT_TEAM]
    lost = False
    for t in range(public[PB_TRICK]):
        lost |= public[PB_TEAM_OF + public[PB_TRICK_WINNERS + t]] != cteam
    seat = to_move(public)
    while hands[seat] != ZERO:
        h = hands[seat]
        lm = legal_cards(public, h)
        if (lm & (lm - ONE)) == ZERO:
            slot = np.int64(ctz(lm))
        else:
            slot = heuristic_play_mask(h, lm, public, privs[seat], params, played, deck)
        t = public[PB_TRICK]
        played = play_card(public, hands, played, seat, slot, n_play)
        if public[PB_TRICK] != t:
            lost |= public[PB_TEAM_OF + public[PB_TRICK_WINNERS + t]] != cteam
        seat = to_move(public)
    return lost
