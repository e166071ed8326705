"""The invariant soak (scripts/soak.py) in small: random rule options and random strategies
for every game, debug-invariant mode, and no violation."""
import importlib.util
from pathlib import Path

import pytest

from cardsim.simulator.games import GAMES

_spec = importlib.util.spec_from_file_location(
    "soak", Path(__file__).resolve().parent.parent / "scripts" / "soak.py")
soak = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(soak)

# (deals, batch): a batch of whole games plays at most about 40 deals a game, so a 56 batch of
# 40 games (or deals) cannot reach 6,000 deals alone and the soak always draws several settings
COUNTS = {"fifty-six": (6000, 40), "hand-and-foot": (1600, 50), "contract-rummy": (2100, 50)}


@pytest.mark.parametrize("game", list(GAMES))
def test_soak_finds_no_violation(game):
    deals, batch = COUNTS[game]
    r = soak.soak(game, deals, seed=11, batch=batch)
    assert r["deals"] >= deals and r["batches"] >= 2
    assert r["deals"] - deals < batch * 40  # stops after the batch that reaches the count
    assert r["violations"] == 0, r["examples"]


def test_random_rules_are_valid_and_varied():
    import random

    from cardsim.simulator.games import get_game

    g = get_game("hand-and-foot")
    rng = random.Random(3)
    drawn = [soak.random_rules(g, rng) for _ in range(30)]
    assert len({str(sorted(d.items())) for d in drawn}) > 20
    for d in drawn:
        assert g.rules.resolve(d) == d  # every draw passes the command line's checks
