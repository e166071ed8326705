"""The bid-success study against numbers computed by hand on a small table."""
import subprocess
import sys

import polars as pl
import pytest

from analysis.fifty_six import bid_success, thresholds
from analysis.stats import wilson
from simulator.errors import UsageError

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
    cli = [sys.executable, "-m", "simulator.cli"]
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
