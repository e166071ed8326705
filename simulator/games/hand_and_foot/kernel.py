"""Hand and Foot kernel: deal, turns (draw, meld, feet, going out, discard) and scoring, in Numba.

``_play_one`` plays one game for the shared engine (simulator.engine), whose block loop runs
it over blocks of game indices on a few threads and whose replay plays one game with the event
log on; deal rows are int32 columns (one row per deal and team). It calls ``_play_deal`` once
per deal through a function pointer (``fns[1][0]``, ``PLAY_DEAL``, the kernel's own pointer
that the engine passes beside the strategies ``fns[0]``: compiled on its own, so
``_play_one`` does not link in and re-optimise its code). Strategies are asked through the
game's generated dispatch (``dispatch.py``: built-ins called directly by id, plug-ins through
their pointers). ``_play_deal`` holds the play of a deal: the phases ``_deal``,
``_check_cards`` and ``_score`` (``inline="always"``, called exactly once) and the turn loop
(draw, meld, discard) written out on local arrays. State is counts per card kind
(view.KIND_OF) for hands, feet, melds and the pile; the stock keeps card codes so a replay can
name every card.
Randomness: the shuffle (and upcard burials) of deal ``d`` come from sub-stream (g, DEAL, d),
each seat's strategy draws from (g, SEAT, s), the first dealer from (g, SETUP, 0).
"""
from collections import namedtuple

import numpy as np
from numba import njit, types, uint64
from numba.cpython.unsafe.numbers import trailing_zeros

from cardsim.simulator import rng as R
from cardsim.simulator import track as T
from cardsim.simulator.cards import RANKS, deck as _deck
from cardsim.simulator.engine import BAD, INVARIANT, LOG_FULL, OK, ROWS_FULL, Kernel
from cardsim.simulator.nrt import borrow
from cardsim.simulator.rules import Slots
from cardsim.simulator.tables import emit
from cardsim.simulator.games.hand_and_foot import dispatch as D
from cardsim.simulator.games.hand_and_foot import outcomes as O
from cardsim.simulator.games.hand_and_foot import rules as RU
from cardsim.simulator.games.hand_and_foot import view as V
from cardsim.simulator.games.hand_and_foot.view import (
    BLACK3, B3_T, JOKER, K_A, KIND_OF, NK, OP_ADD_JOKER, OP_ADD_NAT, OP_ADD_TWO, OP_B3_3,
    OP_B3_4, OP_START2_JOKER, OP_START3, OP_W030, OP_W300, P_FOOT_N, P_FOOT_TURNS, P_HAND_N,
    P_IN_FOOT, P_PILE_N, P_PILE_TOP, P_PILE_TOP7, P_STOCK_N, P_TEAM_OF, P_TURN, RED3, STOP,
    T_CLEAN, T_DIRTY, T_MELDED, T_MELDS, T_POINTS, T_RED3, T_WILD, TWO, V_EXTRA, V_IN_FOOT,
    V_PARTNER, V_PERMISSION, V_PILE_TAKEN, V_REACH, V_STAGED, VALUE, WILD_T, action, points_of,
    rank_meld_ok, reach, reach_lower_bound, team_base,
)

MAX_CARDS = 54 * 12
FULL_DECK = np.concatenate([_deck(range(len(RANKS)), 1, 2)] * 12)  # first 54*d: d decks

# illegal answers, in the order of the adapter's decision_errors (engine statuses BAD + i)
BAD_DRAW, BAD_MELD, BAD_DISCARD, BAD_ASK, BAD_GRANT = range(BAD, BAD + 5)

# replay event kinds; each event is a row of LOG_W int32: kind, then fields
(EV_GAME, EV_DEAL, EV_DECK, EV_UPCARD, EV_RED3, EV_DRAW, EV_PILE, EV_MELD, EV_FOOT, EV_ASK,
 EV_DISCARD, EV_OUT, EV_TURN, EV_DEAL_END, EV_SCORE, EV_GAME_END, EV_NO_DISCARD) = range(17)
LOG_W = 20
# red three sources
# int64 scalars, not ints: a global int reaches a call as a constant, and the callee is
# compiled once per value (docs/design.md, "Compile time"); the same for np.int64(...) below
R3_DEALT, R3_STOCK, R3_FOOT, R3_PILE = (np.int64(i) for i in range(4))

FNS = types.UniTuple(V.DECISION_FN, V.MAX_TEAMS)
FNS5 = types.UniTuple(FNS, 5)  # draw, meld, discard, ask, grant (view.DECISIONS)

# per-team statistics kept during a deal (stats[team, S_*])
(S_INIT_TURN, S_INIT_POINTS, S_INIT_SOURCE, S_PILE_TAKES, S_WENT_OUT) = range(5)
S_W = 8
SC_W = 14  # score_team parts

# The scratch arrays of one game, by name. Kernels get the unowned views (see _new_state).
State = namedtuple("State", (
    "hands",    # int16 (seat, kind): cards in hand by kind
    "feet",     # int16 (seat, kind): the feet not yet picked up
    "deck",     # int8: shuffled card codes; the stock is deck[ncards - stock_n:ncards]
    "pile",     # int8: the discard pile as kinds, top at pile[n - 1]
    "public",   # int32: the public record (view.P_*, team blocks)
    "private",  # int32 (seat, view.V_LEN): what only a seat knows
    "legal",    # int16: the legal list handed to a decision
    "rngs",     # uint64 (seat + 1, 2): one stream per seat, then the deal's
    "tbl",      # int16 (team, kind): cards on the table per team
    "stats",    # int32 (team, S_W): per-team statistics of the deal (S_*)
    "params",   # float64 (team, params): strategy parameters (copied from the Ctx)
    "work",     # int16 per kind: counting cards for reach()
    "started",  # int8 per meld target: melds started this turn (one-action rule)
    "snap",     # int32: what a cancelled initial meld restores (_save)
    "totals",   # int64 per team: the game's running totals
    "parts",    # int64 SC_W: one team's score parts (score_team)
    "trk",      # decision tracking (simulator.track): flags, then the deal header (H_*)
    "tape",     # int32: the tracked deal's decisions (view.DECISIONS' answers, below)
))

# Tracked decisions (simulator.track), each answered in the game's terms: draw 1 (the pile)
# or 0 (the stock), a meld action code (view.action, STOP, or STUCK when the list was empty),
# the card kind discarded, ask and grant 0/1. Tracked, every draw, meld step and discard is a
# decision, the ones made without asking too, so that a resampled deal replays its tape
# decision by decision.
KD_DRAW, KD_MELD, KD_DISCARD, KD_ASK, KD_GRANT = (np.int64(i) for i in range(5))
STUCK = -2
# the deal header, after simulator.track's flags: what a resumed game starts its deal from
_H = Slots()
H_TOTALS = T.T_HEAD + _H.block("H_TOTALS", V.MAX_TEAMS)  # each team's total before the deal
H_CAPPED = T.T_HEAD + _H.one("H_CAPPED")  # deals capped before this one
H_DECK = T.T_HEAD + _H.block("H_DECK", MAX_CARDS)  # the deal's cards (upcard buried), in order
HEADER = _H.size
TAPE_CAP = 1 << 14
STREAM_ROWS = V.MAX_SEATS + 1


