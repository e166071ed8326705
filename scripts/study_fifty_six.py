#!/usr/bin/env python
"""56 study "when does a bid make?": runs (or reuses) one deals run per player and writes the
Markdown tables of docs/fifty_six.md, each with its 95% intervals and the command behind it.

    python scripts/study_fifty_six.py                             # 1,000,000 deals, print
    python scripts/study_fifty_six.py --update-doc docs/fifty_six.md
    python scripts/study_fifty_six.py --deals 100000 --strategy evaluator --markdown out.md

A run lives in ``--out``/<strategy>-seed<S>-<N>; it is reused when its ``study.json`` records
the same command and the same simulator/ and strategies/ sources (a changed kernel or strategy
file therefore means a new run; ``--fresh`` forces one).
"""
from __future__ import annotations

import argparse
import json
import re
from pathlib import Path

import polars as pl

from cardsim.simulator.games.fifty_six.analysis import bid_success, headline, load_deals, pool_sparse, thresholds
from studylib import ci, common_args, emit, header, section, shown
import studylib

# the 56 default before this study's players: the evaluator (suit order breaking ties) with
# the card play of that time (no shown-out memory, no overtaking partner, no trump count, no
# signals)
OLD_DEFAULT = "evaluator:tie_points=0,voids=0,count_trumps=0,signals=0,overtake_min_points=99"


FIXED_BIDS = (28, 32, 36, 40, 44, 48, 56)  # the selection-free table's bids


def ensure_run(spec: str, deals: int, seed: int, out: Path, fresh: bool,
               contract: str | None = None) -> tuple[Path, str]:
    """The run folder for ``spec`` (made now unless an identical one exists) and its command;
    with ``contract`` every deal is played in that contract, no auction."""
    tail = "" if contract is None else "-" + re.sub(r"[^A-Za-z0-9.]+", "_", contract)
    run = out / f"{re.sub(r'[^A-Za-z0-9.]+', '_', spec)}-seed{seed}-{deals}{tail}"
    args = ["run", "fifty-six", "--deals", str(deals), "--seed", str(seed), "--strategy", spec]
    if contract is not None:
        args += ["--contract", contract]
    return run, studylib.ensure(args, run, fresh)


def rates(t: pl.DataFrame, keys: list[str]) -> pl.DataFrame:
    """A success table for print: keys, n, made % [95% interval]."""
    return pl.DataFrame({**{k: t[k].cast(pl.String) for k in keys}, "n": t["n"],
                         "made % [95% CI]": [ci(*r) for r in t.select("rate", "lo", "hi").rows()]})


def grid(t: pl.DataFrame, row: str, col: str, min_n: int, label=str) -> pl.DataFrame:
    """A success table as a grid: made % [interval] per cell, '· (n)' below ``min_n`` deals."""
    cell = [ci(v, lo, hi, digits=0) if n >= min_n else f"· ({n})"
            for v, lo, hi, n in t.select("rate", "lo", "hi", "n").rows()]
    cells = t.with_columns(pl.Series("cell", cell), pl.Series(col, map(label, t[col])))
    order = [label(v) for v in sorted(t[col].unique())]
    return cells.pivot(col, index=row, values="cell").select(row, *order).fill_null("").sort(row)


def headline_of(run: Path) -> pl.DataFrame:
    deals, info = load_deals(run)
    return headline(deals, info["rules"]["min_bid"])


def headline_text(h: pl.DataFrame) -> list[str]:
    return [ci(*r, scale=1.0, digits=2) for r in h.select("value", "lo", "hi").rows()]


