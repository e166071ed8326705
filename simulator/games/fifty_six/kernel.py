"""56 kernel: deal, auction, tricks and scoring of whole games or single deals, in Numba.

``_play_one`` is the one place a 56 game is played; ``play_deal`` runs the phases of a deal
(``deal_cards``, ``auction``, ``contract``, ``tricks``, ``score``, ``write_row``), written as
functions and inlined into ``play_deal`` once each (as calls they cost a third of the random
kernel's speed in reference counting of the arrays they take). The strategies are not inlined:
with every built-in inlined at three call sites, ``play_deal`` took four minutes to compile
(docs/design.md, "Compile time"). ``_play_one`` is handed to the engine (simulator.engine),
whose block loop plays it over blocks of game indices on a few threads and
whose replay plays one game with the event log switched on; deal rows are int32 columns (one
value per deal and column, column-major). Randomness: the shuffle of deal ``d`` of
game ``g`` comes from sub-stream (g, DEAL, d) and each seat's strategy draws from (g, SEAT, s).
"""
from collections import namedtuple

import numpy as np
from numba import njit, types, uint64

from cardsim.simulator import rng as R
from cardsim.simulator import track as T
from cardsim.simulator.bits import ctz
from cardsim.simulator.engine import (
    BAD, CTX, INVARIANT, LOG_FULL, OK, ROWS_FULL, Ctx, Kernel, state_type,  # noqa: F401 (Ctx)
)
from cardsim.simulator.nrt import borrow
from cardsim.simulator.rules import Slots
from cardsim.simulator.tables import emit as _emit
from cardsim.simulator.games.fifty_six import dispatch as D
from cardsim.simulator.games.fifty_six import outcomes as O
from cardsim.simulator.games.fifty_six import rules as RU
from cardsim.simulator.games.fifty_six import view as V
from cardsim.simulator.games.fifty_six.view import (
    DOUBLE, L_DOUBLE, L_LAST_TRUMP, L_LAST_VALUE, L_MAX, L_MIN, L_OPENING, L_PASS, L_REDOUBLE,
    L_THANI, NO_TRUMPS, PASS, POINTS, REDOUBLE, SLOT_CODE, SLOT_OF, STRENGTH, SUIT, SUIT_MASK,
    TRUMP_HIDDEN, trick_winner,
)
from cardsim.simulator.cards import deck as _deck

ZERO = np.uint64(0)
ONE = np.uint64(1)
DECK_48 = _deck(V.RANKS_4_6, copies=2)
DECK_64 = _deck(V.RANKS_8, copies=2)

# kernel status codes (also the error kinds reported to Python)
BAD_BID, BAD_PLAY, BAD_REVEAL = range(BAD, BAD + 3)

# replay event kinds; every event is a row of LOG_W int32: kind, then fields
(EV_GAME, EV_DEAL, EV_REDEAL, EV_HAND, EV_CALL, EV_CONTRACT, EV_REVEAL, EV_PLAY, EV_TRICK,
 EV_SCORE, EV_GAME_END) = range(11)
LOG_W = 20

FNS = types.UniTuple(V.DECISION_FN, V.MAX_TEAMS)
# the strategies' functions as prepare() packs them: bid, play and reveal (view.DECISIONS, at
# view.BID, PLAY, REVEAL), each by strategy slot
FNS3 = types.Tuple((FNS, FNS, FNS))


@njit(cache=True)
def _emit_hand(log, seat, hand, n):
    i = _emit(log, EV_HAND, seat, n, 0, 0, 0, 0)
    if i >= 0:
        for k in range(n):
            log[i, 3 + k] = hand[k]


# The scratch arrays of one game, by name. Kernels get the unowned views (see new_state).
State = namedtuple("State", (
    "hands",    # int8 (seat, 16): hands as card codes, for strategies of the array interface
    "hand_n",   # cards in each hand
    "deck",     # int8 64: the shuffled deck
    "public",   # int16: the public record (view.PB_*)
    "private",  # int16 (seat, view.PV_LEN): what only a seat knows
    "legal",    # int8 16: the legal flags (or bid limits) handed to a decision
    "rngs",     # uint64 (seat + 1, 2): one stream per seat, then the deal's
    "feats",    # int32 (seat, 8): jacks, nines, points, suit counts x4 of the dealt hand
    "order",    # seats in turn order from the dealer's right
    "tables",   # tables each team holds
    "params",   # float64 (team, params): strategy parameters (filled by the caller)
    "hmask",    # uint64 per seat: the hand as a mask of card slots (view.SLOT_OF)
    "slots",    # slot of each position of a hand handed to a strategy
    "pos_of",   # a seat's place in ``order``
    "smap",     # strategy slot playing for each team (duplicate seating)
    "trk",      # decision tracking (simulator.track): flags, then the deal header (H_*)
    "tape",     # int32: the tracked deal's decisions (a call code, a card code, 0/1 reveal)
))

# the deal header, after simulator.track's flags: what a resumed game starts its deal from
_H = Slots()
H_DEALER = T.T_HEAD + _H.one("H_DEALER")
H_TABLES = T.T_HEAD + _H.block("H_TABLES", V.MAX_TEAMS)  # each team's tables before the deal
H_ACTIVE = T.T_HEAD + _H.block("H_ACTIVE", V.MAX_SEATS)  # seats still playing (pairs)
H_REDEALS = T.T_HEAD + _H.one("H_REDEALS")  # weak hands redealt before this deal
H_DECK = T.T_HEAD + _H.block("H_DECK", 64)  # the deal's cards, in dealing order
HEADER = _H.size
TAPE_CAP = 2 * V.MAX_CALLS  # calls, plays (every play, one legal card or not) and a reveal
STREAM_ROWS = V.MAX_SEATS + 1  # the rngs rows a stop saves


