"""What a 56 player sees: the layout of the arrays a strategy receives, and helpers to read them.

Every decision function of a 56 strategy has one signature (``DECISION_SIG``)::

    fn(hand, n, public, private, legal, params, rng) -> int64

- ``hand[:n]``: the player's own cards (card codes, see simulator.cards);
- ``public``: the table as everyone sees it (int16, indices ``PB_*``): seats, dealer, the
  auction so far, the contract, every card played, who has shown out of which suit, points
  taken per team, the stake table;
- ``private``: what only this player knows (int16, indices ``PV_*``), e.g. the trump of their
  own bid when trumps are hidden;
- ``legal``: decision-specific (see ``L_*`` for bids; for a card play ``legal[i] == 1`` when
  ``hand[i]`` may be played);
- ``params``: the strategy's float64 parameter vector; ``rng``: the player's random stream
  (draw with ``simulator.rng.below``).

Returns: for a bid, a call code (``PASS``, ``DOUBLE``, ``REDOUBLE`` or ``bid_code(...)``); for a
card play, the index in ``hand`` of the card; for the hidden-trump question, 1 to ask for the
trump to be shown, 0 not to. Other players' hands and the deck never reach a strategy.
"""
import numpy as np
from numba import njit, types

from cardsim.simulator.cards import RA, R10, RJ, R9, RK, RQ, R8, R7

DECISION_SIG = types.int64(
    types.int8[::1], types.int64, types.int16[::1], types.int16[::1], types.int8[::1],
    types.float64[::1], types.uint64[::1],
)
DECISION_FN = types.FunctionType(DECISION_SIG)
MAX_TEAMS = 4
MAX_SEATS = 8
MAX_HAND = 12

# trumps (contract and bid) and suits
SPADES, HEARTS, DIAMONDS, CLUBS, NO_TRUMPS = 0, 1, 2, 3, 4
TRUMP_HIDDEN = 7  # public view of a trump that is face down
TRUMP_NAMES = ("S", "H", "D", "C", "NT")

# bid forms (the sheet's signalling forms; they never change the rules, except noes' trump)
(F_NUMBER_SUIT, F_SUIT_NUMBER, F_NUMBER_NT, F_NOES, F_PLUS_SUIT, F_PLUS_TWO_NOES, F_THANI,
 F_ALL_PASS) = range(8)
FORM_NAMES = ("number_suit", "suit_number", "number_nt", "noes", "plus_suit", "plus_two_noes",
              "thani", "all_pass")

# calls
PASS, DOUBLE, REDOUBLE = 0, 1, 2

# decision kinds (one decision function each)
BID, PLAY, REVEAL = 0, 1, 2
DECISIONS = ("bid", "play", "reveal")


@njit(cache=True, inline="always")
def bid_code(value, trump, form):
    return value * 64 + trump * 8 + form


@njit(cache=True, inline="always")
def call_value(code):
    return code // 64


