"""Contract Rummy kernel: deal, turns (draw, buy, lay down, lay off, joker swap, discard),
reshuffles and penalty scoring, in Numba.

``_play_one`` plays one game for the engine (simulator.engine), whose block loop runs it over
blocks of game indices on a few threads and whose replay runs one game with the event log on;
deal rows are int32 columns (one row per deal and seat). ``play_deal`` inlines its per-deal
phases (``_start_deal``, ``_reshuffle``, ``_score``) once each and writes the turn out on local
arrays: a phase taking the State would cost speed in reference counting. What a turn may do
(the contract search as the kernel calls it, the legal lists and the moves) is in turn.py.
Compile time
(docs/design.md, "Compile time"): every compiled function links and optimizes again all it
calls, so the contract search sits under as few compiled
levels as possible (``_search_of`` calls it directly; small wrappers used once are inlined),
nothing that holds play_deal's inlined phases is inlined again (that made Numba's inline
pass explode), and ``_play_one`` calls play_deal, and play_deal every strategy (built-ins
too) and ``_search_of``, through first-class function pointers in ``fns``: a call through a
pointer does not link the callee in. The strategies are reached only through the generated
dispatch (dispatch.py, view.DISPATCH): ``decide_*`` calls the pointer, and the fast paths
(``hook_deep_draws``, ``hook_lay_hints``) switch on the strategy's id. Hands are counts per
card code (view.py); table melds are records in ``public``; the stock and the pile keep card
codes in order.
Randomness: the shuffle of deal ``d`` and its reshuffles come from sub-stream (g, DEAL, d), each
seat's strategy draws from (g, SEAT, s), the first dealer from (g, SETUP, 0).
Contract layouts come from search.py (``_search``: the laying that leaves the fewest penalty
points, or whether there is one).
"""
from collections import namedtuple

import numpy as np
from numba import njit, types, uint64

from cardsim.simulator import rng as R
from cardsim.simulator import track as T
from cardsim.simulator.bits import ctz, popcount
from cardsim.simulator.engine import (
    BAD, CTX, INVARIANT, LOG_FULL, OK, ROWS_FULL, Ctx, Kernel, state_type,  # noqa: F401 (Ctx)
)
from cardsim.simulator.nrt import borrow
from cardsim.simulator.rules import Slots
from cardsim.simulator.tables import emit
from cardsim.simulator.games.contract_rummy import dispatch as D
from cardsim.simulator.games.contract_rummy import outcomes as O
from cardsim.simulator.games.contract_rummy import rules as RU
from cardsim.simulator.games.contract_rummy import view as V
from cardsim.simulator.games.contract_rummy.search import (
    _FALSE, _NONE, MELD_W, is_valid_meld,
)
from cardsim.simulator.games.contract_rummy.view import (
    BUY, D_DEEP, D_STOCK, D_TOP, DISCARD, DRAW, JOKER, LAY, LAYOFF, LEGAL_LEN, M_CARDS, MW,
    NCODES, P_BUYS, P_DOWN, P_DOWN_TURN, P_HAND_N, P_MELDS, P_NMELDS, P_PILE, P_PILE_N,
    P_STOCK_N, P_TURN, STOP, V_FORCED, V_LAY_CARDS, V_LAY_PEN, V_OFFER, V_OWN_TURN,
    V_TOP_TAKEN, card_at, could_join, hand_penalty,
)
from cardsim.simulator.games.contract_rummy.turn import (
    EV_BUY, EV_DEAL, EV_DEAL_END, EV_DECK, EV_DISCARD, EV_DOWN, EV_DRAW, EV_GAME, EV_GAME_END,
    EV_OUT, EV_RESHUFFLE, EV_SCORE, EV_STALL, EV_STOCK, EV_TAKE, EV_TURN, I_ACE_LOW, I_DECKS,
    I_DISTINCT, I_GO_OUT, I_LAYOFF_SETS, I_MAX_MELD, I_MIN_RUN, I_NJOKERS, I_NRUNS, I_NSETS,
    I_W, SEARCH_SIG, S_BUYS, S_DEALT_CAN, S_DEEP, S_DOWN_DEAL_TURN, S_DOWN_TURN, S_JOK_DEALT,
    S_JOK_USED, S_LAYOFFS, S_OUT_TURN, S_OWN_TURNS, S_PILE_CARDS, S_SWAPS, S_TOP, S_W,
    _can_lay_of, _found_with, _lay_keeping_top, _lay_within, _list_draws, _search_of,
    apply_layoff, lay_down, layout_cards, layout_has, lays_with, list_discards, list_layoffs,
    stock_pop, take_pile,
)

MAX_SEATS = RU.MAX_SEATS
MAX_CARDS = RU.MAX_CARDS

# kernel status codes beyond the engine's, in the order of the adapter's decision_errors
BAD_DRAW, BAD_BUY, BAD_LAY, BAD_LAYOFF, BAD_DISCARD = range(BAD, BAD + 5)

LOG_W = 20

FNS = types.UniTuple(V.DECISION_FN, MAX_SEATS)  # one decision's pointers, by strategy slot
# the strategies' part of the engine's fns: one FNS per decision, in DECISIONS order
STRATEGY_FNS = types.UniTuple(FNS, len(V.DECISIONS))

