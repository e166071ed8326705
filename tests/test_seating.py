"""Duplicate seating: sets of games on the same deals with the strategies moved one team on,
so that comparisons do not depend on who sits where."""
import polars as pl
import pytest

from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.errors import UsageError
from cardsim.simulator.games.fifty_six.replay import play_one
from cardsim.simulator.strategy import resolve_seating
from tests.helpers_fifty_six import GAME


def _hands(events, deal=0):
    return next(e["hands"] for e in events if e["event"] == "deal" and e["deal"] == deal)


def test_a_duplicate_set_replays_the_same_deal_with_strategies_swapped():
    rules = GAME.rules.resolve({})
    specs = ["0=evaluator", "1=random"]
    e0, _, _ = play_one(GAME, rules, specs, 4, 10)
    e1, _, _ = play_one(GAME, rules, specs, 4, 11)
    assert (e0[0]["rotation"], e1[0]["rotation"]) == (0, 1)
    assert (e0[0]["team_strategy"], e1[0]["team_strategy"]) == ([0, 1], [1, 0])
    assert _hands(e0) == _hands(e1)  # the same board ...
    d0 = next(e for e in e0 if e["event"] == "deal")
    d1 = next(e for e in e1 if e["event"] == "deal")
    assert d0["dealer"] == d1["dealer"]
    calls0 = [c for c in e0 if c["event"] == "call"]
    calls1 = [c for c in e1 if c["event"] == "call"]
    assert calls0 != calls1  # ... played by other strategies
    # the next set is another board
    e2, _, _ = play_one(GAME, rules, specs, 4, 12)
    assert _hands(e2) != _hands(e0)


def test_fixed_seating_plays_a_new_deal_every_game():
    rules = GAME.rules.resolve({})
    specs = ["0=evaluator", "1=random"]
    e0, _, _ = play_one(GAME, rules, specs, 4, 10, seating="fixed")
    e1, _, _ = play_one(GAME, rules, specs, 4, 11, seating="fixed")
    assert e1[0]["rotation"] == 0 and _hands(e0) != _hands(e1)


@pytest.mark.parametrize("players,layout", [(4, "two_teams"), (6, "pairs"), (8, "pairs")])
def test_every_strategy_holds_every_team_equally_often(players, layout):
    rules = GAME.rules.resolve({"players": players, "team_layout": layout})
    k = GAME.n_teams(rules)
    specs = ["evaluator"] + [f"{t}=random" for t in range(1, k)]
    runner = Runner(RunSpec(GAME, rules, specs, 9, 12 * k))
    deals, games = runner.play_chunk(0, 12 * k, 2)
    assert runner.rotations == k
    assert (games["rotation"] == games["game_index"] % k).all()
    assert games.group_by("rotation").len()["len"].to_list() == [12] * k
    strat = (deals["bidding_team"].cast(pl.Int32) + deals["rotation"]) % k
    assert (strat == deals["contract_strategy"]).all()
    won = games.filter(pl.col("winner_team").is_not_null())
    assert ((won["winner_team"].cast(pl.Int32) + won["rotation"]) % k
            == won["winner_strategy"]).all()


def test_same_strategies_keep_fixed_seats_and_counts_must_fill_sets():
    same = [{"name": "evaluator", "params": {"margin": 0.0}}] * 2
    other = [same[0], {"name": "evaluator", "params": {"margin": 1.0}}]
    assert resolve_seating("auto", same, 2) == 0
    assert resolve_seating("auto", other, 2) == 2  # a parameter is enough to differ
    assert resolve_seating("fixed", other, 2) == 0
    assert resolve_seating("duplicate", same, 3) == 3
    with pytest.raises(UsageError, match="--seating 'x'"):
        resolve_seating("x", same, 2)
    rules = GAME.rules.resolve({})
    with pytest.raises(UsageError, match="--games 7: .*multiple of 2"):
        Runner(RunSpec(GAME, rules, ["0=evaluator", "1=random"], 1, 7))
    Runner(RunSpec(GAME, rules, ["0=evaluator", "1=random"], 1, 7, seating="fixed"))


@pytest.mark.parametrize("game_name", ["fifty-six", "contract-rummy"])
def test_replay_follows_the_runs_seating(tmp_path, game_name):
    import subprocess
    import sys

    from cardsim.simulator.games import get_game, get_replay

    g = get_game(game_name)
    specs = ["0=random", "1=" + g.default_strategy]
    extra = ["--rule", "contracts=2s:10,1s1r:10"] if game_name == "contract-rummy" else []
    out = tmp_path / "run"
    p = subprocess.run([sys.executable, "-m", "cardsim", "run", game_name, "--games",
                        "6", "--seed", "3", "--seating", "fixed", "--quiet", "--out", str(out),
                        "--strategy", specs[0], "--strategy", specs[1], *extra],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    deals = pl.read_parquet(sorted(out.glob("deals-*.parquet")))
    rules = g.rules.resolve(["contracts=2s:10,1s1r:10"] if extra else [])
    play_one = get_replay(game_name)
    _, fixed, _ = play_one(g, rules, specs, 3, 1, seating="fixed")
    _, auto, _ = play_one(g, rules, specs, 3, 1)  # game 1 of a duplicate run: swapped seats
    mine = deals.filter(pl.col("game_index") == 1)
    assert fixed.equals(mine)
    assert not auto.drop([c for c in auto.columns if c in ("rotation",)]).equals(
        mine.drop([c for c in mine.columns if c in ("rotation",)]))