def _new_state(ctx):
    """Scratch arrays for one game, allocated once per block of games.

    Returns (owners, state): ``state`` holds unowned views (simulator.nrt.borrow) of the
    arrays in ``owners``, which the caller keeps alive while it plays.
    """
    o = State(
        np.zeros((V.MAX_SEATS, 16), np.int8), np.zeros(V.MAX_SEATS, np.int64),
        np.zeros(64, np.int8), np.zeros(V.PB_LEN, np.int16),
        np.zeros((V.MAX_SEATS, V.PV_LEN), np.int16), np.zeros(16, np.int8),
        np.zeros((V.MAX_SEATS + 1, 2), np.uint64), np.zeros((V.MAX_SEATS, 8), np.int32),
        np.zeros(V.MAX_SEATS, np.int64), np.zeros(V.MAX_TEAMS, np.int64),
        ctx.params.copy(), np.zeros(V.MAX_SEATS, np.uint64),
        np.zeros(16, np.int64), np.zeros(V.MAX_SEATS, np.int64),
        np.zeros(V.MAX_TEAMS, np.int64), *T.track_arrays(HEADER, TAPE_CAP, STREAM_ROWS))
    st = State(
        borrow(o.hands), borrow(o.hand_n), borrow(o.deck), borrow(o.public),
        borrow(o.private), borrow(o.legal), borrow(o.rngs), borrow(o.feats), borrow(o.order),
        borrow(o.tables), borrow(o.params), borrow(o.hmask), borrow(o.slots),
        borrow(o.pos_of), borrow(o.smap), borrow(o.trk), borrow(o.tape))
    return o, st


@njit(cache=True, inline="always")
def _next_seat(seat, step, seats, public):
    """The next seat still at the table, going ``step`` (+1 or -1) round the table."""
    s = seat
    while True:
        s += step
        s = s - seats if s >= seats else (s + seats if s < 0 else s)
        if public[V.PB_ACTIVE + s] == 1:
            return s


@njit(cache=True)
def _to_arrays(hands, hand_n, legal, slots, seat, h, lm):
    """The array view of a hand mask for strategies: cards in slot order, legal flags from lm,
    and the slot of each position (to map a chosen index back)."""
    n = 0
    m = h
    while m != ZERO:
        b = np.int64(ctz(m))
        hands[seat, n] = SLOT_CODE[b]
        legal[n] = (lm >> uint64(b)) & ONE
        slots[n] = b
        n += 1
        m &= m - ONE
    hand_n[seat] = n


@njit(cache=True)
def deal_stake(rules, value, thani, made, level):
    """Tables per paying/receiving team: payout band x double level (thani: bid 56 + extra)."""
    if thani:
        base = rules[RU.R_PAY_WIN + 56] if made else rules[RU.R_PAY_LOSE + 56]
        base += rules[RU.R_THANI_EXTRA]
    else:
        base = rules[RU.R_PAY_WIN + value] if made else rules[RU.R_PAY_LOSE + value]
    return base * level


@njit(cache=True)
def settle(tables, nteams, cteam, made, stake):
    """Move ``stake`` tables between the contract team and each other team still in the game
    (to it if made, from it if not), never more than the payer has; returns tables moved.
    When a losing team cannot pay everyone, teams are paid in seat order after it."""
    moved = 0
    for k in range(1, nteams):
        o = (cteam + k) % nteams
        if tables[o] <= 0:
            continue
        if made:
            amt = min(stake, tables[o])
            tables[o] -= amt
            tables[cteam] += amt
        else:
            amt = min(stake, tables[cteam])
            tables[cteam] -= amt
            tables[o] += amt
        moved += amt
    return moved


@njit(cache=True)
def _features(hands, hand_n, seat, feats):
    for k in range(8):
        feats[seat, k] = 0
    for i in range(hand_n[seat]):  # branch-free: the cards are random
        c = hands[seat, i]
        st = STRENGTH[c]
        feats[seat, 0] += st == 7
        feats[seat, 1] += st == 6
        feats[seat, 2] += POINTS[c]
        feats[seat, 3 + SUIT[c]] += 1


@njit(cache=True)
def _weak(public, feats, nteams):
    """redeal_weak_hands: some hand has no card points, or some team holds no jack."""
    team_jacks = np.zeros(V.MAX_TEAMS, np.int64)
    for s in range(public[V.PB_SEATS]):
        if public[V.PB_ACTIVE + s] == 1:
            if feats[s, 2] == 0:
                return True
            team_jacks[public[V.PB_TEAM_OF + s]] += feats[s, 0]
    for t in range(nteams):
        if team_jacks[t] == 0:
            for s in range(public[V.PB_SEATS]):
                if public[V.PB_ACTIVE + s] == 1 and public[V.PB_TEAM_OF + s] == t:
                    return True
    return False


@njit(cache=True, inline="always")
def deal_cards(seed_key, d, dealer, rules, st, log, log_on, preset):
    """Seat order, shuffle and deal (redealing weak hands with the same dealer), the public
    record reset for the deal, and the hands as masks. Returns (n_act, first, ncards,
    redeals)."""
    hands = st.hands
    hand_n = st.hand_n
    deck = st.deck
    public = st.public
    private = st.private
    rngs = st.rngs
    feats = st.feats
    order = st.order
    tables = st.tables
    hmask = st.hmask
    pos_of = st.pos_of
    seats = public[V.PB_SEATS]
    nteams = public[V.PB_NTEAMS]
    step = -1 if rules[RU.R_SHEET_ORDER] else 1
    # seats in turn order, starting at the dealer's right (next active seat after the dealer)
    n_act = np.int64(0)  # not a literal 0: calls below would be compiled for it too
    for s in range(seats):
        n_act += public[V.PB_ACTIVE + s]
    first = _next_seat(dealer, 1, seats, public)
    order[0] = first
    for k in range(1, n_act):
        order[k] = _next_seat(order[k - 1], step, seats, public)
    for k in range(n_act):
        pos_of[order[k]] = k
    hsize = 12 if n_act == 4 else 8
    ncards = n_act * hsize
    template = DECK_64 if ncards == 64 else DECK_48

    dr = rngs[V.MAX_SEATS]
    R.substream(dr, seed_key, R.SUB_DEAL, d)
    trk = st.trk
    tracked = T.deal_starts(trk, d)
    from_header = tracked and trk[T.T_RESUME] == 1  # a position's cards, as they were dealt
    redeals = trk[H_REDEALS] if from_header else 0
    while True:
        for i in range(ncards):
            deck[i] = trk[H_DECK + i] if from_header else template[i]
        if not from_header:
            R.shuffle_or_preset(deck, ncards, preset,
                                    T.preset_deal(trk, d) and redeals == 0, dr)
        for k in range(n_act):
            s = order[k]
            for i in range(hsize):
                hands[s, i] = deck[k * hsize + i]
            hand_n[s] = hsize
            _features(hands, hand_n, s, feats)
        if (from_header or rules[RU.R_REDEAL_WEAK] == 0 or redeals >= 10000
                or not _weak(public, feats, nteams)):
            break
        if log_on:
            _emit(log, EV_REDEAL, d, redeals, 0, 0, 0, 0)
            for k in range(n_act):
                _emit_hand(log, order[k], hands[order[k]], hand_n[order[k]])
        redeals += 1
    if tracked and not from_header:  # the header a resumed game starts this deal from
        trk[H_DEALER] = dealer
        trk[H_REDEALS] = redeals
        for tm in range(V.MAX_TEAMS):
            trk[H_TABLES + tm] = tables[tm]
        for s in range(V.MAX_SEATS):
            trk[H_ACTIVE + s] = public[V.PB_ACTIVE + s]
        for i in range(64):
            trk[H_DECK + i] = deck[i] if i < ncards else -1

    _reset_public(public, private, tables, hand_n, n_act, dealer, first, step, d)
    if log_on:
        _emit(log, EV_DEAL, d, dealer, n_act, redeals, first, step)
        for k in range(n_act):
            _emit_hand(log, order[k], hands[order[k]], hand_n[order[k]])
    # hands as masks of card slots (see SLOT_OF): read by mask-aware built-ins, played from
    for k in range(n_act):
        s = order[k]
        m = ZERO
        for i in range(hand_n[s]):
            slot = uint64(SLOT_OF[hands[s, i]])
            slot += (m >> slot) & ONE  # the second copy of an identical card
            m |= ONE << slot
        hmask[s] = m
    return n_act, first, ncards, redeals


