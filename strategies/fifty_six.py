"""56 strategies. Each is a set of @njit decision functions of the signature in
simulator/games/fifty_six/view.py (bid, play, reveal) plus named float parameters.

Each built-in has a pinned ``id``. The kernel calls built-ins directly by id through its
generated dispatch (simulator/games/fifty_six/dispatch.py, written from BUILTINS by
``python -m cardsim.simulator.dispatchgen``), not through function pointers, so LLVM may
inline them: the decisions, and the fast paths on the kernel's hand masks that built-ins
declare as ``hooks`` (``bid_mask``, ``play_mask``). Only small helpers are inlined at Numba's
level (``inline="always"``), which multiplies compile time when used on large functions. Card
play lives in strategies/fifty_six_play.py.
"""
import math

import numpy as np
from numba import njit

from cardsim.simulator.bits import nth_bit, popcount
from cardsim.simulator.games.fifty_six.view import (
    DOUBLE, F_NOES, F_NUMBER_NT, F_NUMBER_SUIT, F_PLUS_SUIT, F_PLUS_TWO_NOES,
    F_SUIT_NUMBER, F_THANI, L_DOUBLE, L_LAST_TRUMP, L_MAX, L_MIN, L_PASS, L_REDOUBLE, L_THANI,
    NO_TRUMPS, PASS, PB_ACTIVE_N, PB_CALLS, PB_HIGH_BIDDER, PB_HIGH_TRUMP, PB_HIGH_VALUE,
    PB_NCALLS, PB_NTEAMS, PB_PAY_LOSE, PB_PAY_WIN, PB_TEAM_OF, PV_SEAT, PV_TEAM, REDOUBLE,
    SUIT_MASK, bid_code, call_form, call_trump, call_value, nth_form,
)
from cardsim.simulator.rng import below
from cardsim.simulator.strategy import Param, StrategyDef, builtin_ids

from cardsim.strategies.fifty_six_expert import params_of, search_bid, search_play
from cardsim.strategies.fifty_six_play import (
    JACKS, NINES, PLAY_PARAMS, TOPS, ZERO, array_masks, deck_of, hand_mask, heuristic_play,
    heuristic_play_mask, heuristic_reveal, index_of, mask_points, pc, played_mask,
)


# ---------------------------------------------------------------- random

@njit(cache=True, inline="always")
def random_bid(hand, n, public, private, legal, params, rng):
    """Uniform over the legal calls: pass, double, redouble, every (value, trump) bid and thani;
    the bid's form is then uniform over the forms that call may take."""
    return random_call(legal, rng)


@njit(cache=True, inline="always")
def random_call(legal, rng):
    """random_bid from what it reads (the kernel calls it without building arrays)."""
    nbid = (legal[L_MAX] - legal[L_MIN] + 1) * 5 if legal[L_MIN] > 0 else 0
    total = legal[L_PASS] + legal[L_DOUBLE] + legal[L_REDOUBLE] + legal[L_THANI] + nbid
    r = below(rng, total)
    if r < legal[L_PASS]:
        return PASS
    r -= legal[L_PASS]
    if r < legal[L_DOUBLE]:
        return DOUBLE
    r -= legal[L_DOUBLE]
    if r < legal[L_REDOUBLE]:
        return REDOUBLE
    r -= legal[L_REDOUBLE]
    if r < legal[L_THANI]:
        return bid_code(legal[L_MAX] + 1, NO_TRUMPS, F_THANI)
    r -= legal[L_THANI]
    value = legal[L_MIN] + r // 5
    trump = r % 5
    k = nth_form(value, trump, legal, -1)
    return bid_code(value, trump, nth_form(value, trump, legal, below(rng, k)))


@njit(cache=True, inline="always")
def random_play(hand, n, public, private, legal, params, rng):
    """Uniform over the legal cards."""
    k = 0
    for i in range(n):
        k += legal[i]
    r = below(rng, k)
    for i in range(n):  # branch-free but for the exit: random picks defeat branch prediction
        r -= legal[i]
        if r < 0:
            return i
    return -1


