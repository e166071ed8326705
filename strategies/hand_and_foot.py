"""Hand and Foot strategies: @njit decision functions of the signature in
simulator/games/hand_and_foot/view.py (draw, meld, discard, ask, grant) plus named float params,
called by the kernel through its generated dispatch (simulator/games/hand_and_foot/dispatch.py:
built-ins directly by their pinned ids, plug-ins through pointers).

``random`` is uniform over the legal choices of every decision. The three heuristics share one
parameterised player; their names are parameter presets that play differently:

- ``early_melder``: melds as soon as its hand reaches the minimum, uses wilds freely, rushes
  to the foot;
- ``patient_builder``: waits for points above the minimum, starts melds with four naturals,
  keeps wilds out of melds until they finish a book, takes only big piles;
- ``pile_taker``: takes the pile whenever the rules let it;
- ``waiting_melder``: the early melder (``hold=150``) that waits to open until its hand can meld
  150 points above the minimum (or a pile take opens it);
- ``table_reader``: reads the table: waits before opening, values the pile by what a take
  gives, keeps wilds for wild books (1500 each) and out of dirty melds the team does not need,
  and refuses the partner's going out while holding many points (unless the stock is nearly
  gone). Tuned with ``cardsim tune`` against early_melder:hold=60 and waiting_melder, then
  set back to fewer exhausted deals (docs/hand_and_foot.md); the strongest preset measured and
  the game's default strategy. Its discards against the next player's take (``discard_open``,
  ``discard_meld``) are off in the preset: they won games but made deals run out of stock.

The parameters added for the table reader (``hold_frac`` .. ``grant_stock``) have "off" values
at which the other presets play exactly as before.
"""
from numba import njit

from cardsim.simulator.games.hand_and_foot.view import (
    BLACK3, B3_T, JOKER, K_A, OP_ADD_JOKER, OP_ADD_NAT, OP_ADD_TWO, OP_START2_JOKER,
    OP_START2_TWO, OP_START3, P_HAND_N, P_IN_FOOT, P_MIN_MELD, P_NEED_DIRTY, P_NEED_WILD,
    P_PILE_N, P_PILE_TOP, P_PILE_TOP7, P_PLAYERS, P_STOCK_N, P_TEAM_OF, RED3, STOP, T_DIRTY,
    T_MELDS, T_WILD, TWO, V_IN_FOOT, V_PARTNER, V_REACH, V_SEAT, V_STAGED, V_TEAM, VALUE,
    WILD_T, points_of, team_base,
)
from cardsim.strategies.rummy_legal import index_of, random_choice
from cardsim.simulator.strategy import Param, StrategyDef, builtin_ids

# parameter positions (the same for every heuristic preset)
HOLD, PILE_MIN, WILD_NAT, START_NAT, FOOT_RUSH, GRANT_PTS, ASK_OUT = range(7)
# the table reader's parameters; each one's "off" value (the old presets') plays as before
HOLD_FRAC, PILE_EVAL, PILE_WILD, PILE_JUNK, WILD_BOOKS, DISC_OPEN, DISC_MELD, GRANT_STOCK = \
    range(7, 15)


@njit(cache=True, inline="always")
def _meld_score(t, op, held, n0, w0, start_nat, wild_nat, rush, cards, keep, dirty_short,
                need_wild, dirty_need):
    """Score of action (t, op) on a meld of n0 naturals and w0 wilds, ``held`` naturals of t
    in hand. Scalars only: an inlined function taking arrays pays reference-count calls for
    each, at every legal action."""
    if t == B3_T:
        return 100.0  # only offered when it takes the player out
    if cards <= 2:
        return 90.0  # every legal action that empties the hand this far is a way out or in
    if t == WILD_T:
        return 30.0 if (need_wild or rush or keep) else -1.0
    if op == OP_ADD_NAT:
        return 50.0 + VALUE[t]
    if op == OP_START3:
        return 40.0 + VALUE[t] if (held >= start_nat or rush) else -1.0
    if op == OP_START2_TWO or op == OP_START2_JOKER:
        ok = wild_nat <= 2.0 or rush
        if keep and dirty_short <= 0:
            ok = False  # the dirty books the team needs are already under way
        return (20.0 + (op == OP_START2_TWO)) if ok else -1.0
    if op == OP_ADD_TWO or op == OP_ADD_JOKER:
        ok = n0 >= wild_nat or rush
        if keep:
            if w0 > 0:
                # a second wild: only to close a dirty book the team still needs
                ok = ok and dirty_need
            elif dirty_short <= 0:
                ok = False
        return (10.0 + (op == OP_ADD_TWO)) if ok else -1.0
    return -1.0


