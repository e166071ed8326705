"""`cardsim analyze` commands of Contract Rummy (attached lazily by simulator/cli.py)."""
from __future__ import annotations

import time
from pathlib import Path

import click

from cardsim.simulator.errors import UsageError
from cardsim.simulator.options import whole_numbers


def _echo_tables(tables: dict) -> None:
    import polars as pl

    from cardsim.analysis.stats import text_table

    with pl.Config(tbl_rows=1000, tbl_cols=40, tbl_width_chars=250, fmt_str_lengths=80,
                   tbl_hide_dataframe_shape=True, tbl_hide_column_data_types=True):
        if "dealt" in tables:
            from cardsim.simulator.games.contract_rummy.analysis import pct_table

            click.echo("dealt hands: % that already hold the contract (turn 0) and that are "
                       "one card away, [95% interval] (3 significant digits):")
            click.echo(pct_table(tables["dealt"], ["p_holds", "p_one_away"],
                                 ["deal_index", "n_sets", "n_runs", "n_cards", "decks",
                                  "jokers", "hands"]))
        if "laid_down_by_turn" not in tables:
            return
        click.echo("share of players with the contract down by their own turn t (t = 0: dealt), "
                   "[95% interval]:")
        curve = text_table(tables["laid_down_by_turn"], ["share"],
                           ["arm", "deal_index", "contract", "decks", "turn"])
        click.echo(curve.pivot(on="turn", index=["arm", "deal_index", "contract", "decks"],
                               values="share"))
        click.echo("per contract: deals ending by going out, stalls, turns, the own turn of "
                   "going out (mean; median), the first seat's edge (how often it goes out vs "
                   "1/players; its penalty minus the others' mean):")
        click.echo(text_table(tables["deals"], ["out_rate", "stall_rate", "turns", "out_turn",
                                                "first_out_rate", "first_pen_edge"],
                              ["arm", "deal_index", "contract", "n", "out_turn_median",
                               "fair_share"]))
        click.echo("penalty per player and deal:")
        click.echo(text_table(tables["penalty"], ["penalty", "zero_share"],
                              ["arm", "deal_index", "contract", "median", "q3", "p90"]))
        click.echo("strategies per contract: contract down, went out, penalty:")
        click.echo(text_table(tables["strategies"], ["down_rate", "out_rate", "penalty"],
                              ["arm", "deal_index", "contract", "strategy", "n",
                               "mean_down_turn"]))
        click.echo("games (lowest total wins): win rate and mean total per seat:")
        click.echo(text_table(tables["games"], ["win_rate", "total"],
                              ["arm", "seat", "strategy", "n"]))


@click.command("contract-completion")
@click.argument("run_dirs", nargs=-1, type=click.Path(path_type=Path))
@click.option("--turns", default="0,1,2,3,4,5,6,8,10,12,15,20", show_default=True,
              help="own turns t at which to report the share of players with the contract down "
                   "(0: the dealt hand)")
@click.option("--dealt-hands", type=int, default=None,
              help="also (or, without runs, only) deal this many hands per deal size and count "
                   "how many already hold each contract -- no play")
@click.option("--players", type=int, default=None, help="dealt-hand mode: players (sets the "
              "default decks and jokers)")
@click.option("--rule", "rule_opts", multiple=True, metavar="KEY=VALUE",
              help="dealt-hand mode: rule options (contracts, decks, jokers, min_run, ...)")
@click.option("--seed", type=int, default=0, show_default=True, help="dealt-hand mode seed")
@click.option("--threads", type=int, default=None, help="dealt-hand mode threads")
@click.option("--out", type=click.Path(path_type=Path), default=None,
              help="folder for the Parquet tables (default: <first run>/studies, or "
                   "results/contract-completion-dealt)")
def contract_completion_cmd(run_dirs, turns, dealt_hands, players, rule_opts, seed, threads,
                            out):
    """Contract Rummy: contract-completion study over runs (one arm each) and/or dealt hands,
    with 95% intervals."""
    from cardsim.simulator.games.contract_rummy.analysis import completion_study, dealt_study

    ts = whole_numbers("--turns", turns, 0)
    if not run_dirs and dealt_hands is None:
        raise UsageError("give run folders (from `cardsim run contract-rummy`) and/or "
                         "--dealt-hands N")
    if dealt_hands is not None and dealt_hands < 1:
        raise UsageError(f"--dealt-hands {dealt_hands}: must be a positive whole number")
    if not 0 <= seed < 2**63:
        raise UsageError(f"--seed {seed}: allowed 0..2**63-1")
    tables = completion_study(run_dirs, ts) if run_dirs else {}
    if dealt_hands is not None:
        from cardsim.simulator.games import get_game

        overrides = list(rule_opts) + ([f"players={players}"] if players is not None else [])
        rules = get_game("contract-rummy").rules.resolve(overrides)
        t0 = time.perf_counter()
        tables["dealt"] = dealt_study(rules, dealt_hands, seed, threads)
        dt = time.perf_counter() - t0
        click.echo(f"{dealt_hands:,} hands per deal size in {dt:.2f} s "
                   f"({dealt_hands * len(rules['contracts']) / dt:,.0f} hand-contracts/s)")
    out = Path(out) if out is not None else (
        Path(run_dirs[0]) / "studies" if run_dirs else Path("results") / "contract-completion-dealt")
    from cardsim.analysis.io import write_tables

    write_tables(out, "contract_completion", tables)
    _echo_tables(tables)
    click.echo(f"tables written to {out}")