@njit(cache=True, inline="always")
def random_reveal(hand, n, public, private, legal, params, rng):
    """Ask for the hidden trump with probability 1/2."""
    return below(rng, 2)


@njit(cache=True)
def never_reveal(hand, n, public, private, legal, params, rng):
    """Never asks for a hidden trump (the default for plug-ins without a reveal function)."""
    return 0


@njit(cache=True, inline="always")
def random_play_mask(legal_mask, rng):
    """random_play on the kernel's hand masks: the same choice (the r-th legal card in slot
    order) without building arrays."""
    return nth_bit(legal_mask, below(rng, popcount(legal_mask)))


# ---------------------------------------------------------------- heuristic parameters

PARAMS = PLAY_PARAMS + (
    # hand valuation: expected card points for the team, as offsets from an average hand
    Param("base", 0.0, "points added to every valuation (optimism)", -28, 28),
    Param("w_points", 1.0, "per card point held above an average hand", -10, 10),
    Param("w_jack", 1.5, "per jack held above an average hand", 0, 20),
    Param("w_nine", 0.5, "per nine held above an average hand", 0, 20),
    Param("w_trump", 1.5, "per card of the trump suit above the suit's average share", 0, 20),
    Param("w_trump_top", 1.5, "per jack or nine of the trump suit (on top of w_jack/w_nine)",
          0, 20),
    Param("w_void", 1.0, "per void side suit when holding 3+ trumps", 0, 20),
    Param("nt_penalty", 3.0, "points taken off a no-trumps valuation", -28, 56),
    Param("w_opp_suit", 3.0, "points taken off a trump suit an opponent has bid", 0, 56),
    Param("w_partner", 0.5, "share of my surplus over an average hand added to partner's bid "
          "in partner's trump", 0, 2),
    Param("margin", 0.0, "bid only up to valuation - margin", -28, 28),
    Param("raise_step", 3.0, "over partner's bid only when the ceiling is this much higher",
          0, 28),
    Param("double_margin", 4.0, "double when my hand's surplus over an average one (as "
          "defender) exceeds 1 + this", -56, 56),
    Param("redouble_margin", 6.0, "redouble when the ceiling beats the doubled bid by this",
          -56, 56),
    Param("thani_min", 99.0, "no-trumps valuation from which to bid thani (99 = never)", 0, 99),
    # reading partner's bid forms (conventional bidder)
    Param("w_read_jack", 3.0, "worth of partner showing the trump jack (number, suit) or "
          "completing it", 0, 28),
    Param("w_read_void", 3.0, "points off a suit partner shows no card of (noes)", 0, 28),
    Param("jump_back", 99.0, "opens or overcalls at once at its ceiling less this many points "
          "(a jump) rather than the lowest legal bid; 99: never (with the old hand-set "
          "valuation, jumping to the ceiling lost 92% of games, 4 below it 66%)", 0, 99),
    Param("w_nt_jack", 0.0, "per jack above an average hand, in no-trumps only (on top of "
          "w_jack)", -20, 20),
    Param("spread", 7.5, "how far a team's take strays from the valuation (standard "
          "deviation, points): sets the chance of making each bid", 1, 28),
    Param("band_gain", 99.0, "bid at once the lowest value of a higher stake band when its "
          "expected stake (chance of making it from valuation and spread, payout table) beats "
          "the lowest legal bid's by this much; 99: never", -5, 99),
    Param("switch_margin", 0.0, "once partner has bid, points another trump must be worth "
          "beyond partner's before I bid it (support partner rather than change suit)", 0, 28),
    Param("tie_points", -1.0, "of two trumps valued alike: -1 the one whose cards hold fewer "
          "points (the others' points are then side cards to cash), 1 more, 0 the first in "
          "suit order", -1, 1),
    Param("w_trump_jack", 0.0, "in choosing the trump only (not in the bid's level): points "
          "per jack of a suit on top of w_trump_top, which counts a trump jack and a trump nine "
          "alike", -20, 20),
)
(P_BASE, P_W_POINTS, P_W_JACK, P_W_NINE, P_W_TRUMP, P_W_TRUMP_TOP, P_W_VOID, P_NT_PENALTY,
 P_W_OPP_SUIT, P_W_PARTNER, P_MARGIN, P_RAISE_STEP, P_DOUBLE_MARGIN, P_REDOUBLE_MARGIN,
 P_THANI_MIN, P_W_READ_JACK, P_W_READ_VOID, P_JUMP_BACK, P_W_NT_JACK, P_SPREAD, P_BAND_GAIN,
 P_SWITCH_MARGIN, P_TIE_POINTS, P_W_TRUMP_JACK) = range(len(PLAY_PARAMS), len(PARAMS))