@njit(cache=True, inline="always")
def _reset_public(public, private, tables, hand_n, n_act, dealer, first, step, d):
    seats = public[V.PB_SEATS]
    public[V.PB_ACTIVE_N] = n_act
    public[V.PB_DEALER] = dealer
    public[V.PB_FIRST] = first
    public[V.PB_STEP] = step
    public[V.PB_PHASE] = 0
    public[V.PB_HIGH_VALUE] = 0
    public[V.PB_HIGH_TRUMP] = -1
    public[V.PB_HIGH_FORM] = -1
    public[V.PB_HIGH_BIDDER] = -1
    public[V.PB_LEVEL] = 1
    public[V.PB_DOUBLER] = -1
    public[V.PB_PASSES] = 0
    public[V.PB_NCALLS] = 0
    public[V.PB_BIDDER] = -1
    public[V.PB_CONTRACT_TEAM] = -1
    public[V.PB_BID] = 0
    public[V.PB_TRUMP] = -1
    public[V.PB_THANI] = 0
    public[V.PB_TRICK] = 0
    public[V.PB_TRICK_N] = 0
    public[V.PB_LEADER] = -1
    public[V.PB_LED_SUIT] = -1
    public[V.PB_TRUMP_BROKEN] = 0
    public[V.PB_REVEALED_BY] = -1
    public[V.PB_DEAL_INDEX] = d
    for t in range(V.MAX_TEAMS):
        public[V.PB_TEAM_POINTS + t] = 0
        public[V.PB_TABLES + t] = tables[t]
    for c in range(53):
        public[V.PB_PLAYED + c] = 0
    for su in range(4):
        public[V.PB_SHOWN_OUT + su] = 0
        public[V.PB_THREW + su] = 0
    for s in range(V.MAX_SEATS):
        public[V.PB_HAND_N + s] = hand_n[s] if (s < seats and public[V.PB_ACTIVE + s]) else 0
        private[s, V.PV_TRUMP] = -1
        private[s, V.PV_MY_BID_TRUMP] = -1
        private[s, V.PV_SITS_OUT] = 0


