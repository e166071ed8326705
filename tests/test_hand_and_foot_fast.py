"""The kernel's fast paths for the built-in players against the plain code they replace, on
random positions: each fast answer must be the one the full computation gives."""
import numpy as np
import pytest

from cardsim.simulator.games.hand_and_foot import view as V
from cardsim.simulator.games.hand_and_foot import kernel as K
from cardsim.simulator.games.hand_and_foot.dispatch import hook_meld_stops
from cardsim.strategies.hand_and_foot import BUILTIN_IDS, HOLD, REGISTRY, heuristic_meld
from tests.helpers_hand_and_foot import Position

RNG = np.zeros(2, np.uint64)
# kinds drawn for random hands: naturals often, wilds and threes now and then
WEIGHTS = np.array([4] * 11 + [2, 1, 1, 0], float)


def _random_hand(rng, size):
    cnt = np.zeros(V.NK, np.int16)
    for k in rng.choice(V.NK, size=size, p=WEIGHTS / WEIGHTS.sum()):
        cnt[k] += 1
    return cnt


@pytest.mark.parametrize("name", ["early_melder", "patient_builder", "pile_taker",
                                  "waiting_melder", "table_reader"])
def test_a_waiting_builtin_stops_whatever_the_full_list_holds(name):
    """The kernel skips the meld list (and its knapsacks) when hook_meld_stops says the
    built-in answers STOP, asked first with the card points held in place of the reach; the
    full list and the decision on it (with the exact reach) must then give STOP."""
    d = REGISTRY[name]
    prm = d.param_vector({}, len(d.params))
    sid = BUILTIN_IDS[name]
    rng = np.random.default_rng(11)
    stopped = listed = melded = by_points = 0
    for _ in range(1500):
        need = int(rng.choice([0, 50, 90, 120, 150, 300]))
        pos = Position(need=need)
        pos.hands[0] = _random_hand(rng, int(rng.integers(3, 22)))
        pos.public[V.P_HAND_N] = int(pos.hands[0].sum())
        if rng.random() < 0.3:  # pile cards held (they do not count toward the minimum)
            k = int(rng.integers(0, 11))
            pos.private[0, V.V_EXTRA + k] = min(int(pos.hands[0, k]), int(rng.integers(1, 3)))
        pos.private[0, V.V_STAGED] = 0
        reach = pos.reach(0)  # (fills pos.work with the counting cards)
        # the kernel first asks with the card points held, an upper bound of the reach
        pos.private[0, V.V_REACH] = V.points_of(pos.work)
        assert pos.private[0, V.V_REACH] >= reach
        stops_held = bool(hook_meld_stops(sid, pos.public, pos.private[0], prm))
        pos.private[0, V.V_REACH] = reach
        n, want = pos_list(pos, reach)
        assert not want
        stops = bool(hook_meld_stops(sid, pos.public, pos.private[0], prm))
        assert stops or not stops_held  # monotone in the reach
        by_points += stops_held
        i = int(heuristic_meld(pos.hands[0], pos.public, pos.private[0], pos.legal, prm, RNG))
        choice = int(pos.legal[1 + i])
        if stops:
            assert choice == V.STOP, (name, need, pos.hands[0], reach)
            stopped += 1
            listed += n > 1  # a list with more than STOP in it
        else:
            melded += choice != V.STOP
    assert stopped > 50 and melded > 20 and by_points > 50, (stopped, melded, by_points)
    if prm[HOLD] > 0:  # hold: it also waits with melds legal
        assert listed > 50, listed
    # random and plug-ins (sid < 0) are never skipped: they may meld anything legal
    assert not hook_meld_stops(BUILTIN_IDS["random"], pos.public, pos.private[0], prm)
    assert not hook_meld_stops(-1, pos.public, pos.private[0], prm)


def pos_list(pos, reach):
    n, want = K._list_melds(0, 0, pos.hands, pos.public, pos.private, pos.rules, pos.legal,
                            pos.work, pos.started, 0, True, pos.need, False, reach)
    return int(n), bool(want)