def _with(**changes):
    names = {p.name for p in PARAMS}
    assert set(changes) <= names, set(changes) - names
    return tuple(Param(p.name, changes.get(p.name, p.default), p.doc, p.lo, p.hi)
                 for p in PARAMS)


CAUTIOUS = _with(margin=3.0, raise_step=5.0, double_margin=7.0, redouble_margin=9.0,
                 win_min_points=2.0, trump_min_points=2.0)
AGGRESSIVE = _with(base=2.0, margin=-2.0, raise_step=1.0, double_margin=1.0,
                   redouble_margin=3.0, win_min_points=0.0, trump_min_points=1.0)
# the default: the valuation fitted to what contract teams take (FIT, from
# docs/fits/fifty_six_valuation.json, scripts/fit_fifty_six_valuation.py), the rest tuned by
# `cardsim tune` (TPE, 300 candidates x 1,000 boards against the previous tuned preset,
# cautious and the old evaluator, seed 21), rounded to two decimals; winning tricks at any
# points and trumping in from 1 beat the old 2 and 2 (0.62 of games, 5,000 boards); a trump
# suit's jack preferred to its nine in choosing the trump (w_trump_jack=1.5) beat 0: 0.5034
# [0.5015, 0.5053] of games, 20,000 boards, seed 2031
FIT = dict(base=-1.23, w_points=-0.05, w_jack=2.88, w_nine=0.24, w_trump=3.79, spread=7.75)
TUNED = _with(**FIT, margin=5.17, raise_step=3.8, double_margin=10.88, redouble_margin=6.47,
              w_trump_top=1.73, w_void=3.08, w_opp_suit=10.0, w_partner=0.0,
              nt_penalty=3.93, w_nt_jack=3.07, band_gain=0.43, jump_back=12.27,
              win_min_points=0.0, trump_min_points=1.0, w_trump_jack=1.5)


# ---------------------------------------------------------------- bidding

@njit(cache=True, inline="always")
def _common(hm, n_act, nteams, params):
    """The part of a valuation that does not depend on the trump."""
    avg = 1.0 / n_act
    e = 56.0 / nteams + params[P_BASE]
    e += params[P_W_POINTS] * (mask_points(hm) - 56.0 * avg)
    e += params[P_W_JACK] * (pc(hm & JACKS) - 8.0 * avg)
    e += params[P_W_NINE] * (pc(hm & NINES) - 8.0 * avg)
    return e


@njit(cache=True, inline="always")
def _trump_terms(hm, t, n_act, params):
    avg = 1.0 / n_act
    if t >= 4:
        return params[P_W_NT_JACK] * (pc(hm & JACKS) - 8.0 * avg) - params[P_NT_PENALTY]
    suit_cards = 16.0 if n_act == 8 else 12.0
    tm = hm & SUIT_MASK[t]
    k = pc(tm)
    e = params[P_W_TRUMP] * (k - suit_cards * avg)
    e += params[P_W_TRUMP_TOP] * (pc(tm & TOPS) - 4.0 * avg)
    if k >= 3:
        for s in range(4):
            if s != t and hm & SUIT_MASK[s] == ZERO:
                e += params[P_W_VOID]
    return e