# The scratch arrays of one game, by name. Kernels get the unowned views (see _new_state).
State = namedtuple("State", (
    "hands",    # int64 (seat, NCODES): copies held of each card code
    "stock",    # int32: the stock, top at stock[public[P_STOCK_N] - 1]
    "deck",     # int32: the deal's shuffled deck, in dealing order
    "public",   # int32: the public record (view.P_*)
    "private",  # int32 (seat, view.V_LEN): what only a seat knows
    "legal",    # int32: the legal actions handed to a decision
    "rngs",     # uint64 (seat + 1, 2): one stream per seat, then the deal's
    "stats",    # int32 (seat, S_W): per-seat statistics of the deal (S_*)
    "params",   # float64 (seat, params): the strategy parameters of each seat this game
    "lay_out",  # int64 (4, MELD_W): a laying found by the contract search
    "comp",     # int64 64: the debug check's counts
    "work",     # int64 NCODES: a hand under test (hand + cards from the pile)
    "info",     # int64 I_W: the deal's facts (I_*)
    "rem",      # int64 (4, 13): search work arrays
    "m1",
    "stw",
    "seat_sids",  # this game's strategy of each seat (see play_game)
    "totals",   # penalty points of each seat so far this game
    "smap",     # strategy slot playing each seat (duplicate seating)
    "maybe",    # bool per seat: the hand might lay its contract (else: surely not)
    "trk",      # decision tracking (simulator.track): flags, then the deal header (H_*)
    "tape",     # int32: the tracked deal's decisions (the answers' codes, below)
))

# Tracked decisions (simulator.track), in the game's terms: the draw's code (D_STOCK, D_TOP,
# D_DEEP + i), a buy 0/1, laying down 0/1 (asked every turn before the contract, whether the
# hand could lay or not), a lay-off step's code (or STUCK when none was listed), the card
# discarded. Tracked, the steps made without asking are decisions too, so that a resampled
# deal replays its tape decision by decision.
KD_DRAW, KD_BUY, KD_LAY, KD_LAYOFF, KD_DISCARD = (np.int64(i) for i in range(5))
STUCK = -2
# the deal header, after simulator.track's flags: what a resumed game starts its deal from
_H = Slots()
H_TOTALS = T.T_HEAD + _H.block("H_TOTALS", MAX_SEATS)  # penalty points before the deal
H_CAPPED = T.T_HEAD + _H.one("H_CAPPED")  # deals capped before this one
H_STALLED = T.T_HEAD + _H.one("H_STALLED")  # deals stalled before this one
H_STREAM = T.T_HEAD + _H.block("H_STREAM", 2)  # the deal's stream after the shuffle
H_DECK = T.T_HEAD + _H.block("H_DECK", MAX_CARDS)  # the deal's cards, in dealing order
HEADER = _H.size
TAPE_CAP = 1 << 14
STREAM_ROWS = MAX_SEATS + 1


def _new_state(ctx):
    """Scratch arrays for one game, allocated once per block of games. Returns (owners,
    state): ``state`` holds unowned views (simulator.nrt.borrow) of the arrays in ``owners``,
    which the caller keeps alive while it plays."""
    o = State(
        np.zeros((MAX_SEATS, NCODES), np.int64), np.zeros(MAX_CARDS, np.int32),
        np.zeros(MAX_CARDS, np.int32), np.zeros(V.P_LEN, np.int32),
        np.zeros((MAX_SEATS, V.V_LEN), np.int32), np.zeros(LEGAL_LEN, np.int32),
        np.zeros((MAX_SEATS + 1, 2), np.uint64), np.zeros((MAX_SEATS, S_W), np.int32),
        ctx.params.copy(), np.zeros((4, MELD_W), np.int64), np.zeros(64, np.int64),
        np.zeros(NCODES, np.int64), np.zeros(I_W, np.int64), np.zeros((4, 13), np.int64),
        np.zeros(4, np.int64), np.zeros((4, 3), np.int64), np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.int64), np.zeros(MAX_SEATS, np.int64),
        np.zeros(MAX_SEATS, np.bool_), *T.track_arrays(HEADER, TAPE_CAP, STREAM_ROWS))
    st = State(
        borrow(o.hands), borrow(o.stock), borrow(o.deck), borrow(o.public), borrow(o.private),
        borrow(o.legal), borrow(o.rngs), borrow(o.stats), borrow(o.params), borrow(o.lay_out),
        borrow(o.comp), borrow(o.work), borrow(o.info), borrow(o.rem), borrow(o.m1),
        borrow(o.stw), borrow(o.seat_sids), borrow(o.totals), borrow(o.smap), borrow(o.maybe),
        borrow(o.trk), borrow(o.tape))
    return o, st


@njit(types.void(types.int32[:, ::1], types.int64, types.int32[::1], types.int64, types.boolean),
      cache=True)
def _emit_cards(log, kind, arr, n, reverse):
    """Card codes as rows of 16 (``reverse``: from arr[n-1] down)."""
    for off in range(0, n, 16):
        m = min(16, n - off)
        i = emit(log, kind, off, m, 0, 0, 0, 0)
        if i >= 0:
            for j in range(m):
                log[i, 3 + j] = arr[n - 1 - off - j] if reverse else arr[off + j]


