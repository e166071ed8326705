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
import hashlib
import json
import re
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import polars as pl

from analysis.fifty_six import bid_success, headline, load_deals, pool_sparse, thresholds
from analysis.report import _md_table
from simulator.games import get_game

# the 56 default before this study's players: the evaluator (suit order breaking ties) with
# the card play of that time (no shown-out memory, no overtaking partner, no trump count, no
# signals)
OLD_DEFAULT = "evaluator:tie_points=0,voids=0,count_trumps=0,signals=0,overtake_min_points=99"

ROOT = Path(__file__).resolve().parents[1]
RUN_FILES = re.compile(r"deals-\d+\.parquet|(run|run-spec|chunks|study)\.json|studies")


def source_hash() -> str:
    h = hashlib.sha256()
    for f in sorted(p for d in ("simulator", "strategies") for p in (ROOT / d).rglob("*.py")):
        h.update(f.relative_to(ROOT).as_posix().encode() + b"\0" + f.read_bytes())
    return h.hexdigest()


def shown(path: Path) -> str:
    path = path.resolve()
    return str(path.relative_to(ROOT) if path.is_relative_to(ROOT) else path)


def ensure_run(spec: str, deals: int, seed: int, out: Path, fresh: bool) -> tuple[Path, str]:
    """The run folder for ``spec`` (made now unless an identical one exists) and its command."""
    run = out / f"{re.sub(r'[^A-Za-z0-9.]+', '_', spec)}-seed{seed}-{deals}"
    args = ["run", "fifty-six", "--deals", str(deals), "--seed", str(seed), "--strategy", spec,
            "--out", shown(run), "--quiet"]
    key = {"command": args, "sources": source_hash()}
    marker = run / "study.json"
    if not fresh and marker.is_file() and json.loads(marker.read_text()) == key:
        print(f"reusing {shown(run)}", file=sys.stderr)
        return run, "cardsim " + shlex.join(args)
    if run.exists():
        if not all(RUN_FILES.fullmatch(p.name) for p in run.iterdir()):
            sys.exit(f"{run}: exists and holds files that are not a cardsim run; move it away")
        shutil.rmtree(run)
    print(f"cardsim {shlex.join(args)}", file=sys.stderr)
    if subprocess.run([sys.executable, "-m", "simulator.cli", *args], cwd=ROOT).returncode:
        sys.exit(f"study: `cardsim run` failed for --strategy {spec} (message above)")
    marker.write_text(json.dumps(key, indent=1))
    return run, "cardsim " + shlex.join(args)


def ci(v, lo, hi, scale: float = 100.0, digits: int = 1) -> str:
    if v is None or lo is None:  # nothing, or a single deal: no interval
        return "–" if v is None else f"{v * scale:.{digits}f}"
    return f"{v * scale:.{digits}f} [{lo * scale:.{digits}f}, {hi * scale:.{digits}f}]"


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


def section(title: str, text: str, table: pl.DataFrame, commands: list[str]) -> str:
    how = "\n".join(f"    {c}" for c in commands)
    return f"### {title}\n\n{text}\n\n{_md_table(table, max_rows=10_000)}\nReproduce:\n\n{how}\n"


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
                [run_cmd, f"python -c \"from analysis.fifty_six import headline, load_deals; "
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


def comparison(old: tuple[Path, str], new: tuple[Path, str], names: tuple[str, str]) -> str:
    hs = [headline_of(run) for run, _ in (old, new)]
    table = hs[0].select("measure", "unit", pl.Series(f"old: {names[0]}", headline_text(hs[0])),
                         pl.Series(f"new: {names[1]}", headline_text(hs[1])))
    return section("Old and new player side by side",
                   "The auction summary above for both players, same deals (seed) and rules.",
                   table, [old[1], new[1]])


def update_doc(path: Path, blocks: dict[str, str]) -> None:
    """Replace the text between <!-- NAME:begin --> and <!-- NAME:end --> for each block."""
    doc = path.read_text()
    for name, text in blocks.items():
        begin, end = f"<!-- {name}:begin -->", f"<!-- {name}:end -->"
        if doc.count(begin) != 1 or doc.count(end) != 1:
            sys.exit(f"{path}: needs exactly one {begin} and one {end}")
        head, rest = doc.split(begin)
        doc = f"{head}{begin}\n{text}\n{end}{rest.split(end)[1]}"
    path.write_text(doc)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=1_000_000)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--strategy", default=get_game("fifty-six").default_strategy,
                    help="strategy spec of the studied player (default: the default strategy)")
    ap.add_argument("--old-strategy", default=OLD_DEFAULT,
                    help="strategy spec of the player to compare with")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "fifty-six-study",
                    help="folder for the runs")
    ap.add_argument("--min-n", type=int, default=100,
                    help="fewest contracts for a row, cell or threshold group to stand alone")
    ap.add_argument("--fresh", action="store_true", help="run again even if a run matches")
    ap.add_argument("--markdown", type=Path, help="also write the tables to this file")
    ap.add_argument("--update-doc", type=Path,
                    help="replace the tables between the <!-- study:begin/end --> and "
                         "<!-- compare:begin/end --> markers of this file")
    a = ap.parse_args()
    new = ensure_run(a.strategy, a.deals, a.seed, a.out, a.fresh)
    old = ensure_run(a.old_strategy, a.deals, a.seed, a.out, a.fresh)
    info = json.loads((new[0] / "run.json").read_text())
    mine = shlex.join(["python", "scripts/study_fifty_six.py", "--deals", str(a.deals), "--seed",
                       str(a.seed), "--strategy", a.strategy, "--old-strategy", a.old_strategy])
    blocks = {"study": "\n".join([
        f"Generated by `{mine}` (cardsim {info['package_version']}, commit "
        f"{(info.get('git_commit') or 'unknown')[:12]}): {a.deals:,} deals, seed {a.seed}, "
        f"default rules, `{a.strategy}` on both teams; 95% intervals (Wilson for rates and "
        "shares).\n",
        *study(*new, a.min_n)]),
        "compare": comparison(old, new, (a.old_strategy, a.strategy))}
    text = "\n".join(blocks.values())
    print(text)
    if a.markdown:
        a.markdown.write_text(text + "\n")
    if a.update_doc:
        update_doc(a.update_doc, blocks)


if __name__ == "__main__":
    main()