@njit(cache=True, inline="always")
def _value(hm, t, n_act, nteams, params):
    """Expected card points for my team with trump ``t`` (4: no-trumps), from my hand alone
    (partner and opponents average)."""
    return _common(hm, n_act, nteams, params) + _trump_terms(hm, t, n_act, params)


@njit(cache=True)
def _choose(hm, public, priv, params, conventional):
    """(best trump, its valuation, partner's first bid value, latest trump and form) after
    reading the auction: partner's bid in a trump supports it, an opponent's bid in a suit
    spoils it, and (conventional) partner's forms tell of jacks and voids."""
    me = priv[PV_SEAT]
    my_team = priv[PV_TEAM]
    n_act = public[PB_ACTIVE_N]
    nteams = public[PB_NTEAMS]
    p_val = 0
    p_t = np.int64(-1)  # not literals: _read_form would be compiled for them too
    p_f = np.int64(-1)
    opp_suits = 0
    for k in range(public[PB_NCALLS]):
        seat = public[PB_CALLS + 2 * k]
        code = public[PB_CALLS + 2 * k + 1]
        if code < 64 or seat == me:
            continue
        t = call_trump(code)
        if public[PB_TEAM_OF + seat] == my_team:
            if p_val == 0:  # partner's first bid: later ones may rest on my own support
                p_val = call_value(code)
            p_t = t
            p_f = call_form(code)
        elif t < 4:
            opp_suits |= 1 << t
    avg_team = 56.0 / nteams
    best_t = 4
    best_e = -1e9
    best_sel = -1e9
    best_pts = -1000
    sign = 1 if params[P_TIE_POINTS] >= 0.5 else (-1 if params[P_TIE_POINTS] <= -0.5 else 0)
    common = _common(hm, n_act, nteams, params)
    for t in range(5):
        e = common + _trump_terms(hm, t, n_act, params)
        if t < 4 and (opp_suits >> t) & 1:
            e -= params[P_W_OPP_SUIT]
        if conventional and p_t < 5 and p_t >= 0:
            e += _read_form(hm, t, p_t, p_f, params)
        if t == p_t:  # partner's claim plus my surplus
            e = max(e, p_val + params[P_W_PARTNER] * (e - avg_team))
        elif p_t >= 0:
            e -= params[P_SWITCH_MARGIN]
        # a tie (equal lengths and tops) goes by the points held in the suit (tie_points),
        # not to the first suit: suit order made spades trump 28% of the time, clubs 22%
        pts = sign * mask_points(hm & SUIT_MASK[t]) if t < 4 else -999
        sel = e + params[P_W_TRUMP_JACK] * pc(hm & SUIT_MASK[t] & JACKS) if t < 4 else e
        if sel > best_sel or (sel == best_sel and pts > best_pts):
            best_sel = sel
            best_e = e
            best_t = t
            best_pts = pts
    return best_t, best_e, p_val, p_t, p_f


@njit(cache=True)
def _read_form(hm, t, p_t, p_f, params):
    """What partner's bid form says about trump ``t`` given my hand (the sheet's signals)."""
    if t >= 4 or p_t >= 4:
        if p_f == F_NUMBER_NT and t < 4:
            return 0.5 * params[P_W_READ_JACK]  # partner holds jacks: any trump is better
        return 0.0
    if t != p_t:
        return 0.0
    mine_j = (hm & SUIT_MASK[t] & JACKS) != ZERO
    if p_f == F_NUMBER_SUIT or p_f == F_PLUS_SUIT:
        return params[P_W_READ_JACK] * (1.0 if not mine_j else 0.5)  # partner has the top
    if p_f == F_SUIT_NUMBER:
        return params[P_W_READ_JACK] if mine_j else 0.0  # partner is long but lacks the jack
    if p_f == F_NOES or p_f == F_PLUS_TWO_NOES:
        return -params[P_W_READ_VOID]
    return 0.0


@njit(cache=True, inline="always")
def _honest_form(hm, t):
    if t == NO_TRUMPS:
        return F_NUMBER_NT
    return F_NUMBER_SUIT if (hm & SUIT_MASK[t] & JACKS) != ZERO else F_SUIT_NUMBER


