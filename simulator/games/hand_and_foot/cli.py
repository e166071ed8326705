"""`cardsim analyze` commands of Hand and Foot (attached lazily by simulator/cli.py)."""
from __future__ import annotations

from pathlib import Path

import click

from cardsim.simulator.options import whole_numbers


@click.command("min-meld")
@click.argument("run_dirs", nargs=-1, required=True, type=click.Path(path_type=Path))
@click.option("--turns", default="4,8,12,16,20,30,40", show_default=True,
              help="deal turns at which to report the share of teams that have melded")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="folder for the Parquet tables (default: <first run>/studies)")
def min_meld_cmd(run_dirs, turns, out):
    """Hand and Foot: minimum-meld study over runs (one arm each), with 95% intervals."""
    ts = whole_numbers("--turns", turns, 1)
    report_min_meld(run_dirs, ts, Path(out) if out is not None else
                    Path(run_dirs[0]) / "studies")


def report_min_meld(run_dirs, turns, out: Path, labels=None, quiet=False):
    """Compute and write (Parquet under ``out``) the minimum-meld study; print it unless
    ``quiet``."""
    import polars as pl

    from cardsim.simulator.games.hand_and_foot.analysis import best_arm, min_meld_study
    from cardsim.analysis.stats import text_table

    tables = min_meld_study(run_dirs, turns, labels)
    from cardsim.analysis.io import write_tables

    write_tables(out, "min_meld", tables)
    if quiet:
        return
    with pl.Config(tbl_rows=1000, tbl_cols=30, tbl_width_chars=250, fmt_str_lengths=80,
                   tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
        click.echo("share of (deal, team) rows with the initial meld made by deal turn t, "
                   "[95% interval]:")
        curve = text_table(tables["melded_by_turn"], ["share"], ["arm", "deal_index", "turn"])
        click.echo(curve.pivot(on="turn", index=["arm", "deal_index"], values="share"))
        click.echo("per deal: going-out rate, turns, score spread (best - worst team), how "
                   "often the first player's team scores most, and its margin:")
        click.echo(text_table(tables["deals"], ["out_rate", "turns", "spread", "first_win_rate",
                                                "first_margin"], ["arm", "deal_index", "n"]))
        click.echo("per team: game win rate and mean total:")
        click.echo(text_table(tables["teams"], ["win_rate", "total"],
                              ["arm", "team", "strategy", "n"]))
        for team, row in best_arm(tables["teams"]).items():
            click.echo(f"team {team} wins most often with: {row['arm']}  "
                       f"({row['win_rate']:.4f} [{row['win_rate_lo']:.4f}, "
                       f"{row['win_rate_hi']:.4f}])")
    click.echo(f"tables written to {out}")


def sweep_report(sweep_dir: Path, info: dict, quiet=False) -> None:
    """`cardsim sweep hand-and-foot`: the minimum-meld study with one arm per setting."""
    rows = info["settings"]
    report_min_meld([Path(sweep_dir) / r["folder"] for r in rows], [4, 8, 12, 16, 20, 30, 40],
                    Path(sweep_dir) / "studies", labels=[r["label"] for r in rows], quiet=quiet)
