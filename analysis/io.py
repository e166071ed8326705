"""Reading finished cardsim output folders (every study starts here), and writing a study's
tables beside them."""
from __future__ import annotations

import json
from pathlib import Path

from cardsim.simulator.errors import UsageError


def read_info(folder, name: str, what: str) -> dict:
    """The JSON file ``name`` a finished ``what`` (run, sweep, comparison) writes last."""
    folder = Path(folder)
    try:
        return json.loads((folder / name).read_text())
    except (OSError, ValueError):
        raise UsageError(f"{folder}: no readable {name} (not a finished cardsim {what})") \
            from None


def load_run(run_dir, game: str):
    """(deal rows, game rows, run.json) of a finished run of ``game`` (a CLI name)."""
    import polars as pl

    run_dir = Path(run_dir)
    info = read_info(run_dir, "run.json", "run")
    if info.get("game") != game:
        raise UsageError(f"{run_dir}: a {info.get('game')} run, not {game}")
    deal_files = sorted(run_dir.glob("deals-*.parquet"))
    game_files = sorted(run_dir.glob("games-*.parquet"))
    if not deal_files or not game_files:
        raise UsageError(f"{run_dir}: no deals-*.parquet / games-*.parquet files")
    return pl.read_parquet(deal_files), pl.read_parquet(game_files), info


def run_chunks(run_dir, game: str):
    """(run.json, an iterator over the run's (deal rows, game rows) chunk by chunk): the
    files of chunk k (deals-k, games-k) hold the same games, so a study that folds what each
    chunk adds needs one chunk in memory at a time, whatever the size of the run."""
    import polars as pl

    run_dir = Path(run_dir)
    info = read_info(run_dir, "run.json", "run")
    if info.get("game") != game:
        raise UsageError(f"{run_dir}: a {info.get('game')} run, not {game}")
    deal_files = sorted(run_dir.glob("deals-*.parquet"))
    game_files = {f.name.removeprefix("games-"): f for f in run_dir.glob("games-*.parquet")}
    if not deal_files or len(game_files) != len(deal_files):
        raise UsageError(f"{run_dir}: no deals-*.parquet / games-*.parquet files, or not one "
                         "of each per chunk")
    missing = [f.name for f in deal_files if f.name.removeprefix("deals-") not in game_files]
    if missing:
        raise UsageError(f"{run_dir}: {missing[0]} has no games file of the same chunk")

    def pairs():
        for f in deal_files:
            yield pl.read_parquet(f), pl.read_parquet(game_files[f.name.removeprefix("deals-")])

    return info, pairs()


def write_tables(out, prefix: str, tables: dict) -> Path:
    """Write each table of a study as ``out/<prefix>-<name>.parquet`` (making ``out``); a
    folder that cannot be written is one line naming it."""
    out = Path(out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        for name, df in tables.items():
            df.write_parquet(out / f"{prefix}-{name}.parquet")
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write ({e.strerror or e})") from None
    return out
