"""The bid-success study against numbers computed by hand on a small table."""
import subprocess
import sys
from pathlib import Path

import polars as pl
import pytest

from cardsim.simulator.games.fifty_six.analysis import bid_success, headline, pool_sparse, thresholds
from cardsim.analysis.stats import wilson
from cardsim.simulator.errors import UsageError

SHEET = "28-39:1/2,40-47:2/3,48-55:3/4,56:4/5"


def fixture():
    # 10 deals: four bids of 28 (3 made), three of 40 (1 made), two of 56 (0 made), one all-pass
    return pl.DataFrame({
        "bidder":        [0, 1, 2, 3, 0, 1, 2, 3, 0, -1],
        "bid":           [28, 28, 28, 28, 40, 40, 40, 56, 56, 28],
        "trump":         ["S", "H", "NT", "S", "D", "NT", "C", "S", "S", "NT"],
        "made":          [True, True, False, True, False, True, False, False, False, True],
        "bidder_points": [5, 6, 2, 7, 4, 9, 3, 8, 12, None],
    }).lazy()


def test_counts_rates_and_intervals_by_hand():
    t = bid_success(fixture(), ["bid"], SHEET)
    assert t["bid"].to_list() == [28, 40, 56]
    assert t["n"].to_list() == [4, 3, 2] and t["made"].to_list() == [3, 1, 0]
    assert t["rate"].to_list() == pytest.approx([0.75, 1 / 3, 0.0])
    lo, hi = wilson(3, 4)
    assert (t["lo"][0], t["hi"][0]) == pytest.approx((lo, hi))


def test_bands_and_trump_kind():
    t = bid_success(fixture(), ["bid_band", "trump_kind"], SHEET)
    rows = {(r["bid_band"], r["trump_kind"]): (r["n"], r["made"]) for r in t.iter_rows(named=True)}
    assert rows == {("28-39", "suit"): (3, 3), ("28-39", "no-trumps"): (1, 0),
                    ("40-47", "suit"): (2, 0), ("40-47", "no-trumps"): (1, 1),
                    ("56", "suit"): (2, 0)}
    with_pass = bid_success(fixture(), ["bid"], SHEET, include_all_pass=True)
    assert with_pass["n"][0] == 5


def test_threshold_is_the_lowest_strength_that_makes_more_often_than_not():
    t = thresholds(fixture(), "bidder_points", SHEET, min_n=1)
    got = dict(zip(t["bid"].to_list(), t["min_bidder_points"].to_list()))
    assert got == {28: 5, 40: 9, 56: None}


def test_unknown_group_key():
    with pytest.raises(UsageError, match="allowed keys"):
        bid_success(fixture(), ["shoe_size"], SHEET)