def study(run: Path, run_cmd: str, min_n: int) -> list[str]:
    deals, info = load_deals(run)
    payout, min_bid = info["rules"]["payout"], info["rules"]["min_bid"]
    analyze = f"cardsim analyze bid-success {shown(run)} --min-n {min_n}"
    by = lambda keys: bid_success(deals, keys, payout)  # noqa: E731
    h = headline_of(run)
    thr = None
    for feature in ("team_points_held", "team_jacks", "bidder_points"):
        t = thresholds(deals, feature, payout, min_n=min_n)
        thr = t if thr is None else thr.join(t.drop("deals"), on="bid", how="left")
    band, points = "bid_band", "team_points_band"
    return [
        section("Made rate by bid value",
                f"Share of contracts that made (bidding team took at least the bid), per bid "
                f"value; all-pass deals left out. Neighbouring bids with fewer than {min_n} "
                f"contracts are pooled into one row (e.g. `42-48`).",
                rates(pool_sparse(by(["bid"]), "bid", min_n), ["bid"]),
                [run_cmd, f"{analyze} --by bid    # one row per bid, before pooling"]),
        section("Bid band × trump kind × double level",
                "Made rate per payout band, suit or no-trump contract, and double level "
                "(1 plain, 2 doubled, 4 redoubled).",
                rates(by(keys := [band, "trump_kind", "double_level"]), keys),
                [f"{analyze} --by bid_band,trump_kind,double_level"]),
        section("The auction in numbers",
                f"All pass: share of deals nobody bid on (played in no-trumps by the dealer's "
                f"right). The other shares are of contracts (deals with a bid). A jump is an "
                f"opening bid above min_bid ({min_bid}) or a raise of more than one: it is "
                f"derived from `bid`, `opening_bid` and `bids` (the raises add up to bid − "
                f"opening_bid over bids − 1 raises). Means have normal 95% intervals, the "
                f"spades − clubs gap a multinomial normal one.",
                h.select("measure", "unit", "n", pl.Series("value [95% CI]", headline_text(h))),
                [run_cmd, f"python -c \"from cardsim.simulator.games.fifty_six.analysis import headline, load_deals; "
                          f"d, i = load_deals('{shown(run)}'); "
                          f"print(headline(d, i['rules']['min_bid']))\""]),
        section("Made rate by bidder position",
                "Position of the winning bidder in the bidding order (0 = dealer's right, the "
                "first to speak; the dealer speaks last).",
                rates(by(["bidder_position"]), ["bidder_position"]),
                [f"{analyze} --by bidder_position"]),
        section("Thresholds: from which hand a bid makes more often than not",
                f"Per bid value: the lowest team points held (contract team's dealt card "
                f"points), team jacks and bidder's own points from which the contract makes "
                f"more often than not (made rate > 50% in a group of at least {min_n} "
                f"contracts); empty: no such group.",
                thr.rename({c: c.removeprefix("min_") for c in thr.columns})
                .with_columns(pl.exclude("bid", "deals").cast(pl.String).fill_null("")),
                [f"{analyze} --by bid --feature {f}"
                 for f in ("team_points_held", "team_jacks", "bidder_points")]),
        section("Made rate by bid band × team points held",
                f"Columns: card points the contract team was dealt, in bands of 4. Cells: made "
                f"% [95% CI]; `· (n)`: fewer than {min_n} contracts.",
                grid(by([band, points]), band, points, min_n, lambda v: f"{v}-{v + 3}"),
                [f"{analyze} --by bid_band,team_points_band"]),
        section("Made rate by bid band × team jacks",
                "Columns: jacks the contract team was dealt (of 8). Cells as above.",
                grid(by([band, "team_jacks"]), band, "team_jacks", min_n),
                [f"{analyze} --by bid_band,team_jacks"]),
    ]