def _new_state(ctx):
    """Scratch arrays for one game, allocated once per block of games. Returns (owners,
    state): ``state`` holds unowned views (simulator.nrt.borrow) of the arrays in ``owners``,
    which the caller keeps alive while it plays."""
    o = State(
        np.zeros((V.MAX_SEATS, NK), np.int16), np.zeros((V.MAX_SEATS, NK), np.int16),
        np.zeros(MAX_CARDS, np.int8), np.zeros(MAX_CARDS, np.int8),
        np.zeros(V.P_LEN, np.int32), np.zeros((V.MAX_SEATS, V.V_LEN), np.int32),
        np.zeros(V.LEGAL_LEN, np.int16), np.zeros((V.MAX_SEATS + 1, 2), np.uint64),
        np.zeros((V.MAX_TEAMS, NK), np.int16), np.zeros((V.MAX_TEAMS, S_W), np.int32),
        ctx.params.copy(), np.zeros(NK, np.int16), np.zeros(V.N_TARGETS, np.int8),
        np.zeros(V.TEAM_W + 3 * NK + 1, np.int32), np.zeros(V.MAX_TEAMS, np.int64),
        np.zeros(SC_W, np.int64), *T.track_arrays(HEADER, TAPE_CAP, STREAM_ROWS))
    st = State(
        borrow(o.hands), borrow(o.feet), borrow(o.deck), borrow(o.pile), borrow(o.public),
        borrow(o.private), borrow(o.legal), borrow(o.rngs), borrow(o.tbl), borrow(o.stats),
        borrow(o.params), borrow(o.work), borrow(o.started), borrow(o.snap), borrow(o.totals),
        borrow(o.parts), borrow(o.trk), borrow(o.tape))
    return o, st

@njit(cache=True)
def _top7(public, pile, rules):
    """Public counts of the kinds a pile take would give now."""
    for k in range(NK):
        public[P_PILE_TOP7 + k] = 0
    n = public[P_PILE_N]
    take = rules[RU.R_PILE_TAKE]
    m = n if take == 0 else min(n, take)
    for i in range(n - m, n):
        public[P_PILE_TOP7 + pile[i]] += 1
    public[P_PILE_TOP] = pile[n - 1] if n > 0 else -1


@njit(cache=True)
def _draw_code(deck, public, ncards):
    """Top card of the stock (a card code), or -1 if the stock is empty."""
    n = public[P_STOCK_N]
    if n == 0:
        return -1
    public[P_STOCK_N] = n - 1
    return deck[ncards - n]


@njit(cache=True)
def _lay_red3(seat, team, source, hands, public, tbl, deck, ncards, log, log_on):
    """A red three goes face up to the team's table and is replaced from the stock (again and
    again while the replacement is a red three; simply laid down when the stock is empty)."""
    tbl[team, RED3] += 1
    public[team_base(team) + T_RED3] += 1
    code = _draw_code(deck, public, ncards)
    if log_on:
        emit(log, EV_RED3, seat, source, code, 0, 0, 0)
    while code >= 0:
        k = KIND_OF[code]
        if k != RED3:
            hands[seat, k] += 1
            public[P_HAND_N + seat] += 1
            return
        tbl[team, RED3] += 1
        public[team_base(team) + T_RED3] += 1
        code = _draw_code(deck, public, ncards)
        if log_on:
            emit(log, EV_RED3, seat, R3_STOCK, code, 0, 0, 0)


@njit(cache=True)
def _lay_held_red3(seat, team, source, hands, public, tbl, deck, ncards, log, log_on):
    while hands[seat, RED3] > 0:
        hands[seat, RED3] -= 1
        public[P_HAND_N + seat] -= 1
        _lay_red3(seat, team, source, hands, public, tbl, deck, ncards, log, log_on)


@njit(cache=True)
def _draw_stock(seat, team, k, hands, public, tbl, deck, ncards, log, log_on):
    for _ in range(k):
        code = _draw_code(deck, public, ncards)
        if code < 0:
            return
        if log_on:
            emit(log, EV_DRAW, seat, code, 0, 0, 0, 0)
        kind = KIND_OF[code]
        if kind == RED3:
            _lay_red3(seat, team, R3_STOCK, hands, public, tbl, deck, ncards, log, log_on)
        else:
            hands[seat, kind] += 1
            public[P_HAND_N + seat] += 1


@njit(cache=True)
def _pick_up_foot(seat, team, way, hands, feet, public, private, tbl, deck, ncards, log, log_on):
    for k in range(NK):
        hands[seat, k] = feet[seat, k]
        feet[seat, k] = 0
        private[seat, V_EXTRA + k] = 0
    public[P_HAND_N + seat] = public[P_FOOT_N + seat]
    public[P_FOOT_N + seat] = 0
    public[P_IN_FOOT + seat] = 1
    private[seat, V_IN_FOOT] = 1
    if log_on:
        emit(log, EV_FOOT, seat, way, 0, 0, 0, 0)
    _lay_held_red3(seat, team, R3_FOOT, hands, public, tbl, deck, ncards, log, log_on)


# cards an action puts on the table, by op: naturals, twos, jokers, black threes, starts a meld
_DN = np.array([1, 0, 0, 3, 2, 2, 0, 0, 0, 0, 0, 0], np.int64)
_D2 = np.array([0, 1, 0, 0, 1, 0, 3, 2, 1, 0, 0, 0], np.int64)
_DJ = np.array([0, 0, 1, 0, 0, 1, 0, 1, 2, 3, 0, 0], np.int64)
_DB3 = np.array([0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 3, 4], np.int64)
_STARTS = np.array([0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1, 1], np.bool_)  # black threes: a new meld


@njit(cache=True, inline="always")
def _delta(target, op):
    """(naturals, twos, jokers, black threes, starts a meld) an action puts on the table."""
    return _DN[op], _D2[op], _DJ[op], _DB3[op], _STARTS[op]


@njit(cache=True)
def _apply(seat, team, target, dn, d2, dj, db3, hands, public, private, tbl):
    """Move cards from the hand to the team's melds. Returns (counting points, book kind:
    -1 none, 0 clean, 1 dirty, 2 wild). Cards from the pile this turn are used last, so a
    melded card counts toward the minimum while the hand still has one of its kind."""
    counted = 0
    for j in range(4):
        if j == 0:
            k, m = target, dn
        elif j == 1:
            k, m = TWO, d2
        elif j == 2:
            k, m = JOKER, dj
        else:
            k, m = BLACK3, db3
        if m == 0:
            continue
        own = hands[seat, k] - private[seat, V_EXTRA + k]
        c = min(m, own)
        counted += c * VALUE[k]
        private[seat, V_EXTRA + k] -= m - c
        hands[seat, k] -= m
        tbl[team, k] += m
        public[team_base(team) + T_POINTS] += m * VALUE[k]
        public[P_HAND_N + seat] -= m
    book = -1
    if target != B3_T:
        b = team_base(team) + T_MELDS + 3 * target
        public[b] += dn
        public[b + 1] += d2
        public[b + 2] += dj
        if public[b] + public[b + 1] + public[b + 2] == 7:
            if target == WILD_T:
                book = 2
            elif public[b + 1] + public[b + 2] == 0:
                book = 0
            else:
                book = 1
            public[team_base(team) + T_CLEAN + book] += 1
            public[b] = 0
            public[b + 1] = 0
            public[b + 2] = 0
    return counted, book


@njit(cache=True)
def _counting(seat, hands, private, work):
    for k in range(NK):
        work[k] = hands[seat, k] - private[seat, V_EXTRA + k]


@njit(cache=True)
def _reach_after(seat, team, target, dn, d2, dj, hn, h2, hj, hands, public, private, work,
                 enough):
    """reach() of the counting cards once (dn, d2, dj) go to the target meld, (hn, h2, hj) of
    them from the hand (nothing is changed); a quick lower bound instead when that already
    reaches ``enough``."""
    _counting(seat, hands, private, work)
    b = team_base(team) + T_MELDS + 3 * target
    s0, s1, s2 = public[b], public[b + 1], public[b + 2]
    z = s0 + s1 + s2 + dn + d2 + dj
    if z == 7:
        public[b], public[b + 1], public[b + 2] = 0, 0, 0
    else:
        public[b], public[b + 1], public[b + 2] = s0 + dn, s1 + d2, s2 + dj
    if target < WILD_T:
        work[target] = max(0, work[target] - hn)
    work[TWO] = max(0, work[TWO] - h2)
    work[JOKER] = max(0, work[JOKER] - hj)
    r = reach_lower_bound(work, public, team)
    if r < enough:
        r = reach(work, public, team)
    public[b], public[b + 1], public[b + 2] = s0, s1, s2
    return r