@njit(cache=True, inline="always")
def _buy_round(search, seat, seats, last_discarder, sids, smap, fns, hands, stock, public, private,
               legal, params, rngs, stats, rules, maybe, info, work, rem, m1, stw, out, trk,
               tape, log, log_on):
    """The top discard was passed: players after ``seat`` in turn order may buy it with a
    penalty card from the stock (the first who wants it gets it). Returns (status, seat,
    value)."""
    pn = public[P_PILE_N]
    if rules[RU.R_BUYING] == 0 or pn == 0 or public[P_STOCK_N] < 2:
        return OK, 0, 0
    top = public[P_PILE + pn - 1]
    for k in range(1, seats):
        b = (seat + k) % seats
        if b == last_discarder or public[P_BUYS + b] >= rules[RU.R_BUY_LIMIT]:
            continue
        private[b, V_OFFER] = top
        private[b, V.V_OFFER_LAYS] = -1
        if public[P_DOWN + b] == 0 and D.hook_lay_hints(sids[b], params[b]):
            private[b, V.V_OFFER_LAYS] = lays_with(search, hands[b], top, info, work, rem, m1,
                                                   stw, out)
        legal[0] = 2
        legal[1] = 0
        legal[2] = 1
        tb = T.NOT_FORCED
        if trk[T.T_ON] == 1:
            tb = T.at_decision(trk, tape, rngs, b, KD_BUY)
            if tb == T.HALT:
                private[b, V_OFFER] = -1
                return T.STOPPED, 0, 0
        if tb != T.NOT_FORCED:
            a = tb
            if a != 0 and a != 1:
                return T.BAD_TAPE, b, a
        else:
            a = D.decide_buy(sids[b], fns[smap[b]], hands[b], public, private[b], legal,
                             params[b], rngs[b])
        private[b, V_OFFER] = -1
        if a < 0 or a > 1:
            return BAD_BUY, b, a
        if trk[T.T_ON] == 1:
            T.answered(trk, tape, a)
        if a == 1:
            take_pile(b, pn - 1, hands, public, stats)
            maybe[b] = True
            pen = stock_pop(stock, public)
            hands[b, pen] += 1
            public[P_HAND_N + b] += 1
            public[P_BUYS + b] += 1
            stats[b, S_BUYS] += 1
            if log_on:
                emit(log, EV_BUY, b, top, pen, seat, 0, 0)
            break
    return OK, 0, 0


@njit(cache=True, inline="always")
def buy_round(seat, seats, last_discarder, sids, fns, hands, stock, public, private, legal,
              params, rngs, stats, rules, maybe, info, work, rem, m1, stw, out, log, log_on):
    """_buy_round with seat s played by strategy slot s (for tests), untracked."""
    trk, tape = T.track_arrays(0, 1, 1)
    return _buy_round(_search_of, seat, seats, last_discarder, sids, np.arange(MAX_SEATS), fns,
                      hands, stock, public, private, legal, params, rngs, stats, rules, maybe,
                      info, work, rem, m1, stw, out, trk, tape, log, log_on)


@njit(cache=True)
def check_table(seats, hands, stock, public, full, work, info):
    """Debug: every card in exactly one place, every meld valid. Returns -1 or a detail."""
    for k in range(NCODES):
        work[k] = 0
    for s in range(seats):
        for k in range(NCODES):
            if hands[s, k] < 0:
                return 100 + s
            work[k] += hands[s, k]
        if public[P_HAND_N + s] != hands[s].sum():
            return 200 + s
    for i in range(public[P_STOCK_N]):
        work[stock[i]] += 1
    for i in range(public[P_PILE_N]):
        work[public[P_PILE + i]] += 1
    rec = np.zeros(MELD_W, np.int64)
    for m in range(public[P_NMELDS]):
        b = P_MELDS + m * MW
        for j in range(4):
            rec[j] = public[b + j]
        if not is_valid_meld(rec, info[I_MIN_RUN], 0, info[I_ACE_LOW] == 1):
            return 300 + m
        if popcount(np.uint64(rec[2])) + popcount(np.uint64(rec[3])) != public[b + M_CARDS]:
            return 400 + m
        x = np.uint64(rec[2])
        while x != 0:
            slot = np.int64(ctz(x))
            x &= x - np.uint64(1)
            work[card_at(rec[0], rec[1], slot)] += 1
        work[JOKER] += popcount(np.uint64(rec[3]))
    for k in range(NCODES):
        if work[k] != full[k]:
            return 500 + k
    return -1


# ---------------------------------------------------------------- a deal


@njit(cache=True)
def set_deal_info(rules, d, info, public):
    """Deal ``d``'s contract and meld rules into ``info`` (kernel) and ``public`` (players)."""
    nsets = rules[RU.R_CONTRACTS + 3 * d]
    nruns = rules[RU.R_CONTRACTS + 3 * d + 1]
    go_out = rules[RU.R_ALL_AT_ONCE] == 1 and d == rules[RU.R_DEALS] - 1
    info[I_NSETS] = nsets
    info[I_NRUNS] = nruns
    info[I_MIN_RUN] = rules[RU.R_MIN_RUN]
    info[I_MAX_MELD] = 0 if go_out else rules[RU.R_MAX_MELD]
    info[I_ACE_LOW] = rules[RU.R_ACE_LOW]
    info[I_DISTINCT] = rules[RU.R_RUNS_DISTINCT]
    info[I_GO_OUT] = go_out
    info[I_LAYOFF_SETS] = rules[RU.R_LAYOFF_SETS]
    info[I_DECKS] = rules[RU.R_DECKS]
    info[I_NJOKERS] = rules[RU.R_JOKERS]
    public[V.P_DEAL] = d
    public[V.P_NSETS] = nsets
    public[V.P_NRUNS] = nruns
    public[V.P_DEALT] = rules[RU.R_CONTRACTS + 3 * d + 2]
    public[V.P_MIN_RUN] = rules[RU.R_MIN_RUN]
    public[V.P_MAX_MELD] = info[I_MAX_MELD]
    public[V.P_ACE_LOW] = rules[RU.R_ACE_LOW]
    public[V.P_RUNS_DISTINCT] = rules[RU.R_RUNS_DISTINCT]
    public[V.P_ALL_AT_ONCE] = go_out
    public[V.P_LAYOFF_SETS] = rules[RU.R_LAYOFF_SETS]
    public[V.P_BUYING] = rules[RU.R_BUYING]
    public[V.P_BUY_LIMIT] = rules[RU.R_BUY_LIMIT]
    public[V.P_DECKS] = rules[RU.R_DECKS]
    public[V.P_NJOKERS] = rules[RU.R_JOKERS]


