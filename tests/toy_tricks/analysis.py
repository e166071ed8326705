"""Toy-tricks studies: the share of tricks and points each team takes, with intervals."""
from __future__ import annotations

from pathlib import Path

import polars as pl

from cardsim.analysis import report as R
from cardsim.analysis.io import load_run
from cardsim.analysis.metrics import win_of
from cardsim.analysis.stats import wilson_cols

OUTCOME = ("total_team{}", True, "winner_team")


def metrics(deals, games):
    """Per game index: team 0's share of the tricks, its points per deal and, for whole
    games, whether it won and by how much."""
    per = deals.group_by("game_index").agg(
        (pl.col("tricks_team0").sum() / (pl.col("tricks_team0") + pl.col("tricks_team1")).sum())
        .cast(pl.Float64).alias("team0_trick_share"),
        pl.col("points_team0").cast(pl.Float64).mean().alias("team0_deal_points"))
    if games is None:
        return per
    return per.join(games.select(
        "game_index", win_of("winner_team").alias("team0_win"),
        (pl.col("total_team0") - pl.col("total_team1")).cast(pl.Float64)
        .alias("team0_minus_team1")), on="game_index")


def deal_values(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, team): mean points and tricks per deal."""
    return pl.concat([deals.group_by("game_index").agg(
        pl.lit(t, pl.Int64).alias("team"),
        pl.col(f"points_team{t}").cast(pl.Float64).mean().alias("deal_points"),
        pl.col(f"tricks_team{t}").cast(pl.Float64).mean().alias("tricks"))
        for t in range(teams)])


def trick_share(deals: pl.DataFrame) -> pl.DataFrame:
    """Per team and trick count: the share of deals in which the team took that many tricks,
    with its Wilson interval."""
    n = deals.height
    rows = [deals.group_by(pl.col(f"tricks_team{t}").alias("tricks")).len()
            .with_columns(pl.lit(t, pl.Int8).alias("team")) for t in (0, 1)]
    return (pl.concat(rows).with_columns(pl.lit(n).alias("deals"))
            .with_columns(wilson_cols("len", "deals", "share"))
            .rename({"len": "n"}).sort("team", "tricks")
            .select("team", "tricks", "n", "share", "share_lo", "share_hi"))


def report_sections(dirs: list[Path]) -> list:
    plt = R.pyplot()
    sec = R.Section("Toy tricks: tricks per deal")
    fig, ax = plt.subplots(figsize=(5, 3), layout="constrained")
    for i, d in enumerate(dirs):
        table = trick_share(load_run(d, "toy-tricks")[0]).filter(pl.col("team") == 0)
        R.errorbars(ax, table["tricks"], table["share"], table["share_lo"], table["share_hi"],
                    label=f"run {i + 1}")
        sec.tables.append((f"run {i + 1}: {d.name}", table))
    ax.set_xlabel("tricks team 0 took")
    ax.set_ylabel("share of deals")
    ax.legend()
    sec.figures.append((R.png(fig), "Share of deals in which team 0 took t tricks, 95% "
                                     "Wilson intervals."))
    return [sec]