@njit(cache=True)
def dirty_shortfall(public, team):
    """Dirty books the team needs to go out beyond those closed and the rank melds that
    already hold a wild (each will close dirty)."""
    tb = team_base(team)
    short = public[P_NEED_DIRTY] - public[tb + T_DIRTY]
    for r in range(K_A + 1):
        b = tb + T_MELDS + 3 * r
        if public[b + 1] + public[b + 2] > 0:
            short -= 1
    return short


@njit(cache=True)
def heuristic_waits(public, private, params):
    """Before the team's initial meld, with nothing melded this turn: the hand cannot yet
    meld ``hold + hold_frac * minimum`` points above the minimum. heuristic_meld then answers
    STOP whatever else is legal, so the kernel need not build the list (the heuristics' hook
    ``meld_stops``). Monotone in ``V_REACH``: true for a reach, it is true for every smaller
    one (0 or more), so the kernel may ask it with an upper bound of the reach first."""
    need = public[P_MIN_MELD]
    return (private[V_REACH] >= 0 and private[V_STAGED] == 0
            and private[V_REACH] < need + params[HOLD] + params[HOLD_FRAC] * need)


@njit(cache=True)
def heuristic_meld(mine, public, private, legal, params, rng):
    """Greedy: the best-scoring legal action, or STOP when nothing scores above it. Before
    the team's initial meld it starts only with ``hold + hold_frac * minimum`` points to spare
    over the minimum. Below ``wild_books`` wild books, wilds go to wild melds, and into rank
    melds only while the team still lacks dirty books."""
    team = private[V_TEAM]
    cards = public[P_HAND_N + private[V_SEAT]]
    rush = cards <= params[FOOT_RUSH] and private[V_IN_FOOT] == 0
    waiting = heuristic_waits(public, private, params)
    # wilds are kept for wild melds while the team has fewer than ``wild_books`` wild books,
    # but once it has the wild books to go out and a player in the foot, they help that
    # player (or this one) out: kept, they could also leave this player stuck in the foot
    wb = public[team_base(team) + T_WILD]
    p = private[V_PARTNER]
    feet = private[V_IN_FOOT] == 1 or (p >= 0 and public[P_IN_FOOT + p] == 1)
    keep = wb < params[WILD_BOOKS] and not (feet and wb >= public[P_NEED_WILD])
    dirty_short = dirty_shortfall(public, team) if keep else 0
    tb = team_base(team)
    need_wild = public[tb + T_WILD] < public[P_NEED_WILD]
    dirty_need = public[tb + T_DIRTY] < public[P_NEED_DIRTY]
    start_nat = params[START_NAT]
    wild_nat = params[WILD_NAT]
    best = -1
    best_s = -1e18
    for i in range(legal[0]):
        code = legal[1 + i]
        if code == STOP:
            s = 0.0
        elif waiting:
            s = -1e9
        else:
            t = code // 16
            b = tb + T_MELDS + 3 * min(t, WILD_T)
            s = _meld_score(t, code % 16, mine[min(t, WILD_T)], public[b],
                            public[b + 1] + public[b + 2], start_nat, wild_nat, rush, cards,
                            keep, dirty_short, need_wild, dirty_need)
        if s > best_s:
            best_s = s
            best = i
    return best


