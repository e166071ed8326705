"""Wilson intervals against values computed by hand, and on a small table."""
import math

import polars as pl
import pytest

from cardsim.analysis.stats import success_table, wilson


def test_wilson_by_hand():
    # n = 10, 3 successes, z = 1.96: centre (0.3 + 0.19208) / 1.38416 = 0.355551,
    # half 1.96 * sqrt(0.021 + 0.0096040) / 1.38416 = 0.247715
    lo, hi = wilson(3, 10)
    assert lo == pytest.approx(0.10779, abs=1e-4) and hi == pytest.approx(0.60322, abs=1e-4)
    assert wilson(0, 20)[0] == 0.0 and wilson(20, 20)[1] == 1.0
    assert math.isnan(wilson(0, 0)[0])


def test_success_table_matches_scalar_version():
    df = pl.DataFrame({"bid": [28, 28, 28, 40, 40], "made": [True, False, True, False, False]})
    t = success_table(df, ["bid"])
    assert t["n"].to_list() == [3, 2] and t["made"].to_list() == [2, 0]
    for row in t.iter_rows(named=True):
        lo, hi = wilson(row["made"], row["n"])
        assert row["lo"] == pytest.approx(lo) and row["hi"] == pytest.approx(hi)
