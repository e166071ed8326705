"""The kernel's fast paths for the built-in players against the plain code they replace, on
random positions: each fast answer must be the one the full computation gives."""
import numpy as np
import pytest

from simulator.games.hand_and_foot import view as V
from simulator.games.hand_and_foot import kernel as K
from strategies.hand_and_foot import (
    BUILTIN_IDS, HOLD, REGISTRY, builtin_meld_stops, heuristic_meld,
)
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
    """The kernel skips the meld list (and its knapsacks) when builtin_meld_stops says the
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
        stops_held = bool(builtin_meld_stops(sid, pos.public, pos.private[0], prm))
        pos.private[0, V.V_REACH] = reach
        n, want = pos_list(pos, reach)
        assert not want
        stops = bool(builtin_meld_stops(sid, pos.public, pos.private[0], prm))
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
    # random is never skipped: it may meld anything legal
    assert not builtin_meld_stops(BUILTIN_IDS["random"], pos.public, pos.private[0], prm)


def pos_list(pos, reach):
    n, want = K._list_melds(0, 0, pos.hands, pos.public, pos.private, pos.rules, pos.legal,
                            pos.work, pos.started, 0, True, pos.need, False, reach)
    return int(n), bool(want)