@njit(cache=True)
def _bid(hm, public, private, legal, params, conventional):
    my_team = private[PV_TEAM]
    best_t, best_e, p_val, p_t, p_f = _choose(hm, public, private, params, conventional)
    ceiling = best_e - params[P_MARGIN]
    high_v = np.int64(public[PB_HIGH_VALUE])
    lo = np.int64(legal[L_MIN])
    high_b = public[PB_HIGH_BIDDER]
    ours = high_b >= 0 and public[PB_TEAM_OF + high_b] == my_team
    if legal[L_REDOUBLE] == 1:
        return REDOUBLE if ceiling >= high_v + params[P_REDOUBLE_MARGIN] else PASS
    if legal[L_THANI] == 1 and _value(hm, 4, public[PB_ACTIVE_N], public[PB_NTEAMS],
                                      params) >= params[P_THANI_MIN]:
        return bid_code(legal[L_MAX] + 1, NO_TRUMPS, F_THANI)
    if lo > 0:
        need = lo + (params[P_RAISE_STEP] if ours else 0.0)
        if conventional and ours and high_b != private[PV_SEAT]:
            code = _signal(hm, lo, high_v, ceiling, legal, public, params)
            if code > 0:
                return code
        if ceiling >= need:
            v = lo
            if not ours and params[P_JUMP_BACK] < 98.5:  # a jump tells the table at once
                v = max(lo, min(np.int64(legal[L_MAX]),
                                np.int64(math.floor(ceiling - params[P_JUMP_BACK]))))
            if params[P_BAND_GAIN] < 98.5:
                v = _band_jump(v, np.int64(legal[L_MAX]), best_e, public, params)
            return bid_code(v, best_t, _honest_form(hm, best_t))
        if ours and best_t == p_t and params[P_BAND_GAIN] < 98.5:
            v = _band_jump(high_v, np.int64(legal[L_MAX]), best_e, public, params)
            if v > high_v:  # partner's contract is worth more a band higher
                return bid_code(v, best_t, _honest_form(hm, best_t))
    if legal[L_DOUBLE] == 1:
        # The bid tells that the opponents expect high_v with an average partner; what my
        # hand holds above an average one (their trump's tops counting double) is what we
        # may take beyond 56 - high_v.
        t = public[PB_HIGH_TRUMP]
        surplus = _common(hm, public[PB_ACTIVE_N], public[PB_NTEAMS], params) \
            - params[P_BASE] - 56.0 / public[PB_NTEAMS]
        if t < 4:
            surplus += params[P_W_TRUMP_TOP] * pc(hm & SUIT_MASK[t] & TOPS)
        if 56 - high_v + surplus >= 57 - high_v + params[P_DOUBLE_MARGIN]:
            return DOUBLE
    return PASS


@njit(cache=True)
def _band_jump(v, top, e, public, params):
    """``v``, or the first value of a higher stake band up to ``top`` whose expected stake
    beats v's by band_gain: made with chance Phi((e - value + 0.5) / spread)."""
    best = v
    best_ev = 0.0  # v's expected stake + band_gain, once ``priced``
    priced = False
    sure_v = v <= e + 0.5  # v makes at least half the time
    for w in range(v + 1, top + 1):
        win = public[PB_PAY_WIN + w]
        lose = public[PB_PAY_LOSE + w]
        if win == public[PB_PAY_WIN + w - 1] and lose == public[PB_PAY_LOSE + w - 1]:
            continue  # same band: the lowest value of it is the one to bid
        # a value above the estimate makes less than half the time, so its expected stake is
        # below (win - lose) / 2, and v's is at least its own (win - lose) / 2: no erfc needed
        # (they cost a tenth of the default's time) when that already settles it
        if sure_v and w > e + 0.5 and win - lose <= public[PB_PAY_WIN + v] \
                - public[PB_PAY_LOSE + v] + 2.0 * params[P_BAND_GAIN]:
            continue
        if not priced:
            best_ev = _stake_ev(v, e, public, params) + params[P_BAND_GAIN]
            priced = True
        ev = _stake_ev(w, e, public, params)
        if ev > best_ev:
            best = w
            best_ev = ev
    return best


