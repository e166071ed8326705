#!/usr/bin/env python
"""Benchmark of 56's `expert` (the searching player): the cost of its card decisions by budget.
Prints times and ratios; asserts nothing on time.

    python scripts/bench_fifty_six_expert.py                    # samples 8, 24, 48; 400 deals
    python scripts/bench_fifty_six_expert.py --samples 24 --deals 2000

Every seat plays `expert:samples=K` (so every card of the deal is its decision) in deals mode
on one thread, against the same deals played by `tuned` everywhere; the difference, per card
played, is what the search costs: forced plays (one legal card) are counted too and cost
nothing, so the cost of a decision with a choice is higher.
"""
from __future__ import annotations

import argparse
import time

from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.games import get_game


def seconds(strategies: list[str], deals: int, players: int) -> float:
    g = get_game("fifty-six")
    rules = g.rules.resolve([f"players={players}"])
    runner = Runner(RunSpec(g, rules, strategies, 7, deals, deals_mode=True))
    runner.play_rows(0, 2, 1)  # warm-up (and compile if the cache is cold)
    t0 = time.perf_counter()
    runner.play_rows(0, deals, 1)
    return time.perf_counter() - t0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--samples", type=int, nargs="+", default=[8, 24, 48])
    ap.add_argument("--deals", type=int, default=400)
    ap.add_argument("--players", type=int, default=4)
    a = ap.parse_args()
    cards = a.deals * 48 if a.players != 8 else a.deals * 64
    base = seconds(["tuned"], a.deals, a.players)
    print(f"{a.players} players, {a.deals} deals, one thread; tuned everywhere: "
          f"{base:.2f} s ({1e6 * base / cards:.2f} us per card)")
    for k in a.samples:
        t = seconds([f"expert:samples={k}"], a.deals, a.players)
        per = 1e3 * (t - base) / cards
        print(f"expert samples={k:4d}: {t:7.2f} s, {per:.3f} ms of search per card played, "
              f"{1e3 * t / a.deals:.1f} ms per deal ({t / base:.0f}x tuned)")


if __name__ == "__main__":
    main()
