"""Strategy comparison: the plan (every pair from every seat), paired statistics computed by
hand on a fixture, interval coverage by simulation, ratings, and the command end to end."""
import json
import math
import subprocess
import sys

import numpy as np
import polars as pl
import pytest

from cardsim.analysis.compare import load, pair_table, ratings
from cardsim.analysis.stats import Z95
from cardsim.simulator.compare import plan
from cardsim.simulator.games import get_game

CLI = [sys.executable, "-m", "cardsim"]


def test_plan_seats_every_strategy_on_every_team_of_every_pair():
    g = get_game("hand-and-foot")
    rules = g.rules.resolve({"players": 6})  # three teams
    seats = plan(g, rules, ["random", "early_melder", "pile_taker"])
    assert len(seats) == 3 * 3
    first = [s for s in seats if s.pair == 0]
    assert [s.specs for s in first] == [
        ("0=random", "1=early_melder", "2=early_melder"),
        ("0=early_melder", "1=random", "2=early_melder"),
        ("0=early_melder", "1=early_melder", "2=random")]
    assert {(s.a, s.b) for s in seats} == {(0, 1), (0, 2), (1, 2)}


def _fixture(tmp_path, rows_by_rotation, game="hand-and-foot", teams=2):
    """A finished comparison folder of two strategies with hand-made game tables."""
    runs = []
    for r, rows in enumerate(rows_by_rotation):
        folder = f"m00-r{r}"
        (tmp_path / folder).mkdir()
        pl.DataFrame(rows, schema=["game_index", "total_team0", "total_team1", "winner_team"],
                     orient="row").write_parquet(tmp_path / folder / "games-000000.parquet")
        runs.append({"folder": folder, "pair": 0, "a": 0, "b": 1, "a_team": r})
    (tmp_path / "compare.json").write_text(json.dumps(
        {"game": game, "teams": teams, "strategies": ["A", "B"], "runs": runs}))
    return tmp_path


def test_paired_statistics_by_hand(tmp_path):
    # board g from both seats: rotation 0 has A on team 0, rotation 1 has A on team 1
    rot0 = [(0, 100, 60, 0), (1, 50, 80, 1), (2, 70, 70, None)]
    rot1 = [(0, 90, 40, 0), (1, 30, 90, 1), (2, 20, 10, 0)]
    games, info = load(_fixture(tmp_path, [rot0, rot1]))
    table = pair_table(games, info)
    # A's side per game: wins (1, 0, 0.5 | 0, 1, 0), diffs (40, -30, 0 | -50, 60, -10)
    win_boards = np.array([(1 + 0) / 2, (0 + 1) / 2, (0.5 + 0) / 2])
    diff_boards = np.array([(40 - 50) / 2, (-30 + 60) / 2, (0 - 10) / 2])
    for metric, boards, per_rot, null in (
            ("win", win_boards, [[1, 0, 0.5], [0, 1, 0]], 0.5),
            ("diff", diff_boards, [[40, -30, 0], [-50, 60, -10]], 0.0)):
        row = table.filter(pl.col("metric") == metric).row(0, named=True)
        se = boards.std(ddof=1) / math.sqrt(3)
        assert row["boards"] == 3 and row["games"] == 6
        assert row["estimate"] == pytest.approx(boards.mean())
        assert row["lo"] == pytest.approx(boards.mean() - Z95 * se)
        assert row["p_value"] == pytest.approx(
            math.erfc(abs(boards.mean() - null) / se / math.sqrt(2)))
        se_u = math.sqrt(sum(np.var(v, ddof=1) / 3 for v in per_rot)) / 2
        assert row["unpaired_half_width"] == pytest.approx(Z95 * se_u)
        assert row["narrowing"] == pytest.approx(se_u / se)


