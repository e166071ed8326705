#!/usr/bin/env python
"""56 at two levels of card play: the same deals and the same auctions played out by `tuned`
and by `expert` (a sampling search), so the made rates differ by the card play alone.

    python scripts/study_fifty_six_levels.py                         # 50,000 + 20,000 deals
    python scripts/study_fifty_six_levels.py --update-doc docs/fifty_six.md

`expert` bids as `tuned` (its `bid_samples` is 0 by default) and the deals of a seed are the
same for every strategy, so the auction runs give the same contract on every deal; the script
checks that, then compares per deal (paired differences, normal 95% intervals). The fixed
contracts (`--contract seat=0,bid=B,trump=best`) need no auction at all: every deal in one
bid, the same deals for both players.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import polars as pl

sys.path.insert(0, str(Path(__file__).resolve().parent))
from studylib import ROOT, emit, ensure, header, section, shown  # noqa: E402

from cardsim.analysis.stats import mean_ci, wilson  # noqa: E402
from cardsim.simulator.games.fifty_six.analysis import pool_sparse  # noqa: E402

CONTRACT = ["bidder", "bid", "trump", "double_level", "bidding_team"]


def deals_of(folder: Path) -> pl.DataFrame:
    return pl.read_parquet(sorted(folder.glob("deals-*.parquet"))).sort("game_index")


def cell(v, lo, hi, scale: float = 100.0, digits: int = 1) -> str:
    return f"{v * scale:.{digits}f} [{lo * scale:.{digits}f}, {hi * scale:.{digits}f}]"


def groups(t: pl.DataFrame, min_n: int) -> list[tuple[str, pl.DataFrame]]:
    """Per bid value, neighbouring values with fewer than min_n contracts pooled (the rule of
    the auction study's tables, pool_sparse)."""
    counts = t.group_by("bid").agg(pl.len().alias("n"), pl.col("made_t").sum().alias("made"))
    out = []
    for label in pool_sparse(counts, "bid", min_n)["bid"]:
        lo, _, hi = label.partition("-")
        out.append((label, t.filter(pl.col("bid").is_between(int(lo), int(hi or lo)))))
    return out


def level_rows(pair: pl.DataFrame, label: str | None = None) -> dict:
    n = pair.height
    row = {} if label is None else {"bid": label}
    row["n"] = n
    for who in ("t", "e"):
        k = int(pair[f"made_{who}"].sum())
        row[f"{'tuned' if who == 't' else 'expert'} made %"] = cell(k / n, *wilson(k, n))
    diff = pair.select((pl.col("made_e").cast(pl.Float64) - pl.col("made_t").cast(pl.Float64))
                       .alias("d")).select(mean_ci("d", "d")).row(0)
    row["expert − tuned, points"] = cell(*diff)
    row["team points, tuned → expert"] = (
        f"{pair['pts_t'].mean():.1f} → {pair['pts_e'].mean():.1f}")
    return row


def joined(t: pl.DataFrame, e: pl.DataFrame) -> pl.DataFrame:
    keep = ["game_index", *CONTRACT, "made", "bidding_team_points", "bidder_trumps"]
    j = t.select(keep).join(e.select(keep[:-1]), on="game_index", suffix="_e")
    same = pl.all_horizontal([pl.col(c) == pl.col(f"{c}_e") for c in CONTRACT])
    if not j.select(same.all()).item():
        sys.exit("study: the two runs' auctions differ, so a paired comparison is void "
                 "(does expert bid by simulation here?)")
    return j.rename({"made": "made_t", "bidding_team_points": "pts_t",
                     "bidding_team_points_e": "pts_e"}).filter(pl.col("bidder") >= 0)


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--deals", type=int, default=50_000, help="deals of the auction runs")
    ap.add_argument("--fixed-deals", type=int, default=20_000,
                    help="deals of each fixed-contract run")
    ap.add_argument("--fixed-bids", default="28,40", help="bids of the fixed-contract runs")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--expert", default="expert", help="strategy spec of the search player")
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--min-n", type=int, default=300, help="pool bids with fewer contracts")
    ap.add_argument("--out", type=Path, default=ROOT / "results" / "fifty-six-levels")
    ap.add_argument("--fresh", action="store_true")
    ap.add_argument("--markdown", type=Path)
    ap.add_argument("--update-doc", type=Path,
                    help="replace the text between <!-- levels:begin/end --> of this file")
    a = ap.parse_args(argv)
    threads = [] if a.threads is None else ["--threads", str(a.threads)]
    runs, cmds = {}, {}
    for who, spec in (("tuned", "tuned"), ("expert", a.expert)):
        folder = a.out / f"{spec.replace(':', '_').replace(',', '_').replace('=', '_')}-auction"
        cmds[who] = ensure(["run", "fifty-six", "--deals", str(a.deals), "--seed", str(a.seed),
                            "--strategy", spec, *threads], folder, a.fresh)
        runs[who] = folder
    info = json.loads((runs["expert"] / "run.json").read_text())
    pair = joined(deals_of(runs["tuned"]), deals_of(runs["expert"]))
    rows = [level_rows(part, label) for label, part in groups(pair, a.min_n)]
    rows.append(level_rows(pair, "all"))
    what = (f"{a.deals:,} deals, seed {a.seed}, default rules, the same auctions (`tuned` "
            "bidding) played by `tuned` and by `expert` on both teams")
    blocks = {"levels": header("study_fifty_six_levels.py", argv, info, what) + "\n" + section(
        "Made rate by bid: `tuned` and `expert` card play",
        "Per bid value (neighbouring values with fewer than "
        f"{a.min_n} contracts pooled), the share of contracts made when both teams play their "
        "cards as `tuned` and when both play as `expert`, on the same deals after the same "
        "auction. The difference is paired (deal by deal), in percentage points; the last "
        "column is the contract team's mean card points.",
        pl.DataFrame(rows), [cmds["tuned"], cmds["expert"]])}
    fixed_rows, fixed_cmds = [], []
    for bid in (int(b) for b in a.fixed_bids.split(",")):
        tabs = {}
        for who, spec in (("tuned", "tuned"), ("expert", a.expert)):
            tag = spec.replace(":", "_").replace(",", "_").replace("=", "_")
            folder = a.out / f"{tag}-fixed-{bid}"
            fixed_cmds.append(ensure(
                ["run", "fifty-six", "--deals", str(a.fixed_deals), "--seed", str(a.seed),
                 "--strategy", spec, "--contract", f"seat=0,bid={bid},trump=best", *threads],
                folder, a.fresh))
            tabs[who] = deals_of(folder)
        fp = joined(tabs["tuned"], tabs["expert"])
        for label, part in [("all", fp)] + [
                (f"{k} trumps", fp.filter(pl.col("bidder_trumps") == k))
                for k in (4, 5, 6, 7)]:
            if part.height:
                fixed_rows.append({"contract": f"{bid}, {label}", **level_rows(part)})
    blocks["levels"] += "\n" + section(
        "Fixed contracts: `tuned` and `expert` card play",
        "Every deal in one bid (the first player the bidder, their longest suit as trump, no "
        f"auction; {a.fixed_deals:,} deals a bid), all of them and by the bidder's trump "
        "length, played by `tuned` and by `expert` on the same deals. `expert` plays for the "
        "stake of the bid in force, so each bid is its own run.",
        pl.DataFrame(fixed_rows), fixed_cmds)
    emit(blocks, a.markdown, a.update_doc)
    print(f"runs under {shown(a.out)}", file=sys.stderr)


if __name__ == "__main__":
    main()