@njit(cache=True, inline="always")
def auction(rules, sids, bid_fns, st, n_act, row_out, log, log_on):
    """Calls round the table until the auction ends. Returns (status, value, real trump,
    form, bidder, level, calls, bids, opening seat, opening value); value 0 when all passed.
    On an illegal call row_out[0..2] = (seat, team, call)."""
    hands = st.hands
    hand_n = st.hand_n
    public = st.public
    private = st.private
    legal = st.legal
    rngs = st.rngs
    order = st.order
    params = st.params
    hmask = st.hmask
    smap = st.smap
    trk = st.trk
    tracking = trk[T.T_ON] == 1  # fixed for the deal: a local the loop tests cheaply
    hidden = rules[RU.R_HIDDEN_TRUMP] == 1
    min_bid = rules[RU.R_MIN_BID]
    max_bid = rules[RU.R_MAX_BID]
    thani_on = rules[RU.R_THANI] == 1
    bid_over_double = rules[RU.R_BID_OVER_DOUBLE] == 1
    pos = 0
    passes = 0
    # np.int64, not literals: the calls in the loop would be compiled for the literals too
    high_v = np.int64(0)
    high_t = np.int64(-1)  # real trump of the highest bid
    high_f = -1
    high_b = np.int64(-1)
    level = np.int64(1)
    ncalls = 0
    nbids = 0
    open_seat = -1
    open_value = 0
    while True:
        seat = order[pos]
        team = public[V.PB_TEAM_OF + seat]
        # the bid limits (see view.L_*), written here rather than in a helper: every array
        # handed to a function, inlined or not, costs reference-count calls the compiler
        # cannot always remove, and this loop runs for every call of the auction
        opening = high_v == 0
        legal[L_PASS] = 1
        legal[L_DOUBLE] = 1 if (high_v > 0 and level == 1
                                and public[V.PB_TEAM_OF + high_b] != team) else 0
        legal[L_REDOUBLE] = 1 if (level == 2 and public[V.PB_TEAM_OF + high_b] == team) else 0
        can_bid = level == 1 or bid_over_double
        lo = min_bid if opening else max(min_bid, high_v + 1)
        legal[L_MIN] = lo if (can_bid and lo <= max_bid) else 0
        legal[L_MAX] = max_bid
        legal[L_THANI] = 1 if (thani_on and can_bid and high_v <= max_bid) else 0
        legal[L_OPENING] = 1 if opening else 0
        legal[L_LAST_TRUMP] = public[V.PB_HIGH_TRUMP]
        legal[L_LAST_VALUE] = high_v
        # the strategy of slot sl, through the dispatch (built-ins by id, a plug-in through
        # its pointer): a built-in calls from the hand mask, a plug-in (-1) is asked through
        # the decision interface; the rows passed are unowned views (see simulator.nrt)
        sl = smap[team]
        sid = sids[sl]
        forced = T.NOT_FORCED
        if tracking:
            forced = T.at_decision(trk, st.tape, rngs, seat, V.BID)
            if forced == T.HALT:
                return T.STOPPED, 0, -1, -1, -1, 1, 0, 0, -1, 0
        if forced != T.NOT_FORCED:
            raw = forced
        else:
            raw = D.hook_bid_mask(sid, hmask[seat], public, private[seat], legal, params[sl],
                                  rngs[seat])
            if raw < 0:
                raw = D.decide_bid(sid, bid_fns[sl], hands[seat], hand_n[seat], public,
                                   private[seat], legal, params[sl], rngs[seat])
        call = V.bid_is_valid(raw, legal, high_t)
        if forced != T.NOT_FORCED and call != raw:  # not the call the tape says
            return T.BAD_TAPE, 0, -1, -1, -1, 1, 0, 0, -1, 0
        if tracking:
            T.answered(trk, st.tape, call)
        if call < 0:
            row_out[0] = seat
            row_out[1] = team
            row_out[2] = raw
            return BAD_BID, 0, -1, -1, -1, 1, 0, 0, -1, 0
        seen = call
        if call >= 64:
            ct = V.call_trump(call)
            if hidden and ct != NO_TRUMPS:
                seen = V.bid_code(V.call_value(call), TRUMP_HIDDEN, V.call_form(call))
            private[seat, V.PV_MY_BID_TRUMP] = ct
        if ncalls < V.MAX_CALLS:
            public[V.PB_CALLS + 2 * ncalls] = seat
            public[V.PB_CALLS + 2 * ncalls + 1] = seen
        ncalls += 1
        public[V.PB_NCALLS] = min(ncalls, V.MAX_CALLS)
        if log_on:
            _emit(log, EV_CALL, seat, call, seen, 0, 0, 0)
        done = False
        if call == PASS:
            passes += 1
            if (high_v == 0 and passes == n_act) or (high_v > 0 and passes == n_act - 1):
                done = True
        elif call == DOUBLE:
            level = 2
            public[V.PB_DOUBLER] = seat
            passes = 0
        elif call == REDOUBLE:
            level = 4
            done = True
        else:
            high_v = V.call_value(call)
            high_t = V.call_trump(call)
            high_f = V.call_form(call)
            high_b = seat
            level = 1
            public[V.PB_DOUBLER] = -1
            passes = 0
            nbids += 1
            if open_seat < 0:
                open_seat = seat
                open_value = high_v
            public[V.PB_HIGH_VALUE] = high_v
            public[V.PB_HIGH_TRUMP] = V.call_trump(seen)
            public[V.PB_HIGH_FORM] = high_f
            public[V.PB_HIGH_BIDDER] = high_b
        public[V.PB_LEVEL] = level
        public[V.PB_PASSES] = passes
        if done:
            return (OK, high_v, high_t, high_f, high_b, level, ncalls, nbids, open_seat,
                    open_value)
        pos = pos + 1 if pos + 1 < n_act else 0


@njit(cache=True)
def fixed_contract(rules, st, n_act):
    """The rules' fixed contract (no auction), made public as a last bid would be. Returns
    what ``auction`` returns. ``best``: the bidder's longest suit; a tie goes to the suit with
    more card points in the hand, then to the first in S, H, D, C."""
    public = st.public
    bidder = st.order[rules[RU.R_FIXED + 1] % n_act]
    value = rules[RU.R_FIXED + 2]
    trump = rules[RU.R_FIXED + 3]
    level = rules[RU.R_FIXED + 4]
    if trump == RU.BEST:  # suit lengths from the deal's features (3 + suit)
        length = st.feats[bidder]
        pts = np.zeros(4, np.int64)
        for i in range(st.hand_n[bidder]):
            c = st.hands[bidder, i]
            pts[SUIT[c]] += POINTS[c]
        trump = 0
        for su in range(1, 4):
            if length[3 + su] > length[3 + trump] or (length[3 + su] == length[3 + trump]
                                                      and pts[su] > pts[trump]):
                trump = su
    form = V.F_NUMBER_NT if trump == NO_TRUMPS else V.F_NUMBER_SUIT
    seen = TRUMP_HIDDEN if (rules[RU.R_HIDDEN_TRUMP] == 1 and trump != NO_TRUMPS) else trump
    st.private[bidder, V.PV_MY_BID_TRUMP] = trump
    public[V.PB_HIGH_VALUE] = value
    public[V.PB_HIGH_TRUMP] = seen
    public[V.PB_HIGH_FORM] = form
    public[V.PB_HIGH_BIDDER] = bidder
    public[V.PB_LEVEL] = level
    # doubled by the next opponent in turn order (redoubled: back by the bidder)
    doubler = -1
    if level > 1:
        k = st.pos_of[bidder]
        for j in range(1, n_act):
            s = st.order[(k + j) % n_act]
            if public[V.PB_TEAM_OF + s] != public[V.PB_TEAM_OF + bidder]:
                doubler = s
                break
    public[V.PB_DOUBLER] = doubler
    return OK, value, trump, form, bidder, level, 0, 0, -1, 0


@njit(cache=True, inline="always")
def contract(rules, st, first, high_v, high_t, high_f, high_b, level, log, log_on):
    """The contract from the auction (all passed: the all-pass bid, no trumps, for the team
    on the dealer's right), made public as far as the rules show it; thani partners sit
    out. Returns (bidder, team, value, trump, form, trump shown)."""
    public = st.public
    if high_v == 0:
        bidder = -1
        cteam = public[V.PB_TEAM_OF + first]
        value = rules[RU.R_ALL_PASS_BID]
        trump = NO_TRUMPS
        form = V.F_ALL_PASS
    else:
        bidder = high_b
        cteam = public[V.PB_TEAM_OF + bidder]
        value = high_v
        trump = high_t
        form = high_f
    thani = form == V.F_THANI
    public[V.PB_PHASE] = 1
    public[V.PB_BIDDER] = bidder
    public[V.PB_CONTRACT_TEAM] = cteam
    public[V.PB_BID] = value
    public[V.PB_THANI] = 1 if thani else 0
    hidden = rules[RU.R_HIDDEN_TRUMP] == 1
    trump_shown = not (hidden and trump != NO_TRUMPS and bidder >= 0)
    public[V.PB_TRUMP] = trump if trump_shown else TRUMP_HIDDEN
    for s in range(public[V.PB_SEATS]):
        st.private[s, V.PV_TRUMP] = trump if (trump_shown or s == bidder) else TRUMP_HIDDEN
        if thani and s != bidder and public[V.PB_TEAM_OF + s] == cteam:
            st.private[s, V.PV_SITS_OUT] = 1
    if log_on:
        _emit(log, EV_CONTRACT, bidder, cteam, value, trump, form, level)
    return bidder, cteam, value, trump, form, trump_shown


