"""Tracking a game's decisions, so that a game can stop at any decision and resume from that
position with any strategies (docs/design.md, "Positions").

A position is the state of a deal at a decision: what the game was before the deal (the deal
index, its dealer, the totals, whatever a game carries from deal to deal: the game's *deal
header*), the deal's cards in dealing order, the decisions taken so far (the *tape*, each in
the game's own canonical terms: a card code, a call, a draw source ...) and the strategies'
random streams at that moment. Playing the deal again from its cards with the tape's answers
forced reaches the same state, because everything else a kernel does is determined by the
rules and the cards; so a kernel needs no way to load its mid-deal locals, only these three
calls at every decision site and a deal header it writes and reads.

``trk`` (int64, a State field of every resumable game) holds the flags and counters below,
then the game's deal header from ``T_HEAD``; ``tape`` (int32) the answers; ``stash`` the
strategies' stream states (the kernel's ``rngs`` rows, uint64).
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
T_HEAD = _T.size  # the game's deal header starts here

STOPPED = 1000  # the status of a game that stopped at T_STOP (not an error)
BAD_TAPE = 1001  # a tape's answer is not legal where the kernel met it
NOT_FORCED = -(1 << 40)  # at_decision: no answer on the tape; ask the strategy
HALT = NOT_FORCED - 1  # at_decision: the game stops here (the kernel returns STOPPED)


@njit(cache=True)
def track_arrays(header, tape_cap, stream_rows):
    """(trk, tape, stash) for a game's State: a deal header of ``header`` ints, room for
    ``tape_cap`` decisions of one deal, ``stream_rows`` rows of two uint64 (the kernel's
    ``rngs``). Called inside a game's new_state."""
    return (np.zeros(T_HEAD + header, np.int64), np.zeros(tape_cap, np.int32),
            np.zeros((stream_rows, 2), np.uint64))


@njit(cache=True, inline="always")
def at_decision(trk, tape, rngs, stash, seat, kind):
    """Called at a decision before the strategy is asked, when ``trk[T_ON]``. Returns the
    answer the tape forces, HALT when the game stops here (the streams are saved into the
    stash, the seat and kind into trk), or NOT_FORCED: ask the strategy, then call
    ``answered``."""
    n = trk[T_N]
    if n < trk[T_TAPE_N]:
        return np.int64(tape[n])
    if trk[T_RESTORE] == 1:  # the tape is played: the streams as they were at the stop
        for i in range(stash.shape[0]):
            rngs[i, 0] = stash[i, 0]
            rngs[i, 1] = stash[i, 1]
        trk[T_RESTORE] = 0
    if n == trk[T_STOP]:
        for i in range(stash.shape[0]):
            stash[i, 0] = rngs[i, 0]
            stash[i, 1] = rngs[i, 1]
        trk[T_STOPPED] = 1
        trk[T_SEAT] = seat
        trk[T_KIND] = kind
        return np.int64(HALT)
    return np.int64(NOT_FORCED)


@njit(cache=True, inline="always")
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
def resuming(trk):
    """True when the game starts at the tracked deal from its deal header."""
    return trk[T_WANT] == 1 and trk[T_RESUME] == 1
