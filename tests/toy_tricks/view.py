"""What a toy-tricks player sees. One decision, ``play``, of the signature

    fn(hand, n, public, private, legal, params, rng) -> int64

returning the position (0..n-1) in ``hand[:n]`` of the card to play; ``legal[k]`` is 1 where
hand[k] may be played. ``public`` (int16, indices P_*) is the table: whose turn, the trick so
far, tricks and totals; ``private`` holds the player's seat and team."""
from numba import types

from cardsim.simulator.dispatchgen import DispatchSpec, Entry
from cardsim.simulator.rules import Slots

DECISION_SIG = types.int64(
    types.int8[::1], types.int64, types.int16[::1], types.int16[::1], types.int8[::1],
    types.float64[::1], types.uint64[::1],
)
DECISION_FN = types.FunctionType(DECISION_SIG)
DECISIONS = ("play",)
# the kernel's dispatch (dispatch.py), written from strategies.BUILTINS by
# python -m cardsim.simulator.dispatchgen
DISPATCH = DispatchSpec("tests.toy_tricks.strategies", "tests.toy_tricks.dispatch", (
    Entry("play", ("hand", "n", "public", "private", "legal", "params", "rng")),
))
SEATS = 4
TEAMS = 2
MAX_HAND = 6

_P = Slots()
P_SEAT = _P.one("seat to play")
P_LEADER = _P.one("seat that led the trick")
P_TRICK = _P.one("trick number, from 0")
P_NPLAYED = _P.one("cards already in the trick")
P_LED_SUIT = _P.one("suit led (-1: none yet)")
P_BEST_RANK = _P.one("rank of the card winning the trick so far (-1: none)")
P_BEST_SEAT = _P.one("seat of that card (-1: none)")
P_PLAYED = _P.block("card each seat put in this trick (-1: none)", SEATS)
P_TRICKS = _P.block("tricks each team took this deal", TEAMS)
P_TOTALS = _P.block("each team's game total before this deal", TEAMS)
P_HAND_SIZE = _P.one("hand size of the deal")
P_LEN = _P.size

_V = Slots()
V_SEAT = _V.one("own seat")
V_TEAM = _V.one("own team")
V_LEN = _V.size