@njit(cache=True)
def _out_ok(seat, team, public, private, rules, extra_book):
    """Going-out conditions other than permission: books (with ``extra_book`` about to be
    completed), the player in the foot, and the partner (or, alone, the player) having played
    a turn from the foot."""
    tb = team_base(team)
    c = public[tb + T_CLEAN] + (extra_book == 0)
    d = public[tb + T_DIRTY] + (extra_book == 1)
    w = public[tb + T_WILD] + (extra_book == 2)
    if c < rules[RU.R_NEED_CLEAN] or d < rules[RU.R_NEED_DIRTY] or w < rules[RU.R_NEED_WILD]:
        return False
    if public[P_IN_FOOT + seat] == 0:
        return False
    p = private[seat, V_PARTNER]
    q = seat if p < 0 else p
    return public[P_IN_FOOT + q] == 1 and public[P_FOOT_TURNS + q] >= 1


@njit(cache=True)
def _list_melds(seat, team, hands, public, private, rules, legal, work, started, mode, preinit,
                need, pile_turn, reach_now, every_target=False):
    """Fill ``legal`` with the meld actions allowed now (and STOP when stopping is allowed).
    ``reach_now``: reach() of the counting cards (used only before the initial meld).
    ``every_target``: examine all targets (the plain way, which the tests compare with).
    Returns (n, wants permission): going-out actions wait for the partner's permission."""
    tb = team_base(team)
    in_foot = public[P_IN_FOOT + seat] == 1
    cards = public[P_HAND_N + seat]
    staged = private[seat, V_STAGED]
    perm = private[seat, V_PERMISSION]
    solo = private[seat, V_PARTNER] < 0
    one_action = rules[RU.R_ONE_ACTION] == 1
    no_discard_out = rules[RU.R_OUT_NO_DISCARD] == 1
    n = 0
    want_perm = False
    # hand counts read once: stores to ``legal`` (int16, like ``hands``) would make the
    # compiler read them again after every listed action
    h2 = hands[seat, TWO]
    hj = hands[seat, JOKER]
    hb3 = hands[seat, BLACK3]
    wilds = h2 + hj
    # before the minimum: nothing is legal when even the best plan falls short
    hopeless = preinit and staged < need and staged + reach_now < need
    # The targets that can have an action (a rank with a meld and a natural or wild held, or
    # without one and a pair held; the wild meld with wilds; black threes) as bits, set
    # without a branch per target, whose outcome the processor mispredicts (measured: about
    # a third of the time in this function went to those tests); the loop visits only them,
    # in the same order, and their own tests below then always pass.
    cand = 0
    if every_target:
        cand = (1 << (V.N_TARGETS + 1)) - 1
    elif not hopeless:
        for target in range(K_A + 1):
            b = tb + T_MELDS + 3 * target
            z = public[b] + public[b + 1] + public[b + 2]
            ht = hands[seat, target]
            ok = ((z > 0) & ((ht > 0) | (wilds > 0))) | ((z == 0) & (ht >= 2))
            cand |= np.int64(ok) << target
        b = tb + T_MELDS + 3 * WILD_T
        z = public[b] + public[b + 1] + public[b + 2]
        cand |= np.int64((wilds > 0) & ((z > 0) | (wilds >= 3))) << WILD_T
        cand |= np.int64((rules[RU.R_BLACK3_OUT] != 0) & in_foot & (hb3 >= 3)) << B3_T
    while cand != 0:
        target = trailing_zeros(cand)
        cand &= cand - 1
        if hopeless:
            break
        b = tb + T_MELDS + 3 * target
        if target == B3_T:
            if rules[RU.R_BLACK3_OUT] == 0 or not in_foot or hb3 < 3:
                continue
            op_lo, op_hi = OP_B3_3, OP_B3_4 + 1
            n0, t0, j0 = 0, 0, 0
            ht = 0
        else:
            n0, t0, j0 = public[b], public[b + 1], public[b + 2]
            exists = n0 + t0 + j0 > 0
            ht = hands[seat, target]  # (the wild meld: twos held; no op uses it there)
            # start only an absent meld, add only to an unfinished one
            if target == WILD_T:
                if wilds == 0 or (not exists and wilds < 3):
                    continue
                op_lo, op_hi = (OP_ADD_TWO, OP_ADD_JOKER + 1) if exists else (OP_W300, OP_W030 + 1)
            else:
                if exists:
                    if ht == 0 and wilds == 0:
                        continue
                    op_lo, op_hi = OP_ADD_NAT, OP_ADD_JOKER + 1
                else:
                    if ht < 2:
                        continue
                    op_lo, op_hi = OP_START3, OP_START2_JOKER + 1
        for op in range(op_lo, op_hi):
            dn, d2, dj, db3, starts = _delta(target, op)
            if (dn > 0 and ht < dn) or h2 < d2 or hj < dj or hb3 < db3:
                continue
            n1, w1 = n0 + dn, t0 + j0 + d2 + dj
            if target == WILD_T:
                if n1 + w1 > 7:
                    continue
            elif target < WILD_T and not rank_meld_ok(n1, w1):
                continue
            if one_action and mode != 0:
                start_mode = starts or (target < B3_T and started[target] == 1)
                if (mode == 1) != start_mode:
                    continue
            book = -1
            if target < B3_T and n1 + w1 == 7:
                book = 2 if target == WILD_T else (0 if w1 == 0 else 1)
            left = cards - dn - d2 - dj - db3
            if target == B3_T and left > 1:
                continue  # black threes only in the turn, and as the last meld, of going out
            if in_foot and left < 2:
                if left == 0 and not no_discard_out:
                    continue
                if not _out_ok(seat, team, public, private, rules, book):
                    continue
                if not solo and perm != 1:
                    if perm == -1:
                        want_perm = True
                    continue
            if preinit:
                # counting points this action adds (pile cards last), then: can the minimum
                # still be reached?
                gain = 0
                if dn > 0:
                    gain += min(dn, ht - private[seat, V_EXTRA + target]) * VALUE[target]
                gain += min(d2, h2 - private[seat, V_EXTRA + TWO]) * VALUE[TWO]
                gain += min(dj, hj - private[seat, V_EXTRA + JOKER]) * VALUE[JOKER]
                if staged + gain < need and target < B3_T:
                    short = need - staged - gain
                    if _reach_after(seat, team, target, dn, d2, dj, dn, d2, dj, hands, public,
                                    private, work, short) < short:
                        continue
                elif staged + gain < need:
                    continue
            n += 1
            legal[n] = action(target, op)
    stop_ok = True
    if preinit and staged < need and (staged > 0 or pile_turn):
        stop_ok = False
    if stop_ok:
        n += 1
        legal[n] = STOP
    legal[0] = n
    return n, want_perm


