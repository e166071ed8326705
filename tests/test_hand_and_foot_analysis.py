"""The minimum-meld study: hand-made tables with known answers, and a study over real runs."""
import subprocess
import sys

import polars as pl
import pytest

from cardsim.simulator.games.hand_and_foot.analysis import deal_summary, melded_by_turn, min_meld_study, team_summary
from cardsim.simulator.batch import RunSpec, run
from cardsim.simulator.errors import UsageError
from tests.helpers_hand_and_foot import GAME


def _deals():
    # two deals of one game, two teams; first_seat 1 -> team 1 plays first in deal 0,
    # first_seat 2 -> team 0 in deal 1
    return pl.DataFrame({
        "game_index": [0, 0, 0, 0], "deal_index": [0, 0, 1, 1], "team": [0, 1, 0, 1],
        "first_seat": [1, 1, 2, 2], "turns": [40, 40, 60, 60],
        "end": ["went_out", "went_out", "stock_exhausted", "stock_exhausted"],
        "score": [100, 300, 500, -200], "initial_meld_turn": [3, None, 9, 12],
    })


def test_deal_summary_by_hand():
    s = deal_summary(_deals(), "arm").sort("deal_index")
    d0, d1 = s.row(0, named=True), s.row(1, named=True)
    assert d0["out_rate"] == 1.0 and d1["out_rate"] == 0.0
    assert d0["exhausted_rate"] == 0.0 and d1["exhausted_rate"] == 1.0
    assert d0["turns"] == 40 and d1["turns"] == 60
    assert d0["spread"] == 200 and d1["spread"] == 700
    assert d0["first_win_rate"] == 1.0 and d0["first_margin"] == 200  # team 1 led, won by 200
    assert d1["first_win_rate"] == 1.0 and d1["first_margin"] == 700
    assert d0["out_rate_lo"] < 1.0 <= d0["out_rate_hi"]


def test_melded_by_turn_by_hand():
    m = melded_by_turn(_deals(), "arm", [3, 10, 20])
    got = {(r["deal_index"], r["turn"]): r["share"] for r in m.iter_rows(named=True)}
    assert got == {(0, 3): 0.5, (0, 10): 0.5, (0, 20): 0.5, (1, 3): 0.0, (1, 10): 0.5,
                   (1, 20): 1.0}


def test_team_summary_by_hand():
    games = pl.DataFrame({"teams": [2, 2, 2], "winner_team": [0, 1, None],
                          "total_team0": [10, 5, 7], "total_team1": [3, 9, 7]})
    info = {"strategies": [{"name": "a", "params": {"x": 1.0}}, {"name": "b", "params": {}}]}
    t = team_summary(games, info, "arm").sort("team")
    assert t["wins"].to_list() == [1, 1] and t["strategy"].to_list() == ["a(x=1)", "b"]
    assert t["total"].to_list() == [pytest.approx(22 / 3), pytest.approx(19 / 3)]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    base = tmp_path_factory.mktemp("mm")
    dirs = []
    for sched in ("50,90,120,150", "0,0,0,0"):
        rules = GAME.rules.resolve({"min_meld": sched})
        spec = RunSpec(GAME, rules, ["0=early_melder", "1=early_melder:hold=60"], seed=5,
                       count=300)
        run(spec, base / sched, progress=False)
        dirs.append(base / sched)
    return dirs


def test_study_over_runs(runs):
    t = min_meld_study(runs, [2, 6, 12, 400])
    curve = t["melded_by_turn"]
    assert set(curve["arm"]) == {"50/90/120/150 early_melder(hold=0) vs early_melder(hold=60)",
                                 "0/0/0/0 early_melder(hold=0) vs early_melder(hold=60)"}
    for (arm, deal), g in curve.group_by("arm", "deal_index"):
        shares = g.sort("turn")["share"].to_list()
        assert shares == sorted(shares)  # a cumulative curve
        assert (g["share_lo"] <= g["share"]).all() and (g["share"] <= g["share_hi"]).all()
    lo = curve.filter(pl.col("arm").str.starts_with("0/0"), pl.col("deal_index") == 3,
                      pl.col("turn") == 6)["share"][0]
    hi = curve.filter(pl.col("arm").str.starts_with("50/"), pl.col("deal_index") == 3,
                      pl.col("turn") == 6)["share"][0]
    assert lo > hi  # no minimum: melds come sooner than with 150 in deal 4
    deals = t["deals"]
    assert deals.height == 8 and (deals["n"] == 300).all()
    teams = t["teams"]
    assert teams.height == 4 and (teams["win_rate_lo"] <= teams["win_rate"]).all()


def test_cli_min_meld(runs, tmp_path):
    p = subprocess.run([sys.executable, "-m", "cardsim", "analyze", "min-meld",
                        *map(str, runs), "--turns", "4,8", "--out", str(tmp_path / "s")],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stderr
    assert "first_win_rate" in p.stdout and "0/0/0/0" in p.stdout
    assert pl.read_parquet(tmp_path / "s" / "min_meld-deals.parquet").height == 8
    p = subprocess.run([sys.executable, "-m", "cardsim", "analyze", "min-meld",
                        str(tmp_path / "nothing")], capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "no readable run.json" in p.stderr


def test_other_games_runs_are_refused(tmp_path):
    (tmp_path / "run.json").write_text('{"game": "fifty-six"}')
    with pytest.raises(UsageError, match="not hand-and-foot"):
        min_meld_study([tmp_path], [4])
