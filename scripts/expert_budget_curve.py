"""Strength of 56 `expert` against its search budget: one paired compare per budget K
(`expert:samples=K` against `tuned`, the same boards from both seats), printed as a table of
the share of games won and the tables' difference, each with its 95% interval, and the time
each compare took.

    python scripts/expert_budget_curve.py --games 300 --samples 4,8,16,24,48 --seed 0
"""
from __future__ import annotations

import argparse
import time

import cardsim


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--games", type=int, default=300, help="boards per compare")
    ap.add_argument("--samples", default="4,8,16,24,48", help="budgets K, comma separated")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=None)
    ap.add_argument("--against", default="tuned", help="the opponent strategy")
    args = ap.parse_args()
    budgets = [int(k) for k in args.samples.split(",")]
    print(f"expert:samples=K against {args.against}, {args.games} boards from both seats, "
          f"seed {args.seed}")
    print("| K | win [95%] | diff, tables [95%] | made when held [95%] | seconds |")
    print("|---|---|---|---|---|")
    for k in budgets:
        t0 = time.perf_counter()
        pairs = cardsim.compare("fifty-six", [f"expert:samples={k}", args.against],
                                games=args.games, seed=args.seed, threads=args.threads)["pairs"]
        secs = time.perf_counter() - t0
        cells = []
        for metric in ("win", "diff", "deal:made_when_held"):
            row = pairs.filter(pairs["metric"] == metric).row(0, named=True)
            cells.append(f"{row['estimate']:.3f} [{row['lo']:.3f}, {row['hi']:.3f}]")
        print(f"| {k} | {' | '.join(cells)} | {secs:.0f} |", flush=True)


if __name__ == "__main__":
    main()