@njit(cache=True)
def _ask_permission(seat, team, sids, ask_fns, grant_fns, hands, public, private, legal, params,
                    rngs, trk, tape, log, log_on):
    """The player may ask; the partner's strategy answers. Returns a status (OK or BAD_*)."""
    legal[0] = 2
    legal[1] = 0
    legal[2] = 1
    forced = T.NOT_FORCED
    if trk[T.T_ON] == 1:
        forced = T.at_decision(trk, tape, rngs, seat, KD_ASK)
        if forced == T.HALT:
            return T.STOPPED, 0
    if forced != T.NOT_FORCED:
        i = forced
        if i != 0 and i != 1:
            return T.BAD_TAPE, i
    else:
        i = D.decide_ask(sids[team], ask_fns[team], hands[seat], public, private[seat], legal,
                         params[team], rngs[seat])
        if i < 0 or i > 1:
            return BAD_ASK, i
    if trk[T.T_ON] == 1:
        T.answered(trk, tape, i)
    p = private[seat, V_PARTNER]
    answer = -1
    if i == 1:
        legal[0] = 2
        legal[1] = 0
        legal[2] = 1
        forced = T.NOT_FORCED
        if trk[T.T_ON] == 1:
            forced = T.at_decision(trk, tape, rngs, p, KD_GRANT)
            if forced == T.HALT:
                return T.STOPPED, 0
        if forced != T.NOT_FORCED:
            a = forced
            if a != 0 and a != 1:
                return T.BAD_TAPE, a
        else:
            a = D.decide_grant(sids[team], grant_fns[team], hands[p], public, private[p],
                               legal, params[team], rngs[p])
            if a < 0 or a > 1:
                return BAD_GRANT, a
        if trk[T.T_ON] == 1:
            T.answered(trk, tape, a)
        answer = a
    private[seat, V_PERMISSION] = 1 if answer == 1 else 0
    if log_on:
        emit(log, EV_ASK, seat, p, i, answer, 0, 0)
    return OK, 0


@njit(cache=True)
def _pile_ok(seat, team, hands, public, private, rules, pile, work):
    """Can the player take the discard pile now (the three conditions, the meld fitting the
    team's unfinished meld, and before the initial meld the minimum within reach)?"""
    n = public[P_PILE_N]
    if n == 0:
        return False
    top = pile[n - 1]
    if top == BLACK3 or top == RED3:
        return False
    wild = top == TWO or top == JOKER
    if wild:
        if rules[RU.R_WILD_TOP] == 0 or hands[seat, TWO] + hands[seat, JOKER] < 2:
            return False
        target = WILD_T
    else:
        if hands[seat, top] < 2:
            return False
        target = top
    tb = team_base(team)
    b = tb + T_MELDS + 3 * target
    if public[b] + public[b + 1] + public[b + 2] + 3 > 7:
        return False
    take = rules[RU.R_PILE_TAKE]
    taken = n if take == 0 else min(n, take)
    in_foot = public[P_IN_FOOT + seat] == 1
    if in_foot and public[P_HAND_N + seat] - 2 + taken - 1 < 2:
        return False  # the foot may not be emptied this way
    if public[tb + T_MELDED] == 1:
        return True
    if in_foot:
        return False  # (only with tiny hands) an initial meld from the foot: stock only
    need = public[V.P_MIN_MELD]
    if wild:
        d2, dj = _wild_pick(hands[seat, TWO], top)
        gain = d2 * VALUE[TWO] + dj * VALUE[JOKER]
        dn, hn, h2, hj = 0, 0, d2 - (top == TWO), dj - (top == JOKER)
    else:
        d2, dj = 0, 0
        dn, hn, h2, hj = 3, 2, 0, 0
        gain = 3 * VALUE[top]
    if gain >= need:
        return True
    return gain + _reach_after(seat, team, target, dn, d2, dj, hn, h2, hj, hands, public,
                               private, work, need - gain) >= need


@njit(cache=True, inline="always")
def _wild_pick(twos_held, top):
    """A wild top card is melded with two wilds from hand, twos first: (twos, jokers) of the
    three cards of the new or extended wild meld, the top card included."""
    twos = (1 if top == TWO else 0) + min(2, twos_held)
    return twos, 3 - twos


@njit(cache=True)
def _take_pile(seat, team, hands, public, private, tbl, pile, rules, deck, ncards, log, log_on):
    """Take the top of the pile; its top card and two from hand are melded at once.
    Returns the counting points of that meld."""
    n = public[P_PILE_N]
    take = rules[RU.R_PILE_TAKE]
    taken = n if take == 0 else min(n, take)
    top = pile[n - 1]
    if log_on:
        i = emit(log, EV_PILE, seat, taken, top, 0, 0, 0)
        if i >= 0:
            for j in range(n - taken, n):
                log[i, 4 + pile[j]] += 1
    # the top card joins the hand as a card that counts; the others do not count
    hands[seat, top] += 1
    public[P_HAND_N + seat] += 1
    for j in range(n - taken, n - 1):
        k = pile[j]
        hands[seat, k] += 1
        private[seat, V_EXTRA + k] += 1
        public[P_HAND_N + seat] += 1
    public[P_PILE_N] = n - taken
    _top7(public, pile, rules)
    if top == TWO or top == JOKER:
        hands[seat, top] -= 1  # _wild_pick counts the top card among the three
        d2, dj = _wild_pick(hands[seat, TWO], top)
        hands[seat, top] += 1
        target, dn = WILD_T, 0
    else:
        target, dn, d2, dj = top, 3, 0, 0
    b = team_base(team) + T_MELDS + 3 * target
    op = -2 if public[b] + public[b + 1] + public[b + 2] > 0 else -1  # forced: add / start
    counted, book = _apply(seat, team, target, dn, d2, dj, np.int64(0), hands, public, private, tbl)
    if log_on:
        emit(log, EV_MELD, seat, target, op, dn * 100 + d2 * 10 + dj, book, counted)
        _meld_state(log, public, team, target)
    # red threes are never discarded, but a pile could in principle hold one
    if hands[seat, RED3] > 0:
        _lay_held_red3(seat, team, R3_PILE, hands, public, tbl, deck, ncards, log, log_on)
    return counted


@njit(cache=True)
def _meld_state(log, public, team, target):
    """Append the team (col 10) and the meld's state after an action (cols 7..9; zeros for a
    black-threes meld, which nothing can join) to the last event."""
    i = log[0, 0]
    if i < 1 or log[0, 1] != 0:
        return
    log[i, 10] = team
    if target >= B3_T:
        log[i, 7] = 0
        log[i, 8] = 0
        log[i, 9] = 0
        return
    b = team_base(team) + T_MELDS + 3 * target
    log[i, 7] = public[b]
    log[i, 8] = public[b + 1]
    log[i, 9] = public[b + 2]


@njit(cache=True)
def _save(public, hands, private, tbl, seat, team, snap):
    """Keep what melding can change: the team's block, the seat's hand, extras and count."""
    tb = team_base(team)
    for i in range(V.TEAM_W):
        snap[i] = public[tb + i]
    for k in range(NK):
        snap[V.TEAM_W + k] = hands[seat, k]
        snap[V.TEAM_W + NK + k] = private[seat, V_EXTRA + k]
        snap[V.TEAM_W + 2 * NK + k] = tbl[team, k]
    snap[V.TEAM_W + 3 * NK] = public[P_HAND_N + seat]


@njit(cache=True)
def _restore(public, hands, private, tbl, seat, team, snap):
    tb = team_base(team)
    for i in range(V.TEAM_W):
        public[tb + i] = snap[i]
    for k in range(NK):
        hands[seat, k] = snap[V.TEAM_W + k]
        private[seat, V_EXTRA + k] = snap[V.TEAM_W + NK + k]
        tbl[team, k] = snap[V.TEAM_W + 2 * NK + k]
    public[P_HAND_N + seat] = snap[V.TEAM_W + 3 * NK]


@njit(cache=True)
def _hand_points(hands, seat):
    t = 0
    for k in range(NK):
        if k != RED3:
            t += hands[seat, k] * VALUE[k]
    return t




