"""Toy-tricks kernel: a whole game (or, in deals mode, one deal) for the engine
(simulator.engine). The shuffle of deal d of game g comes from sub-stream (g, DEAL, d), the
first dealer from (g, SETUP, 0) and each seat's strategy draws from (g, SEAT, s)."""
from collections import namedtuple

import numpy as np
from numba import njit, types

from cardsim.simulator import rng as R
from cardsim.simulator.cards import deck as _deck
from cardsim.simulator.engine import (  # noqa: F401 (the status codes, re-exported)
    BAD, CTX, INVARIANT, LOG_FULL, OK, ROWS_FULL, Ctx, Kernel,
)
from cardsim.simulator import track as T
from cardsim.simulator.nrt import borrow
from cardsim.simulator.rules import Slots
from cardsim.simulator.tables import emit as _emit

from tests.toy_tricks import dispatch as D
from tests.toy_tricks import outcomes as O
from tests.toy_tricks import rules as RU
from tests.toy_tricks import view as V

DECK = _deck(range(7, 13))  # 9 10 J Q K A of four suits
BAD_PLAY = BAD
EV_GAME, EV_DEAL, EV_HAND, EV_PLAY, EV_TRICK, EV_SCORE, EV_GAME_END = range(7)
LOG_W = 12
FNS = types.Tuple((types.UniTuple(V.DECISION_FN, V.TEAMS),))

State = namedtuple("State", (
    "hands",    # int8 (seat, MAX_HAND): card codes
    "hand_n",   # cards in each hand
    "deck",     # int8 24
    "public",   # int16 view.P_LEN
    "private",  # int16 (seat, view.V_LEN)
    "legal",    # int8 MAX_HAND
    "rngs",     # uint64 (seat + 1, 2): one stream per seat, then the dealing
    "totals",   # int64 per team
    "params",   # float64 (team, params)
    "trk",      # decision tracking (simulator.track): flags, then the deal header (H_*)
    "tape",     # int32: the tracked deal's plays, as card codes
))
# the deal header, after simulator.track's flags: what a resumed game starts its deal from
_H = Slots()
H_DEALER = T.T_HEAD + _H.one("H_DEALER")
H_TOTALS = T.T_HEAD + _H.block("H_TOTALS", V.TEAMS)  # each team's total before the deal
H_DECK = T.T_HEAD + _H.block("H_DECK", 24)  # the deal's cards, in dealing order
HEADER = _H.size
TAPE_CAP = V.SEATS * V.MAX_HAND  # decisions of one deal
STREAM_ROWS = V.SEATS + 1  # the rngs rows a stop saves


def _new_state(ctx):
    trk, tape = T.track_arrays(HEADER, TAPE_CAP, STREAM_ROWS)
    o = State(np.zeros((V.SEATS, V.MAX_HAND), np.int8), np.zeros(V.SEATS, np.int64),
              np.zeros(DECK.shape[0], np.int8), np.zeros(V.P_LEN, np.int16),
              np.zeros((V.SEATS, V.V_LEN), np.int16), np.zeros(V.MAX_HAND, np.int8),
              np.zeros((V.SEATS + 1, 2), np.uint64), np.zeros(V.TEAMS, np.int64),
              ctx.params.copy(), trk, tape)
    st = State(borrow(o.hands), borrow(o.hand_n), borrow(o.deck), borrow(o.public),
               borrow(o.private), borrow(o.legal), borrow(o.rngs), borrow(o.totals),
               borrow(o.params), borrow(o.trk), borrow(o.tape))
    return o, st