def fixed_study(runs: dict[int, tuple[Path, str]], min_n: int) -> list[str]:
    """The selection-free tables: one run per bid, every deal played in that bid with the
    first player's best suit as trump (no auction), so each cell holds every hand of its kind,
    not only the hands on which a bidder chose that bid."""
    parts = {"bidder_trumps": [], "bidder_trump_jacks": [], "team_points_band": [],
             "trumps x jacks": []}
    for b, (run, _) in runs.items():
        deals, info = load_deals(run)
        payout = info["rules"]["payout"]
        for key in ("bidder_trumps", "bidder_trump_jacks", "team_points_band"):
            parts[key].append(bid_success(deals, [key], payout).with_columns(
                pl.lit(b).alias("bid")))
        if b == 40:
            parts["trumps x jacks"].append(bid_success(
                deals, ["bidder_trumps", "bidder_trump_jacks"], payout))
    cmds = [cmd for _, cmd in runs.values()]
    lowest = min(runs)

    def analyze(by: str, b: int = lowest) -> str:
        return f"cardsim analyze bid-success {shown(runs[b][0])} --min-n {min_n} --by {by}"

    forty = pl.concat(parts["trumps x jacks"])
    return [
        section("Selection-free: made rate by bid × bidder's trump length",
                f"Every deal played in the bid of its row, the first player (dealer's right, "
                f"who leads) the bidder with their longest suit as trump (ties: more card "
                f"points, then S, H, D, C), no auction. Columns: cards of that suit in the "
                f"bidder's 12. Cells: made % [95% CI]; `· (n)`: fewer than {min_n} deals.",
                grid(pl.concat(parts["bidder_trumps"]), "bid", "bidder_trumps", min_n),
                [*cmds, analyze("bidder_trumps") + "    # and so on for each bid's run"]),
        section("Selection-free: made rate by bid × bidder's jacks of trump",
                "Columns: jacks of the trump suit in the bidder's hand (0, 1 or both).",
                grid(pl.concat(parts["bidder_trump_jacks"]), "bid", "bidder_trump_jacks",
                     min_n),
                [analyze("bidder_trump_jacks")]),
        section("Selection-free: a 40 bid by trump length × jacks of trump",
                "Bid 40 only. Rows: cards of the trump suit in the bidder's hand; columns: "
                "jacks of trump among them.",
                grid(forty, "bidder_trumps", "bidder_trump_jacks", min_n),
                [analyze("bidder_trumps,bidder_trump_jacks", 40)]),
        section("Selection-free: made rate by bid × team points held",
                "Columns: card points the bidder's team was dealt, in bands of 4.",
                grid(pl.concat(parts["team_points_band"]), "bid", "team_points_band", min_n,
                     lambda v: f"{v}-{v + 3}"),
                [analyze("team_points_band")]),
    ]


def comparison(old: tuple[Path, str], new: tuple[Path, str], names: tuple[str, str]) -> str:
    hs = [headline_of(run) for run, _ in (old, new)]
    table = hs[0].select("measure", "unit", pl.Series(f"old: {names[0]}", headline_text(hs[0])),
                         pl.Series(f"new: {names[1]}", headline_text(hs[1])))
    return section("Old and new player side by side",
                   "The auction summary above for both players, same deals (seed) and rules.",
                   table, [old[1], new[1]])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    common_args(ap, "fifty-six", OLD_DEFAULT)
    ap.add_argument("--fixed-bids", default=",".join(map(str, FIXED_BIDS)),
                    help="bids of the selection-free tables, one fixed-contract run each "
                         "(40 among them)")
    ap.add_argument("--min-n", type=int, default=100,
                    help="fewest contracts for a row, cell or threshold group to stand alone")
    a = ap.parse_args()
    new = ensure_run(a.strategy, a.deals, a.seed, a.out, a.fresh)
    fixed = {b: ensure_run(a.strategy, a.deals, a.seed, a.out, a.fresh,
                           f"seat=0,bid={b},trump=best")
             for b in sorted({int(x) for x in a.fixed_bids.split(",")} | {40})}
    old = ensure_run(a.old_strategy, a.deals, a.seed, a.out, a.fresh)
    info = json.loads((new[0] / "run.json").read_text())
    argv = ["--deals", str(a.deals), "--seed", str(a.seed), "--strategy", a.strategy,
            "--old-strategy", a.old_strategy]
    blocks = {"study": "\n".join([
        header("study_fifty_six.py", argv, info,
               f"{a.deals:,} deals, seed {a.seed}, default rules, `{a.strategy}` on both teams"),
        *study(*new, a.min_n)]),
        "compare": comparison(old, new, (a.old_strategy, a.strategy)),
        "fixed": "\n".join(fixed_study(fixed, a.min_n))}
    emit(blocks, a.markdown, a.update_doc)

if __name__ == "__main__":
    main()
