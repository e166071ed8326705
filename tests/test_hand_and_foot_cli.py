"""`cardsim run / replay / rules / strategies / schema hand-and-foot` from the command line."""
import json
import subprocess
import sys

import polars as pl
import pytest

CLI = [sys.executable, "-m", "cardsim"]


def cardsim(*args):
    return subprocess.run(CLI + list(args), capture_output=True, text=True, timeout=600)


def test_run_writes_tables_and_run_json(tmp_path):
    out = tmp_path / "run"
    p = cardsim("run", "hand-and-foot", "--games", "60", "--seed", "4", "--threads", "2",
                "--strategy", "0=early_melder:hold=20", "--strategy", "1=pile_taker",
                "--rule", "min_meld=60,90,120,150", "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["game"] == "hand-and-foot" and info["games"] == 60
    assert info["rules"]["min_meld"] == [60, 90, 120, 150]
    assert info["strategies"][0]["params"]["hold"] == 20
    assert info["strategies"][1]["name"] == "pile_taker"
    deals = pl.read_parquet(out / "deals-000000.parquet")
    games = pl.read_parquet(out / "games-000000.parquet")
    assert games.height == 60 and deals.height == 60 * 4 * 2 == info["deal_rows"]
    assert deals.schema["end"] == pl.Enum(["went_out", "stock_exhausted", "turn_cap"])
    assert set(deals.filter(pl.col("deal_index") == 1)["min_meld"]) == {90}


def test_replay_command_dispatches_to_the_game(tmp_path):
    out = tmp_path / "g.jsonl"
    p = cardsim("replay", "hand-and-foot", "--seed", "4", "--game-index", "3", "--players", "2",
                "--rule", "deals=1", "--out", str(out))
    assert p.returncode == 0, p.stderr
    events = [json.loads(line) for line in out.read_text().splitlines()]
    assert events[0]["event"] == "game" and events[0]["game"] == "hand-and-foot"
    deal = events[1]
    assert deal["event"] == "deal" and len(deal["deck"]) == 270
    assert len(deal["hands"]["0"]) == 13 and len(deal["feet"]["1"]) == 13
    assert events[-1]["event"] == "game_end"


@pytest.mark.parametrize("args, needle", [
    (["run", "hand-and-foot", "--rule", "min_meld=50"], "rule 'min_meld'"),
    (["run", "hand-and-foot", "--players", "5"], "rule 'players'"),
    (["run", "hand-and-foot", "--strategy", "0=pile_taker:greed=1"], "no parameter 'greed'"),
    (["run", "hand-and-foot", "--deals", "10"], "--deals is not available"),
    (["run", "hand-and-foot", "--strategy", "2=random"], "no team 2"),
    (["replay", "hand-and-foot", "--game-index", "0", "--mode", "deals"], "--mode deals"),
])
def test_bad_input_is_one_line_and_exit_2(tmp_path, args, needle):
    out = tmp_path / "out"
    extra = ["--out", str(out)] if args[0] == "run" else []
    p = cardsim(*args, *extra)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not (out / "run.json").exists()


def test_listings():
    p = cardsim("rules", "hand-and-foot")
    assert p.returncode == 0 and "books_to_go_out" in p.stdout and "max_turns" in p.stdout
    p = cardsim("strategies", "hand-and-foot")
    assert p.returncode == 0
    for name in ("random", "early_melder", "patient_builder", "pile_taker", "grant_points"):
        assert name in p.stdout
    p = cardsim("schema", "hand-and-foot")
    assert p.returncode == 0 and "initial_meld_turn" in p.stdout


PLUGIN = '''"""A test plug-in: takes the pile when it may, melds whatever comes first, discards the
last kind it holds."""
from numba import njit

first_params = {"unused": 1.0}


@njit(cache=True)
def first_draw(mine, public, private, legal, params, rng):
    return legal[0] - 1


@njit(cache=True)
def first_meld(mine, public, private, legal, params, rng):
    return 0


@njit(cache=True)
def first_discard(mine, public, private, legal, params, rng):
    return legal[0] - 1
'''


def test_plugin_strategy_from_a_file(tmp_path):
    f = tmp_path / "mine.py"
    f.write_text(PLUGIN)
    out = tmp_path / "run"
    p = cardsim("run", "hand-and-foot", "--games", "20", "--strategy", f"0={f}:first",
                "--strategy", "1=early_melder", "--out", str(out), "--quiet", "--debug-invariants")
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["strategies"][0]["params"] == {"unused": 1.0}
    deals = pl.read_parquet(out / "deals-000000.parquet")
    assert deals.filter(pl.col("team") == 0)["pile_takes"].sum() > 0
    p = cardsim("run", "hand-and-foot", "--games", "5", "--strategy", f"0={f}:second",
                "--out", str(tmp_path / "r2"))
    assert p.returncode == 2 and "does not define second_draw" in p.stderr


def test_default_strategy_is_the_strongest_heuristic_and_run_json_records_it(tmp_path):
    from cardsim.simulator.games import get_game
    from cardsim.strategies.hand_and_foot import REGISTRY, heuristic_meld

    g = get_game("hand-and-foot")
    d = REGISTRY[g.default_strategy]
    assert g.default_strategy != "random" and d.decisions["meld"] is heuristic_meld
    assert d.params  # a parameterised heuristic preset, not the uniform random player
    out = tmp_path / "run"
    p = cardsim("run", "hand-and-foot", "--games", "8", "--seed", "2", "--players", "2",
                "--rule", "deals=1", "--out", str(out), "--quiet")
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert [s["name"] for s in info["strategies"]] == [g.default_strategy] * 2
    assert info["strategies"][0]["params"] == {q.name: q.default for q in d.params}