@njit(cache=True)
def _deal(fns, sids, st, rules, key, d, dealer, r, err, log, log_on, debug, preset):
    """Deal ``d``: shuffle, deal, the tricks, the points into the deal row ``r``. Returns a
    status."""
    hs = rules[RU.R_HAND]
    deck = st.deck
    for i in range(deck.shape[0]):
        deck[i] = DECK[i]
    R.substream(st.rngs[V.SEATS], key, R.SUB_DEAL, d)
    trk = st.trk
    tracked = T.deal_starts(trk, d)
    if tracked and trk[T.T_RESUME] == 1:  # the position's cards
        for i in range(deck.shape[0]):
            deck[i] = trk[H_DECK + i]
    else:
        R.shuffle_or_preset(deck, deck.shape[0], preset, d == 0, st.rngs[V.SEATS])
        if tracked:  # the header a resumed game starts this deal from
            trk[H_DEALER] = dealer
            for tm in range(V.TEAMS):
                trk[H_TOTALS + tm] = st.totals[tm]
            for i in range(deck.shape[0]):
                trk[H_DECK + i] = deck[i]
    pub = st.public
    if log_on:
        _emit(log, EV_DEAL, d, dealer, hs, 0, 0, 0)
    for i in range(V.SEATS):  # a hand each, in blocks, from the dealer's left
        s = (dealer + 1 + i) % V.SEATS
        st.hand_n[s] = hs
        for k in range(hs):
            st.hands[s, k] = deck[i * hs + k]
        if log_on:
            j = _emit(log, EV_HAND, s, hs, 0, 0, 0, 0)
            if j >= 0:
                for k in range(hs):
                    log[j, 3 + k] = st.hands[s, k]
    for tm in range(V.TEAMS):
        pub[V.P_TRICKS + tm] = 0
        pub[V.P_TOTALS + tm] = st.totals[tm]
    pub[V.P_HAND_SIZE] = hs
    leader = (dealer + 1) % V.SEATS
    last = -1
    for t in range(hs):
        pub[V.P_LEADER] = leader
        pub[V.P_TRICK] = t
        pub[V.P_LED_SUIT] = -1
        pub[V.P_BEST_RANK] = -1
        pub[V.P_BEST_SEAT] = -1
        for s in range(V.SEATS):
            pub[V.P_PLAYED + s] = -1
        for i in range(V.SEATS):
            s = (leader + i) % V.SEATS
            n = st.hand_n[s]
            led = pub[V.P_LED_SUIT]
            follow = False
            for k in range(n):
                if st.hands[s, k] // 13 == led:
                    follow = True
            for k in range(n):
                st.legal[k] = 1 if not follow or st.hands[s, k] // 13 == led else 0
            pub[V.P_SEAT] = s
            pub[V.P_NPLAYED] = i
            tm = s % V.TEAMS
            forced = T.NOT_FORCED
            if trk[T.T_ON] == 1:
                forced = T.at_decision(trk, st.tape, st.rngs, s, 0)
                if forced == T.HALT:
                    return T.STOPPED
            if forced == T.NOT_FORCED:
                pick = D.decide_play(sids[tm], fns[0][0][tm], st.hands[s], n, pub,
                                     st.private[s], st.legal, st.params[tm], st.rngs[s])
            else:  # the tape's card
                pick = -1
                for k in range(n):
                    if st.hands[s, k] == forced:
                        pick = k
            if pick < 0 or pick >= n or st.legal[pick] == 0:
                err[0] = s
                err[1] = tm
                err[2] = pick
                return BAD_PLAY
            c = st.hands[s, pick]
            if trk[T.T_ON] == 1:
                T.answered(trk, st.tape, c)
            for k in range(pick, n - 1):
                st.hands[s, k] = st.hands[s, k + 1]
            st.hand_n[s] = n - 1
            pub[V.P_PLAYED + s] = c
            if i == 0:
                pub[V.P_LED_SUIT] = c // 13
            if c // 13 == pub[V.P_LED_SUIT] and c % 13 > pub[V.P_BEST_RANK]:
                pub[V.P_BEST_RANK] = c % 13
                pub[V.P_BEST_SEAT] = s
            if log_on:
                _emit(log, EV_PLAY, s, c, t, 0, 0, 0)
        leader = pub[V.P_BEST_SEAT]
        last = leader % V.TEAMS
        pub[V.P_TRICKS + last] += 1
        if log_on:
            _emit(log, EV_TRICK, t, leader, last, 0, 0, 0)
    if debug:
        tricks = 0
        for tm in range(V.TEAMS):
            tricks += pub[V.P_TRICKS + tm]
        for s in range(V.SEATS):
            if st.hand_n[s] != 0:
                return INVARIANT
        if tricks != hs:
            return INVARIANT
    r[O.D_DEAL] = d
    r[O.D_DEALER] = dealer
    r[O.D_LAST] = last
    for tm in range(V.TEAMS):
        points = pub[V.P_TRICKS + tm] + (rules[RU.R_BONUS] if tm == last else 0)
        st.totals[tm] += points
        r[O.D_TRICKS0 + tm] = pub[V.P_TRICKS + tm]
        r[O.D_POINTS0 + tm] = points
        r[O.D_TOTAL0 + tm] = st.totals[tm]
    if log_on:
        _emit(log, EV_SCORE, d, r[O.D_POINTS0], r[O.D_POINTS0 + 1], st.totals[0], st.totals[1],
              last)
    return OK


def _play_one(ctx, fns, st, game_index, deal_cols, row, row_end, game_row, err, log, log_on,
              debug, preset):
    rules = ctx.rules
    key = R.game_key(ctx.seed, game_index)
    for s in range(V.SEATS):
        R.substream(st.rngs[s], key, R.SUB_SEAT, s)
        st.private[s, V.V_SEAT] = s
        st.private[s, V.V_TEAM] = s % V.TEAMS
    if ctx.deals_mode:
        dealer = game_index % V.SEATS
    else:
        R.substream(st.rngs[V.SEATS], key, R.SUB_SETUP, 0)
        dealer = R.below(st.rngs[V.SEATS], V.SEATS)
    for tm in range(V.TEAMS):
        st.totals[tm] = 0
    if log_on:
        _emit(log, EV_GAME, game_index, dealer, 1 if ctx.deals_mode else 0, 0, 0, 0)
    d = 0
    if T.resuming(st.trk):  # from a position: its deal, dealer and totals
        d = st.trk[T.T_DEAL]
        dealer = st.trk[H_DEALER]
        for tm in range(V.TEAMS):
            st.totals[tm] = st.trk[H_TOTALS + tm]
    d0 = d
    capped = 0
    while True:
        if row + d - d0 >= row_end:
            return ROWS_FULL, d - d0
        status = _deal(fns, ctx.sids, st, rules, key, d, dealer, deal_cols[:, row + d - d0],
                       err, log, log_on, debug, preset)
        if status != OK:
            return status, d - d0
        if log_on and log[0, 1] != 0:
            return LOG_FULL, d - d0
        d += 1
        if ctx.deals_mode or max(st.totals[0], st.totals[1]) >= rules[RU.R_TARGET]:
            break
        if d >= rules[RU.R_MAX_DEALS]:
            capped = 1
            break
        dealer = (dealer + 1) % V.SEATS
    a, b = st.totals[0], st.totals[1]
    winner = 0 if a > b else (1 if b > a else -1)
    game_row[O.G_DEALS] = d
    game_row[O.G_WINNER] = winner
    game_row[O.G_CAPPED] = capped
    for tm in range(V.TEAMS):
        game_row[O.G_TOTAL0 + tm] = st.totals[tm]
    if log_on:
        _emit(log, EV_GAME_END, winner, capped, d, a, b, 0)
    return OK, d - d0


KERNEL = Kernel(_new_state, _play_one, CTX, FNS, np.int8, LOG_W)
