"""Per-game metrics every game's runs can be summarised by, for sweeps and adaptive precision.

A metric is one number per game index (in 56's --deals mode, per deal), so two settings run
on the same seed pair up game by game and their difference has a paired interval. Means get
normal 95% intervals (the counts are large; for 0/1 metrics this is the Wald interval).
"""
from __future__ import annotations

import math

import polars as pl

from cardsim.analysis.stats import Z95


def win_of(team_col: str, team: int = 0) -> pl.Expr:
    """1.0 where ``team_col`` names ``team`` as the winner, else 0.0 (a game's metrics)."""
    return (pl.col(team_col) == team).fill_null(False).cast(pl.Float64)


def per_game(game: str, deals, games) -> pl.DataFrame:
    """One row per game index, one column per metric (from DataFrames or LazyFrames): the
    game's own ``metrics`` (its adapter's analysis module)."""
    from cardsim.simulator.games import get_game

    out = get_game(game).analysis().metrics(deals, games).sort("game_index")
    return out.collect() if isinstance(out, pl.LazyFrame) else out


def run_per_game(run_dir) -> tuple[pl.DataFrame, dict]:
    """The per-game metrics of a finished run folder, and its run.json."""
    from pathlib import Path

    from cardsim.analysis.io import read_info

    run_dir = Path(run_dir)
    info = read_info(run_dir, "run.json", "run")
    deals = pl.scan_parquet(sorted(run_dir.glob("deals-*.parquet")))
    game_files = sorted(run_dir.glob("games-*.parquet"))
    games = pl.scan_parquet(game_files) if game_files else None
    return per_game(info["game"], deals, games), info


def names(game_adapter, deals_mode: bool = False) -> list[str]:
    """The metric names of a game, from its table schemas (no run needed)."""
    def empty(columns):
        return pl.DataFrame(schema={c.name: c.dtype for c in columns})

    games = None if deals_mode else empty(game_adapter.game_columns)
    per = per_game(game_adapter.name, empty(game_adapter.deal_columns), games)
    return [c for c in per.columns if c != "game_index"]


def summary(per: pl.DataFrame) -> pl.DataFrame:
    """Tidy: one row per metric with its mean, 95% interval and the games that count."""
    rows = []
    for m in per.columns:
        if m == "game_index":
            continue
        x = per[m].drop_nulls().drop_nans()
        n = x.len()
        mean = float(x.mean()) if n else math.nan
        half = Z95 * float(x.std()) / math.sqrt(n) if n > 1 else math.nan
        rows.append({"metric": m, "n": n, "estimate": mean, "lo": mean - half,
                     "hi": mean + half, "half_width": half})
    return pl.DataFrame(rows)


def paired_difference(per: pl.DataFrame, base: pl.DataFrame) -> pl.DataFrame:
    """Per metric: mean of (this setting - base setting) over the games both have, with a
    95% interval from the per-game differences."""
    joined = per.join(base, on="game_index", suffix="__base")
    rows = []
    for m in per.columns:
        if m == "game_index":
            continue
        d = (joined[m] - joined[f"{m}__base"]).drop_nulls().drop_nans()
        n = d.len()
        mean = float(d.mean()) if n else math.nan
        half = Z95 * float(d.std()) / math.sqrt(n) if n > 1 else math.nan
        rows.append({"metric": m, "diff": mean, "diff_lo": mean - half, "diff_hi": mean + half})
    return pl.DataFrame(rows)