def test_lowest_total_wins_flips_the_sign(tmp_path):
    rot0 = [(0, 10, 30, 0), (1, 40, 20, 1)]
    rot1 = [(0, 25, 5, 1), (1, 15, 15, None)]
    frame = pl.DataFrame  # contract rummy's columns are per seat
    for r, rows in enumerate([rot0, rot1]):
        (tmp_path / f"m00-r{r}").mkdir()
        frame(rows, schema=["game_index", "total_seat0", "total_seat1", "winner"],
              orient="row").write_parquet(tmp_path / f"m00-r{r}" / "games-000000.parquet")
    runs = [{"folder": f"m00-r{r}", "pair": 0, "a": 0, "b": 1, "a_team": r} for r in (0, 1)]
    (tmp_path / "compare.json").write_text(json.dumps(
        {"game": "contract-rummy", "teams": 2, "strategies": ["A", "B"], "runs": runs}))
    games, _ = load(tmp_path)
    assert games["diff"].to_list() == [20.0, -20.0, 20.0, 0.0]  # positive: A was lower
    assert games["win"].to_list() == [1.0, 0.0, 1.0, 0.5]


def test_intervals_cover_at_their_nominal_rate():
    """Boards with a known mean: the paired 95% interval should hold it about 95% of the time."""
    rng = np.random.default_rng(7)
    info = {"strategies": ["A", "B"], "teams": 2,
            "runs": [{"pair": 0, "a": 0, "b": 1, "a_team": r} for r in (0, 1)]}
    hits, reps, n = 0, 400, 200
    for _ in range(reps):
        luck = rng.normal(0, 10, n)  # the deal's luck, the same from both seats
        frames = [pl.DataFrame({"pair": 0, "rotation": r, "game_index": np.arange(n),
                                "win": (rng.random(n) < 0.6).astype(float),
                                "diff": 1.5 + luck * (1 if r == 0 else -1)
                                + rng.normal(0, 3, n)}) for r in (0, 1)]
        row = pair_table(pl.concat(frames), info).filter(pl.col("metric") == "diff").row(
            0, named=True)
        hits += row["lo"] <= 1.5 <= row["hi"]
    assert 0.92 <= hits / reps <= 0.98, hits / reps


def test_ratings_recover_bradley_terry_strengths():
    # strengths 9 : 3 : 1 -> A beats B 3:1, B beats C 3:1, A beats C 9:1 (in expectation)
    info = {"strategies": ["A", "B", "C"], "teams": 2,
            "runs": [{"pair": p, "a": a, "b": b, "a_team": 0}
                     for p, (a, b) in enumerate([(0, 1), (0, 2), (1, 2)])]}
    rows = []
    for pair, (won, lost) in enumerate([(75, 25), (90, 10), (75, 25)]):
        rows += [(pair, 0, i, 1.0, 0.0) for i in range(won)]
        rows += [(pair, 0, won + i, 0.0, 0.0) for i in range(lost)]
    games = pl.DataFrame(rows, schema=["pair", "rotation", "game_index", "win", "diff"],
                         orient="row")
    r = {s: v for s, v in ratings(games, info, prior=0.0).select("strategy", "rating")
         .iter_rows()}
    assert r["A"] - r["B"] == pytest.approx(400 * math.log10(3), abs=0.5)
    assert r["B"] - r["C"] == pytest.approx(400 * math.log10(3), abs=0.5)


def _bt_boards(rng, strengths, boards):
    """One game per board and match, A winning with the Bradley-Terry probability."""
    k = len(strengths)
    matches = [(a, b) for a in range(k) for b in range(a + 1, k)]
    info = {"strategies": [f"S{i}" for i in range(k)], "teams": 2,
            "runs": [{"pair": p, "a": a, "b": b, "a_team": 0}
                     for p, (a, b) in enumerate(matches)]}
    frames = []
    for p, (a, b) in enumerate(matches):
        pa = strengths[a] / (strengths[a] + strengths[b])
        frames.append(pl.DataFrame({"pair": p, "rotation": 0, "game_index": np.arange(boards),
                                    "win": (rng.random(boards) < pa).astype(float),
                                    "diff": 0.0}))
    return pl.concat(frames), info