@njit(cache=True)
def _reveal_asked(sids, reveal_fns, st, team, seat, h, t, trump, broken, row_out, log,
                  log_on):
    """A player who cannot follow while the trump is hidden may ask for it. Returns
    (status, asked); when asked, the trump is made public."""
    _to_arrays(st.hands, st.hand_n, st.legal, st.slots, seat, h, h)
    sl = st.smap[team]
    forced = T.NOT_FORCED
    trk = st.trk
    if trk[T.T_ON] == 1:
        forced = T.at_decision(trk, st.tape, st.rngs, seat, V.REVEAL)
        if forced == T.HALT:
            return T.STOPPED, False
    if forced != T.NOT_FORCED:
        if forced != 0 and forced != 1:
            return T.BAD_TAPE, False
        ask = forced
    else:
        ask = D.decide_reveal(sids[sl], reveal_fns[sl], st.hands[seat], st.hand_n[seat],
                              st.public, st.private[seat], st.legal, st.params[sl],
                              st.rngs[seat])
    if trk[T.T_ON] == 1 and (ask == 0 or ask == 1):
        T.answered(trk, st.tape, ask)
    if ask != 0 and ask != 1:
        row_out[0] = seat
        row_out[1] = team
        row_out[2] = ask
        return BAD_REVEAL, False
    if ask == 1:
        public = st.public
        public[V.PB_TRUMP] = trump
        public[V.PB_REVEALED_BY] = seat
        public[V.PB_TRUMP_BROKEN] = 1 if broken else 0
        for s in range(public[V.PB_SEATS]):
            st.private[s, V.PV_TRUMP] = trump
        if log_on:
            _emit(log, EV_REVEAL, seat, trump, t, 0, 0, 0)
    return OK, ask == 1


@njit(cache=True, inline="always")
def tricks(rules, sids, play_fns, reveal_fns, st, n_act, ncards, bidder, cteam, trump, thani,
           trump_shown, row_out, log, log_on, debug):
    """Every trick of the deal (hands as masks of card slots: see SLOT_OF). Returns
    (status, tricks won by the contract team, trick in which a hidden trump was shown)."""
    hands = st.hands
    hand_n = st.hand_n
    public = st.public
    private = st.private
    legal = st.legal
    rngs = st.rngs
    order = st.order
    params = st.params
    hmask = st.hmask
    slots = st.slots
    pos_of = st.pos_of
    smap = st.smap
    trk = st.trk
    tracking = trk[T.T_ON] == 1
    hsize = ncards // n_act
    leader_pos = 0
    while thani and private[order[leader_pos], V.PV_SITS_OUT] == 1:
        leader_pos += 1
    no_trump_lead = rules[RU.R_NO_TRUMP_LEAD] == 1 and trump < 4
    trump_mask = SUIT_MASK[trump] if trump < 4 else ZERO
    broken = np.bool_(False)  # not a literal (see auction)
    reveal_trick = -1
    tricks_won = 0
    played = ZERO  # every card played so far (slot mask), for mask-aware strategies
    deck_mask = V.DECK_MASK_64 if ncards == 64 else V.DECK_MASK_48
    nplays = 0
    tr = -1
    for t in range(hsize):
        public[V.PB_TRICK] = t
        public[V.PB_TRICK_N] = 0
        public[V.PB_LEADER] = order[leader_pos]
        public[V.PB_LED_SUIT] = -1
        led_mask = ZERO
        tpts = 0
        ntr = 0
        best_j = 0  # the card winning so far, kept up to date for the strategies
        best_key = -1
        public[V.PB_TRICK_BEST] = -1
        public[V.PB_TRICK_PTS] = 0
        for k in range(n_act):
            p = leader_pos + k
            seat = order[p - n_act if p >= n_act else p]
            if thani and private[seat, V.PV_SITS_OUT] == 1:
                continue
            team = public[V.PB_TEAM_OF + seat]
            h = hmask[seat]
            if ntr == 0:
                lm = h
                knows = trump_shown or seat == bidder or reveal_trick >= 0
                if no_trump_lead and knows and not broken and (h & ~trump_mask) != ZERO:
                    lm = h & ~trump_mask
            else:
                lm = h & led_mask
                if lm == ZERO:
                    lm = h
                    if (not trump_shown) and reveal_trick < 0:
                        status, asked = _reveal_asked(sids, reveal_fns, st, team, seat, h, t,
                                                      trump, broken, row_out, log, log_on)
                        if status != OK:
                            return status, 0, -1
                        if asked:
                            reveal_trick = t
                            if (h & trump_mask) != ZERO:  # the asker must trump if able
                                lm = h & trump_mask
                            # trumps already in the trick count from now on
                            best_j = trick_winner(public, V.PB_TRICK_CARDS, ntr, trump)
                            best_key = V.trick_key(public[V.PB_TRICK_CARDS + best_j], trump,
                                                   public[V.PB_LED_SUIT])
                            public[V.PB_TRICK_BEST] = best_j
            # the card: written here, not in a helper (see auction on reference counts)
            forced = T.NOT_FORCED
            if tracking:  # every play is a tracked decision, a forced one too
                forced = T.at_decision(trk, st.tape, rngs, seat, V.PLAY)
                if forced == T.HALT:
                    return T.STOPPED, 0, -1
            if forced != T.NOT_FORCED:  # the tape's card, either copy of it
                if forced < 0 or forced >= 52:
                    return T.BAD_TAPE, 0, -1
                slot = SLOT_OF[forced]
                if (lm >> uint64(slot)) & ONE == ZERO:
                    slot += 1
                    if (lm >> uint64(slot)) & ONE == ZERO:
                        return T.BAD_TAPE, 0, -1
            elif (lm & (lm - ONE)) == ZERO:
                slot = np.int64(ctz(lm))  # one legal card: played without asking
            else:
                sl = smap[team]
                sid = sids[sl]
                slot = D.hook_play_mask(sid, h, lm, public, private[seat], params[sl], played,
                                        deck_mask, rngs[seat])
                if slot < 0:  # not a mask-aware strategy: ask through the array interface
                    _to_arrays(hands, hand_n, legal, slots, seat, h, lm)
                    idx = D.decide_play(sid, play_fns[sl], hands[seat], hand_n[seat], public,
                                        private[seat], legal, params[sl], rngs[seat])
                    if idx < 0 or idx >= hand_n[seat] or legal[idx] == 0:
                        row_out[0] = seat
                        row_out[1] = team
                        row_out[2] = idx
                        return BAD_PLAY, 0, -1
                    slot = slots[idx]
            h &= ~(ONE << uint64(slot))
            hmask[seat] = h
            card = SLOT_CODE[slot]
            if tracking:
                T.answered(trk, st.tape, card)
            public[V.PB_HAND_N + seat] -= 1
            public[V.PB_TRICK_SEATS + ntr] = seat
            public[V.PB_TRICK_CARDS + ntr] = card
            ntr += 1
            public[V.PB_TRICK_N] = ntr
            public[V.PB_PLAYED + card] += 1
            pb = uint64(SLOT_OF[card])
            played |= ONE << (pb + ((played >> pb) & ONE))
            if nplays < 64:
                public[V.PB_PLAYS + 2 * nplays] = seat
                public[V.PB_PLAYS + 2 * nplays + 1] = card
            nplays += 1
            if (trump_mask >> uint64(slot)) & ONE:
                broken = True
                if trump_shown or reveal_trick >= 0:  # public only once the trump is known
                    public[V.PB_TRUMP_BROKEN] = 1
            tpts += POINTS[card]
            if log_on:
                _emit(log, EV_PLAY, seat, card, t, 0, 0, 0)
            if ntr == 1:
                led_mask = SUIT_MASK[SUIT[card]]
                public[V.PB_LED_SUIT] = SUIT[card]
            elif SUIT[card] != public[V.PB_LED_SUIT]:  # kept here so players need not rescan
                public[V.PB_SHOWN_OUT + public[V.PB_LED_SUIT]] |= 1 << seat
                public[V.PB_THREW + SUIT[card]] |= 1 << seat
            # trumps count once shown (also those played earlier in the trick that shows them)
            tr = trump if (trump < 4 and (trump_shown or reveal_trick >= 0)) else -1
            key = V.trick_key(card, tr, public[V.PB_LED_SUIT])
            if key > best_key:  # an identical card played later does not take over
                best_key = key
                best_j = ntr - 1
            public[V.PB_TRICK_BEST] = best_j
            public[V.PB_TRICK_PTS] = tpts
        if debug and best_j != trick_winner(public, V.PB_TRICK_CARDS, ntr, tr):
            return INVARIANT, 0, -1
        best_seat = public[V.PB_TRICK_SEATS + best_j]
        wteam = public[V.PB_TEAM_OF + best_seat]
        public[V.PB_TEAM_POINTS + wteam] += tpts
        public[V.PB_TRICK_WINNERS + t] = best_seat
        if wteam == cteam:
            tricks_won += 1
        if log_on:
            _emit(log, EV_TRICK, t, best_seat, tpts, 0, 0, 0)
        leader_pos = pos_of[best_seat]
    return OK, tricks_won, reveal_trick