@njit(cache=True)
def score_team(t, seats, hands, feet, public, stats, rules, parts):
    """Team t's deal score into parts: melded card values, book bonus, red-three bonus,
    going-out bonus, hand penalty, foot penalty, red-three penalty, score; then clean, dirty,
    wild books, red threes on the table, red threes caught, feet picked up."""
    tb = team_base(t)
    clean = public[tb + T_CLEAN]
    dirty = public[tb + T_DIRTY]
    wild = public[tb + T_WILD]
    red3 = public[tb + T_RED3]
    hand_pen = 0
    foot_pen = 0
    caught = 0
    feet_picked = 0
    for s in range(seats):
        if public[P_TEAM_OF + s] != t:
            continue
        hand_pen += _hand_points(hands, s)
        caught += hands[s, RED3]
        if public[P_IN_FOOT + s] == 1:
            feet_picked += 1
        else:
            caught += feet[s, RED3]
            if rules[RU.R_FOOT_COUNTS] == 1:
                foot_pen += _hand_points(feet, s)
    parts[0] = public[tb + T_POINTS]
    parts[1] = 500 * clean + 300 * dirty + 1500 * wild
    parts[2] = 100 * red3
    parts[3] = 100 * stats[t, S_WENT_OUT]
    parts[4] = hand_pen
    parts[5] = foot_pen
    parts[6] = 100 * caught
    parts[7] = parts[0] + parts[1] + parts[2] + parts[3] - parts[4] - parts[5] - parts[6]
    parts[8] = clean
    parts[9] = dirty
    parts[10] = wild
    parts[11] = red3
    parts[12] = caught
    parts[13] = feet_picked



@njit(cache=True, inline="always")
def _deal(st, rules, seed_key, d, dealer, first, need, ncards, preset, log, log_on):
    """Shuffle (or take the preset deck), reset the deal's state, deal hands and feet, turn
    the upcard (burying threes and jokers) and lay the dealt red threes."""
    hands, feet, deck, pile, public, private = (st.hands, st.feet, st.deck, st.pile, st.public,
                                                st.private)
    tbl, stats = st.tbl, st.stats
    seats = rules[RU.R_PLAYERS]
    hsize = rules[RU.R_HAND]
    fsize = rules[RU.R_FOOT]
    dr = st.rngs[V.MAX_SEATS]
    R.substream(dr, seed_key, R.SUB_DEAL, d)
    trk = st.trk
    tracked = T.deal_starts(trk, d)
    from_header = tracked and trk[T.T_RESUME] == 1  # a position's cards, upcard settled
    for i in range(ncards):
        deck[i] = trk[H_DECK + i] if from_header else FULL_DECK[i]
    if not from_header:
        R.shuffle_or_preset(deck, ncards, preset, T.preset_deal(trk, d), dr)
    if log_on:
        emit(log, EV_DEAL, d, dealer, first, need, ncards, 0)
        for off in range(0, ncards, 16):
            m = min(16, ncards - off)
            i = emit(log, EV_DECK, off, m, 0, 0, 0, 0)
            if i >= 0:
                for j in range(m):
                    log[i, 3 + j] = deck[off + j]

    # reset the deal's state
    for t in range(V.MAX_TEAMS):
        tb = team_base(t)
        for i in range(V.TEAM_W):
            public[tb + i] = 0
        for k in range(NK):
            tbl[t, k] = 0
        for i in range(S_W):
            stats[t, i] = 0
        stats[t, S_INIT_TURN] = -1
        stats[t, S_INIT_POINTS] = -1
    public[V.P_DEAL] = d
    public[P_TURN] = 0
    public[V.P_MIN_MELD] = need
    public[P_PILE_N] = 0
    # deal: seat order from the first player; hands, then feet, then the stock
    pos = 0
    for k in range(seats):
        s = (first + k) % seats
        for kk in range(NK):
            hands[s, kk] = 0
            feet[s, kk] = 0
            private[s, V_EXTRA + kk] = 0
        for i in range(hsize):
            hands[s, KIND_OF[deck[pos + i]]] += 1
        pos += hsize
        public[P_HAND_N + s] = hsize
        public[P_IN_FOOT + s] = 0
        public[P_FOOT_TURNS + s] = 0
        private[s, V_IN_FOOT] = 0
        private[s, V_STAGED] = 0
        private[s, V_PILE_TAKEN] = 0
        private[s, V_PERMISSION] = -1
    for k in range(seats):
        s = (first + k) % seats
        for i in range(fsize):
            feet[s, KIND_OF[deck[pos + i]]] += 1
        pos += fsize
        public[P_FOOT_N + s] = fsize
    public[P_STOCK_N] = ncards - pos
    # the upcard: threes and jokers (and with threes_and_wilds, 2s) are buried at random
    bury_twos = rules[RU.R_BURY_TWOS] == 1
    for attempt in range(1000):
        code = _draw_code(deck, public, ncards)
        k = KIND_OF[code]
        bury = k == BLACK3 or k == RED3 or k == JOKER or (bury_twos and k == TWO)
        n = public[P_STOCK_N]
        if not bury or from_header or n == 0 or attempt == 999:  # (nothing else: it stays)
            pile[0] = k
            public[P_PILE_N] = 1
            if log_on:
                emit(log, EV_UPCARD, code, 0, -1, 0, 0, 0)
            break
        # put it under the j-th card from the top of the stock (never back on top)
        j = R.below(dr, n) + 1
        top = ncards - n
        for i in range(top - 1, top - 1 + j):
            deck[i] = deck[i + 1]
        deck[top - 1 + j] = code
        public[P_STOCK_N] = n + 1
        if log_on:
            emit(log, EV_UPCARD, code, 1, j, 0, 0, 0)
    _top7(public, pile, rules)
    if tracked and not from_header:  # the header a resumed game starts this deal from
        for i in range(ncards):
            trk[H_DECK + i] = deck[i]
        for t in range(V.MAX_TEAMS):
            trk[H_TOTALS + t] = st.totals[t]
    # red threes in the dealt hands, in turn order
    for k in range(seats):
        s = (first + k) % seats
        _lay_held_red3(s, public[P_TEAM_OF + s], R3_DEALT, hands, public, tbl, deck, ncards,
                       log, log_on)


@njit(cache=True, inline="always")
def _check_cards(st, seats, nteams, ncards):
    """Debug: every card is in exactly one place (hands, feet, stock, pile or a team's
    table) and every meld is legal. Returns (status, seat, team, detail)."""
    hands, feet, public, work = st.hands, st.feet, st.public, st.work
    for k in range(NK):
        work[k] = 0
    for s in range(seats):
        for k in range(NK):
            work[k] += hands[s, k] + feet[s, k]
            if hands[s, k] < 0 or feet[s, k] < 0:
                return INVARIANT, s, -1, k
    for t in range(nteams):
        for k in range(NK):
            work[k] += st.tbl[t, k]
        for tg in range(V.N_TARGETS):
            b = team_base(t) + T_MELDS + 3 * tg
            z = public[b] + public[b + 1] + public[b + 2]
            if z > 0 and (z >= 7 or (tg < WILD_T and not rank_meld_ok(public[b], public[b + 1] + public[b + 2]))
                          or (tg == WILD_T and (z < 3 or public[b] != 0))):
                return INVARIANT, -1, t, tg
    for i in range(public[P_PILE_N]):
        work[st.pile[i]] += 1
    for i in range(ncards - public[P_STOCK_N], ncards):
        work[KIND_OF[st.deck[i]]] += 1
    for k in range(NK):
        expect = 0
        for i in range(ncards):
            expect += KIND_OF[FULL_DECK[i]] == k
        if work[k] != expect:
            return INVARIANT, -1, -1, k
    return OK, 0, 0, 0


