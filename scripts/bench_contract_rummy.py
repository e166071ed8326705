#!/usr/bin/env python
"""Benchmark of the Contract Rummy kernel: full seven-deal games per second with the random
strategy and with each heuristic at its default parameters, at 1 and 2 threads. Prints rates;
asserts nothing.

    python scripts/bench_contract_rummy.py              # 2,000 games per measurement
    python scripts/bench_contract_rummy.py --games 10000 --repeats 3

Measured: ``Runner.play_rows`` (the parallel kernel and row assembly, no Parquet), best of
``--repeats`` after a warm-up call that also compiles (a first run after a source change takes
a few minutes), default rules (4 players, 2 decks + 2 jokers, the seven contracts), seed 1.
"""
from __future__ import annotations

import argparse
import os

from cardsim.simulator.batch import RunSpec, Runner
from benchlib import best_rate
from cardsim.simulator.games import get_game

SETS = {
    "random": ["random"],
    "table_reader (default)": ["table_reader"],
    "lay_down_at_once": ["lay_down_at_once"],
    "hold_for_more": ["hold_for_more"],
    "pile_hunter": ["pile_hunter"],
    "mixed (hunter, hold, random, at once)": ["0=pile_hunter", "1=hold_for_more", "2=random",
                                              "3=lay_down_at_once"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--repeats", type=int, default=2)
    ap.add_argument("--only", default=None, help="one of the strategy sets (default: all)")
    args = ap.parse_args()
    game = get_game("contract-rummy")
    rules = game.rules.resolve({})
    print(f"contract-rummy, default rules, {args.games:,} games per measurement, "
          f"{os.cpu_count()} cpus, best of {args.repeats}")
    print(f"{'strategies':40s} {'1 thread':>12s} {'2 threads':>12s}  turns/deal  stalled")
    for label, strategies in SETS.items():
        if args.only and label != args.only:
            continue
        runner = Runner(RunSpec(game, rules, strategies, seed=1, count=args.games,
                                seating="fixed"))
        deals, _ = runner.play_chunk(0, 200, 2)  # warm-up (and compilation)
        rates = [best_rate(runner, args.games, t, args.repeats) for t in (1, 2)]
        one = deals.filter(deals["seat"] == 0)
        turns = one["turns"].mean()
        stalled = (one["end"] == "stalled").mean()
        print(f"{label:40s} {rates[0]:>8,.0f} g/s {rates[1]:>8,.0f} g/s  {turns:9.1f}  "
              f"{stalled:7.1%}", flush=True)


if __name__ == "__main__":
    main()
