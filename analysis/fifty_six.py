"""56 studies from a run's tables: how often contracts make, and from which hand strength."""
from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from analysis.stats import success_table
from simulator.errors import UsageError

# what a bid-success table may be grouped by (derived columns are built in ``_with_derived``)
GROUP_KEYS = ("bid", "bid_band", "trump_kind", "trump", "double_level", "bidder_position",
              "players", "bid_form", "bidder_jacks", "bidder_nines", "bidder_trumps",
              "bidder_points", "team_jacks", "team_trumps", "team_points_held")
FEATURES = ("bidder_jacks", "bidder_nines", "bidder_trumps", "bidder_points", "team_jacks",
            "team_trumps", "team_points_held")


def load_deals(run_dir: Path) -> tuple[pl.LazyFrame, dict]:
    """The deal table of a finished run, and its run.json."""
    run_dir = Path(run_dir)
    info_path = run_dir / "run.json"
    if not info_path.is_file():
        raise UsageError(f"{run_dir}: no run.json (not a finished cardsim run)")
    info = json.loads(info_path.read_text())
    if info.get("game") != "fifty-six":
        raise UsageError(f"{run_dir}: a {info.get('game')} run, not fifty-six")
    files = sorted(run_dir.glob("deals-*.parquet"))
    if not files:
        raise UsageError(f"{run_dir}: no deals-*.parquet files")
    return pl.scan_parquet(files), info


def _bands(payout: str) -> list[tuple[int, int]]:
    out = []
    for part in payout.split(","):
        span = part.split(":")[0]
        lo, _, hi = span.partition("-")
        out.append((int(lo), int(hi or lo)))
    return out


def _with_derived(deals: pl.LazyFrame, payout: str) -> pl.LazyFrame:
    band = pl.lit(None, pl.String)
    for lo, hi in reversed(_bands(payout)):
        label = f"{lo}-{hi}" if lo != hi else f"{lo}"
        band = pl.when(pl.col("bid").is_between(lo, hi)).then(pl.lit(label)).otherwise(band)
    kind = pl.when(pl.col("trump") == "NT").then(pl.lit("no-trumps")).otherwise(pl.lit("suit"))
    return deals.with_columns(band.alias("bid_band"), kind.alias("trump_kind"))


def bid_success(deals: pl.LazyFrame, by: list[str], payout: str,
                include_all_pass: bool = False) -> pl.DataFrame:
    """Success rate with 95% Wilson intervals and counts per group (bids only, by default:
    the all-pass contract is nobody's bid)."""
    bad = [k for k in by if k not in GROUP_KEYS]
    if bad or not by:
        raise UsageError(f"--by {','.join(by) or '(empty)'}: allowed keys are "
                         f"{', '.join(GROUP_KEYS)}")
    lf = _with_derived(deals, payout)
    if not include_all_pass:
        lf = lf.filter(pl.col("bidder") >= 0)
    return success_table(lf, by)


def thresholds(deals: pl.LazyFrame, feature: str, payout: str, min_n: int = 30) -> pl.DataFrame:
    """Per bid value: the lowest value of ``feature`` from which the contract makes more often
    than not (rate > 0.5 with at least ``min_n`` deals), or null if it never does."""
    if feature not in FEATURES:
        raise UsageError(f"--feature {feature}: allowed {', '.join(FEATURES)}")
    t = bid_success(deals, ["bid", feature], payout)
    return (t.filter((pl.col("n") >= min_n) & (pl.col("rate") > 0.5))
            .group_by("bid").agg(pl.col(feature).min().alias(f"min_{feature}"))
            .join(t.group_by("bid").agg(pl.col("n").sum().alias("deals")), on="bid",
                  how="right")
            .select("bid", "deals", f"min_{feature}").sort("bid"))
