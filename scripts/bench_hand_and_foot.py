#!/usr/bin/env python
"""Benchmark of the Hand and Foot kernel: full four-deal games per second with the random
strategy and with each heuristic at its default parameters, at 1 and 2 threads. Prints rates;
asserts nothing.

    python scripts/bench_hand_and_foot.py              # 4,000 games per measurement
    python scripts/bench_hand_and_foot.py --games 20000 --repeats 3

Measured: ``Runner.play_rows`` (the parallel kernel and row assembly, no Parquet), best of
``--repeats`` after a warm-up call that also compiles (a first run after a source change takes
a minute or two), default rules (4 players, 5 decks), seed 1.
"""
from __future__ import annotations

import argparse
import os

from cardsim.simulator.batch import RunSpec, Runner
from benchlib import best_rate
from cardsim.simulator.games import get_game

SETS = {
    "random": ["random"],
    "early_melder": ["early_melder"],
    "patient_builder": ["patient_builder"],
    "pile_taker": ["pile_taker"],
    "early_melder vs patient_builder": ["0=early_melder", "1=patient_builder"],
    "table_reader (the default)": ["table_reader"],
}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=4000)
    ap.add_argument("--repeats", type=int, default=2)
    args = ap.parse_args()
    game = get_game("hand-and-foot")
    rules = game.rules.resolve({})
    print(f"hand-and-foot, default rules, {args.games:,} games per measurement, "
          f"{os.cpu_count()} cpus, best of {args.repeats}")
    print(f"{'strategies':34s} {'1 thread':>14s} {'2 threads':>14s}  turns/deal")
    for label, strategies in SETS.items():
        runner = Runner(RunSpec(game, rules, strategies, seed=1, count=args.games))
        deals, _ = runner.play_chunk(0, 200, 2)  # warm-up (and compilation)
        rates = [best_rate(runner, args.games, t, args.repeats) for t in (1, 2)]
        turns = deals.filter(deals["team"] == 0)["turns"].mean()
        print(f"{label:34s} {rates[0]:>9,.0f} g/s {rates[1]:>9,.0f} g/s  {turns:8.1f}",
              flush=True)


if __name__ == "__main__":
    main()
