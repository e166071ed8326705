"""Adaptive precision: the streaming interval, where a run stops, the cap, bad input, and a
comparison that plays as many boards as its intervals need."""
import json
import math
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from cardsim.analysis.metrics import per_game
from cardsim.analysis.stats import Z95
from cardsim.simulator.batch import RunSpec, run
from cardsim.simulator.games import get_game
from cardsim.simulator.precision import PrecisionStop

CLI = [sys.executable, "-m", "cardsim"]
F56 = get_game("fifty-six")


def test_streaming_mean_and_variance_match_numpy():
    stop = PrecisionStop(F56, 0.01, "made_rate", True)
    x = np.random.default_rng(1).random(1000)
    for part in np.array_split(x, 7):
        stop.add(part)
    assert stop.mean == pytest.approx(x.mean())
    assert stop.half_width == pytest.approx(Z95 * x.std(ddof=1) / math.sqrt(1000))


def test_run_stops_at_the_first_chunk_that_is_precise_enough(tmp_path):
    rules = F56.rules.resolve({})
    target = 0.02
    info = run(RunSpec(F56, rules, [], 4, 50_000, deals_mode=True, chunk_size=400),
               tmp_path / "p", progress=False,
               stop=PrecisionStop(F56, target, "made_rate", True))
    n = info["deals"]
    assert n < 50_000 and n % 400 == 0 and info["precision"]["reached"]
    deals = pl.read_parquet(sorted((tmp_path / "p").glob("deals-*.parquet")))
    assert deals.height == n

    def half(d):
        x = per_game("fifty-six", d, None)["made_rate"].drop_nulls()
        return Z95 * x.std() / math.sqrt(x.len())

    assert half(deals) <= target < half(deals.filter(pl.col("game_index") < n - 400))
    assert info["precision"]["half_width"] == pytest.approx(half(deals))
    # the same games as a plain run of that length
    run(RunSpec(F56, rules, [], 4, n, deals_mode=True, chunk_size=1000), tmp_path / "plain",
        progress=False)
    assert deals.equals(pl.read_parquet(sorted((tmp_path / "plain").glob("deals-*.parquet"))))


def test_cap_is_reported_when_the_target_is_not_reached(tmp_path):
    out = tmp_path / "cap"
    p = subprocess.run(CLI + ["run", "fifty-six", "--deals", "600", "--chunk-size", "200",
                              "--precision", "0.0001", "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "run.json").read_text())
    assert info["deals"] == 600 and not info["precision"]["reached"]
    assert "NOT reached" in p.stdout


@pytest.mark.parametrize("args, needle", [
    (["run", "fifty-six", "--precision", "-1"], "--precision -1"),
    (["run", "fifty-six", "--precision", "0.01", "--metric", "luck"], "allowed: made_rate"),
    (["run", "fifty-six", "--metric", "bid"], "--metric is used with --precision"),
    (["run", "fifty-six", "--deals", "9", "--precision", "0.1", "--metric", "strategy0_win"],
     "--metric 'strategy0_win'"),
    (["sweep", "fifty-six", "--vary", "all.margin=0,1", "--precision", "0.1",
      "--metric", "nope"], "--metric 'nope'"),
    (["compare", "fifty-six", "--strategy", "random", "--strategy", "evaluator",
      "--precision", "2"], "--precision 2"),
])
def test_bad_precision_input_is_one_line_exit_2(tmp_path, args, needle):
    out = tmp_path / "o"
    p = subprocess.run(CLI + args + ["--out", str(out)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not out.exists() or not any(out.iterdir())


def test_compare_plays_the_boards_its_intervals_need(tmp_path):
    out = tmp_path / "c"
    p = subprocess.run(CLI + ["compare", "fifty-six", "--strategy", "evaluator", "--strategy",
                              "aggressive", "--games", "20000", "--precision", "0.03",
                              "--seed", "5", "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "compare.json").read_text())
    prec = info["precision"]
    assert prec["reached"] and prec["half_width"] <= 0.03 and info["games"] == prec["boards"]
    assert not (out / ".passes").exists()
    for r in info["runs"]:
        games = pl.read_parquet(sorted((out / r["folder"]).glob("games-*.parquet")))
        assert games.height == prec["boards"]
    pairs = pl.read_parquet(out / "studies" / "compare-pairs.parquet")
    win = pairs.filter(pl.col("metric") == "win").row(0, named=True)
    assert (win["hi"] - win["lo"]) / 2 == pytest.approx(prec["half_width"])