@njit(cache=True)
def deal_conserved(st, n_act, ncards):
    """Debug invariant after the tricks: every card of the deck is in a trick or in a hand
    sitting out, and the teams took 56 card points."""
    hands = st.hands
    hand_n = st.hand_n
    public = st.public
    private = st.private
    legal = st.legal
    order = st.order
    hmask = st.hmask
    slots = st.slots
    for k in range(n_act):  # hands as arrays again (what is left: sitting-out hands)
        _to_arrays(hands, hand_n, legal, slots, order[k], hmask[order[k]], ZERO)
    idle = 0
    for s in range(public[V.PB_SEATS]):
        if private[s, V.PV_SITS_OUT] == 1:
            for i in range(hand_n[s]):
                idle += POINTS[hands[s, i]]
                public[V.PB_PLAYED + hands[s, i]] += 1
        elif public[V.PB_ACTIVE + s] == 1 and hand_n[s] != 0:
            return False
    total = 0
    for tm in range(public[V.PB_NTEAMS]):
        total += public[V.PB_TEAM_POINTS + tm]
    if total + idle != 56:
        return False
    seen_cards = 0
    for c in range(53):
        seen_cards += public[V.PB_PLAYED + c]
    if seen_cards != ncards:
        return False
    template = DECK_64 if ncards == 64 else DECK_48
    for i in range(ncards):
        if public[V.PB_PLAYED + template[i]] != 2:
            return False
    return True


@njit(cache=True, inline="always")
def score(rules, st, cteam, value, thani, level, tricks_won, hsize, log, log_on):
    """Whether the contract was made, and the tables it moves. Returns (made, bidding team's
    points, opponents' points, stake, tables moved)."""
    public = st.public
    nteams = public[V.PB_NTEAMS]
    bpts = public[V.PB_TEAM_POINTS + cteam]
    opts = 0
    for tm in range(nteams):
        if tm != cteam:
            opts += public[V.PB_TEAM_POINTS + tm]
    made = tricks_won == hsize if thani else bpts >= value
    stake = deal_stake(rules, value, thani, made, level)
    moved = settle(st.tables, nteams, cteam, made, stake)
    public[V.PB_PHASE] = 2
    if log_on:
        _emit(log, EV_SCORE, 1 if made else 0, bpts, opts, stake, moved, tricks_won)
        i = log[0, 0]
        for tm in range(V.MAX_TEAMS):
            log[i, 7 + tm] = st.tables[tm]
    return made, bpts, opts, stake, moved