@njit(cache=True)
def heuristic_discard(mine, public, private, legal, params, rng):
    """Black threes first (they block the pile), never a wild while anything else is held,
    otherwise the lone low natural the team is not building. With ``discard_open`` /
    ``discard_meld`` it also keeps naturals the next player could take the pile with (per
    card that take would give): a rank its team has no meld of, or a meld with room for three
    more (4 cards or fewer); a meld of 5 or 6 cannot take the pile's three."""
    team = private[V_TEAM]
    base = team_base(team) + T_MELDS
    nxt = private[V_SEAT] + 1
    if nxt >= public[P_PLAYERS]:
        nxt = 0
    ob = team_base(public[P_TEAM_OF + nxt]) + T_MELDS
    risk = min(public[P_PILE_N] + 1, 7)
    w_open = params[DISC_OPEN] * risk
    w_meld = params[DISC_MELD] * risk
    best = 0
    best_keep = 1e18
    for i in range(legal[0]):
        k = legal[1 + i]
        if k == BLACK3:
            keep = -100.0
        elif k == TWO or k == JOKER:
            keep = 1000.0 + VALUE[k]
        else:
            keep = 20.0 * mine[k] + VALUE[k] + (40.0 if public[base + 3 * k] > 0 else 0.0)
            z = public[ob + 3 * k] + public[ob + 3 * k + 1] + public[ob + 3 * k + 2]
            if z == 0:
                keep += w_open
            elif z <= 4:
                keep += w_meld
        if keep < best_keep:
            best_keep = keep
            best = i
    return best


@njit(cache=True)
def pile_value(mine, public, team, params):
    """What a pile take gives, in cards: naturals of the top's rank, of a rank the team has
    an unfinished meld of, or that make three with the cards held count 1; wilds
    ``pile_wild``; other naturals and black threes −``pile_junk``."""
    base = team_base(team) + T_MELDS
    top = public[P_PILE_TOP]
    junk = params[PILE_JUNK]
    v = 0.0
    for k in range(K_A + 1):
        c = public[P_PILE_TOP7 + k]
        if c == 0:
            continue
        z = public[base + 3 * k] + public[base + 3 * k + 1] + public[base + 3 * k + 2]
        if k == top or z > 0 or mine[k] + c >= 3:
            v += c
        else:
            v -= junk * c
    v += params[PILE_WILD] * (public[P_PILE_TOP7 + TWO] + public[P_PILE_TOP7 + JOKER])
    v += 2.0 * public[P_PILE_TOP7 + RED3]  # laid out for 100 and replaced from the stock
    v -= junk * public[P_PILE_TOP7 + BLACK3]
    return v


@njit(cache=True)
def heuristic_draw(mine, public, private, legal, params, rng):
    """Takes the pile from ``pile_min`` cards, or (``pile_eval``) when pile_value reaches it."""
    if params[PILE_EVAL] >= 0.5:
        take = 1 if pile_value(mine, public, private[V_TEAM], params) >= params[PILE_MIN] else 0
    else:
        take = 1 if public[P_PILE_N] >= params[PILE_MIN] else 0
    return index_of(legal, take, 0)


@njit(cache=True)
def heuristic_ask(mine, public, private, legal, params, rng):
    return index_of(legal, 1 if params[ASK_OUT] >= 0.5 else 0, 0)


@njit(cache=True)
def heuristic_grant(mine, public, private, legal, params, rng):
    """Grants while its own cards (the penalty the going out fixes) are at most
    ``grant_points``, or once the stock is down to ``grant_stock`` cards (the deal ends soon
    anyway, without the going-out bonus)."""
    ok = points_of(mine) <= params[GRANT_PTS] or public[P_STOCK_N] <= params[GRANT_STOCK]
    return index_of(legal, 1 if ok else 0, 0)


