"""`cardsim analyze trick-share`, the toy game's study command."""
from __future__ import annotations

from pathlib import Path

import click


@click.command("trick-share")
@click.argument("run_dir", type=click.Path(path_type=Path))
def trick_share_cmd(run_dir):
    """Toy tricks: how often each team takes t tricks in a deal, with 95% intervals."""
    from cardsim.analysis.io import load_run

    from tests.toy_tricks.analysis import trick_share

    table = trick_share(load_run(run_dir, "toy-tricks")[0])
    out = Path(run_dir) / "studies"
    out.mkdir(exist_ok=True)
    table.write_parquet(out / "trick_share.parquet")
    click.echo(table)