@njit(cache=True, inline="always")
def write_row(row_out, st, d, n_act, dealer, bidder, cteam, value, trump, form, level, made,
              bpts, opts, stake, moved, ncalls, nbids, open_seat, open_value, redeals, thani,
              reveal_trick, tricks_won):
    """The deal's row of the deals table (outcomes.DEAL_COLUMNS)."""
    public = st.public
    feats = st.feats
    tables = st.tables
    pos_of = st.pos_of
    smap = st.smap
    row_out[O.D_DEAL] = d
    row_out[O.D_PLAYERS] = n_act
    row_out[O.D_DEALER] = dealer
    row_out[O.D_BIDDER] = bidder
    row_out[O.D_BID] = value
    row_out[O.D_TRUMP] = trump
    row_out[O.D_FORM] = form
    row_out[O.D_LEVEL] = level
    row_out[O.D_TEAM] = cteam
    row_out[O.D_TEAM_POINTS] = bpts
    row_out[O.D_OPP_POINTS] = opts
    row_out[O.D_MADE] = 1 if made else 0
    row_out[O.D_STAKE] = stake
    row_out[O.D_MOVED] = moved
    row_out[O.D_BIDDER_POS] = pos_of[bidder] if bidder >= 0 else -1
    row_out[O.D_CALLS] = ncalls
    row_out[O.D_BIDS] = nbids
    row_out[O.D_OPENER] = open_seat
    row_out[O.D_OPEN_BID] = open_value
    row_out[O.D_REDEALS] = redeals
    row_out[O.D_THANI] = 1 if thani else 0
    row_out[O.D_REVEAL_TRICK] = reveal_trick
    row_out[O.D_TRICKS_WON] = tricks_won
    if bidder >= 0:
        row_out[O.D_BJ] = feats[bidder, 0]
        row_out[O.D_BN] = feats[bidder, 1]
        row_out[O.D_BT] = feats[bidder, 3 + trump] if trump < 4 else 0
        row_out[O.D_BTJ] = feats[bidder, 7]
        row_out[O.D_BP] = feats[bidder, 2]
    else:
        row_out[O.D_BJ] = -1
        row_out[O.D_BN] = -1
        row_out[O.D_BT] = -1
        row_out[O.D_BTJ] = -1
        row_out[O.D_BP] = -1
    tj = 0
    tt = 0
    tp = 0
    for s in range(public[V.PB_SEATS]):
        if public[V.PB_ACTIVE + s] == 1 and public[V.PB_TEAM_OF + s] == cteam:
            tj += feats[s, 0]
            tp += feats[s, 2]
            if trump < 4:
                tt += feats[s, 3 + trump]
    row_out[O.D_TJ] = tj
    row_out[O.D_TT] = tt
    row_out[O.D_TP] = tp
    for tm in range(V.MAX_TEAMS):
        row_out[O.D_TABLES0 + tm] = tables[tm] if tm < public[V.PB_NTEAMS] else -1
    row_out[O.D_ROTATION] = smap[0]
    row_out[O.D_CSTRAT] = smap[cteam]


