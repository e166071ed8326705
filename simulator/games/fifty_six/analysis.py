"""56 studies from a run's tables: how often contracts make, and from which hand strength."""
from __future__ import annotations

import json
from pathlib import Path

import polars as pl

from cardsim.analysis.stats import Z95, success_table, wilson, wilson_exprs
from cardsim.simulator.errors import UsageError
from cardsim.analysis import report as R
from cardsim.analysis.metrics import win_of

# what a bid-success table may be grouped by (derived columns are built in ``_with_derived``)
GROUP_KEYS = ("bid", "bid_band", "trump_kind", "trump", "double_level", "bidder_position",
              "players", "bid_form", "bidder_jacks", "bidder_nines", "bidder_trumps",
              "bidder_trump_jacks", "bidder_points", "team_jacks", "team_trumps", "team_points_held",
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


# ---------------------------------------------------------------- what the shared studies ask
# (the adapter's analysis_module: sweeps, --precision, compare, report)

# compare: (games-table column of team t's total, whether higher totals are better,
# the winner column)
OUTCOME = ("tables_team{}", True, "winner_team")


def metrics(deals: pl.DataFrame, games: pl.DataFrame | None) -> pl.DataFrame:
    """One row per game index (per deal in deals mode), one column per metric: what
    sweeps and --precision summarise and compare (analysis/metrics.py)."""
    contract = pl.col("bidder") >= 0
    per = deals.group_by("game_index").agg(
        pl.col("made").filter(contract).cast(pl.Float64).mean().alias("made_rate"),
        pl.col("bid").filter(contract).cast(pl.Float64).mean().alias("bid"),
        (~contract).cast(pl.Float64).mean().alias("all_pass_rate"),
        pl.col("calls").cast(pl.Float64).mean().alias("calls"))
    if games is not None:
        # by strategy, not seat: with duplicate seating team 0 changes hands every game
        per = per.join(games.select(
            "game_index", win_of("winner_strategy").alias("strategy0_win"),
            pl.col("deals").cast(pl.Float64)), on="game_index")
    return per


def deal_values(deals: pl.DataFrame, teams: int) -> pl.DataFrame:
    """Per (game, team): share of the game's deals in which the team held the contract, and
    how often it made the contracts it held."""
    parts = []
    for t in range(teams):
        held = pl.col("bidding_team") == t
        parts.append(deals.group_by("game_index").agg(
            held.cast(pl.Float64).mean().alias("held"),
            pl.col("made").filter(held).cast(pl.Float64).mean().alias("made_when_held"))
            .with_columns(pl.lit(t).alias("team")))
    return pl.concat(parts)


def report_sections(dirs: list[Path]) -> list:
    """cardsim report's sections for this game's runs (several runs: one comparison)."""
    out = []
    for d in dirs:
        deals, info = load_deals(d)
        payout = info["rules"]["payout"]
        n = info.get("deals") or info.get("games")
        sec = R.Section(f"56: bid success — {d.name}")
        band = bid_success(deals, ["bid_band", "trump_kind"], payout)
        plt = R.pyplot()
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        for kind, part in band.group_by("trump_kind", maintain_order=True):
            R.errorbars(ax, part["bid_band"].to_list(), part["rate"], part["lo"], part["hi"],
                       label=kind[0])
        ax.set_ylabel("contracts made")
        ax.set_xlabel("bid band")
        ax.set_ylim(0, 1)
        ax.legend()
        sec.figures.append((R.png(fig), f"Contract success by bid band, 95% Wilson intervals; "
                                       f"{int(band['n'].sum()):,} contracts from {n:,} "
                                       f"{info['mode']}, seed {info['seed']}."))
        strength = bid_success(deals, ["bidder_points"], payout).filter(pl.col("n") >= 30)
        fig, ax = plt.subplots(figsize=(6.5, 3.6))
        R.errorbars(ax, strength["bidder_points"], strength["rate"], strength["lo"],
                   strength["hi"])
        ax.set_xlabel("card points in the bidder's dealt hand")
        ax.set_ylabel("contracts made")
        ax.set_ylim(0, 1)
        sec.figures.append((R.png(fig), f"Contract success by hand strength (groups of at "
                                       f"least 30); {int(strength['n'].sum()):,} contracts, "
                                       f"seed {info['seed']}."))
        sec.tables.append(("success by bid band", band))
        out.append(sec)
    return out


# ---------------------------------------------------------------- hand analysis (cardsim hand)

HAND_TRUMPS = ("S", "H", "D", "C", "NT")


def hand_setup(g, rules: dict, deal: int) -> dict:
    """The rules of the hand analysis: one-deal games (every 56 deal is alike, so ``deal``
    must be 0)."""
    from cardsim.simulator.errors import UsageError

    if deal != 0:
        raise UsageError(f"--deal {deal}: allowed 0 (every 56 deal is played alike)")
    if rules["redeal_weak_hands"]:
        raise UsageError("rule 'redeal_weak_hands': cardsim hand deals the other cards once "
                         "and never redeals; set it false (a --constraint can keep weak hands "
                         "out)")
    if rules["contract"] != "auction":
        raise UsageError("rule 'contract': cardsim hand sets the contract; give --contract")
    one = dict(rules)
    one["max_deals"] = 1
    return g.rules.resolve(one)


def hand_plays(g, rules: dict, seat: int, contract: str | None) -> dict[str, dict]:
    """The runs of a hand analysis, by label: the hand as the bidder (place ``seat``) in each
    trump at the lowest bid (every bid is read from the same play: the built-in players do
    not look at the bid's value), or in the one ``contract`` given."""
    if contract is not None:
        body = g.rules.fields["contract"].coerce(contract).partition("@")[0]
        return {body: g.rules.resolve({**rules, "contract": f"{body}@{seat}"})}
    return {t: g.rules.resolve({**rules, "contract": f"{rules['min_bid']}{t}@{seat}"})
            for t in HAND_TRUMPS}


def hand_rows(frames: dict[str, pl.DataFrame], seat: int, rules: dict) -> dict:
    """The hand's table: per contract (trump x bid) the chance the bidder's team makes it and
    its expected stake in tables per opposing team (+ when made, - when not), each with a 95%
    interval, and the best contract by expected stake. Over every contract (the runs labelled
    by trump) the stake is undoubled and ``stake_doubled`` gives it doubled; one contract
    (labelled like 40Cx) is read as played. The trumps' runs share their deals of the other
    cards."""
    from cardsim.analysis.stats import mean_interval, rate_interval
    from cardsim.simulator.games.fifty_six.rules import BEST, contract_parts, payout_tables

    win, lose = payout_tables(rules["payout"])
    every = all(label in HAND_TRUMPS for label in frames)
    rows = []
    n = 0
    for label, deals in frames.items():
        n = deals.height
        level = int(deals["double_level"][0])
        if every:
            trump = label
            bids = [b for b in range(rules["min_bid"], rules["max_bid"] + 1) if win[b] >= 0]
        else:
            _, bid, code, _ = contract_parts(f"{label}@0")
            trump = "best" if code == BEST else HAND_TRUMPS[code]
            bids = [bid]
        pts = deals["bidding_team_points"].cast(pl.Int64)
        for b in bids:
            made = pts >= b
            stake = (made.cast(pl.Int64) * (win[b] + lose[b]) - lose[b]) * level
            r, lo, hi = rate_interval(int(made.sum()), n)
            m, mlo, mhi = mean_interval(stake)
            row = {"trump": trump, "bid": b, "double_level": level, "made_rate": r, "lo": lo,
                   "hi": hi, "stake": m, "stake_lo": mlo, "stake_hi": mhi}
            if every:
                row.update(stake_doubled=2 * m, stake_doubled_lo=2 * mlo,
                           stake_doubled_hi=2 * mhi)
            rows.append(row)
    best = max(rows, key=lambda r: r["stake"])
    return {"deals": n, "rows": rows,
            "best": {k: best[k] for k in ("trump", "bid", "double_level", "made_rate", "stake",
                                          "stake_lo", "stake_hi")}}


def hand_lines(result: dict) -> list[str]:
    """The hand table as terminal lines: made rates (with the interval's half-width) by bid
    and trump, then each trump's best bid and the best contract by expected stake."""
    rows = result["rows"]
    trumps = list(dict.fromkeys(r["trump"] for r in rows))
    cell = {(r["trump"], r["bid"]): r for r in rows}
    out = ["   bid  " + "".join(f"{t:>14}" for t in trumps) + "   (made rate +/- 95%)"]
    for b in sorted({r["bid"] for r in rows}):
        texts = []
        for t in trumps:
            r = cell.get((t, b))
            texts.append(f"{r['made_rate']:>8.3f}+/-{(r['hi'] - r['lo']) / 2:.3f}"
                         if r else " " * 14)
        out.append(f"  {b:>4}  " + "".join(texts))
    for t in trumps:
        r = max((r for r in rows if r["trump"] == t), key=lambda r: r["stake"])
        out.append(f"  {t:>4}: best bid {r['bid']}, expected stake {r['stake']:+.3f} "
                   f"[{r['stake_lo']:+.3f}, {r['stake_hi']:+.3f}] tables")
    b = result["best"]
    x = {1: "", 2: " doubled", 4: " redoubled"}[b["double_level"]]
    out.append(f"  best contract: {b['bid']} {b['trump']}{x}, made {b['made_rate']:.3f}, "
               f"expected stake {b['stake']:+.3f} [{b['stake_lo']:+.3f}, {b['stake_hi']:+.3f}]"
               " tables per opposing team")
    return out


# the outlook of a position (cardsim hand --position, simulator.outlook): the seat's team's
# card points decide, and the chance its team wins the contract (makes it, or defeats it)
POSITION_SCORE = ("points", 1)


def position_rules(rules: dict, deal: int) -> tuple[dict, bool]:
    """(rules, deals mode) that end a game resumed at deal ``deal`` with that deal."""
    return rules, True


def position_outcome(deals: pl.DataFrame, seat: int, rules: dict) -> dict:
    """Per resampled deal (a row each): whether the seat's team won the contract and the card
    points it took."""
    import numpy as np

    from cardsim.simulator.games import get_game

    mine = deals["bidding_team"].to_numpy() == seat % get_game("fifty-six").n_teams(rules)
    made = deals["made"].to_numpy()
    pts = np.where(mine, deals["bidding_team_points"].to_numpy(),
                   deals["opponent_points"].to_numpy())
    return {"win_rate": mine == made, "made_rate": made, "points": pts.astype(np.int64)}
