"""The Python API: the documented example runs, and its tables equal the command line's."""
import re
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from cardsim.simulator.api import simulate, sweep
from cardsim.simulator.errors import UsageError

DOC = Path(__file__).resolve().parent.parent / "docs" / "api.md"
CLI = [sys.executable, "-m", "cardsim"]


def test_documented_examples_run(capsys):
    """Every Python block of docs/api.md, in order, in one namespace."""
    blocks = re.findall(r"```python\n(.*?)```", DOC.read_text(), re.S)
    assert len(blocks) == 5
    ns: dict = {}
    for code in blocks:
        exec(compile(code, str(DOC), "exec"), ns)
    printed = capsys.readouterr().out
    assert "made" in printed and "p_value" in printed and "initial_meld_turn" not in printed
    # the bad-input block prints the message its comment shows
    said = re.search(r"print\(e\)\s+# (.*)", blocks[1]).group(1)
    assert said in printed.splitlines()
    assert ns["r"].deals.height == 20_000  # the example's run replaced the first block's
    # the positions block: the game played on from halfway, the seat's view, a resample
    assert ns["deals"]["deal_index"].min() == 0 and ns["view"].seat == ns["pos"].seat
    assert len(ns["other"].tape) == len(ns["pos"].tape) == ns["n"] // 2
    # the outlook block: the strategies' row first, then the cards seat 3 may play
    rows = ns["look"]["rows"]
    assert rows[0]["choice"] == "(strategy)" and len(rows) >= 2
    assert sum(r["chosen"] for r in rows[1:]) == 1.0


def test_simulate_in_memory_equals_the_command(tmp_path):
    out = tmp_path / "run"
    p = subprocess.run(CLI + ["run", "hand-and-foot", "--games", "30", "--seed", "5",
                              "--players", "2", "--rule", "deals=2", "--strategy", "0=random",
                              "--strategy", "1=early_melder:hold=20", "--quiet",
                              "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    r = simulate("hand-and-foot", games=30, seed=5, rules={"players": 2, "deals": 2},
                 strategies=["0=random", "1=early_melder:hold=20"], chunk_size=7, threads=1)
    assert r.deals.equals(pl.read_parquet(sorted(out.glob("deals-*.parquet"))))
    assert r.games.equals(pl.read_parquet(sorted(out.glob("games-*.parquet"))))


def test_simulate_deals_mode_and_bad_input():
    r = simulate("fifty-six", deals=500, seed=1, rules=["players=6"])
    assert r.games is None and r.deals.height == 500 and (r.deals["players"] == 6).all()
    with pytest.raises(UsageError, match="rule 'players'"):
        simulate("fifty-six", deals=10, rules={"players": 5})
    with pytest.raises(UsageError, match="not available"):
        simulate("hand-and-foot", deals=10)


def test_sweep_takes_python_values():
    t = sweep("hand-and-foot", {"all.hold": [0, 50]}, games=10, strategies=["early_melder"],
              rules={"players": 2, "deals": 1})
    assert t["label"].unique(maintain_order=True).to_list() == ["all.hold=0", "all.hold=50"]
    with pytest.raises(UsageError, match="no parameter 'hold'"):  # random has no parameters
        sweep("hand-and-foot", {"all.hold": [0, 50]}, games=10, strategies=["random"])


def test_tune_equals_the_command(tmp_path):
    from click.testing import CliRunner

    from cardsim.simulator.api import tune
    from cardsim.simulator.cli import cli

    info = tune("fifty-six", "evaluator", {"margin": (0, 3)}, against=["cautious"], budget=3,
                boards=20, seed=5, threads=1)
    out = tmp_path / "t"
    r = CliRunner().invoke(cli, ["tune", "fifty-six", "--strategy", "evaluator", "--param",
                                 "margin=0..3", "--against", "cautious", "--budget", "3",
                                 "--boards", "20", "--seed", "5", "--threads", "1", "--out",
                                 str(out), "--quiet"])
    assert r.exit_code == 0, r.output
    import json

    cli_info = json.loads((out / "tune.json").read_text())
    assert info["best"] == cli_info["best"] and info["candidates"] == 3
