"""Tracking a game's decisions, so that a game can stop at any decision and resume from that
position with any strategies (docs/design.md, "Positions").

A position is the state of a deal at a decision: what the game was before the deal (the deal
index, its dealer, the totals, whatever a game carries from deal to deal: the game's *deal
header*), the deal's cards in dealing order, the decisions taken so far (the *tape*, each in
the game's own canonical terms: a card code, a call, a draw source ...) and the strategies'
random streams at that moment. Playing the deal again from its cards with the tape's answers
forced reaches the same state, because everything else a kernel does is determined by the
rules and the cards; so a kernel needs no way to load its mid-deal locals, only these
calls at every decision site and a deal header it writes and reads.

``trk`` (int64, a State field of every resumable game) holds the flags and counters below,
then the game's deal header from ``T_HEAD``, then the *stash* from ``trk[T_STASH]``: the
strategies' stream states at a stop (the kernel's ``rngs`` rows, two uint64 each, kept as
int64 bit patterns); ``tape`` (int32) holds the answers. Two State fields, not three: a third
array in 56's State cost 10% of its speed (measured; two cost nothing), most likely in
passing the State to the deal's function pointer.
"""
from __future__ import annotations

import numpy as np
from numba import njit

from cardsim.simulator.rules import Slots

_T = Slots()
T_WANT = _T.one("T_WANT")  # 1: track deal T_DEAL of this game (a plain run leaves it 0)
T_ON = _T.one("T_ON")  # 1 while the tracked deal is played: one branch a decision otherwise
T_N = _T.one("T_N")  # decisions taken so far in the tracked deal
T_TAPE_N = _T.one("T_TAPE_N")  # answers on the tape to force
T_STOP = _T.one("T_STOP")  # stop before decision T_STOP of the deal (-1: play to the end)
T_RECORD = _T.one("T_RECORD")  # 1: write every answer onto the tape
T_RESTORE = _T.one("T_RESTORE")  # 1: load the stash into the streams once the tape is played
T_DEAL = _T.one("T_DEAL")  # the tracked deal's index: resume there (with T_RESUME) or record it
T_RESUME = _T.one("T_RESUME")  # 1: start the game at deal T_DEAL from the deal header
T_STOPPED = _T.one("T_STOPPED")  # set by the kernel when it stopped at T_STOP
T_SEAT = _T.one("T_SEAT")  # the seat to decide when it stopped
T_KIND = _T.one("T_KIND")  # the decision kind it stopped at (the game's decision number)
T_STASH = _T.one("T_STASH")  # where the stash starts (after the game's header)
T_HEAD = _T.size  # the game's deal header starts here

STOPPED = 1000  # the status of a game that stopped at T_STOP (not an error)
BAD_TAPE = 1001  # a tape's answer is not legal where the kernel met it
NOT_FORCED = -(1 << 40)  # at_decision: no answer on the tape; ask the strategy
HALT = NOT_FORCED - 1  # at_decision: the game stops here (the kernel returns STOPPED)


@njit(cache=True)
def track_arrays(header, tape_cap, stream_rows):
    """(trk, tape) for a game's State: a deal header of ``header`` ints, room for
    ``tape_cap`` decisions of one deal and a stash of ``stream_rows`` streams (the rows of the
    kernel's ``rngs``). Called inside a game's new_state."""
    trk = np.zeros(T_HEAD + header + 2 * stream_rows, np.int64)
    trk[T_STASH] = T_HEAD + header
    return trk, np.zeros(tape_cap, np.int32)


@njit(cache=True)  # called only while tracking: kept out of the hot loops
def at_decision(trk, tape, rngs, seat, kind):
    """Called at a decision before the strategy is asked, when ``trk[T_ON]``. Returns the
    answer the tape forces, HALT when the game stops here (the streams are saved into the
    stash, the seat and kind into trk), or NOT_FORCED: ask the strategy, then call
    ``answered``. It may be called more than once for one decision (before and after a
    listing the strategy would not need): only ``answered`` moves on."""
    n = trk[T_N]
    if n < trk[T_TAPE_N]:
        return np.int64(tape[n])
    at = trk[T_STASH]
    if trk[T_RESTORE] == 1:  # the tape is played: the streams as they were at the stop
        for i in range(rngs.shape[0]):
            rngs[i, 0] = np.uint64(trk[at + 2 * i])
            rngs[i, 1] = np.uint64(trk[at + 2 * i + 1])
        trk[T_RESTORE] = 0
    if n == trk[T_STOP]:
        for i in range(rngs.shape[0]):
            trk[at + 2 * i] = np.int64(rngs[i, 0])
            trk[at + 2 * i + 1] = np.int64(rngs[i, 1])
        trk[T_STOPPED] = 1
        trk[T_SEAT] = seat
        trk[T_KIND] = kind
        return np.int64(HALT)
    return np.int64(NOT_FORCED)


@njit(cache=True)  # called only while tracking: kept out of the hot loops
def answered(trk, tape, value):
    """The decision's answer, in the game's canonical terms: onto the tape when recording
    (while there is room; a deal too long for it is not tracked further), and counted."""
    n = trk[T_N]
    if trk[T_RECORD] == 1 and n < tape.shape[0]:
        tape[n] = value
    trk[T_N] = n + 1


@njit(cache=True, inline="always")
def deal_starts(trk, d):
    """At the start of deal ``d``: True when this deal is the tracked one (the kernel then
    writes its deal header, or with T_RESUME has read it at the game's start), with the
    decision count reset; tracking is on for that deal only."""
    on = trk[T_WANT] == 1 and trk[T_DEAL] == d
    trk[T_ON] = 1 if on else 0
    if on:
        trk[T_N] = 0
    return on


@njit(cache=True, inline="always")
def preset_deal(trk, d):
    """Whether deal ``d`` takes a preset deck instead of its shuffle: the tracked deal while
    tracking (a position written by hand, at any deal), else a run's first deal."""
    if trk[T_WANT] == 1:
        return trk[T_DEAL] == d
    return d == 0


@njit(cache=True, inline="always")
def resuming(trk):
    """True when the game starts at the tracked deal from its deal header."""
    return trk[T_WANT] == 1 and trk[T_RESUME] == 1


@njit(cache=True)
def listed(legal, n, value):
    """The place of ``value`` among a legal list's ``n`` entries (``legal[1..n]``, the rummy
    kernels' lists), or -1: where a tape's answer is checked."""
    for j in range(n):
        if legal[1 + j] == value:
            return j
    return -1
