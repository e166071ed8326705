"""Shared helpers for the Hand and Foot tests: hand-made positions on the kernel's own state
arrays (the real kernel functions then judge them), and scripted deals from a preset deck."""
import numpy as np
from numba import njit

from cardsim.simulator.cards import parse
from cardsim.simulator.games import get_game
from cardsim.simulator.games.hand_and_foot import kernel as K
from cardsim.simulator.games.hand_and_foot import view as V
from cardsim.simulator.games.hand_and_foot.rules import to_array
from cardsim.simulator.strategy import StrategyDef

GAME = get_game("hand-and-foot")
KIND = {name: k for k, name in enumerate(V.KIND_NAMES)}


def kinds(text: str) -> np.ndarray:
    """'K K 2 JK 3B' -> counts per kind."""
    c = np.zeros(V.NK, np.int16)
    for t in text.split():
        c[KIND[t]] += 1
    return c


class Position:
    """One deal's state for seats 0..players-1 (team of seat s: s % teams), built by hand."""

    def __init__(self, players=4, need=50, **rules):
        self.rules_dict = GAME.rules.resolve({"players": players, **rules})
        self.rules = to_array(self.rules_dict)
        sids = np.full(V.MAX_TEAMS, -1, np.int64)
        ctx = K.Ctx(np.uint64(0), False, self.rules, sids, np.zeros((V.MAX_TEAMS, 1)))
        owners, _ = K.KERNEL.new_state(ctx)
        for field in ("hands", "feet", "deck", "pile", "public", "private", "legal", "rngs",
                      "tbl", "stats", "params", "work", "started", "snap"):
            setattr(self, field, getattr(owners, field))
        self.owners = owners
        self.players = players
        self.teams = GAME.n_teams(self.rules_dict)
        p = self.public
        p[V.P_PLAYERS] = players
        p[V.P_NTEAMS] = self.teams
        p[V.P_MIN_MELD] = need
        p[V.P_NEED_CLEAN] = self.rules_dict["books_to_go_out"]["clean"]
        p[V.P_NEED_DIRTY] = self.rules_dict["books_to_go_out"]["dirty"]
        p[V.P_NEED_WILD] = self.rules_dict["books_to_go_out"]["wild"]
        for s in range(V.MAX_SEATS):
            t = s % self.teams if s < players else -1
            p[V.P_TEAM_OF + s] = t
            self.private[s, V.V_SEAT] = s
            self.private[s, V.V_TEAM] = t
            self.private[s, V.V_PARTNER] = ((s + self.teams) % players
                                            if (s < players and self.teams < players) else -1)
            self.private[s, V.V_PERMISSION] = -1
        self.need = need

    # -- building
    def hand(self, seat, text):
        self.hands[seat] = kinds(text)
        self.public[V.P_HAND_N + seat] = int(self.hands[seat].sum())
        return self

    def foot(self, seat, text, picked=False, turns=0):
        if picked:
            self.public[V.P_IN_FOOT + seat] = 1
            self.private[seat, V.V_IN_FOOT] = 1
            self.public[V.P_FOOT_TURNS + seat] = turns
            self.public[V.P_FOOT_N + seat] = 0
            self.feet[seat] = 0
        else:
            self.feet[seat] = kinds(text)
            self.public[V.P_FOOT_N + seat] = int(self.feet[seat].sum())
        return self

    def meld(self, team, target, naturals, twos=0, jokers=0):
        """An unfinished meld already on the table (cards counted in the team's points)."""
        t = KIND[target] if target != "wild" else V.WILD_T
        b = V.team_base(team) + V.T_MELDS + 3 * t
        self.public[b:b + 3] = (naturals, twos, jokers)
        if t < V.WILD_T:
            self.tbl[team, t] += naturals
        self.tbl[team, V.TWO] += twos
        self.tbl[team, V.JOKER] += jokers
        self.public[V.team_base(team) + V.T_MELDED] = 1
        return self

    def books(self, team, clean=0, dirty=0, wild=0):
        tb = V.team_base(team)
        self.public[tb + V.T_CLEAN] = clean
        self.public[tb + V.T_DIRTY] = dirty
        self.public[tb + V.T_WILD] = wild
        self.public[tb + V.T_MELDED] = 1
        return self

    def melded(self, team, flag=True):
        self.public[V.team_base(team) + V.T_MELDED] = int(flag)
        return self

    def pile_of(self, text):
        """Discard pile, bottom first (the last card is the top)."""
        ks = [KIND[t] for t in text.split()]
        self.pile[:len(ks)] = ks
        self.public[V.P_PILE_N] = len(ks)
        K._top7(self.public, self.pile, self.rules)
        return self

    # -- asking the kernel
    def legal_melds(self, seat=0, mode=0, pile_turn=False):
        team = seat % self.teams
        preinit = self.public[V.team_base(team) + V.T_MELDED] == 0
        n, want = K._list_melds(seat, team, self.hands, self.public, self.private, self.rules,
                                self.legal, self.work, self.started, mode, preinit, self.need,
                                pile_turn, self.reach(seat), False)
        return {self.name(int(c)) for c in self.legal[1:n + 1]}, bool(want)

    def pile_ok(self, seat=0):
        return bool(K._pile_ok(seat, seat % self.teams, self.hands, self.public, self.private,
                               self.rules, self.pile, self.work))

    def take_pile(self, seat=0):
        return int(K._take_pile(seat, seat % self.teams, self.hands, self.public, self.private,
                                self.tbl, self.pile, self.rules, self.deck, 54 * 5,
                                np.zeros((1, K.LOG_W), np.int32), False))

    def apply(self, seat, action):
        """Make a meld action given by name (see ``name``); returns (counted, book)."""
        code = next(c for c in _all_codes() if self.name(c) == action)
        dn, d2, dj, db3, _ = K._delta(code // 16, code % 16)
        counted, book = K._apply(seat, seat % self.teams, code // 16, dn, d2, dj, db3,
                                 self.hands, self.public, self.private, self.tbl)
        return int(counted), int(book)

    def score(self, team):
        parts = np.zeros(K.SC_W, np.int64)
        K.score_team(team, self.players, self.hands, self.feet, self.public, self.stats,
                     self.rules, parts)
        names = ("melded", "book_bonus", "red3_bonus", "out_bonus", "hand_pen", "foot_pen",
                 "red3_pen", "score", "clean", "dirty", "wild", "red3", "caught", "feet_picked")
        return dict(zip(names, (int(x) for x in parts)))

    def reach(self, seat=0):
        K._counting(seat, self.hands, self.private, self.work)
        return int(V.reach(self.work, self.public, seat % self.teams))

    @staticmethod
    def name(code: int) -> str:
        """'STOP', or '<target> <op>' e.g. 'K add_two', 'wild start 2+1', 'Q start3'."""
        if code == V.STOP:
            return "STOP"
        t, op = divmod(code, 16)
        target = "wild" if t == V.WILD_T else ("3B" if t == V.B3_T else V.KIND_NAMES[t])
        ops = {V.OP_ADD_NAT: "add_natural", V.OP_ADD_TWO: "add_two", V.OP_ADD_JOKER: "add_joker",
               V.OP_START3: "start3", V.OP_START2_TWO: "start2+two",
               V.OP_START2_JOKER: "start2+joker", V.OP_W300: "start 3+0", V.OP_W210: "start 2+1",
               V.OP_W120: "start 1+2", V.OP_W030: "start 0+3", V.OP_B3_3: "meld3",
               V.OP_B3_4: "meld4"}
        return f"{target} {ops[op]}"


def _all_codes():
    for t in range(V.N_TARGETS + 1):
        for op in range(V.OP_B3_4 + 1):
            yield t * 16 + op


# ---------------------------------------------------------------- a scripted strategy


@njit(cache=True)
def _cautious_draw(mine, public, private, legal, params, rng):
    return 0  # always the stock


@njit(cache=True)
def _cautious_meld(mine, public, private, legal, params, rng):
    for i in range(legal[0]):
        if legal[1 + i] == V.STOP:
            return i
    return 0


@njit(cache=True)
def _cautious_discard(mine, public, private, legal, params, rng):
    return 0  # the lowest kind held


@njit(cache=True)
def _no(mine, public, private, legal, params, rng):
    return 0


def cautious() -> StrategyDef:
    """Never takes the pile, never melds when it may stop, discards its lowest kind."""
    return StrategyDef("cautious", "test strategy", {
        "draw": _cautious_draw, "meld": _cautious_meld, "discard": _cautious_discard,
        "ask": _no, "grant": _no}, plugin=True)


REGISTRY = {"cautious": cautious()}


def deck_codes(text: str) -> np.ndarray:
    return np.array([parse(c) for c in text.split()], np.int8)