STATE = state_type(_new_state, CTX)  # for play_deal's signature
I32_2D = types.int32[:, ::1]
# play_deal's fns: the decisions' pointers (STRATEGY_FNS), then (_search_of,): the search
# through its pointer, not linked into play_deal
DEAL_FNS = types.Tuple((STRATEGY_FNS, types.UniTuple(types.FunctionType(SEARCH_SIG), 1)))
PLAY_DEAL_SIG = types.UniTuple(types.int64, 3)(
    uint64, types.int64, types.int64, types.int64[::1], DEAL_FNS, STATE, I32_2D, types.int64,
    I32_2D, types.boolean, types.boolean, types.int32[::1])


# ---------------------------------------------------------------- a deal, by phases
# The per-deal phases, each inlined into play_deal once: the source is split, the compiled deal
# is one function (as calls over the state arrays they would cost speed in reference counting).


@njit(cache=True, inline="always")
def _start_deal(search, seed_key, d, dealer, rules, st, log, log_on, preset):
    """Deal ``d``'s rules, shuffle (or the preset deck), the reset and the deal itself.
    Returns the first seat to play."""
    hands, stock, deck, public, private, stats = (st.hands, st.stock, st.deck, st.public,
                                                  st.private, st.stats)
    info = st.info
    seats = rules[RU.R_PLAYERS]
    ncards = rules[RU.R_NCARDS]
    ndecks = rules[RU.R_DECKS]
    set_deal_info(rules, d, info, public)
    each = rules[RU.R_CONTRACTS + 3 * d + 2]
    first = (dealer + 1) % seats

    dr = st.rngs[MAX_SEATS]
    R.substream(dr, seed_key, R.SUB_DEAL, d)
    trk = st.trk
    tracked = T.deal_starts(trk, d)
    if tracked and trk[T.T_RESUME] == 1:  # a position's cards, and the stream after them
        for i in range(ncards):
            deck[i] = trk[H_DECK + i]
        dr[0] = np.uint64(trk[H_STREAM])
        dr[1] = np.uint64(trk[H_STREAM + 1])
    else:
        for i in range(ncards):
            deck[i] = i % 52 if i < 52 * ndecks else JOKER
        R.shuffle_or_preset(deck, ncards, preset, T.preset_deal(trk, d), dr)
        if tracked:  # the header a resumed game starts this deal from
            for i in range(ncards):
                trk[H_DECK + i] = deck[i]
            trk[H_STREAM] = np.int64(dr[0])
            trk[H_STREAM + 1] = np.int64(dr[1])
            for s in range(MAX_SEATS):
                trk[H_TOTALS + s] = st.totals[s]
    if log_on:
        i = emit(log, EV_DEAL, d, dealer, first, info[I_NSETS], info[I_NRUNS], each)
        if i >= 0:
            log[i, 7] = info[I_GO_OUT] == 1
            log[i, 8] = ncards
        _emit_cards(log, EV_DECK, deck, ncards, False)

    # reset the deal's state
    for s in range(MAX_SEATS):
        for k in range(NCODES):
            hands[s, k] = 0
            public[V.P_TAKEN + s * NCODES + k] = 0
        for j in range(S_W):
            stats[s, j] = 0
        stats[s, S_DOWN_TURN] = -1
        stats[s, S_DOWN_DEAL_TURN] = -1
        stats[s, S_OUT_TURN] = -1
        public[P_HAND_N + s] = 0
        public[P_DOWN + s] = 0
        public[P_DOWN_TURN + s] = 0
        public[P_BUYS + s] = 0
        private[s, V_OWN_TURN] = 0
        private[s, V_FORCED] = -1
        private[s, V_TOP_TAKEN] = -1
        private[s, V_OFFER] = -1
        st.maybe[s] = False
    public[P_TURN] = 0
    public[P_NMELDS] = 0
    public[V.P_RESHUFFLES] = 0
    # deal one card at a time from the dealer's left; the next card starts the pile
    pos = seats * each
    for i in range(pos):
        s = (first + i) % seats
        hands[s, deck[i]] += 1
    for s in range(seats):
        public[P_HAND_N + s] = each
    public[P_PILE] = deck[pos]
    public[P_PILE_N] = 1
    nst = ncards - pos - 1
    for j in range(nst):
        stock[j] = deck[ncards - 1 - j]  # stock top = deck[pos + 1] = stock[nst - 1]
    public[P_STOCK_N] = nst
    for s in range(seats):
        stats[s, S_JOK_DEALT] = hands[s, JOKER]
        stats[s, S_DEALT_CAN] = _can_lay_of(search, hands[s], info, st.rem, st.m1, st.stw,
                                            st.lay_out)
        st.maybe[s] = stats[s, S_DEALT_CAN] == 1
    return first