@njit(cache=True, inline="always")
def _score(st, rules, d, dealer, first, need, turn, end, out_seat, out_turn, deal_cols, row, log,
           log_on):
    """Score the deal: team t's row is column ``row + t`` of deal_cols (and a score event)."""
    seats = rules[RU.R_PLAYERS]
    public, stats, parts, totals = st.public, st.stats, st.parts, st.totals
    if log_on:
        emit(log, EV_DEAL_END, d, end, turn, out_seat, 0, 0)
    for t in range(public[V.P_NTEAMS]):
        score_team(t, seats, st.hands, st.feet, public, stats, rules, parts)
        melded, book_bonus, red3_bonus, out_bonus = parts[0], parts[1], parts[2], parts[3]
        hand_pen, foot_pen, red3_pen, score = parts[4], parts[5], parts[6], parts[7]
        clean, dirty, wild, red3, caught, feet_picked = (parts[8], parts[9], parts[10],
                                                         parts[11], parts[12], parts[13])
        totals[t] += score
        r = deal_cols[:, row + t]
        r[O.D_DEAL] = d
        r[O.D_TEAM] = t
        r[O.D_PLAYERS] = seats
        r[O.D_DEALER] = dealer
        r[O.D_FIRST] = first
        r[O.D_TURNS] = turn
        r[O.D_END] = end
        r[O.D_OUT_SEAT] = out_seat
        r[O.D_OUT_TURN] = out_turn
        r[O.D_MIN_MELD] = need
        r[O.D_INIT_TURN] = stats[t, S_INIT_TURN]
        r[O.D_INIT_POINTS] = stats[t, S_INIT_POINTS]
        r[O.D_INIT_SOURCE] = stats[t, S_INIT_SOURCE]
        r[O.D_PILE_TAKES] = stats[t, S_PILE_TAKES]
        r[O.D_CLEAN] = clean
        r[O.D_DIRTY] = dirty
        r[O.D_WILD] = wild
        r[O.D_RED3_TABLE] = red3
        r[O.D_RED3_CAUGHT] = caught
        r[O.D_FEET] = feet_picked
        r[O.D_WENT_OUT] = stats[t, S_WENT_OUT]
        r[O.D_MELDED] = melded
        r[O.D_BOOK_BONUS] = book_bonus
        r[O.D_RED3_BONUS] = red3_bonus
        r[O.D_OUT_BONUS] = out_bonus
        r[O.D_HAND_PEN] = hand_pen
        r[O.D_FOOT_PEN] = foot_pen
        r[O.D_RED3_PEN] = red3_pen
        r[O.D_SCORE] = score
        r[O.D_CUMULATIVE] = totals[t]
        if log_on:
            i = emit(log, EV_SCORE, d, t, melded, book_bonus, red3_bonus, out_bonus)
            if i >= 0:
                log[i, 7] = hand_pen
                log[i, 8] = foot_pen
                log[i, 9] = red3_pen
                log[i, 10] = score
                log[i, 11] = totals[t]
                log[i, 12] = clean
                log[i, 13] = dirty
                log[i, 14] = wild
                log[i, 15] = red3
                log[i, 16] = caught


@njit(cache=True, inline="always")
def _setup(st, rules, seed_key, game_index, log, log_on):
    """A game's seats, teams, partners and random streams. Returns the first dealer."""
    seats = rules[RU.R_PLAYERS]
    public, private, rngs = st.public, st.private, st.rngs
    nteams = seats // 2 if (seats == 4 or seats == 6) else seats
    public[V.P_PLAYERS] = seats
    public[V.P_NTEAMS] = nteams
    public[V.P_DRAW_COUNT] = rules[RU.R_DRAW]
    public[V.P_NEED_CLEAN] = rules[RU.R_NEED_CLEAN]
    public[V.P_NEED_DIRTY] = rules[RU.R_NEED_DIRTY]
    public[V.P_NEED_WILD] = rules[RU.R_NEED_WILD]
    for s in range(V.MAX_SEATS):
        t = s % nteams if s < seats else -1
        public[P_TEAM_OF + s] = t
        private[s, V.V_SEAT] = s
        private[s, V.V_TEAM] = t
        private[s, V_PARTNER] = (s + nteams) % seats if (s < seats and nteams < seats) else -1
    for s in range(seats):
        R.substream(rngs[s], seed_key, R.SUB_SEAT, s)
    for t in range(V.MAX_TEAMS):
        st.totals[t] = 0
    R.substream(rngs[V.MAX_SEATS], seed_key, R.SUB_SETUP, 0)
    dealer0 = R.below(rngs[V.MAX_SEATS], seats)
    if log_on:
        emit(log, EV_GAME, game_index, seats, nteams, dealer0, rules[RU.R_DEALS], 0)
    return dealer0


@njit(cache=True, inline="always")
def _game_row(st, rules, dealer0, capped, game_row, log, log_on):
    """The game's row; the team with the highest total wins (a tie for it: no winner, -1)."""
    nteams = st.public[V.P_NTEAMS]
    totals = st.totals
    winner = -1
    best = -(1 << 40)
    for t in range(nteams):
        if totals[t] > best:
            best = totals[t]
            winner = t
        elif totals[t] == best:
            winner = -1
    game_row[O.G_DEALS] = rules[RU.R_DEALS]
    game_row[O.G_PLAYERS] = rules[RU.R_PLAYERS]
    game_row[O.G_NTEAMS] = nteams
    game_row[O.G_DEALER] = dealer0
    game_row[O.G_WINNER] = winner
    game_row[O.G_CAPPED] = capped
    for t in range(3):
        game_row[O.G_TOTAL0 + t] = totals[t] if t < nteams else 0
    if log_on:
        i = emit(log, EV_GAME_END, winner, capped, rules[RU.R_DEALS], 0, 0, 0)
        if i >= 0:
            for t in range(nteams):
                log[i, 7 + t] = totals[t]


