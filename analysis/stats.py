"""Interval estimates shared by the studies."""
from __future__ import annotations

import math

import polars as pl

Z95 = 1.959963984540054


def wilson(successes: int, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval for a binomial proportion (sensible at 0 and n, unlike Wald)."""
    if n <= 0:
        return (math.nan, math.nan)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return (max(0.0, centre - half), min(1.0, centre + half))


def wilson_exprs(successes: str, n: str, z: float = Z95) -> list[pl.Expr]:
    """The same interval as polars expressions over count columns (``lo`` and ``hi``)."""
    s, m = pl.col(successes), pl.col(n)
    p = s / m
    z2 = z * z
    centre = (p + z2 / (2 * m)) / (1 + z2 / m)
    half = z * ((p * (1 - p) / m + z2 / (4 * m * m)).sqrt()) / (1 + z2 / m)
    return [(centre - half).clip(0.0, 1.0).alias("lo"), (centre + half).clip(0.0, 1.0).alias("hi")]


def success_table(deals: pl.LazyFrame | pl.DataFrame, by: list[str]) -> pl.DataFrame:
    """Contract success rate with 95% Wilson intervals, grouped by ``by`` columns."""
    lf = deals.lazy() if isinstance(deals, pl.DataFrame) else deals
    return (lf.group_by(by).agg(pl.len().alias("n"), pl.col("made").sum().alias("made"))
            .with_columns((pl.col("made") / pl.col("n")).alias("rate"))
            .with_columns(wilson_exprs("made", "n")).sort(by).collect())


def mean_ci(col: str, name: str) -> list[pl.Expr]:
    """Mean of ``col`` as ``name`` with a normal 95% interval (``name_lo``, ``name_hi``)."""
    c = pl.col(col).cast(pl.Float64)
    half = Z95 * c.std() / c.count().sqrt()
    return [c.mean().alias(name), (c.mean() - half).alias(f"{name}_lo"),
            (c.mean() + half).alias(f"{name}_hi")]


def wilson_cols(successes: str, n: str, name: str) -> list[pl.Expr]:
    """The share successes / n as ``name`` with its Wilson interval (``name_lo``, ``name_hi``)."""
    lo, hi = wilson_exprs(successes, n)
    return [(pl.col(successes) / pl.col(n)).alias(name), lo.alias(f"{name}_lo"),
            hi.alias(f"{name}_hi")]


def text_table(df: pl.DataFrame, estimates: list[str], keep: list[str]) -> pl.DataFrame:
    """For printing: each estimate with its interval as 'x [lo, hi]'."""
    cols = [pl.col(k) for k in keep]
    for e in estimates:
        cols.append(pl.format("{} [{}, {}]", *(pl.col(c).round(3) for c in
                                              (e, f"{e}_lo", f"{e}_hi"))).alias(e))
    return df.select(cols)
