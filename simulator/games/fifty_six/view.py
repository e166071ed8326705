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
from cardsim.simulator.dispatchgen import DispatchSpec, Entry
from cardsim.simulator.rules import Slots

DECISION_SIG = types.int64(
    types.int8[::1], types.int64, types.int16[::1], types.int16[::1], types.int8[::1],
    types.float64[::1], types.uint64[::1],
)
DECISION_FN = types.FunctionType(DECISION_SIG)
_ARGS = ("hand", "n", "public", "private", "legal", "params", "rng")
# the kernel's dispatch (dispatch.py), written from strategies/fifty_six.py's BUILTINS by
# python -m cardsim.simulator.dispatchgen: the three decisions, and two fast paths on the
# kernel's hand masks (uint64, view.SLOT_OF) that answer -1 for plug-ins (ask them through the
# decision): a call from the hand mask ``hm``, and the slot of the card to play from the hand
# ``h`` and its legal cards ``lm`` (``played``: every card played so far; ``deck``: the
# deal's cards, DECK_MASK_48 or DECK_MASK_64)
DISPATCH = DispatchSpec("cardsim.strategies.fifty_six",
                        "cardsim.simulator.games.fifty_six.dispatch", (
    Entry("bid", _ARGS),
    Entry("play", _ARGS),
    Entry("reveal", _ARGS),
    Entry("bid_mask", ("sid", "hm", "public", "priv", "legal", "params", "rng"), hook=True,
          default="-1", inline=True),
    Entry("play_mask", ("h", "lm", "public", "priv", "params", "played", "deck", "rng"),
          hook=True, default="-1", inline=True),
))
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

# decision kinds (one decision function each): positions in DECISIONS and in the kernel's fns
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

# public[] layout: positions handed out in order (the record has no gaps; a strategy reads it
# by these names only)
_PB = Slots()
PB_SEATS = _PB.one("PB_SEATS")              # seats at the start of the game
PB_ACTIVE_N = _PB.one("PB_ACTIVE_N")        # players in this deal
PB_DEALER = _PB.one("PB_DEALER")
PB_FIRST = _PB.one("PB_FIRST")              # dealer's right: first to bid and to lead
# +1 or -1: turn order over seat numbers (skipping absent seats)
PB_STEP = _PB.one("PB_STEP")
PB_NTEAMS = _PB.one("PB_NTEAMS")
PB_PHASE = _PB.one("PB_PHASE")              # 0 auction, 1 play, 2 scored
PB_HIGH_VALUE = _PB.one("PB_HIGH_VALUE")    # highest bid so far (0: none)
# its trump as seen by all (TRUMP_HIDDEN when trumps are hidden)
PB_HIGH_TRUMP = _PB.one("PB_HIGH_TRUMP")
PB_HIGH_FORM = _PB.one("PB_HIGH_FORM")
PB_HIGH_BIDDER = _PB.one("PB_HIGH_BIDDER")  # -1: none
PB_LEVEL = _PB.one("PB_LEVEL")              # 1, 2 (doubled), 4 (redoubled)
PB_DOUBLER = _PB.one("PB_DOUBLER")
PB_PASSES = _PB.one("PB_PASSES")            # consecutive passes
PB_NCALLS = _PB.one("PB_NCALLS")
PB_BIDDER = _PB.one("PB_BIDDER")            # contract: bidder seat (-1 after all passed)
PB_CONTRACT_TEAM = _PB.one("PB_CONTRACT_TEAM")
PB_BID = _PB.one("PB_BID")
# contract trump as seen by all (TRUMP_HIDDEN until shown)
PB_TRUMP = _PB.one("PB_TRUMP")
PB_THANI = _PB.one("PB_THANI")
PB_TRICK = _PB.one("PB_TRICK")              # current trick number
PB_TRICK_N = _PB.one("PB_TRICK_N")          # cards in the current trick
PB_LEADER = _PB.one("PB_LEADER")
PB_LED_SUIT = _PB.one("PB_LED_SUIT")        # -1 before the lead
PB_TRUMP_BROKEN = _PB.one("PB_TRUMP_BROKEN")  # a card of the (known) trump suit was played
PB_REVEALED_BY = _PB.one("PB_REVEALED_BY")  # seat that asked for the hidden trump (-1)
PB_DEAL_INDEX = _PB.one("PB_DEAL_INDEX")
PB_MIN_BID = _PB.one("PB_MIN_BID")
PB_MAX_BID = _PB.one("PB_MAX_BID")
PB_RULE_THANI = _PB.one("PB_RULE_THANI")
PB_RULE_HIDDEN = _PB.one("PB_RULE_HIDDEN")
PB_RULE_NO_TRUMP_LEAD = _PB.one("PB_RULE_NO_TRUMP_LEAD")
PB_TEAM_OF = _PB.block("PB_TEAM_OF", MAX_SEATS)  # team of each seat
# 1 if the seat plays this deal (pairs: teams that are out leave)
PB_ACTIVE = _PB.block("PB_ACTIVE", MAX_SEATS)
PB_HAND_N = _PB.block("PB_HAND_N", MAX_SEATS)  # cards in each hand
PB_TEAM_POINTS = _PB.block("PB_TEAM_POINTS", MAX_TEAMS)  # card points taken so far
PB_TABLES = _PB.block("PB_TABLES", MAX_TEAMS)  # tables per team at the start of the deal
# seats that played to the current trick, in order, and their cards
PB_TRICK_SEATS = _PB.block("PB_TRICK_SEATS", MAX_SEATS)
PB_TRICK_CARDS = _PB.block("PB_TRICK_CARDS", MAX_SEATS)
PB_PLAYED = _PB.block("PB_PLAYED", 53)  # copies of each card code played so far
MAX_CALLS = 512
# (seat, call code as seen by all) per call
PB_CALLS = _PB.block("PB_CALLS", 2 * MAX_CALLS)
PB_PLAYS = _PB.block("PB_PLAYS", 2 * 64)  # (seat, card) per card played
PB_TRICK_WINNERS = _PB.block("PB_TRICK_WINNERS", 16)  # seat that won each trick
# index in the current trick of the card winning so far
PB_TRICK_BEST = _PB.one("PB_TRICK_BEST")
PB_TRICK_PTS = _PB.one("PB_TRICK_PTS")  # card points in the current trick so far
# tables won by a made contract of each value, lost by a failed one (payout rule)
PB_PAY_WIN = _PB.block("PB_PAY_WIN", 57)
PB_PAY_LOSE = _PB.block("PB_PAY_LOSE", 57)
# per suit, bit per seat: did not follow a lead of it; played it not following
PB_SHOWN_OUT = _PB.block("PB_SHOWN_OUT", 4)
PB_THREW = _PB.block("PB_THREW", 4)
PB_LEN = _PB.size

# private[] layout (one row per seat)
_PV = Slots()
PV_SEAT = _PV.one("PV_SEAT")
PV_TEAM = _PV.one("PV_TEAM")
# contract trump as this player knows it (TRUMP_HIDDEN if unknown)
PV_TRUMP = _PV.one("PV_TRUMP")
PV_MY_BID_TRUMP = _PV.one("PV_MY_BID_TRUMP")  # trump of this player's latest bid (-1 none)
PV_SITS_OUT = _PV.one("PV_SITS_OUT")  # 1 while sitting out a partner's thani
PV_LEN = _PV.size

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