def _play_deal(rules, sids, fns, st, seed_key, d, dealer, first, need, ncards, deal_cols, row,
               log, log_on, debug, preset):
    """Deal, play and score deal ``d``: team t's row is column ``row + t`` of deal_cols.
    Returns (status, error seat, error team, value)."""
    draw_fns, meld_fns, discard_fns, ask_fns, grant_fns = fns
    # The turn loop is written out on locals, not split into inlined phases taking ``st``:
    # every array an inlined function takes is reference counted on entry and exit (a call
    # each, even for the unowned views), so each phase cost 32 such calls per turn. Measured
    # (perf): that made a random game ~25% slower.
    hands, feet, deck, pile, public, private, legal, rngs = (
        st.hands, st.feet, st.deck, st.pile, st.public, st.private, st.legal, st.rngs)
    tbl, stats, params, work, started, snap = (st.tbl, st.stats, st.params, st.work,
                                               st.started, st.snap)
    seats = rules[RU.R_PLAYERS]
    nteams = public[V.P_NTEAMS]
    trk, tape = st.trk, st.tape
    _deal(st, rules, seed_key, d, dealer, first, need, ncards, preset, log, log_on)

    # ---- turns
    seat = first
    end = O.END_CAP
    out_seat = -1
    out_turn = -1
    turn = 0
    max_turns = rules[RU.R_MAX_TURNS]
    draw_count = rules[RU.R_DRAW]
    while turn < max_turns:
        turn += 1
        public[P_TURN] = turn
        public[V.P_SEAT] = seat
        team = public[P_TEAM_OF + seat]
        tb = team_base(team)
        private[seat, V_STAGED] = 0
        private[seat, V_PILE_TAKEN] = 0
        private[seat, V_PERMISSION] = -1
        for k in range(NK):
            private[seat, V_EXTRA + k] = 0
        for i in range(V.N_TARGETS):
            started[i] = 0
        if log_on:
            emit(log, EV_TURN, seat, turn, 0, 0, 0, 0)
        preinit = public[tb + T_MELDED] == 0
        private[seat, V_REACH] = -1
        # -- draw
        pile_ok = _pile_ok(seat, team, hands, public, private, rules, pile, work)
        take = False
        forced = T.NOT_FORCED
        if trk[T.T_ON] == 1:
            forced = T.at_decision(trk, tape, rngs, seat, KD_DRAW)
            if forced == T.HALT:
                return T.STOPPED, 0, 0, 0
        if forced != T.NOT_FORCED:
            if forced != 0 and not (forced == 1 and pile_ok):
                return T.BAD_TAPE, seat, team, forced
            take = forced == 1
        elif pile_ok:
            legal[0] = 2
            legal[1] = 0
            legal[2] = 1
            i = D.decide_draw(sids[team], draw_fns[team], hands[seat], public, private[seat],
                              legal, params[team], rngs[seat])
            if i < 0 or i > 1:
                return BAD_DRAW, seat, team, i
            take = i == 1
        if trk[T.T_ON] == 1:
            T.answered(trk, tape, 1 if take else 0)
        if not take and public[P_STOCK_N] == 0:
            end = O.END_STOCK  # this turn's player cannot or will not take the pile
            break
        pile_turn = take
        mode = 0  # one_meld_action_per_turn: 1 started melds, 2 added to older ones
        if take:
            tgt = pile[public[P_PILE_N] - 1]
            tgt = WILD_T if (tgt == TWO or tgt == JOKER) else tgt
            b = tb + T_MELDS + 3 * tgt
            if public[b] + public[b + 1] + public[b + 2] == 0:
                mode = 1
                started[tgt] = 1
            else:
                mode = 2
            counted = _take_pile(seat, team, hands, public, private, tbl, pile, rules, deck,
                                 ncards, log, log_on)
            if preinit:
                _save(public, hands, private, tbl, seat, team, snap)
            private[seat, V_STAGED] = counted
            private[seat, V_PILE_TAKEN] = 1
            stats[team, S_PILE_TAKES] += 1
            if public[P_HAND_N + seat] == 0 and public[P_IN_FOOT + seat] == 0:
                _pick_up_foot(seat, team, np.int64(0), hands, feet, public, private, tbl, deck,
                              ncards, log, log_on)
        else:
            _draw_stock(seat, team, draw_count, hands, public, tbl, deck, ncards, log, log_on)
            if preinit:
                _save(public, hands, private, tbl, seat, team, snap)
        # -- meld
        went_out = False
        while True:
            reach_now = 0
            if preinit and (private[seat, V_STAGED] < need or private[seat, V_STAGED] == 0):
                _counting(seat, hands, private, work)
                # a built-in waiting to open stops: its list (a knapsack per action) is not
                # built. STOP is legal (nothing staged, no pile) and nothing waits for
                # permission (not in the foot). It waits below a reach, so the card points
                # held (at least the reach) settle it first, without the knapsack; only the
                # built-in sees that bound, and V_REACH is reset after the turn's melds.
                may_skip = (private[seat, V_STAGED] == 0 and not pile_turn
                            and public[P_IN_FOOT + seat] == 0)
                if may_skip and trk[T.T_ON] == 1:  # STOP is legal here and asks nobody
                    forced = T.at_decision(trk, tape, rngs, seat, KD_MELD)
                    if forced == T.HALT:
                        return T.STOPPED, 0, 0, 0
                    if forced == STOP:
                        T.answered(trk, tape, STOP)
                        break
                    if forced != T.NOT_FORCED:
                        may_skip = False  # the tape's step, checked against the list below
                if may_skip:
                    private[seat, V_REACH] = points_of(work)
                    if D.hook_meld_stops(sids[team], public, private[seat], params[team]):
                        if trk[T.T_ON] == 1:
                            T.answered(trk, tape, STOP)
                        break
                reach_now = reach(work, public, team)
                private[seat, V_REACH] = reach_now
                if may_skip and D.hook_meld_stops(sids[team], public, private[seat],
                                                  params[team]):
                    if trk[T.T_ON] == 1:
                        T.answered(trk, tape, STOP)
                    break
            n, want = _list_melds(seat, team, hands, public, private, rules, legal, work,
                                  started, mode, preinit, need, pile_turn, reach_now)
            if want:
                status, val = _ask_permission(seat, team, sids, ask_fns, grant_fns, hands,
                                              public, private, legal, params, rngs, trk, tape,
                                              log, log_on)
                if status != OK:
                    return status, seat if status == BAD_ASK else private[seat, V_PARTNER], team, val
                n, want = _list_melds(seat, team, hands, public, private, rules, legal, work,
                                      started, mode, preinit, need, pile_turn, reach_now)
            forced = T.NOT_FORCED
            if trk[T.T_ON] == 1:
                forced = T.at_decision(trk, tape, rngs, seat, KD_MELD)
                if forced == T.HALT:
                    return T.STOPPED, 0, 0, 0
                if forced != T.NOT_FORCED and (forced == STUCK) != (n == 0):
                    return T.BAD_TAPE, seat, team, forced
                if n == 0 or (n == 1 and legal[1] == STOP and forced == T.NOT_FORCED):
                    T.answered(trk, tape, STUCK if n == 0 else STOP)
            if n == 0:
                # stuck before the minimum (only from a foot, with options that allow tiny
                # hands): the turn's melds go back to the hand
                if pile_turn and debug:
                    return INVARIANT, seat, team, 0
                _restore(public, hands, private, tbl, seat, team, snap)
                private[seat, V_STAGED] = 0
                if log_on:
                    emit(log, EV_MELD, seat, -1, -1, 0, -1, 0)
                break
            i = 0  # a single legal action is made without asking
            if forced != T.NOT_FORCED:  # the tape's step: one on the list
                i = T.listed(legal, n, forced)
                if i < 0:
                    return T.BAD_TAPE, seat, team, forced
                T.answered(trk, tape, forced)
            else:
                if n == 1 and legal[1] == STOP:
                    break
                if n > 1:
                    i = D.decide_meld(sids[team], meld_fns[team], hands[seat], public,
                                      private[seat], legal, params[team], rngs[seat])
                if i < 0 or i >= n:
                    return BAD_MELD, seat, team, i
                if trk[T.T_ON] == 1:
                    T.answered(trk, tape, legal[1 + i])
            code = legal[1 + i]
            if code == STOP:
                break
            target = code // 16
            op = code % 16
            dn, d2, dj, db3, starts = _delta(target, op)
            if starts and target < B3_T:
                started[target] = 1
            if mode == 0:
                mode = 1 if (starts or (target < B3_T and started[target] == 1)) else 2
            counted, book = _apply(seat, team, target, dn, d2, dj, db3, hands, public, private,
                                   tbl)
            private[seat, V_STAGED] += counted
            if log_on:
                emit(log, EV_MELD, seat, target, op, dn * 100 + d2 * 10 + dj + db3 * 1000, book,
                      counted)
                _meld_state(log, public, team, target)
            if public[P_HAND_N + seat] == 0:
                if public[P_IN_FOOT + seat] == 0:
                    _pick_up_foot(seat, team, np.int64(0), hands, feet, public, private, tbl,
                                  deck, ncards, log, log_on)
                else:
                    went_out = True  # go_out_without_discard
                    break
        if preinit and private[seat, V_STAGED] > 0:
            public[tb + T_MELDED] = 1
            stats[team, S_INIT_TURN] = turn
            stats[team, S_INIT_POINTS] = private[seat, V_STAGED]
            stats[team, S_INIT_SOURCE] = O.SRC_PILE if pile_turn else O.SRC_STOCK
        private[seat, V_REACH] = -1
        # -- discard
        if not went_out:
            cards = public[P_HAND_N + seat]
            in_foot = public[P_IN_FOOT + seat] == 1
            may = cards >= 2 or not in_foot
            if cards == 1 and in_foot:
                may = _out_ok(seat, team, public, private, rules, np.int64(-1))
                if may and private[seat, V_PARTNER] >= 0:
                    if private[seat, V_PERMISSION] == -1:
                        status, val = _ask_permission(seat, team, sids, ask_fns, grant_fns,
                                                      hands, public, private, legal, params,
                                                      rngs, trk, tape, log, log_on)
                        if status != OK:
                            return status, seat, team, val
                    may = private[seat, V_PERMISSION] == 1
            if cards == 0 or not may:
                if log_on:
                    emit(log, EV_NO_DISCARD, seat, cards, 0, 0, 0, 0)
            else:
                # the kinds held (never a red three: laid out at once, and the last kind),
                # each written and kept by the count, without a branch per kind
                n = 0
                for k in range(RED3):
                    legal[n + 1] = k
                    n += hands[seat, k] > 0
                legal[0] = n
                i = 0
                forced = T.NOT_FORCED
                if trk[T.T_ON] == 1:
                    forced = T.at_decision(trk, tape, rngs, seat, KD_DISCARD)
                    if forced == T.HALT:
                        return T.STOPPED, 0, 0, 0
                if forced != T.NOT_FORCED:  # the tape's kind: one held
                    i = T.listed(legal, n, forced)
                    if i < 0:
                        return T.BAD_TAPE, seat, team, forced
                elif n > 1:
                    i = D.decide_discard(sids[team], discard_fns[team], hands[seat], public,
                                         private[seat], legal, params[team], rngs[seat])
                    if i < 0 or i >= n:
                        return BAD_DISCARD, seat, team, i
                k = legal[1 + i]
                if trk[T.T_ON] == 1:
                    T.answered(trk, tape, k)
                hands[seat, k] -= 1
                public[P_HAND_N + seat] -= 1
                pile[public[P_PILE_N]] = k
                public[P_PILE_N] += 1
                _top7(public, pile, rules)
                if log_on:
                    emit(log, EV_DISCARD, seat, k, 0, 0, 0, 0)
                if in_foot:
                    public[P_FOOT_TURNS + seat] += 1
                if public[P_HAND_N + seat] == 0:
                    if in_foot:
                        went_out = True
                    else:
                        _pick_up_foot(seat, team, np.int64(1), hands, feet, public, private,
                                      tbl, deck, ncards, log, log_on)
        if went_out:
            end = O.END_OUT
            out_seat = seat
            out_turn = turn
            stats[team, S_WENT_OUT] = 1
            if log_on:
                emit(log, EV_OUT, seat, turn, 0, 0, 0, 0)
            break
        seat = seat + 1 if seat + 1 < seats else 0

    if debug:
        status, es, et, val = _check_cards(st, seats, nteams, ncards)
        if status != OK:
            return status, es, et, val
    _score(st, rules, d, dealer, first, need, turn, end, out_seat, out_turn, deal_cols, row,
           log, log_on)
    return OK, 0, 0, 0