@njit(cache=True, inline="always")
def _reshuffle(d, turn, rules, st, log, log_on):
    """The stock is empty: the pile but its top card becomes the stock, shuffled. False when
    the deal stalls instead (no reshuffle left, or nothing to shuffle)."""
    public, stock = st.public, st.stock
    pn = public[P_PILE_N]
    if public[V.P_RESHUFFLES] >= rules[RU.R_MAX_RESHUFFLES] or pn < 2:
        if log_on:
            emit(log, EV_STALL, d, turn, 0, 0, 0, 0)
        return False
    for j in range(pn - 1):
        stock[j] = public[P_PILE + j]
    public[P_PILE] = public[P_PILE + pn - 1]
    public[P_PILE_N] = 1
    public[P_STOCK_N] = pn - 1
    R.shuffle(st.rngs[MAX_SEATS], stock, pn - 1)
    public[V.P_RESHUFFLES] += 1
    if log_on:
        emit(log, EV_RESHUFFLE, d, public[V.P_RESHUFFLES], pn - 1, 0, 0, 0)
        _emit_cards(log, EV_STOCK, stock, pn - 1, True)
    return True


@njit(cache=True, inline="always")
def _score(d, dealer, first, turn, end, out_seat, rules, st, deal_cols, row, log, log_on):
    """Penalty points of the hands left, and the deal's row of each seat."""
    hands, public, stats, totals = st.hands, st.public, st.stats, st.totals
    seats = rules[RU.R_PLAYERS]
    if log_on:
        emit(log, EV_DEAL_END, d, end, turn, out_seat, public[V.P_RESHUFFLES], 0)
    for s in range(seats):
        pen = hand_penalty(hands[s])
        totals[s] += pen
        r = deal_cols[:, row + s]
        r[O.D_DEAL] = d
        r[O.D_SEAT] = s
        r[O.D_PLAYERS] = seats
        r[O.D_DECKS] = rules[RU.R_DECKS]
        r[O.D_JOKERS] = rules[RU.R_JOKERS]
        r[O.D_SETS] = st.info[I_NSETS]
        r[O.D_RUNS] = st.info[I_NRUNS]
        r[O.D_DEALT] = rules[RU.R_CONTRACTS + 3 * d + 2]
        r[O.D_ALL_AT_ONCE] = st.info[I_GO_OUT]
        r[O.D_DEALER] = dealer
        r[O.D_FIRST] = first
        r[O.D_ORDER] = (s - first + seats) % seats
        r[O.D_TURNS] = turn
        r[O.D_END] = end
        r[O.D_RESHUFFLES] = public[V.P_RESHUFFLES]
        r[O.D_OUT_SEAT] = out_seat
        r[O.D_DEALT_CAN_LAY] = stats[s, S_DEALT_CAN]
        r[O.D_DOWN_TURN] = stats[s, S_DOWN_TURN]
        r[O.D_DOWN_DEAL_TURN] = stats[s, S_DOWN_DEAL_TURN]
        r[O.D_WENT_OUT] = s == out_seat
        r[O.D_OUT_TURN] = stats[s, S_OUT_TURN]
        r[O.D_OWN_TURNS] = stats[s, S_OWN_TURNS]
        r[O.D_PENALTY] = pen
        r[O.D_CUMULATIVE] = totals[s]
        r[O.D_CARDS_LEFT] = public[P_HAND_N + s]
        r[O.D_JOKERS_DEALT] = stats[s, S_JOK_DEALT]
        r[O.D_JOKERS_HELD] = hands[s, JOKER]
        r[O.D_JOKERS_USED] = stats[s, S_JOK_USED]
        r[O.D_PILE_CARDS] = stats[s, S_PILE_CARDS]
        r[O.D_TOP_DRAWS] = stats[s, S_TOP]
        r[O.D_DEEP_DRAWS] = stats[s, S_DEEP]
        r[O.D_BUYS] = stats[s, S_BUYS]
        r[O.D_LAY_OFFS] = stats[s, S_LAYOFFS]
        r[O.D_SWAPS] = stats[s, S_SWAPS]
        r[O.D_STRATEGY] = st.smap[s]
        if log_on:
            emit(log, EV_SCORE, d, s, pen, totals[s], public[P_HAND_N + s], hands[s, JOKER])


