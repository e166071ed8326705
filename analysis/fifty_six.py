"""56 studies from a run's tables: how often contracts make, and from which hand strength."""
from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from cardsim.analysis.stats import Z95, success_table, wilson, wilson_exprs
from cardsim.simulator.errors import UsageError

# what a bid-success table may be grouped by (derived columns are built in ``_with_derived``)
GROUP_KEYS = ("bid", "bid_band", "trump_kind", "trump", "double_level", "bidder_position",
              "players", "bid_form", "bidder_jacks", "bidder_nines", "bidder_trumps",
              "bidder_points", "team_jacks", "team_trumps", "team_points_held",
              "team_points_band")
FEATURES = ("bidder_jacks", "bidder_nines", "bidder_trumps", "bidder_points", "team_jacks",
            "team_trumps", "team_points_held")


def load_deals(run_dir: Path) -> tuple[pl.LazyFrame, dict]:
    """The deal table of a finished run, and its run.json."""
    run_dir = Path(run_dir)
    info_path = run_dir / "run.json"
    if not info_path.is_file():
        raise UsageError(f"{run_dir}: no run.json (not a finished cardsim run)")
    info = json.loads(info_path.read_text())
    if info.get("game") != "fifty-six":
        raise UsageError(f"{run_dir}: a {info.get('game')} run, not fifty-six")
    files = sorted(run_dir.glob("deals-*.parquet"))
    if not files:
        raise UsageError(f"{run_dir}: no deals-*.parquet files")
    return pl.scan_parquet(files), info


def _bands(payout: str) -> list[tuple[int, int]]:
    out = []
    for part in payout.split(","):
        span = part.split(":")[0]
        lo, _, hi = span.partition("-")
        out.append((int(lo), int(hi or lo)))
    return out


POINTS_BAND = 4  # width of a team_points_band


def _with_derived(deals: pl.LazyFrame, payout: str) -> pl.LazyFrame:
    band = pl.lit(None, pl.String)
    for lo, hi in reversed(_bands(payout)):
        label = f"{lo}-{hi}" if lo != hi else f"{lo}"
        band = pl.when(pl.col("bid").is_between(lo, hi)).then(pl.lit(label)).otherwise(band)
    kind = pl.when(pl.col("trump") == "NT").then(pl.lit("no-trumps")).otherwise(pl.lit("suit"))
    deals = deals.with_columns(band.alias("bid_band"), kind.alias("trump_kind"))
    if "team_points_held" not in deals.collect_schema().names():
        return deals
    points_band = pl.col("team_points_held") // POINTS_BAND * POINTS_BAND  # 24: 24-27 held
    return deals.with_columns(points_band.alias("team_points_band"))


def bid_success(deals: pl.LazyFrame, by: list[str], payout: str,
                include_all_pass: bool = False) -> pl.DataFrame:
    """Success rate with 95% Wilson intervals and counts per group (bids only, by default:
    the all-pass contract is nobody's bid)."""
    bad = [k for k in by if k not in GROUP_KEYS]
    if bad or not by:
        raise UsageError(f"--by {','.join(by) or '(empty)'}: allowed keys are "
                         f"{', '.join(GROUP_KEYS)}")
    lf = _with_derived(deals, payout)
    if not include_all_pass:
        lf = lf.filter(pl.col("bidder") >= 0)
    return success_table(lf, by)


def thresholds(deals: pl.LazyFrame, feature: str, payout: str, min_n: int = 30) -> pl.DataFrame:
    """Per bid value: the lowest value of ``feature`` from which the contract makes more often
    than not (rate > 0.5 with at least ``min_n`` deals), or null if it never does."""
    if feature not in FEATURES:
        raise UsageError(f"--feature {feature}: allowed {', '.join(FEATURES)}")
    t = bid_success(deals, ["bid", feature], payout)
    return (t.filter((pl.col("n") >= min_n) & (pl.col("rate") > 0.5))
            .group_by("bid").agg(pl.col(feature).min().alias(f"min_{feature}"))
            .join(t.group_by("bid").agg(pl.col("n").sum().alias("deals")), on="bid",
                  how="right")
            .select("bid", "deals", f"min_{feature}").sort("bid"))