@njit(cache=True, inline="always")
def _stake_ev(v, e, public, params):
    p = 0.5 * math.erfc((v - 0.5 - e) / (params[P_SPREAD] * math.sqrt(2.0)))
    return p * public[PB_PAY_WIN + v] - (1.0 - p) * public[PB_PAY_LOSE + v]


@njit(cache=True)
def _signal(hm, lo, high_v, ceiling, legal, public, params):
    """Conventional answers to partner's suit bid: 'plus 2, suit' with exactly the two top
    cards of it, 'noes' / 'plus two, noes' with none of it. 0 when no signal fits."""
    t = public[PB_HIGH_TRUMP]
    if t >= 4 or legal[L_LAST_TRUMP] != t:
        return 0
    tm = hm & SUIT_MASK[t]
    if pc(tm) == 2 and pc(tm & TOPS) == 2 and high_v + 2 <= legal[L_MAX] \
            and ceiling >= high_v + 2:
        return bid_code(high_v + 2, t, F_PLUS_SUIT)
    if tm == ZERO and ceiling >= lo + params[P_RAISE_STEP]:
        if high_v + 2 <= legal[L_MAX] and ceiling >= lo + 2 * params[P_RAISE_STEP]:
            return bid_code(high_v + 2, t, F_PLUS_TWO_NOES)
        return bid_code(lo, t, F_NOES)
    return 0


@njit(cache=True)
def evaluator_bid(hand, n, public, private, legal, params, rng):
    """Values the hand for each trump (points, jacks, nines, trump length and top cards,
    voids), supports partner's trump and avoids opponents' suits; bids the lowest legal value
    up to valuation - margin in the best trump; doubles and redoubles by margins."""
    return _bid(hand_mask(hand, n), public, private, legal, params, np.bool_(False))


@njit(cache=True)
def conventional_bid(hand, n, public, private, legal, params, rng):
    """The evaluator, speaking the sheet's forms: 'number, suit' with the trump jack, 'suit,
    number' without it, 'number, no-trumps', 'plus 2, suit' with exactly two top cards of
    partner's suit, 'noes' without any; and reading those forms from partner."""
    return _bid(hand_mask(hand, n), public, private, legal, params, np.bool_(True))


# ---------------------------------------------------------------- the kernel's fast paths
# Hooks (StrategyDef.hooks) the kernel reaches through its generated dispatch
# (simulator/games/fifty_six/dispatch.py): a built-in's answer from the kernel's hand masks,
# without building the arrays of the decision interface; plug-ins get -1 (ask them through it).

CONVENTIONAL_ID = 2  # the pinned id of "conventional" (BUILTINS)


@njit(cache=True, inline="always")
def random_bid_mask(sid, hm, public, priv, legal, params, rng):
    """random_bid from what it reads."""
    return random_call(legal, rng)


@njit(cache=True, inline="always")
def heuristic_bid_mask(sid, hm, public, priv, legal, params, rng):
    """The evaluator's call from the hand mask, in the signalling forms for conventional: one
    hook for every heuristic, so the dispatch calls _bid at one site, with the flag a variable
    (a constant at two sites would compile _bid twice)."""
    return _bid(hm, public, priv, legal, params, sid == CONVENTIONAL_ID)


@njit(cache=True, inline="always")
def random_play_slot(h, lm, public, priv, params, played, deck, rng):
    """random_play on the hand masks (a slot)."""
    return random_play_mask(lm, rng)


@njit(cache=True, inline="always")
def heuristic_play_slot(h, lm, public, priv, params, played, deck, rng):
    """heuristic_play on the hand masks (a slot)."""
    return heuristic_play_mask(h, lm, public, priv, params, played, deck)


# ---------------------------------------------------------------- expert
# tuned's parameters, then the search's (strategies/fifty_six_expert.py)

