"""Per-game metrics every game's runs can be summarised by, for sweeps and adaptive precision.

A metric is one number per game index (in 56's --deals mode, per deal), so two settings run
on the same seed pair up game by game and their difference has a paired interval. Means get
normal 95% intervals (the counts are large; for 0/1 metrics this is the Wald interval).
"""
from __future__ import annotations

import math

import polars as pl

from cardsim.analysis.stats import Z95


def _win(team_col: str, team: int = 0) -> pl.Expr:
    return (pl.col(team_col) == team).fill_null(False).cast(pl.Float64)


def _fifty_six(deals: pl.DataFrame, games: pl.DataFrame | None) -> pl.DataFrame:
    contract = pl.col("bidder") >= 0
    per = deals.group_by("game_index").agg(
        pl.col("made").filter(contract).cast(pl.Float64).mean().alias("made_rate"),
        pl.col("bid").filter(contract).cast(pl.Float64).mean().alias("bid"),
        (~contract).cast(pl.Float64).mean().alias("all_pass_rate"),
        pl.col("calls").cast(pl.Float64).mean().alias("calls"))
    if games is not None:
        # by strategy, not seat: with duplicate seating team 0 changes hands every game
        per = per.join(games.select(
            "game_index", _win("winner_strategy").alias("strategy0_win"),
            pl.col("deals").cast(pl.Float64)), on="game_index")
    return per


def _hand_and_foot(deals: pl.DataFrame, games: pl.DataFrame | None) -> pl.DataFrame:
    per = deals.group_by("game_index").agg(
        (pl.col("end") == "went_out").cast(pl.Float64).mean().alias("went_out_rate"),
        pl.col("turns").cast(pl.Float64).mean().alias("deal_turns"),
        pl.col("initial_meld_turn").cast(pl.Float64).mean().alias("initial_meld_turn"),
        pl.col("score").filter(pl.col("team") == 0).cast(pl.Float64).mean()
        .alias("team0_deal_score"))
    return per.join(games.select(
        "game_index", _win("winner_team").alias("team0_win"),
        (pl.col("total_team0") - pl.col("total_team1")).cast(pl.Float64)
        .alias("team0_minus_team1")), on="game_index")


def _contract_rummy(deals: pl.DataFrame, games: pl.DataFrame | None) -> pl.DataFrame:
    # by strategy, not seat: duplicate seating moves the strategies round the table
    per = deals.group_by("game_index").agg(
        pl.col("penalty").filter(pl.col("strategy") == 0).cast(pl.Float64).mean()
        .alias("strategy0_penalty"),
        pl.col("down_turn").is_not_null().cast(pl.Float64).mean().alias("laid_down_rate"),
        (pl.col("end") == "went_out").cast(pl.Float64).mean().alias("went_out_rate"))
    return per.join(games.select(
        "game_index", _win("winner_strategy").alias("strategy0_win")), on="game_index")


PER_GAME = {"fifty-six": _fifty_six, "hand-and-foot": _hand_and_foot,
            "contract-rummy": _contract_rummy}


def per_game(game: str, deals, games) -> pl.DataFrame:
    """One row per game index, one column per metric (from DataFrames or LazyFrames)."""
    out = PER_GAME[game](deals, games).sort("game_index")
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