def _random_meld(rng, target):
    """(naturals, twos, jokers) of a random unfinished meld of ``target`` (often none)."""
    if rng.random() < 0.5:
        return 0, 0, 0
    if target == V.WILD_T:
        z = int(rng.integers(3, 7))
        t = int(rng.integers(0, z + 1))
        return 0, t, z - t
    while True:
        n, w = int(rng.integers(2, 7)), int(rng.integers(0, 3))
        if V.rank_meld_ok(n, w) and n + w < 7:
            t = int(rng.integers(0, w + 1))
            return n, t, w - t


@pytest.mark.parametrize("rules", [{}, {"black_threes_meld_going_out": True,
                                        "go_out_without_discard": True},
                                   {"one_meld_action_per_turn": True, "players": 2}])
def test_meld_list_by_target_bits_is_the_plain_list(rules):
    """_list_melds visits only the targets its bit mask says can have an action; the plain
    way (every_target) visits all of them. Both lists must be the same, in the same order,
    with the same permission request, on random positions: hands with and without wilds and
    black threes, melds of every size, before and after the initial meld, in and out of the
    foot, with and without the partner's answer, starting or adding this turn."""
    rng = np.random.default_rng(5)
    stats = {"long": 0, "want": 0, "b3": 0, "preinit": 0, "wild": 0}
    for _ in range(3000):
        need = int(rng.choice([0, 50, 90, 150]))
        pos = Position(need=need, **rules)
        seat = int(rng.integers(0, pos.players))
        team = seat % pos.teams
        size = int(rng.choice([1, 2, 2, 3, 4, 6, 10, 16]))
        pos.hands[seat] = _random_hand(rng, size)
        if rng.random() < 0.2:
            pos.hands[seat, V.BLACK3] += int(rng.integers(0, 5))
        elif rng.random() < 0.1:  # black threes and one card at most: a way out with them
            pos.hands[seat] = _random_hand(rng, int(rng.integers(0, 2)))
            pos.hands[seat, V.BLACK3] = int(rng.integers(3, 5))
        pos.public[V.P_HAND_N + seat] = int(pos.hands[seat].sum())
        for t in range(V.N_TARGETS):
            b = V.team_base(team) + V.T_MELDS + 3 * t
            pos.public[b:b + 3] = _random_meld(rng, t)
        preinit = rng.random() < 0.3
        pos.melded(team, not preinit)
        # often the books to go out (2 clean, 2 dirty, 1 wild by default)
        books = (2, 2, 1) if rng.random() < 0.5 else (int(x) for x in rng.integers(0, 3, 3))
        pos.books(team, *books)
        pos.melded(team, not preinit)
        if rng.random() < 0.5:
            pos.foot(seat, "", picked=True, turns=int(rng.integers(0, 2)))
        p = pos.private[seat, V.V_PARTNER]
        if p >= 0 and rng.random() < 0.7:
            pos.foot(p, "", picked=True, turns=int(rng.choice([0, 1, 1, 2])))
        pos.private[seat, V.V_PERMISSION] = int(rng.integers(-1, 2))
        pos.private[seat, V.V_STAGED] = int(rng.choice([0, 0, 30, 60])) if preinit else 0
        mode = int(rng.integers(0, 3))
        pos.started[:] = rng.random(V.N_TARGETS) < 0.2
        pile_turn = bool(rng.random() < 0.2)
        reach = pos.reach(seat)
        lists = []
        for every in (False, True):
            pos.legal[:] = -7
            n, want = K._list_melds(seat, team, pos.hands, pos.public, pos.private, pos.rules,
                                    pos.legal, pos.work, pos.started, mode, preinit, need,
                                    pile_turn, reach, every)
            assert n == pos.legal[0]
            lists.append((list(pos.legal[:n + 1]), bool(want)))
        assert lists[0] == lists[1], (pos.hands[seat], lists)
        codes = lists[0][0][1:]
        stats["long"] += len(codes) > 3
        stats["want"] += lists[0][1]
        stats["b3"] += any(c // 16 == V.B3_T for c in codes if c != V.STOP)
        stats["wild"] += any(c // 16 == V.WILD_T for c in codes if c != V.STOP)
        stats["preinit"] += preinit and len(codes) > 1
    assert stats["long"] > 300 and stats["wild"] > 100, stats
    if pos.players == 4:  # (alone, nobody is asked)
        assert stats["want"] > 20, stats
    assert stats["preinit"] > 50, stats
    if rules.get("black_threes_meld_going_out"):
        assert stats["b3"] > 5, stats