def _params(hold, pile_min, wild_nat, start_nat, foot_rush, grant_pts, ask_out=1.0,
            hold_frac=0.0, pile_eval=0.0, pile_wild=1.0, pile_junk=1.0, wild_books=0.0,
            discard_open=0.0, discard_meld=0.0, grant_stock=-1.0):
    return (
        Param("hold", hold, "points above the minimum its hand must reach before the team's "
              "initial meld", 0, 10000),
        Param("pile_min", pile_min, "smallest discard pile it takes (when the rules allow)",
              0, 1000),
        Param("wild_naturals", wild_nat, "naturals a meld must hold before it adds a wild "
              "(2 or less: also starts melds with a wild)", 0, 7),
        Param("start_naturals", start_nat, "naturals of a rank it holds before starting a "
              "meld of it (3: at once)", 3, 30),
        Param("foot_rush", foot_rush, "cards in hand at or below which it melds all it can, "
              "wilds too, to reach the foot", 0, 60),
        Param("grant_points", grant_pts, "as partner, grants going out when holding at most "
              "this many points", 0, 10000),
        Param("ask_out", ask_out, "1: asks to go out whenever it may, 0: never", 0, 1),
        Param("hold_frac", hold_frac, "more points to wait for before the initial meld, as a "
              "fraction of the deal's minimum", 0, 10),
        Param("pile_eval", pile_eval, "1: takes the pile when its pile_value (useful cards) "
              "reaches pile_min; 0: by the pile's size", 0, 1),
        Param("pile_wild", pile_wild, "pile_value of a wild card in the take", 0, 10),
        Param("pile_junk", pile_junk, "pile_value lost per card of the take that fits "
              "nothing (a natural with no meld and no pair held, a black three; -1: counts as 1)",
              -1, 10),
        Param("wild_books", wild_books, "wild books the team aims for: until it has them, "
              "wilds build wild melds and go into rank melds only while it lacks dirty books "
              "(0: as wild_naturals says)", 0, 5),
        Param("discard_open", discard_open, "keep-score per card of the next take for a "
              "natural the next player's team has no meld of", 0, 100),
        Param("discard_meld", discard_meld, "keep-score per card of the next take for a "
              "natural whose meld at the next player's team has room for the pile's three", 0,
              100),
        Param("grant_stock", grant_stock, "as partner, grants going out whenever the stock "
              "holds at most this many cards (-1: never by the stock)", -1, 300),
    )


_HEUR = {"draw": heuristic_draw, "meld": heuristic_meld, "discard": heuristic_discard,
         "ask": heuristic_ask, "grant": heuristic_grant}
# the kernel's fast path (the hook meld_stops of the adapter's DISPATCH): while waiting to
# open, a heuristic answers STOP to any meld list holding STOP; random has no such hook
_HOOKS = {"meld_stops": heuristic_waits}
# ids pinned: the generated dispatch and saved run.json files name built-ins by them
BUILTINS = (
    StrategyDef("random", "uniform over the legal choices at every decision",
                {d: random_choice for d in _HEUR}, id=0),
    StrategyDef("early_melder", "melds as soon as the minimum is reached; wilds used freely; "
                "rushes to the foot", _HEUR, _params(0, 3, 2, 3, 13, 1000), id=1,
                hooks=_HOOKS),
    StrategyDef("patient_builder", "waits for points above the minimum; builds clean books; "
                "wilds only to finish books; takes big piles only", _HEUR,
                _params(60, 6, 5, 4, 3, 100), id=2, hooks=_HOOKS),
    StrategyDef("pile_taker", "takes the discard pile whenever the rules allow", _HEUR,
                _params(0, 1, 3, 3, 6, 1000), id=3, hooks=_HOOKS),
    StrategyDef("waiting_melder", "the early melder waiting for 150 points above the minimum "
                "before its initial meld", _HEUR,
                _params(150, 3, 2, 3, 13, 1000), id=4, hooks=_HOOKS),
    StrategyDef("table_reader", "waits before its initial meld, values the pile by what it "
                "gives, keeps wilds for wild books, grants going out by the points at stake "
                "(tuned; the strongest preset, the default)", _HEUR,
                _params(150, 4, 2, 3, 12, 160, hold_frac=0.0, pile_eval=1.0, pile_wild=2.7,
                        pile_junk=-0.45, wild_books=1.0, discard_open=0.0, discard_meld=0.0,
                        grant_stock=11.0), id=5, hooks=_HOOKS),
)
REGISTRY = {d.name: d for d in BUILTINS}
BUILTIN_IDS = builtin_ids(BUILTINS)