@njit(cache=True, inline="always")
def call_trump(code):
    return (code // 8) % 8


@njit(cache=True, inline="always")
def call_form(code):
    return code % 8


# legal[] for a bid decision
L_PASS, L_DOUBLE, L_REDOUBLE, L_MIN, L_MAX, L_THANI, L_OPENING, L_LAST_TRUMP, L_LAST_VALUE = range(9)

# public[] layout
PB_SEATS = 0          # seats at the start of the game
PB_ACTIVE_N = 1       # players in this deal
PB_DEALER = 2
PB_FIRST = 3          # dealer's right: first to bid and to lead
PB_STEP = 4           # +1 or -1: turn order over seat numbers (skipping absent seats)
PB_NTEAMS = 5
PB_PHASE = 6          # 0 auction, 1 play, 2 scored
PB_HIGH_VALUE = 7     # highest bid so far (0: none)
PB_HIGH_TRUMP = 8     # its trump as seen by all (TRUMP_HIDDEN when trumps are hidden)
PB_HIGH_FORM = 9
PB_HIGH_BIDDER = 10   # -1: none
PB_LEVEL = 11         # 1, 2 (doubled), 4 (redoubled)
PB_DOUBLER = 12
PB_PASSES = 13        # consecutive passes
PB_NCALLS = 14
PB_BIDDER = 15        # contract: bidder seat (-1 after all passed)
PB_CONTRACT_TEAM = 16
PB_BID = 17
PB_TRUMP = 18         # contract trump as seen by all (TRUMP_HIDDEN until shown)
PB_THANI = 19
PB_TRICK = 20         # current trick number
PB_TRICK_N = 21       # cards in the current trick
PB_LEADER = 22
PB_LED_SUIT = 23      # -1 before the lead
PB_TRUMP_BROKEN = 24  # a card of the (known) trump suit has been played
PB_REVEALED_BY = 25   # seat that asked for the hidden trump (-1)
PB_DEAL_INDEX = 26
PB_MIN_BID = 27
PB_MAX_BID = 28
PB_RULE_THANI = 29
PB_RULE_HIDDEN = 30
PB_RULE_NO_TRUMP_LEAD = 31
PB_TEAM_OF = 32       # [8] team of each seat
PB_ACTIVE = 40        # [8] 1 if the seat plays this deal (pairs: teams that are out leave)
PB_HAND_N = 48        # [8] cards in each hand
PB_TEAM_POINTS = 56   # [4] card points taken so far
PB_TABLES = 60        # [4] tables per team at the start of the deal
PB_TRICK_SEATS = 64   # [8] seats that played to the current trick, in order
PB_TRICK_CARDS = 72   # [8] their cards
PB_PLAYED = 80        # [53] copies of each card code played so far
PB_CALLS = 136        # [2 * MAX_CALLS] (seat, call code as seen by all) per call
MAX_CALLS = 512
PB_PLAYS = PB_CALLS + 2 * MAX_CALLS  # [2 * 64] (seat, card) per card played
PB_TRICK_WINNERS = PB_PLAYS + 128    # [16]
PB_TRICK_BEST = PB_TRICK_WINNERS + 16  # index in the current trick of the card winning so far
PB_TRICK_PTS = PB_TRICK_BEST + 1       # card points in the current trick so far
PB_PAY_WIN = PB_TRICK_PTS + 1          # [57] tables won by a made contract of each value
PB_PAY_LOSE = PB_PAY_WIN + 57          # [57] tables lost by a failed one (payout rule)
PB_SHOWN_OUT = PB_PAY_LOSE + 57       # [4] per suit, bit per seat: did not follow a lead of it
PB_THREW = PB_SHOWN_OUT + 4            # [4] per suit, bit per seat: played it not following
PB_LEN = PB_THREW + 4

# private[] layout (one row per seat)
PV_SEAT = 0
PV_TEAM = 1
PV_TRUMP = 2          # contract trump as this player knows it (TRUMP_HIDDEN if unknown)
PV_MY_BID_TRUMP = 3   # trump of this player's latest bid (-1 none)
PV_SITS_OUT = 4       # 1 while sitting out a partner's thani
PV_LEN = 8

# 56 card values, by card code (simulator.cards): rank strength (higher wins) and points
STRENGTH = np.zeros(53, np.int8)
POINTS = np.zeros(53, np.int8)
for _s in range(4):
    for _r, _st, _pt in ((RJ, 7, 3), (R9, 6, 2), (RA, 5, 1), (R10, 4, 1), (RK, 3, 0),
                         (RQ, 2, 0), (R8, 1, 0), (R7, 0, 0)):
        STRENGTH[_s * 13 + _r] = _st
        POINTS[_s * 13 + _r] = _pt
RANKS_4_6 = (RJ, R9, RA, R10, RK, RQ)
RANKS_8 = RANKS_4_6 + (R8, R7)


SUIT = np.array([c // 13 for c in range(53)], np.int8)

# Hands as uint64 masks of card slots (the kernel plays with these; mask-aware strategies read
# them): slot = suit*16 + strength*2 + copy, so a suit is 16 consecutive bits, ranks ascend
# within it, and the two copies of a card are neighbours.
SLOT_OF = np.zeros(53, np.int64)
SLOT_CODE = np.zeros(64, np.int8)
for _c in range(52):
    SLOT_OF[_c] = (_c // 13) * 16 + STRENGTH[_c] * 2
for _slot in range(64):
    _s, _st = _slot // 16, (_slot % 16) // 2
    SLOT_CODE[_slot] = next(c for c in range(_s * 13, _s * 13 + 13)
                            if STRENGTH[c] == _st and (POINTS[c] > 0 or c % 13 in RANKS_8))
SUIT_MASK = np.array([0xFFFF << (16 * _s) for _s in range(4)], np.uint64)
RANK_MASK = np.array([sum(3 << (16 * _s + 2 * _st) for _s in range(4)) for _st in range(8)],
                     np.uint64)  # both copies of one rank (by strength) in every suit
DECK_MASK_48 = np.uint64(sum(0xFFF0 << (16 * _s) for _s in range(4)))  # J 9 A 10 K Q
DECK_MASK_64 = np.uint64(0xFFFFFFFFFFFFFFFF)  # ... 8 7 too


@njit(cache=True, inline="always")
def suit(card):
    return card // 13


@njit(cache=True, inline="always")
def trick_key(card, trump, led):
    """Rank of a card in a trick: trumps over the led suit over the rest, then strength."""
    cs = SUIT[card]
    return (cs == trump) * 32 + (cs == led) * 16 + STRENGTH[card]


@njit("int64(int16[::1], int64, int64, int64)", cache=True)
def trick_winner(cards, at, n, trump):
    """Index of the winning card among cards[at:at+n] (in play order); ``trump`` is the suit
    that counts as trumps, or -1. The highest trump wins, else the highest card of the led
    suit; of identical cards the one played first wins (only a strictly stronger card takes
    over)."""
    led = SUIT[cards[at]]
    best = 0
    best_key = -1
    for j in range(n):  # branch-free: rank by (trump, led suit, strength); ties keep the first
        key = trick_key(cards[at + j], trump, led)
        better = key > best_key
        best = j if better else best
        best_key = key if better else best_key
    return best


@njit("int64(int64, int8[::1], int64)", cache=True)
def bid_is_valid(code, legal, last_trump_true):
    """Canonical call code for ``code`` given the bid ``legal`` array, or -1 if not allowed.

    ``last_trump_true`` is the real trump of the current highest bid (-1 if none): noes forms
    take it over, whatever trump the code names.
    """
    if code == PASS:
        return PASS if legal[L_PASS] else -1
    if code == DOUBLE:
        return DOUBLE if legal[L_DOUBLE] else -1
    if code == REDOUBLE:
        return REDOUBLE if legal[L_REDOUBLE] else -1
    if code < 64:
        return -1
    value = call_value(code)
    trump = call_trump(code)
    form = call_form(code)
    opening = legal[L_OPENING] == 1
    if form == F_THANI:
        if legal[L_THANI] == 1 and value == legal[L_MAX] + 1:
            return bid_code(value, NO_TRUMPS, F_THANI)
        return -1
    if legal[L_MIN] == 0 or value < legal[L_MIN] or value > legal[L_MAX]:
        return -1
    if form == F_NUMBER_SUIT or form == F_SUIT_NUMBER:
        return code if trump < 4 else -1
    if form == F_NUMBER_NT:
        return code if trump == NO_TRUMPS else -1
    if form == F_NOES:
        return bid_code(value, NO_TRUMPS if opening else last_trump_true, F_NOES)
    if form == F_PLUS_SUIT:
        return code if (not opening and trump < 4) else -1
    if form == F_PLUS_TWO_NOES:
        if opening or value != legal[L_LAST_VALUE] + 2:
            return -1
        return bid_code(value, last_trump_true, F_PLUS_TWO_NOES)
    return -1


@njit("int64(int64, int64, int8[::1], int64)", cache=True)
def nth_form(value, trump, legal, i):
    """The i-th form a bid (value, trump) may take, as the bidder sees the auction; with i < 0,
    how many there are. Order: number_suit, suit_number | number_nt, plus_suit, noes,
    plus_two_noes. Noes forms need the last bid's trump visible and equal (or, for noes, an
    opening no-trumps bid)."""
    opening = legal[L_OPENING] == 1
    last_t = legal[L_LAST_TRUMP]
    k = 0
    if trump < 4:
        if i == k:
            return F_NUMBER_SUIT
        k += 1
        if i == k:
            return F_SUIT_NUMBER
        k += 1
        if not opening:
            if i == k:
                return F_PLUS_SUIT
            k += 1
    else:
        if i == k:
            return F_NUMBER_NT
        k += 1
    if (opening and trump == NO_TRUMPS) or (not opening and last_t == trump):
        if i == k:
            return F_NOES
        k += 1
    if not opening and last_t == trump and value == legal[L_LAST_VALUE] + 2:
        if i == k:
            return F_PLUS_TWO_NOES
        k += 1
    return k
