"""`cardsim analyze` commands of 56 (attached lazily by simulator/cli.py)."""
from __future__ import annotations

from pathlib import Path

import click


@click.command("bid-success")
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--by", default="bid_band,trump_kind", show_default=True,
              help="comma-separated grouping keys (bid, bid_band, trump_kind, double_level, "
                   "bidder_position, players, hand features ...)")
@click.option("--feature", default="bidder_points", show_default=True,
              help="hand feature for the make-more-often-than-not threshold per bid")
@click.option("--min-n", type=int, default=100, show_default=True,
              help="fewest deals a group needs to count for the threshold")
@click.option("--all-pass", is_flag=True, help="include all-pass contracts")
def bid_success_cmd(run_dir, by, feature, min_n, all_pass):
    """56: contract success rate with 95% Wilson intervals, and strength thresholds."""
    import polars as pl

    from cardsim.simulator.games.fifty_six.analysis import bid_success, load_deals, thresholds

    deals, info = load_deals(run_dir)
    keys = [k.strip() for k in by.split(",") if k.strip()]
    table = bid_success(deals, keys, info["rules"]["payout"], include_all_pass=all_pass)
    thr = thresholds(deals, feature, info["rules"]["payout"], min_n=min_n)
    out = Path(run_dir) / "studies"
    out.mkdir(exist_ok=True)
    table.write_parquet(out / f"bid_success-{'-'.join(keys)}.parquet")
    thr.write_parquet(out / f"threshold-{feature}.parquet")
    with pl.Config(tbl_rows=200, tbl_cols=20, float_precision=4):
        click.echo(table)
        click.echo(f"lowest {feature} from which a bid makes more often than not "
                   f"(groups of at least {min_n} deals):")
        click.echo(thr)