def test_cli_on_a_real_run(tmp_path):
    cli = [sys.executable, "-m", "cardsim"]
    out = tmp_path / "run"
    assert subprocess.run(cli + ["run", "fifty-six", "--deals", "20000", "--out", str(out),
                                 "--quiet"], timeout=600).returncode == 0
    p = subprocess.run(cli + ["analyze", "bid-success", str(out), "--by", "bid_band,trump_kind"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 0, p.stderr
    assert "bid_band" in p.stdout and "lo" in p.stdout
    written = pl.read_parquet(out / "studies" / "bid_success-bid_band-trump_kind.parquet")
    deals = pl.read_parquet(out / "deals-000000.parquet").filter(pl.col("bidder") >= 0)
    assert written["n"].sum() == deals.height and written["made"].sum() == deals["made"].sum()
    p = subprocess.run(cli + ["analyze", "bid-success", str(out), "--by", "colour"],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1
    p = subprocess.run(cli + ["analyze", "bid-success", str(tmp_path)],
                       capture_output=True, text=True, timeout=600)
    assert p.returncode == 2 and "run.json" in p.stderr


def auctions():
    # six contracts and two all-pass deals; jumps: c (a raise of 3), d (opening 30), e (12 over
    # 4 raises); b (3 over 3 raises) and f (12 over 12) climbed one at a time
    return pl.DataFrame({  # columns: deals a to h
        "bidder":           [0, 1, 2, 3, 0, 1, -1, -1],
        "bid":              [28, 31, 31, 30, 40, 40, 28, 28],
        "trump":            ["S", "S", "H", "C", "NT", "D", "NT", "NT"],
        "made":             [True, False, True, False, True, False, True, True],
        "double_level":     [1, 2, 1, 4, 1, 1, 1, 1],
        "opening_bid":      [28, 28, 28, 30, 28, 28, 0, 0],
        "bids":             [1, 4, 2, 1, 5, 13, 0, 0],
        "team_points_held": [30, 26, 34, 20, 36, 28, 44, 12],
    }).lazy()


def test_headline_by_hand():
    h = headline(auctions(), min_bid=28)
    got = {m: (n, v) for m, n, v in h.select("measure", "n", "value").rows()}
    pct = lambda k, n: pytest.approx(100 * k / n)  # noqa: E731
    assert got["contracts made"] == (6, pct(3, 6))
    assert got["all pass"] == (8, pct(2, 8))
    assert got["no-trump contracts"] == (6, pct(1, 6))
    assert got["doubled or redoubled"] == (6, pct(2, 6))
    assert got["opening bid above min_bid"] == (6, pct(1, 6))
    assert got["jump bid (opening or raise)"] == (6, pct(3, 6))
    assert [got[f"trump {s}"][1] for s in "SHDC"] == [pct(2, 6), pct(1, 6), pct(1, 6), pct(1, 6)]
    assert got["trump S - trump C"] == (6, pct(1, 6))
    assert got["mean bid"] == (6, pytest.approx(200 / 6))
    assert got["team points held, bid 28"] == (1, 30)  # the all-pass 28s are nobody's bid
    assert got["team points held, bid 40"] == (2, 32)
    rows = {r["measure"]: r for r in h.iter_rows(named=True)}
    lo, hi = wilson(2, 8)
    assert (rows["all pass"]["lo"], rows["all pass"]["hi"]) == pytest.approx((100 * lo, 100 * hi))
    half = 1.959963984540054 * 32 ** 0.5 / 2 ** 0.5  # sd of (36, 28) is sqrt(32)
    assert rows["team points held, bid 40"]["lo"] == pytest.approx(32 - half)
    half = 100 * 1.959963984540054 * ((3 / 6 - (1 / 6) ** 2) / 6) ** 0.5
    assert rows["trump S - trump C"]["hi"] == pytest.approx(100 / 6 + half)
    assert rows["team points held, bid 28"]["lo"] is None  # one deal: no interval


def test_pool_sparse_closes_groups_at_min_n_and_folds_a_short_tail_back():
    t = pl.DataFrame({"bid": [28, 29, 30, 31, 32], "n": [50, 60, 200, 10, 5],
                      "made": [25, 30, 100, 10, 5]})
    p = pool_sparse(t, "bid", 100)
    assert p["bid"].to_list() == ["28-29", "30-32"]
    assert p["n"].to_list() == [110, 215] and p["made"].to_list() == [55, 115]
    lo, hi = wilson(115, 215)
    assert (p["rate"][1], p["lo"][1], p["hi"][1]) == pytest.approx((115 / 215, lo, hi))


def test_team_points_band_groups_by_four():
    t = bid_success(auctions(), ["team_points_band"], SHEET)
    assert dict(t.select("team_points_band", "n").rows()) == {20: 1, 24: 1, 28: 2, 32: 1, 36: 1}


def test_study_script_writes_and_reuses(tmp_path):
    doc = tmp_path / "doc.md"
    doc.write_text("intro\n<!-- study:begin -->\nold\n<!-- study:end -->\nmiddle\n"
                   "<!-- compare:begin -->\nold\n<!-- compare:end -->\nfixed\n"
                   "<!-- fixed:begin -->\nold\n<!-- fixed:end -->\nend\n")
    script = Path(__file__).parents[1] / "scripts" / "study_fifty_six.py"
    cmd = [sys.executable, str(script), "--deals", "3000", "--out", str(tmp_path / "runs"),
           "--update-doc", str(doc), "--fixed-bids", "28"]  # and 40, always
    for reused in (False, True):
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=900)
        assert p.returncode == 0, p.stderr
        assert ("reusing" in p.stderr) == reused
    text = doc.read_text()
    assert "\nold\n" not in text and text.startswith("intro\n")
    assert text.count("### ") == 12 and "middle" in text and text.endswith("end\n")
    study, compare = text.split("middle")
    compare, fixed = compare.split("\nfixed\n")
    assert fixed.count("Selection-free") == 4 and "--contract seat=0,bid=28,trump=best" in fixed
    assert "| 28 |" in fixed and "| 40 |" in fixed
    assert "Made rate by bid value" in study and "Old and new player" in compare
    assert "cardsim analyze bid-success" in study and "| contracts made |" in compare
