"""Adaptive precision: keep playing chunks until a metric's 95% interval is narrow enough.

The metric is one of the game's per-game metrics (analysis/metrics.py); its running mean and
variance are updated from each chunk, and the run stops after the first chunk at which the
interval's half-width is at most the target (or at the cap).
"""
from __future__ import annotations

import math

from cardsim.analysis.metrics import names, per_game
from cardsim.analysis.stats import Z95
from cardsim.simulator.errors import UsageError


def check_metric(game, metric: str | None, deals_mode: bool) -> str:
    allowed = names(game, deals_mode)
    if metric is None:
        return allowed[0]
    if metric not in allowed:
        raise UsageError(f"--metric {metric!r}: not a metric of {game.name} "
                         f"(allowed: {', '.join(allowed)})")
    return metric


class PrecisionStop:
    """``stop(deals, games)`` for batch.run; ``summary()`` goes into run.json."""

    def __init__(self, game, target: float, metric: str | None, deals_mode: bool):
        if not (target > 0 and math.isfinite(target)):
            raise UsageError(f"--precision {target}: must be a positive number (the 95% "
                             "interval's half-width to reach)")
        self.game = game
        self.metric = check_metric(game, metric, deals_mode)
        self.target = target
        self.n = 0
        self.mean = 0.0
        self.m2 = 0.0  # sum of squared deviations (Chan et al.'s parallel update)

    def add(self, values) -> None:
        n_b = len(values)
        if n_b == 0:
            return
        mean_b = float(values.mean())
        m2_b = float(((values - mean_b) ** 2).sum())
        n = self.n + n_b
        delta = mean_b - self.mean
        self.mean += delta * n_b / n
        self.m2 += m2_b + delta * delta * self.n * n_b / n
        self.n = n

    @property
    def half_width(self) -> float:
        if self.n < 2:
            return math.inf
        return Z95 * math.sqrt(self.m2 / (self.n - 1) / self.n)

    def __call__(self, deals, games) -> bool:
        col = per_game(self.game.name, deals, games)[self.metric].drop_nulls().drop_nans()
        self.add(col.to_numpy())
        return self.half_width <= self.target

    def summary(self) -> dict:
        return {"metric": self.metric, "target_half_width": self.target,
                "half_width": self.half_width, "estimate": self.mean, "n": self.n,
                "reached": self.half_width <= self.target}