def test_rating_intervals_cover_the_true_strengths():
    # 95% bootstrap intervals: each strategy's true Elo rating (mean 0) inside about 95% of
    # the time; a fit ignoring the resampling, or quantiles of the wrong tail, would not be
    strengths = np.array([6.0, 2.0, 1.0])
    true = 400 * np.log10(strengths)
    true -= true.mean()
    rng = np.random.default_rng(11)
    reps, hits = 80, np.zeros(3)
    for rep in range(reps):
        games, info = _bt_boards(rng, strengths, 150)
        r = ratings(games, info, prior=0.0, resamples=200, seed=rep).sort("strategy")
        hits += (r["lo"].to_numpy() <= true) & (true <= r["hi"].to_numpy())
    assert ((hits / reps >= 0.86) & (hits / reps <= 1.0)).all(), hits / reps
    r = ratings(*_bt_boards(rng, strengths, 150), prior=0.0)
    assert (r["lo"] < r["rating"]).all() and (r["rating"] < r["hi"]).all()
    assert r["rank"].to_list() == [1, 2, 3] and r["strategy"].to_list() == ["S0", "S1", "S2"]
    wide = ratings(*_bt_boards(rng, strengths, 100), prior=0.0)
    narrow = ratings(*_bt_boards(rng, strengths, 1600), prior=0.0)
    assert ((narrow["hi"] - narrow["lo"]) < (wide["hi"] - wide["lo"]) / 2).all()


def test_ladder_ranks_every_built_in_by_default(tmp_path):
    out = tmp_path / "l"
    p = subprocess.run(CLI + ["ladder", "fifty-six", "--games", "6", "--seed", "5",
                              "--out", str(out)], capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "compare.json").read_text())
    assert sorted(info["strategies"]) == sorted(get_game("fifty-six").registry)
    r = pl.read_parquet(out / "studies" / "compare-ratings.parquet")
    assert r["strategy"][-1] == "random" and r["rank"].to_list() == list(range(1, r.height + 1))
    assert (r["lo"] <= r["rating"]).all() and (r["rating"] <= r["hi"]).all()
    assert "rating [95%]" in p.stdout
    bad = subprocess.run(CLI + ["ladder", "fifty-six", "--seating", "fixed", "--out",
                                str(tmp_path / "b")], capture_output=True, text=True,
                         timeout=300)
    assert bad.returncode == 2 and len(bad.stderr.strip().splitlines()) == 1
    assert "--seating" in bad.stderr and not (tmp_path / "b").exists()


