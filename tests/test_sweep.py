"""`cardsim sweep`: the grid, its checks, paired settings (each setting's tables are those of a
plain run with the same options and seed), and the Hand and Foot report over the settings."""
import json
import subprocess
import sys

import polars as pl
import pytest

from cardsim.simulator.batch import RunSpec, run
from cardsim.simulator.errors import UsageError
from cardsim.simulator.games import get_game
from cardsim.simulator.sweep import expand, parse_vary

CLI = [sys.executable, "-m", "cardsim"]
HF = get_game("hand-and-foot")


def test_grid_is_the_product_of_the_axes_with_team_values_over_all():
    axes = [parse_vary("min_meld=50/90/120/150,0/0/0/0"), parse_vary("all.hold=10,20"),
            parse_vary("1.hold=99")]
    settings = expand(HF, ["players=4"], ["patient_builder"], axes)
    assert len(settings) == 4
    s = settings[1]
    assert s.values == {"min_meld": "50/90/120/150", "all.hold": "20", "1.hold": "99"}
    assert s.rules["min_meld"] == [50, 90, 120, 150] and s.rules["players"] == 4
    _, params, described = HF.resolve_strategies(s.strategies, s.rules)
    assert [d["name"] for d in described] == ["patient_builder", "patient_builder"]
    assert [d["params"]["hold"] for d in described] == [20.0, 99.0]  # team 1's own value wins
    # parameters the base set and the sweep leaves alone keep their values
    base = expand(HF, [], ["0=pile_taker:pile_min=3"], [parse_vary("1.strategy=random,"
                                                                    "early_melder")])
    d0 = HF.resolve_strategies(base[0].strategies, base[0].rules)[2][0]
    assert d0["name"] == "pile_taker" and d0["params"]["pile_min"] == 3.0
    names = [HF.resolve_strategies(b.strategies, b.rules)[2][1]["name"] for b in base]
    assert names == ["random", "early_melder"]


@pytest.mark.parametrize("text, needle", [
    ("min_meld", "KEY=v1,v2"),
    ("colour=red,blue", "not a rule option"),
    ("min_meld=50/90/120/150,fifty", "rule 'min_meld'"),
    ("x.hold=1,2", "not a team number"),
    ("3.hold=1,2", "no team 3"),
    ("0.greed=1,2", "no parameter 'greed'"),
    ("0.hold=1,1", "repeated"),
    ("0.strategy=random,nosuch", "unknown strategy 'nosuch'"),
])
def test_bad_axes_are_refused_before_anything_runs(text, needle):
    with pytest.raises(UsageError, match=needle):
        expand(HF, [], [], [parse_vary(text)])


def test_bad_sweep_is_one_line_exit_2_and_writes_nothing(tmp_path):
    out = tmp_path / "sw"
    p = subprocess.run(CLI + ["sweep", "hand-and-foot", "--vary", "min_meld=1/2/3/4,x",
                              "--out", str(out)], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and "min_meld" in lines[0], p.stderr
    assert not out.exists()


def test_sweep_settings_equal_plain_runs_and_report_is_written(tmp_path):
    out = tmp_path / "sw"
    p = subprocess.run(CLI + ["sweep", "hand-and-foot", "--players", "2", "--games", "24",
                              "--seed", "9", "--rule", "deals=2",
                              "--vary", "min_meld=50/90,0/0", "--vary", "0.hold=0,40",
                              "--strategy", "patient_builder", "--threads", "2",
                              "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "sweep.json").read_text())
    assert [r["label"] for r in info["settings"]] == [
        "min_meld=50/90 0.hold=0", "min_meld=50/90 0.hold=40",
        "min_meld=0/0 0.hold=0", "min_meld=0/0 0.hold=40"]
    # setting 3 is exactly a plain run with its options and the sweep's seed
    rules = HF.rules.resolve(["players=2", "deals=2", "min_meld=0,0"])
    plain = tmp_path / "plain"
    run(RunSpec(HF, rules, ["patient_builder", "0=patient_builder:hold=40"], 9, 24,
                threads=1, chunk_size=7), plain, progress=False)
    for table in ("deals", "games"):
        a = pl.read_parquet(sorted((out / "s003").glob(f"{table}-*.parquet")))
        b = pl.read_parquet(sorted(plain.glob(f"{table}-*.parquet")))
        assert a.equals(b), table
    # the tidy table: a row per (setting, metric); differences are game by game
    tidy = pl.read_parquet(out / "studies" / "sweep-metrics.parquet")
    assert tidy.height == 4 * 6 and set(tidy["setting"]) == {0, 1, 2, 3}
    assert (tidy.filter(pl.col("setting") == 0)["diff"] == 0).all()
    g0 = pl.read_parquet(sorted((out / "s000").glob("games-*.parquet"))).sort("game_index")
    g3 = pl.read_parquet(sorted((out / "s003").glob("games-*.parquet"))).sort("game_index")
    margin = [(a0 - a1) - (b0 - b1) for a0, a1, b0, b1 in zip(
        g3["total_team0"], g3["total_team1"], g0["total_team0"], g0["total_team1"])]
    row = tidy.filter((pl.col("setting") == 3) & (pl.col("metric") == "team0_minus_team1"))
    assert row["diff"][0] == pytest.approx(sum(margin) / len(margin))
    assert row["estimate"][0] == pytest.approx(float((g3["total_team0"] - g3["total_team1"])
                                                     .mean()))
    assert row["diff_lo"][0] < row["diff"][0] < row["diff_hi"][0]
    # the report: one arm per setting, and which hold value team 0 wins most with
    teams = pl.read_parquet(out / "studies" / "min_meld-teams.parquet")
    assert teams["arm"].n_unique() == 4 and teams.height == 8
    assert "team 0 wins most often with: min_meld=" in p.stdout
    assert "team 1 wins most often" not in p.stdout  # team 1 never changes