def pool_sparse(table: pl.DataFrame, key: str, min_n: int) -> pl.DataFrame:
    """A success table sorted by ``key`` with neighbouring rows of fewer than ``min_n`` deals
    pooled (a group closes once it holds ``min_n``; a short last group joins the one before):
    ``key`` becomes a label such as "43-48"."""
    groups: list[list[dict]] = [[]]
    for row in table.sort(key).iter_rows(named=True):
        groups[-1].append(row)
        if sum(r["n"] for r in groups[-1]) >= min_n:
            groups.append([])
    if len(groups) > 1 and sum(r["n"] for r in groups[-1]) < min_n:
        short = groups.pop()
        groups[-1] += short
    rows = [{key: f"{g[0][key]}" + (f"-{g[-1][key]}" if len(g) > 1 else ""),
             "n": sum(r["n"] for r in g), "made": sum(r["made"] for r in g)}
            for g in groups if g]
    return (pl.DataFrame(rows, schema={key: pl.String, "n": pl.Int64, "made": pl.Int64})
            .with_columns((pl.col("made") / pl.col("n")).alias("rate"))
            .with_columns(wilson_exprs("made", "n")))


def _around(value, half):
    return (None, None) if half is None else (value - half, value + half)


def headline(deals: pl.LazyFrame, min_bid: int) -> pl.DataFrame:
    """The study's summary numbers, one row each: ``measure``, ``unit``, ``n`` (deals it is
    taken over), ``value`` with its 95% interval ``lo``-``hi`` (Wilson for shares, normal for
    means and the spades-clubs gap). Shares are in percent. A jump is an opening bid above
    ``min_bid`` or a raise of more than one: raises sum to bid - opening_bid over bids - 1
    raises, so some raise jumped exactly when bid - opening_bid > bids - 1."""
    bid = pl.col("bidder") >= 0
    opening_jump = bid & (pl.col("opening_bid") > min_bid)
    jump = opening_jump | (bid & (pl.col("bid") - pl.col("opening_bid") > pl.col("bids") - 1))
    count = {"contracts made": bid & pl.col("made"), "all pass": ~bid,
             "no-trump contracts": bid & (pl.col("trump") == "NT"),
             "doubled or redoubled": bid & (pl.col("double_level") > 1),
             "opening bid above min_bid": opening_jump, "jump bid (opening or raise)": jump,
             **{f"trump {s}": bid & (pl.col("trump") == s) for s in "SHDC"}}
    means = {"mean bid": (bid, "bid"),
             **{f"team points held, bid {v}": (bid & (pl.col("bid") == v), "team_points_held")
                for v in (28, 40)}}
    row = deals.select(
        pl.len().alias("deals"), bid.sum().alias("contracts"),
        *(e.sum().alias(k) for k, e in count.items()),
        *(pl.col(c).filter(m).cast(pl.Float64).mean().alias(f"{k}:mean") for k, (m, c) in
          means.items()),
        *(pl.col(c).filter(m).cast(pl.Float64).std().alias(f"{k}:sd") for k, (m, c) in
          means.items()),
        *(pl.col(c).filter(m).count().alias(f"{k}:n") for k, (m, c) in means.items()),
    ).collect(engine="streaming").row(0, named=True)
    out = []
    for k in count:
        n = row["deals"] if k == "all pass" else row["contracts"]
        unit = "% of deals" if k == "all pass" else "% of contracts"
        out.append((k, unit, n, row[k] / n if n else None, *wilson(row[k], n)))
    for k in means:
        n, m, sd = row[f"{k}:n"], row[f"{k}:mean"], row[f"{k}:sd"]
        half = Z95 * sd / n ** 0.5 if n > 1 else None
        out.append((k, "card points" if "points" in k else "bid", n, m, *_around(m, half)))
    n = row["contracts"]
    ps, pc = (row[f"trump {s}"] / n if n else 0.0 for s in "SC")
    half = Z95 * ((ps + pc - (ps - pc) ** 2) / n) ** 0.5 if n else None
    out.append(("trump S - trump C", "percentage points", n, ps - pc, *_around(ps - pc, half)))
    t = pl.DataFrame(out, schema=["measure", "unit", "n", "value", "lo", "hi"], orient="row")
    pct = pl.col("unit").str.contains("%|percentage")
    return t.with_columns(pl.when(pct).then(pl.col(c) * 100).otherwise(pl.col(c))
                          for c in ("value", "lo", "hi"))