@pytest.mark.parametrize("args, needle", [
    (["--strategy", "evaluator"], "at least two"),
    (["--strategy", "0=evaluator", "--strategy", "random"], "without a team"),
    (["--strategy", "evaluator", "--strategy", "nosuch"], "unknown strategy 'nosuch'"),
    (["--strategy", "random", "--strategy", "random"], "given twice"),
])
def test_bad_comparisons_are_one_line_exit_2(tmp_path, args, needle):
    out = tmp_path / "c"
    p = subprocess.run(CLI + ["compare", "fifty-six", *args, "--out", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2
    lines = p.stderr.strip().splitlines()
    assert len(lines) == 1 and needle in lines[0], p.stderr
    assert not out.exists()


def test_compare_command_end_to_end(tmp_path):
    out = tmp_path / "c"
    p = subprocess.run(CLI + ["compare", "fifty-six", "--strategy", "evaluator",
                              "--strategy", "cautious", "--strategy", "random", "--games", "300",
                              "--seed", "3", "--out", str(out)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    info = json.loads((out / "compare.json").read_text())
    assert len(info["runs"]) == 3 * 2
    run0 = json.loads((out / "m00-r1" / "run.json").read_text())
    assert [s["name"] for s in run0["strategies"]] == ["cautious", "evaluator"]
    # the two seatings of a board deal the same first hand: same dealer in every game
    g0 = pl.read_parquet(out / "m00-r0" / "games-000000.parquet")
    d0 = pl.read_parquet(out / "m00-r0" / "deals-000000.parquet")
    d1 = pl.read_parquet(out / "m00-r1" / "deals-000000.parquet")
    first = [d.filter(pl.col("deal_index") == 0).sort("game_index") for d in (d0, d1)]
    assert first[0]["dealer"].equals(first[1]["dealer"]) and g0.height == 300
    pairs = pl.read_parquet(out / "studies" / "compare-pairs.parquet")
    assert pairs.height == 3 * 4  # win, diff and two per-deal metrics of 56
    assert set(pairs["metric"]) == {"win", "diff", "deal:held", "deal:made_when_held"}
    vs_random = pairs.filter((pl.col("b") == "random") & (pl.col("metric") == "win"))
    assert (vs_random["estimate"] > 0.9).all()  # the heuristics beat random play
    ranking = pl.read_parquet(out / "studies" / "compare-ratings.parquet")
    assert ranking["strategy"][-1] == "random"
    assert "ranking" in p.stdout


def test_comparison_and_sweep_are_reproducible_from_their_seed(tmp_path):
    from cardsim.simulator.api import compare, sweep

    a = compare("fifty-six", ["evaluator", "aggressive"], games=200, seed=8, threads=1,
                out=tmp_path / "a")
    b = compare("fifty-six", ["evaluator", "aggressive"], games=200, seed=8, threads=2)
    assert a["pairs"].equals(b["pairs"]) and a["ratings"].equals(b["ratings"])
    c = compare("fifty-six", ["evaluator", "aggressive"], games=200, seed=9)
    assert not a["pairs"].equals(c["pairs"])
    s1 = sweep("fifty-six", {"all.margin": [0, 3]}, games=100, seed=4, threads=1)
    s2 = sweep("fifty-six", {"all.margin": [0, 3]}, games=100, seed=4, threads=2)
    assert s1.equals(s2)


def test_per_deal_metrics_are_a_minus_the_other_teams():
    from cardsim.analysis.compare import _side_of
    from cardsim.simulator.games.hand_and_foot.analysis import deal_values

    deals = pl.DataFrame({
        "game_index": [0, 0, 0, 0, 0, 0], "team": [0, 1, 2, 0, 1, 2],
        "score": [100, 40, 10, 300, 20, 30], "initial_meld_turn": [3, 5, None, 7, 9, 4],
        "went_out": [True, False, False, False, False, True]})
    side = _side_of(deal_values(deals, 3), 0, 3).row(0, named=True)
    assert side["deal:deal_score"] == pytest.approx(200 - (30 + 20) / 2)
    assert side["deal:initial_meld_turn"] == pytest.approx(5 - (7 + 4) / 2)  # nulls skipped
    assert side["deal:went_out"] == pytest.approx(0.5 - (0 + 0.5) / 2)


def test_study_folds_chunk_by_chunk_as_the_whole_table(tmp_path):
    # the same boards written as one chunk and as three: the study (folded chunk by chunk)
    # equals the whole-table functions; the bootstrap draws do not depend on the cut
    from cardsim.analysis.compare import study
    n = 9000  # more than two bootstrap blocks
    tables = {}
    for cuts in ((0, n), (0, 2500, 4100, n)):
        root = tmp_path / f"cut{len(cuts)}"
        runs = []
        for r in (0, 1):
            folder = root / f"m00-r{r}"
            folder.mkdir(parents=True)
            rng = np.random.default_rng(3 + r)  # the same games in both layouts
            df = pl.DataFrame({"game_index": np.arange(n), "total_team0": rng.integers(0, 200, n),
                               "total_team1": rng.integers(0, 200, n)})
            t0, t1 = pl.col("total_team0"), pl.col("total_team1")
            df = df.with_columns(pl.when(t0 > t1).then(0).when(t1 > t0).then(1)
                                 .otherwise(None).alias("winner_team"))
            for j, (lo, hi) in enumerate(zip(cuts[:-1], cuts[1:])):
                df.slice(lo, hi - lo).write_parquet(folder / f"games-{j:06d}.parquet")
            runs.append({"folder": folder.name, "pair": 0, "a": 0, "b": 1, "a_team": r})
        (root / "compare.json").write_text(json.dumps(
            {"game": "hand-and-foot", "teams": 2, "strategies": ["A", "B"], "runs": runs}))
        tables[len(cuts)] = study(root)
        games, info = load(root)
        assert games.height == 2 * n
        whole = pair_table(games, info)
        for c in ("estimate", "lo", "hi", "unpaired_half_width"):
            assert tables[len(cuts)]["pairs"][c].to_numpy() == pytest.approx(
                whole[c].to_numpy(), rel=1e-12)
        assert tables[len(cuts)]["ratings"].equals(ratings(games, info))
    assert tables[2]["ratings"].equals(tables[4]["ratings"])