def _play_deal(seed_key, d, dealer, rules, fns, st, deal_cols, row, log, log_on, debug, preset):
    """Deal, play and score one deal; seat s's row is column ``row + s`` of deal_cols.
    Returns (status, error seat, value).

    The turn (draw, buy round, lay down, lay offs, discard) is written out on local arrays,
    not split into inlined phases taking ``st``: every array of a State handed to an inlined
    function is reference counted on entry and exit (a call each, unowned views too), which
    cost 8-11% of the game's speed (perf: 4% of the time in the calls themselves)."""
    hands, stock, public, private, legal, params, rngs, stats = (
        st.hands, st.stock, st.public, st.private, st.legal, st.params, st.rngs, st.stats)
    info, work, rem, m1, stw, lay_out, smap, sids, maybe = (
        st.info, st.work, st.rem, st.m1, st.stw, st.lay_out, st.smap, st.seat_sids, st.maybe)
    seats = rules[RU.R_PLAYERS]
    trk, tape = st.trk, st.tape
    dec = fns[0]  # the decisions' pointers, dec[DRAW][slot] ... (see DEAL_FNS)
    search = fns[1][0]  # _search_of
    first = _start_deal(search, seed_key, d, dealer, rules, st, log, log_on, preset)
    k_melds = info[I_NSETS] + info[I_NRUNS]
    full = work  # expected counts for the debug check (work is reused below)
    if debug:
        full = np.zeros(NCODES, np.int64)
        for i in range(rules[RU.R_NCARDS]):
            full[st.deck[i]] += 1

    seat = first
    end = O.END_CAP
    out_seat = -1
    turn = 0
    last_discarder = -1
    max_turns = rules[RU.R_MAX_TURNS]
    while turn < max_turns:
        if public[P_STOCK_N] == 0 and not _reshuffle(d, turn, rules, st, log, log_on):
            end = O.END_STALL
            break
        turn += 1
        public[P_TURN] = turn
        public[V.P_SEAT] = seat
        private[seat, V_OWN_TURN] += 1
        own = private[seat, V_OWN_TURN]
        stats[seat, S_OWN_TURNS] = own
        private[seat, V_FORCED] = -1
        private[seat, V_TOP_TAKEN] = -1
        down = public[P_DOWN + seat] == 1
        if log_on:
            emit(log, EV_TURN, seat, turn, own, 0, 0, 0)

        # -- draw: from the stock (after the buy round), the top discard or deep in the pile;
        # ``top`` is the top discard taken (-1: none), held ``top_n`` times, ``forced`` a card
        # drawn deep that must be melded
        top = -1
        top_n = 0
        forced = -1
        private[seat, V.V_TOP_LAYS] = -1
        tl = -1  # hand + top discard can lay, when known exactly (saves searches below)
        tl_pen = np.int64(-1)  # then the points the laying found leaves
        if not down and public[P_PILE_N] > 0 and D.hook_lay_hints(sids[seat], params[seat]):
            tc = public[P_PILE + public[P_PILE_N] - 1]
            tl_pen = _found_with(search, hands[seat], tc, info, work, rem, m1, stw, lay_out)
            tl = 1 if tl_pen >= 0 else 0
            private[seat, V.V_TOP_LAYS] = tl
            # lays_with answers 0 unsearched when c joins no meld: exact unless the hand
            # itself might lay
            if tl == 0 and maybe[seat] and not could_join(
                    hands[seat], np.int64(tc), info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN],
                    info[I_ACE_LOW] == 1):
                tl = -1
        deep, cap = D.hook_deep_draws(sids[seat], params[seat], info[I_NRUNS])
        if deep == 1 and private[seat, V.V_TOP_LAYS] == 1:
            deep = 0  # the top discard lays the contract: the heuristic takes it
        tt = T.NOT_FORCED
        if trk[T.T_ON] == 1:
            tt = T.at_decision(trk, tape, rngs, seat, KD_DRAW)
            if tt == T.HALT:
                return T.STOPPED, 0, 0
            if tt != T.NOT_FORCED:  # the tape's draw: any legal one, whoever plays on
                deep = 2
                cap = 1 << 20
        n = _list_draws(search, seat, hands, public, legal, work, info, lay_out, rem, m1, stw,
                        down, deep, cap, tl)
        if tt != T.NOT_FORCED:
            a = T.listed(legal, n, tt)
            if a < 0:
                return T.BAD_TAPE, seat, tt
        else:
            a = D.decide_draw(sids[seat], dec[DRAW][smap[seat]], hands[seat], public,
                              private[seat], legal, params[seat], rngs[seat])
            if a < 0 or a >= n:
                return BAD_DRAW, seat, a
        code = legal[1 + a]
        if trk[T.T_ON] == 1:
            T.answered(trk, tape, code)
        if code == D_STOCK:
            if rules[RU.R_BUYING] != 0:
                status, es, ev = _buy_round(search, seat, seats, last_discarder, sids, smap,
                                            dec[BUY], hands, stock, public, private, legal,
                                            params, rngs, stats, rules, maybe, info, work, rem,
                                            m1, stw, lay_out, trk, tape, log, log_on)
                if status != OK:
                    return status, es, ev
            c = stock_pop(stock, public)
            if not down and not maybe[seat] and could_join(
                    hands[seat], np.int64(c), info[I_NSETS], info[I_NRUNS], info[I_MIN_RUN],
                    info[I_ACE_LOW] == 1):
                maybe[seat] = True
            hands[seat, c] += 1
            public[P_HAND_N + seat] += 1
            if log_on:
                emit(log, EV_DRAW, seat, c, 0, 0, 0, 0)
        else:
            idx = public[P_PILE_N] - 1 if code == D_TOP else code - D_DEEP
            cnt = public[P_PILE_N] - idx
            c = take_pile(seat, idx, hands, public, stats)
            maybe[seat] = True
            if code == D_TOP:
                stats[seat, S_TOP] += 1
                private[seat, V_TOP_TAKEN] = c
                top = c
                top_n = hands[seat, c]
            else:
                stats[seat, S_DEEP] += 1
                forced = c
            if log_on:
                emit(log, EV_TAKE, seat, idx, cnt, c, 0, 0)

        # -- lay the contract down, if the hand can (the strategy decides, unless a deep draw
        # forces it)
        tl_ = T.NOT_FORCED
        was_down = down
        if trk[T.T_ON] == 1 and not down:
            tl_ = T.at_decision(trk, tape, rngs, seat, KD_LAY)
            if tl_ == T.HALT:
                return T.STOPPED, 0, 0
            if tl_ != T.NOT_FORCED and tl_ != 0 and tl_ != 1:
                return T.BAD_TAPE, seat, tl_
        if not down and maybe[seat]:
            pen = -1
            # a laying found by the existence search bounds the optimal one's points (the
            # search then cuts from the start; the same laying is found)
            bound = tl_pen if top >= 0 and tl == 1 else np.int64(-1)
            able = forced >= 0 or (top >= 0 and tl == 1)
            if not able and not (top >= 0 and tl == 0):
                bound = search(hands[seat], info, rem, m1, stw, lay_out, _FALSE(), _NONE())
                able = bound >= 0
            if able:
                pen = _lay_within(search, hands[seat], info, rem, m1, stw, lay_out, bound)
            maybe[seat] = pen >= 0  # discarding never makes a hand able to lay
            if pen >= 0 and top >= 0:  # never leave only the taken top discard in hand
                pen = _lay_keeping_top(search, hands[seat], top, pen, info, work, rem, m1, stw,
                                       lay_out)
            if pen >= 0:
                lay = True
                if forced < 0:
                    private[seat, V_LAY_PEN] = pen
                    private[seat, V_LAY_CARDS] = (public[P_HAND_N + seat]
                                                  - layout_cards(lay_out, k_melds))
                    legal[0] = 2
                    legal[1] = 0
                    legal[2] = 1
                    if tl_ != T.NOT_FORCED:
                        lay = tl_ == 1
                    else:
                        a = D.decide_lay(sids[seat], dec[LAY][smap[seat]], hands[seat], public,
                                         private[seat], legal, params[seat], rngs[seat])
                        if a < 0 or a > 1:
                            return BAD_LAY, seat, a
                        lay = a == 1
                elif debug and not layout_has(lay_out, k_melds, forced):
                    return INVARIANT, seat, 600
                if lay:
                    lay_down(seat, hands, public, stats, lay_out, k_melds, log, log_on)
                    if top >= 0 and hands[seat, top] < top_n:  # the taken card was melded
                        top = -1
                        private[seat, V_TOP_TAKEN] = -1
                    public[P_DOWN + seat] = 1
                    public[P_DOWN_TURN + seat] = turn
                    stats[seat, S_DOWN_TURN] = own
                    stats[seat, S_DOWN_DEAL_TURN] = turn
                    down = True
                    if log_on:
                        emit(log, EV_DOWN, seat, own, turn, forced >= 0, pen, 0)
                    forced = -1
            elif forced >= 0 and tl_ != T.NOT_FORCED:  # the tape's deep draw cannot be laid
                return T.BAD_TAPE, seat, 601
            elif debug and forced >= 0:
                return INVARIANT, seat, 601
        if trk[T.T_ON] == 1 and not was_down:
            if tl_ != T.NOT_FORCED and (tl_ == 1) != down:
                return T.BAD_TAPE, seat, tl_
            T.answered(trk, tape, 1 if down else 0)

        # -- lay off (and swap jokers) until the strategy stops or the hand is empty; a card
        # drawn deep first
        if down and public[P_HAND_N + seat] > 0:
            while public[P_HAND_N + seat] > 0:
                private[seat, V_FORCED] = forced
                n = list_layoffs(seat, hands, public, legal, forced, info, top)
                to = T.NOT_FORCED
                if trk[T.T_ON] == 1:
                    to = T.at_decision(trk, tape, rngs, seat, KD_LAYOFF)
                    if to == T.HALT:
                        return T.STOPPED, 0, 0
                    if to != T.NOT_FORCED and (to == STUCK) != (n == 0):
                        return T.BAD_TAPE, seat, to
                    if n == 0:
                        T.answered(trk, tape, STUCK)
                if n == 0:
                    if forced >= 0:
                        return INVARIANT, seat, 602
                    break
                a = 0
                if to != T.NOT_FORCED:
                    a = T.listed(legal, n, to)
                    if a < 0:
                        return T.BAD_TAPE, seat, to
                elif n > 1 or forced >= 0:
                    a = D.decide_layoff(sids[seat], dec[LAYOFF][smap[seat]], hands[seat],
                                        public, private[seat], legal, params[seat], rngs[seat])
                if a < 0 or a >= n:
                    return BAD_LAYOFF, seat, a
                code = legal[1 + a]
                if trk[T.T_ON] == 1:
                    T.answered(trk, tape, code)
                if code == STOP:
                    break
                apply_layoff(seat, code, hands, public, stats, log, log_on)
                forced = -1
                if top >= 0 and hands[seat, top] < top_n:  # the taken card was laid off
                    top = -1
                    private[seat, V_TOP_TAKEN] = -1
            private[seat, V_FORCED] = -1

        # -- discard one card (never the top discard taken this turn), unless the hand is
        # empty
        went_out = public[P_HAND_N + seat] == 0
        if not went_out:
            n = list_discards(seat, hands, legal, top)
            if n == 0:
                return INVARIANT, seat, 603
            a = 0
            td = T.NOT_FORCED
            if trk[T.T_ON] == 1:
                td = T.at_decision(trk, tape, rngs, seat, KD_DISCARD)
                if td == T.HALT:
                    return T.STOPPED, 0, 0
            if td != T.NOT_FORCED:
                a = T.listed(legal, n, td)
                if a < 0:
                    return T.BAD_TAPE, seat, td
            elif n > 1:
                a = D.decide_discard(sids[seat], dec[DISCARD][smap[seat]], hands[seat], public,
                                     private[seat], legal, params[seat], rngs[seat])
            if a < 0 or a >= n:
                return BAD_DISCARD, seat, a
            c = legal[1 + a]
            if trk[T.T_ON] == 1:
                T.answered(trk, tape, c)
            hands[seat, c] -= 1
            public[P_HAND_N + seat] -= 1
            public[P_PILE + public[P_PILE_N]] = c
            public[P_PILE_N] += 1
            if log_on:
                emit(log, EV_DISCARD, seat, c, 0, 0, 0, 0)
            last_discarder = seat
            went_out = public[P_HAND_N + seat] == 0 and down
        if debug:
            bad = check_table(seats, hands, stock, public, full, st.comp, info)
            if bad >= 0:
                return INVARIANT, seat, bad
        if went_out:
            end = O.END_OUT
            out_seat = seat
            stats[seat, S_OUT_TURN] = own
            if log_on:
                emit(log, EV_OUT, seat, turn, own, 0, 0, 0)
            break
        seat = seat + 1 if seat + 1 < seats else 0
    _score(d, dealer, first, turn, end, out_seat, rules, st, deal_cols, row, log, log_on)
    return OK, 0, 0