def _play_one(ctx, fns, st, game_index, deal_cols, row, row_end, game_row, err, log, log_on,
              debug, preset):
    """Play game ``game_index`` for the engine (simulator.engine): its deal rows (one per
    team) go to deal_cols[:, row:row_end]. Returns (status, rows written); on an error ``err``
    holds (seat, team, value)."""
    # unowned views of the caller's arrays (alive for the whole call): the helpers take them
    # dozens of times per deal, and an owned array costs two atomic reference counts a call
    # (measured: ~3% of a random game)
    rules, sids = borrow(ctx.rules), borrow(ctx.sids)
    log, deal_cols = borrow(log), borrow(deal_cols)
    play_deal = fns[1][0]  # the kernel's own pointer (KERNEL's pointers)
    public = st.public
    seed_key = R.game_key(ctx.seed, game_index)
    seats = rules[RU.R_PLAYERS]
    ncards = 54 * rules[RU.R_DECKS]
    dealer0 = _setup(st, rules, seed_key, game_index, log, log_on)
    nteams = public[V.P_NTEAMS]
    capped = 0
    written = 0
    trk = st.trk
    d0 = 0
    if T.resuming(trk):  # from a position: its deal, the totals and caps before it
        d0 = trk[T.T_DEAL]
        capped = trk[H_CAPPED]
        for t in range(V.MAX_TEAMS):
            st.totals[t] = trk[H_TOTALS + t]
    for d in range(d0, rules[RU.R_DEALS]):
        if row + nteams > row_end:
            return ROWS_FULL, written
        if trk[T.T_WANT] == 1 and trk[T.T_DEAL] == d and trk[T.T_RESUME] == 0:
            trk[H_CAPPED] = capped
        dealer = (dealer0 + d) % seats
        need = rules[RU.R_MIN_MELD + d]
        first = dealer if rules[RU.R_FIRST_IS_DEALER] else (dealer + 1) % seats
        status, es, et, val = play_deal(rules, sids, fns[0], st, seed_key, d, dealer, first,
                                        need, ncards, deal_cols, row, log, log_on, debug,
                                        preset)
        if status != OK:
            err[0] = es
            err[1] = et
            err[2] = val
            return status, written
        if log_on and log[0, 1] != 0:
            return LOG_FULL, written
        capped += deal_cols[O.D_END, row] == O.END_CAP
        row += nteams
        written += nteams
    _game_row(st, rules, dealer0, capped, game_row, log, log_on)
    return OK, written


Ctx = namedtuple("Ctx", (
    "seed", "deals_mode",  # every game's Ctx starts with these two; Hand and Foot: always False
    "rules", "sids", "params"))
CTX = types.NamedTuple((uint64, types.boolean, types.int64[::1], types.int64[::1],
                        types.float64[:, ::1]), Ctx)

_A = types.Array
# the type of the views _new_state returns (checked after the Kernel compiles it), which
# _play_deal's explicit signature needs before that
STATE = types.NamedTuple((
    _A(types.int16, 2, "C"), _A(types.int16, 2, "C"), _A(types.int8, 1, "C"),
    _A(types.int8, 1, "C"), _A(types.int32, 1, "C"), _A(types.int32, 2, "C"),
    _A(types.int16, 1, "C"), _A(types.uint64, 2, "C"), _A(types.int16, 2, "C"),
    _A(types.int32, 2, "C"), _A(types.float64, 2, "C"), _A(types.int16, 1, "C"),
    _A(types.int8, 1, "C"), _A(types.int32, 1, "C"), _A(types.int64, 1, "C"),
    _A(types.int64, 1, "C"), _A(types.int64, 1, "C"), _A(types.int32, 1, "C")), State)
_I64 = types.int64
DEAL_SIG = types.UniTuple(_I64, 4)(
    types.int64[::1], types.int64[::1], FNS5, STATE, uint64, _I64, _I64, _I64, _I64, _I64,
    types.int32[:, ::1], _I64, types.int32[:, ::1], types.boolean, types.boolean,
    types.int8[::1])
# A deal is its own compiled function, called by _play_one through a function pointer (fns[1][0],
# the first of the kernel's own pointers, which the engine passes beside the strategies).
# Measured: called directly, it is linked into _play_one and optimised again there (+2.5 s of
# cold start, no faster).
PLAY_DEAL = njit(cache=True)(_play_deal)  # compiled by the Kernel, for DEAL_SIG

KERNEL = Kernel(_new_state, _play_one, CTX, FNS5, np.int8, LOG_W,
                pointers=((PLAY_DEAL, DEAL_SIG),))
assert KERNEL.state_type == STATE, KERNEL.state_type
