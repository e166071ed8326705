"""A sweep's tidy table: one row per (setting, metric) with a 95% interval, and the paired
difference from the first setting (the settings share their seed, so game g of every setting
deals the same cards and the difference is taken game by game)."""
from __future__ import annotations

import math
from pathlib import Path

import polars as pl

from cardsim.analysis.io import read_info
from cardsim.analysis.metrics import per_game
from cardsim.analysis.stats import Z95
from cardsim.simulator.errors import UsageError


class _Moments:
    """Count, sum and sum of squares of a metric's finite values, added chunk by chunk."""

    def __init__(self):
        self.n, self.s, self.ss = 0, 0.0, 0.0

    def add(self, x: pl.Series) -> None:
        x = x.cast(pl.Float64).fill_nan(None).drop_nulls()
        self.n += x.len()
        self.s += float(x.sum())
        self.ss += float((x * x).sum())

    def mean_half(self) -> tuple[float, float]:
        n = self.n
        mean = self.s / n if n else math.nan
        var = max(0.0, self.ss - self.s * self.s / n) / (n - 1) if n > 1 else math.nan
        return mean, Z95 * math.sqrt(var / n) if n > 1 else math.nan


def _chunk_metrics(run_dir: Path, game: str, chunk: str) -> pl.DataFrame | None:
    deals = run_dir / f"deals-{chunk}"
    if not deals.is_file():
        return None
    games = run_dir / f"games-{chunk}"
    return per_game(game, pl.read_parquet(deals),
                    pl.read_parquet(games) if games.is_file() else None)


def sweep_table(sweep_dir) -> pl.DataFrame:
    """Per setting and metric: the estimate with its 95% interval, and the game-by-game
    difference from the first setting. Every setting plays the same seed and chunk size, so
    chunk k of each holds the same games: the runs are read a chunk at a time (memory does
    not grow with the run) and the sums folded."""
    sweep_dir = Path(sweep_dir)
    info = read_info(sweep_dir, "sweep.json", "sweep")
    settings = info["settings"]
    dirs = [sweep_dir / s["folder"] for s in settings]
    game = read_info(dirs[0], "run.json", "run")["game"]
    chunks = sorted({f.name.removeprefix("deals-") for d in dirs
                     for f in d.glob("deals-*.parquet")})
    metrics = None
    own = [{} for _ in settings]
    diff = [{} for _ in settings]
    for chunk in chunks:
        base = _chunk_metrics(dirs[0], game, chunk)
        for i, d in enumerate(dirs):
            per = base if i == 0 else _chunk_metrics(d, game, chunk)
            if per is None:
                continue
            metrics = metrics or [c for c in per.columns if c != "game_index"]
            joined = per.join(base, on="game_index", suffix="__base") if base is not None \
                else None
            for m in metrics:
                own[i].setdefault(m, _Moments()).add(per[m])
                if joined is not None:
                    diff[i].setdefault(m, _Moments()).add(joined[m] - joined[f"{m}__base"])
    if metrics is None:
        raise UsageError(f"{sweep_dir}: the sweep's runs hold no deals-*.parquet files")
    rows = []
    for i, s in enumerate(settings):
        for m in metrics:
            mean, half = own[i].get(m, _Moments()).mean_half()
            dm, dh = diff[i].get(m, _Moments()).mean_half()
            rows.append({"setting": s["index"], "label": s["label"], **s["values"],
                         "metric": m, "n": own[i].get(m, _Moments()).n, "estimate": mean,
                         "lo": mean - half, "hi": mean + half, "half_width": half,
                         "diff": dm, "diff_lo": dm - dh, "diff_hi": dm + dh})
    return pl.DataFrame(rows)


def write_sweep_table(sweep_dir) -> pl.DataFrame:
    table = sweep_table(sweep_dir)
    out = Path(sweep_dir) / "studies"
    out.mkdir(exist_ok=True)
    table.write_parquet(out / "sweep-metrics.parquet")
    return table