def _play_deal(seed_key, d, dealer, rules, sids, bid_fns, play_fns, reveal_fns, st,
               row_out, log, log_on, debug, preset):
    """Deal, bid, play and score one deal on the tables in ``st``; fill ``row_out``.

    Returns a status code (OK or the error kind); on error row_out[0..2] hold (seat, team,
    returned value) for the message.
    """
    n_act, first, ncards, redeals = deal_cards(seed_key, d, dealer, rules, st, log, log_on,
                                               preset)
    if rules[RU.R_FIXED] == 1:
        (status, high_v, high_t, high_f, high_b, level, ncalls, nbids, open_seat,
         open_value) = fixed_contract(rules, st, n_act)
    else:
        (status, high_v, high_t, high_f, high_b, level, ncalls, nbids, open_seat,
         open_value) = auction(rules, sids, bid_fns, st, n_act, row_out, log, log_on)
    if status != OK:
        return status
    bidder, cteam, value, trump, form, trump_shown = contract(
        rules, st, first, high_v, high_t, high_f, high_b, level, log, log_on)
    thani = form == V.F_THANI
    if bidder >= 0 and trump < 4:  # the bidder's jacks of trump (feature 7), for the row
        for i in range(st.hand_n[bidder]):
            c = st.hands[bidder, i]
            st.feats[bidder, 7] += STRENGTH[c] == 7 and SUIT[c] == trump
    status, tricks_won, reveal_trick = tricks(
        rules, sids, play_fns, reveal_fns, st, n_act, ncards, bidder, cteam, trump, thani,
        trump_shown, row_out, log, log_on, debug)
    if status != OK:
        return status
    if thani and not debug:  # hands as arrays again (what is left: sitting-out hands)
        for k in range(n_act):
            _to_arrays(st.hands, st.hand_n, st.legal, st.slots, st.order[k], st.hmask[st.order[k]],
                       ZERO)
    made, bpts, opts, stake, moved = score(rules, st, cteam, value, thani, level, tricks_won,
                                           ncards // n_act, log, log_on)
    if debug and not deal_conserved(st, n_act, ncards):
        return INVARIANT
    write_row(row_out, st, d, n_act, dealer, bidder, cteam, value, trump, form, level, made,
              bpts, opts, stake, moved, ncalls, nbids, open_seat, open_value, redeals, thani,
              reveal_trick, tricks_won)
    return OK


@njit(cache=True, inline="always")
def board_of(game_index, rot_k):
    """Duplicate seating (rot_k > 0): games come in sets of rot_k that share their deals
    (the same board), the strategies moving one team on from game to game."""
    return game_index // rot_k if rot_k > 0 else game_index


@njit(cache=True, inline="always")
def _start_game(seed_key, game_index, deals_mode, rules, st, rot_k):
    """Seats, teams, strategy streams, starting tables and the seating of a new game.
    Returns (number of teams, first dealer, rotation)."""
    seats = rules[RU.R_PLAYERS]
    public = st.public
    private = st.private
    nteams = seats // 2 if rules[RU.R_PAIRS] == 1 else 2
    public[V.PB_SEATS] = seats
    public[V.PB_NTEAMS] = nteams
    public[V.PB_MIN_BID] = rules[RU.R_MIN_BID]
    public[V.PB_MAX_BID] = rules[RU.R_MAX_BID]
    public[V.PB_RULE_THANI] = rules[RU.R_THANI]
    public[V.PB_RULE_HIDDEN] = rules[RU.R_HIDDEN_TRUMP]
    public[V.PB_RULE_NO_TRUMP_LEAD] = rules[RU.R_NO_TRUMP_LEAD]
    for v in range(57):  # the stakes are public: bidders weigh a higher band against its risk
        public[V.PB_PAY_WIN + v] = rules[RU.R_PAY_WIN + v]
        public[V.PB_PAY_LOSE + v] = rules[RU.R_PAY_LOSE + v]
    team = 0  # seat s is in team s % nteams (counted up: a division per seat shows per deal)
    for s in range(V.MAX_SEATS):
        public[V.PB_TEAM_OF + s] = team if s < seats else -1
        public[V.PB_ACTIVE + s] = 1 if s < seats else 0
        private[s, V.PV_SEAT] = s
        private[s, V.PV_TEAM] = team
        team = team + 1 if team + 1 < nteams else 0
    for s in range(seats):
        R.substream(st.rngs[s], seed_key, R.SUB_SEAT, s)
    rot = game_index % rot_k if rot_k > 0 else 0
    for tm in range(V.MAX_TEAMS):
        st.tables[tm] = rules[RU.R_START_TABLES] if tm < nteams else 0
        st.smap[tm] = (tm + rot) % nteams if tm < nteams else tm
    if deals_mode:  # the board's deal: games of one duplicate set share their dealer
        dealer = board_of(game_index, rot_k) % seats
    else:
        R.substream(st.rngs[V.MAX_SEATS], seed_key, R.SUB_SETUP, 0)
        dealer = R.below(st.rngs[V.MAX_SEATS], seats)
    return nteams, dealer, rot


@njit(cache=True, inline="always")
def _end_game(st, d, capped, rot, game_row, rules, debug, log, log_on):
    """The game's row (winner, tables); False if tables were not conserved (debug)."""
    tables = st.tables
    nteams = st.public[V.PB_NTEAMS]
    if debug:
        total = 0
        for tm in range(nteams):
            total += tables[tm]
        if total != nteams * rules[RU.R_START_TABLES]:
            return False
    winner = -1
    best = -1
    for tm in range(nteams):
        if tables[tm] > best:
            best = tables[tm]
            winner = tm
        elif tables[tm] == best:
            winner = -1  # a tie (only possible when capped)
    game_row[O.G_DEALS] = d
    game_row[O.G_WINNER] = winner
    game_row[O.G_CAPPED] = capped
    game_row[O.G_PLAYERS] = st.public[V.PB_SEATS]
    game_row[O.G_NTEAMS] = nteams
    game_row[O.G_ROTATION] = rot
    game_row[O.G_WSTRAT] = st.smap[winner] if winner >= 0 else -1
    for tm in range(V.MAX_TEAMS):
        game_row[O.G_TABLES0 + tm] = tables[tm] if tm < nteams else -1
    if log_on:
        _emit(log, EV_GAME_END, winner, capped, d, 0, 0, 0)
        i = log[0, 0]
        for tm in range(V.MAX_TEAMS):
            log[i, 7 + tm] = tables[tm]
    return True


STATE = state_type(_new_state, CTX)  # for play_deal's signature
PLAY_DEAL_SIG = types.int64(
    uint64, types.int64, types.int64, types.int64[::1], types.int64[::1], FNS, FNS, FNS, STATE,
    types.int32[:], types.int32[:, ::1], types.boolean, types.boolean, types.int8[::1])
play_deal = njit(cache=True)(_play_deal)  # compiled by the Kernel, for PLAY_DEAL_SIG
# fns as the engine passes it: (FNS3, (play_deal,)), the kernel's own pointer second:
# _play_one calls play_deal through that pointer, so its compile does not link in and
# optimize again all of play_deal (about 8 s of every cold start)


def _play_one(ctx, fns, st, game_index, deal_cols, row, row_end, game_row, err, log, log_on, debug,
              preset):
    """Play game ``game_index`` (whole game, or in deals mode one deal) for the engine
    (simulator.engine). Deal rows go to columns deal_cols[:, row:row_end] (column-major, so
    each column of the table is contiguous). Returns (status, deals played); on an error
    ``err`` = (seat, team, returned value), from the failing deal's row."""
    rules, sids, deals_mode, rot_k = ctx.rules, ctx.sids, ctx.deals_mode, ctx.rot_k
    seed_key = R.game_key(ctx.seed, board_of(game_index, rot_k))
    seats = rules[RU.R_PLAYERS]
    nteams, dealer, rot = _start_game(seed_key, game_index, deals_mode, rules, st, rot_k)
    if log_on:
        _emit(log, EV_GAME, game_index, seats, nteams, dealer, 1 if deals_mode else 0,
              rules[RU.R_START_TABLES])
        log[log[0, 0], 7] = rot
    pairs = rules[RU.R_PAIRS] == 1
    max_deals = rules[RU.R_MAX_DEALS]
    tables = st.tables
    deal_fn = fns[1][0]  # play_deal, the kernel's own pointer (see KERNEL)
    d = 0
    if T.resuming(st.trk):  # from a position: its deal, dealer, tables and seats
        trk = st.trk
        d = trk[T.T_DEAL]
        dealer = trk[H_DEALER]
        for tm in range(V.MAX_TEAMS):
            tables[tm] = trk[H_TABLES + tm]
        for s in range(V.MAX_SEATS):
            st.public[V.PB_ACTIVE + s] = trk[H_ACTIVE + s]
    d0 = d
    capped = 0
    while True:
        if row + d - d0 >= row_end:
            return ROWS_FULL, d - d0
        r = deal_cols[:, row + d - d0]
        r[O.D_GAME] = 0
        status = deal_fn(seed_key, d, dealer, rules, sids, fns[0][V.BID], fns[0][V.PLAY],
                         fns[0][V.REVEAL], st, r, log, log_on, debug, preset)
        if status != OK:
            if status >= BAD:
                for j in range(3):
                    err[j] = r[j]
            return status, d - d0
        if log_on and log[0, 1] != 0:
            return LOG_FULL, d - d0
        d += 1
        if deals_mode:
            break
        # teams without tables leave (pairs); the game ends when one team is left
        alive = 0
        for tm in range(nteams):
            if tables[tm] > 0:
                alive += 1
        if alive <= 1:
            break
        if pairs:
            for s in range(seats):
                if tables[s % nteams] <= 0:
                    st.public[V.PB_ACTIVE + s] = 0
        if max_deals > 0 and d >= max_deals:
            capped = 1
            break
        dealer = _next_seat(dealer, 1, seats, st.public)
    if not _end_game(st, d, capped, rot, game_row, rules, debug, log, log_on):
        return INVARIANT, d - d0
    return OK, d - d0


KERNEL = Kernel(_new_state, _play_one, CTX, FNS3, np.int8, LOG_W,
                pointers=((play_deal, PLAY_DEAL_SIG),))
