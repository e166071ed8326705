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
            .with_columns(wilson_exprs("made", "n")).sort(by)
            .collect(engine="streaming"))


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


# Studies that must not grow with the run fold what each chunk adds: counts and sums (and
# sums of squares for a mean's interval) add up exactly, so chunk tables are summed by key.

def sum_cols(col: str, name: str) -> list[pl.Expr]:
    """Count of non-null values, sum and sum of squares of ``col``: a mean's interval later."""
    c = pl.col(col).cast(pl.Float64)
    return [c.count().cast(pl.Int64).alias(f"{name}_n"), c.sum().alias(f"{name}_s"),
            (c * c).sum().alias(f"{name}_ss")]


def mean_from_sums(name: str) -> list[pl.Expr]:
    """mean_ci's mean and normal 95% interval from sum_cols' columns (summed over chunks)."""
    n, s, ss = (pl.col(f"{name}_{k}") for k in ("n", "s", "ss"))
    mean = s / n
    sd = ((ss - s * s / n).clip(lower_bound=0.0) / (n - 1)).sqrt()
    half = Z95 * sd / n.sqrt()
    return [mean.alias(name), (mean - half).alias(f"{name}_lo"),
            (mean + half).alias(f"{name}_hi")]


def fold(acc: pl.DataFrame | None, part: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """``acc`` plus one chunk's ``part``: every column but ``keys`` summed by key."""
    if acc is None:
        return part
    return pl.concat([acc, part.select(acc.columns)]).group_by(keys).agg(pl.exclude(keys).sum())


def quantile_from_counts(values: list, counts: list, q: float, linear: bool = False):
    """The q-quantile of a sample given as value counts, as polars computes it on the sample
    itself: its quantile() ('nearest', halves rounding up) or, with ``linear``, its median()
    (interpolated); None for an empty sample."""
    pairs = sorted((v, c) for v, c in zip(values, counts) if c > 0 and v is not None)
    n = sum(c for _, c in pairs)
    if n == 0:
        return None

    def at(k):  # the k-th smallest (from 0)
        seen = 0
        for v, c in pairs:
            seen += c
            if k < seen:
                return v
        return pairs[-1][0]

    h = (n - 1) * q
    if not linear:
        return at(math.floor(h + 0.5))
    lo = math.floor(h)
    a = at(lo)
    return a + (h - lo) * (at(lo + 1) - a) if h > lo else float(a)


def rate_interval(k: int, n: int) -> tuple[float, float, float]:
    """``k`` of ``n`` as (rate, lo, hi), the Wilson 95% interval, which never lies past the
    rate itself (rounding would put it there at 0 and 1)."""
    lo, hi = wilson(k, n)
    r = k / n
    return r, min(lo, r), max(hi, r)


def mean_interval(values: pl.Series) -> tuple[float, float, float]:
    """The mean of ``values`` and its 95% interval (normal approximation)."""
    v = values.cast(pl.Float64)
    m = float(v.mean())
    half = Z95 * float(v.std() or 0.0) / len(v) ** 0.5
    return m, m - half, m + half