play_deal = njit(cache=True)(_play_deal)  # compiled by the Kernel, for PLAY_DEAL_SIG


@njit(cache=True, inline="always")
def board_of(game_index, rot_k):
    """Duplicate seating (rot_k > 0): games come in sets of rot_k that share their deals (the
    same board), the strategies moving one seat on from game to game."""
    return game_index // rot_k if rot_k > 0 else game_index


def _play_one(ctx, fns, st, game_index, deal_cols, row, row_end, game_row, err, log, log_on, debug,
              preset):
    """Play game ``game_index`` for the engine (simulator.engine): its deal rows (one per seat)
    go to deal_cols[:, row:row_end]. Seat s is played by strategy st.smap[s] = (s + rotation)
    % players (rotation = game_index % rot_k with duplicate seating, else 0). Returns (status,
    rows written); on an error ``err`` = (seat, strategy slot of the seat, value). Contract
    Rummy has no deals mode (ctx.deals_mode is False). Written here rather than called, and
    play_deal called through its pointer in ``fns``: each compiled level over play_deal that
    links it in optimizes it again."""
    rules, sids, run_params, rot_k = ctx.rules, ctx.sids, ctx.params, ctx.rot_k
    seed_key = R.game_key(ctx.seed, board_of(game_index, rot_k))
    seats = rules[RU.R_PLAYERS]
    public, private, rngs, params = st.public, st.private, st.rngs, st.params
    smap, totals = st.smap, st.totals
    rot = game_index % rot_k if rot_k > 0 else 0
    for s in range(MAX_SEATS):
        t = (s + rot) % seats if s < seats else s
        smap[s] = t
        st.seat_sids[s] = sids[t] if sids[t] >= 0 else -1 - t
        for j in range(params.shape[1]):
            params[s, j] = run_params[t, j]
    public[V.P_PLAYERS] = seats
    for s in range(MAX_SEATS):
        private[s, V.V_SEAT] = s
        totals[s] = 0
    for s in range(seats):
        R.substream(rngs[s], seed_key, R.SUB_SEAT, s)
    R.substream(rngs[MAX_SEATS], seed_key, R.SUB_SETUP, 0)
    dealer0 = R.below(rngs[MAX_SEATS], seats)
    ndeals = rules[RU.R_DEALS]
    if log_on:
        emit(log, EV_GAME, game_index, seats, dealer0, ndeals, rot, 0)
    capped = 0
    stalled = 0
    written = 0
    deal_fn = fns[1][0]  # play_deal, the first of the kernel's own pointers (see KERNEL)
    deal_fns = (fns[0], (fns[1][1],))  # the strategies' pointers and _search_of's
    trk = st.trk
    d0 = 0
    if T.resuming(trk):  # from a position: its deal, the totals and counts before it
        d0 = trk[T.T_DEAL]
        capped = trk[H_CAPPED]
        stalled = trk[H_STALLED]
        for s in range(MAX_SEATS):
            totals[s] = trk[H_TOTALS + s]
    for d in range(d0, ndeals):
        if row + seats > row_end:
            return ROWS_FULL, written
        if trk[T.T_WANT] == 1 and trk[T.T_DEAL] == d and trk[T.T_RESUME] == 0:
            trk[H_CAPPED] = capped
            trk[H_STALLED] = stalled
        status, es, ev = deal_fn(seed_key, d, (dealer0 + d) % seats, rules, deal_fns, st,
                                 deal_cols, row, log, log_on, debug, preset)
        if status != OK:
            err[0] = es
            err[1] = smap[es] if 0 <= es < MAX_SEATS else es
            err[2] = ev
            return status, written
        if log_on and log[0, 1] != 0:
            return LOG_FULL, written
        capped += deal_cols[O.D_END, row] == O.END_CAP
        stalled += deal_cols[O.D_END, row] == O.END_STALL
        row += seats
        written += seats
    winner = -1
    best = 1 << 40
    tied = 0
    for s in range(seats):
        if totals[s] < best:
            best = totals[s]
            winner = s
            tied = 1
        elif totals[s] == best:
            tied += 1
    game_row[O.G_DEALS] = ndeals
    game_row[O.G_PLAYERS] = seats
    game_row[O.G_DEALER] = dealer0
    game_row[O.G_WINNER] = winner if tied == 1 else -1
    game_row[O.G_ROTATION] = rot
    game_row[O.G_WINNER_STRATEGY] = smap[winner] if tied == 1 else -1
    game_row[O.G_TIED] = tied
    game_row[O.G_CAPPED] = capped
    game_row[O.G_STALLED] = stalled
    for s in range(MAX_SEATS):
        game_row[O.G_TOTAL0 + s] = totals[s] if s < seats else -1
    if log_on:
        i = emit(log, EV_GAME_END, game_row[O.G_WINNER], tied, ndeals, 0, 0, 0)
        if i >= 0:
            for s in range(seats):
                log[i, 7 + s] = totals[s]
    return OK, written


# the engine passes _play_one fns = (the strategies' pointers, these pointers in this order):
# _play_one calls play_deal through fns[1][0], so its compile does not link in and optimize
# again all of play_deal (about 10 s of every cold start), and play_deal the search through
# fns[1][1]
KERNEL = Kernel(_new_state, _play_one, CTX, STRATEGY_FNS, np.int32, LOG_W,
                pointers=((play_deal, PLAY_DEAL_SIG), (_search_of, SEARCH_SIG)))
