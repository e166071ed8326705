"""A sweep's tidy table: one row per (setting, metric) with a 95% interval, and the paired
difference from the first setting (the settings share their seed, so game g of every setting
deals the same cards and the difference is taken game by game)."""
from __future__ import annotations

from pathlib import Path

import polars as pl

from analysis.io import read_info
from analysis.metrics import paired_difference, run_per_game, summary


def sweep_table(sweep_dir) -> pl.DataFrame:
    sweep_dir = Path(sweep_dir)
    info = read_info(sweep_dir, "sweep.json", "sweep")
    base = None
    parts = []
    for s in info["settings"]:
        per, _ = run_per_game(sweep_dir / s["folder"])
        if base is None:
            base = per
        table = summary(per).join(paired_difference(per, base), on="metric")
        keys = [pl.lit(v).alias(k) for k, v in s["values"].items()]
        parts.append(table.with_columns(pl.lit(s["index"]).alias("setting"),
                                        pl.lit(s["label"]).alias("label"), *keys))
    out = pl.concat(parts, how="diagonal")
    first = ["setting", "label", *info["settings"][0]["values"], "metric"]
    return out.select(first + [c for c in out.columns if c not in first])


def write_sweep_table(sweep_dir) -> pl.DataFrame:
    table = sweep_table(sweep_dir)
    out = Path(sweep_dir) / "studies"
    out.mkdir(exist_ok=True)
    table.write_parquet(out / "sweep-metrics.parquet")
    return table