EXPERT_BASE = len(PARAMS)
EXPERT = params_of(TUNED)


@njit(cache=True)
def expert_play(hand, n, public, private, legal, params, rng):
    """The searched card (search_play) behind the array interface."""
    h, lm = array_masks(hand, n, legal)
    slot = search_play(h, lm, public, private, params, played_mask(public), deck_of(public),
                       rng, EXPERT_BASE)
    return index_of(hand, n, slot)


@njit(cache=True)
def expert_bid(hand, n, public, private, legal, params, rng):
    """A bid by simulation (search_bid), or tuned's call where the search leaves it."""
    hm = hand_mask(hand, n)
    v, t = search_bid(hm, public, private, legal, params, rng, EXPERT_BASE)
    if v < 0:
        return _bid(hm, public, private, legal, params, np.bool_(False))
    return PASS if v == 0 else bid_code(v, t, _honest_form(hm, t))


_HEURISTIC_PLAY = {"play": heuristic_play, "reveal": heuristic_reveal}
_RANDOM_HOOKS = {"bid_mask": random_bid_mask, "play_mask": random_play_slot}
_HEURISTIC_HOOKS = {"bid_mask": heuristic_bid_mask, "play_mask": heuristic_play_slot}
BUILTINS = (
    StrategyDef(
        "random",
        "uniform over legal actions at every decision (call, card, asking for a hidden trump)",
        {"bid": random_bid, "play": random_play, "reveal": random_reveal},
        id=0, hooks=_RANDOM_HOOKS,
    ),
    StrategyDef(
        "evaluator",
        "hand-evaluation bidder (trump and ceiling from weighted jacks, nines, points, trump "
        "length, voids and the auction) with the card-play heuristic",
        {"bid": evaluator_bid, **_HEURISTIC_PLAY}, PARAMS, id=1, hooks=_HEURISTIC_HOOKS,
    ),
    StrategyDef(
        "conventional",
        "the evaluator bidding in the sheet's signalling forms and reading partner's forms, "
        "with the card-play heuristic",
        {"bid": conventional_bid, **_HEURISTIC_PLAY}, PARAMS, id=CONVENTIONAL_ID,
        hooks=_HEURISTIC_HOOKS,
    ),
    StrategyDef("cautious", "evaluator preset: bids and doubles only with margin, wins "
                "tricks only for 2+ points", {"bid": evaluator_bid, **_HEURISTIC_PLAY},
                CAUTIOUS, id=3, hooks=_HEURISTIC_HOOKS),
    StrategyDef("aggressive", "evaluator preset: optimistic valuation, bids over its "
                "ceiling, doubles readily", {"bid": evaluator_bid, **_HEURISTIC_PLAY},
                AGGRESSIVE, id=4, hooks=_HEURISTIC_HOOKS),
    StrategyDef("tuned", "the default: evaluator with its valuation fitted to the points "
                "contract teams take and its bidding tuned by `cardsim tune`: bids to its "
                "estimate less 5, jumps to a higher stake band when that pays, values "
                "no-trumps by its jacks, keeps out of suits the opponents bid; takes any trick "
                "it can win for sure, trumps in for 1+ point",
                {"bid": evaluator_bid, **_HEURISTIC_PLAY}, TUNED, id=5,
                hooks=_HEURISTIC_HOOKS),
    StrategyDef("expert", "searches its card play: deals the unseen cards `samples` ways "
                "consistent with the play so far (cards played, suits shown out), plays each "
                "candidate card out on every deal with tuned's card play, and plays the one "
                "whose play-outs pay its side most (the contract's stake, then points); bids "
                "as tuned (bid_samples > 0: by simulation, each trump played out from the "
                "first lead, the value and trump of the best expected stake)",
                {"bid": expert_bid, "play": expert_play, "reveal": heuristic_reveal}, EXPERT,
                id=6, pointer=True),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = builtin_ids(BUILTINS)
assert BUILTIN_IDS["conventional"] == CONVENTIONAL_ID
