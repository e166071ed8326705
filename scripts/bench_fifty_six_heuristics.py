#!/usr/bin/env python
"""Benchmark of the 56 heuristic strategies: deals/s per strategy at 1 and 2 threads, and
whether a parameter sweep recompiles. Prints rates and ratios; asserts nothing on time.

    python scripts/bench_fifty_six_heuristics.py            # 2M deals per measurement
    python scripts/bench_fifty_six_heuristics.py --deals 200000 --repeats 1

1. Kernel throughput: ``Runner.play_rows`` (the parallel kernel plus row assembly, no Parquet)
   for each built-in strategy on both teams, 4 players, default rules, deals mode; best of
   ``--repeats`` after a warm-up call.
2. Sweep: ten Runners in one process, each with a different ``margin`` value for the
   evaluator, timing construction + a 10,000-deal chunk. Compilation would show as a slow
   value after the first; the number of compiled kernel signatures is printed too.
"""
from __future__ import annotations

import argparse
import json
import time

import numba

from cardsim.simulator.batch import RunSpec, Runner
from benchlib import best_rate
from cardsim.simulator.games import get_game


def rate(strategies: list[str], deals: int, threads: int, repeats: int, players: int = 4):
    g = get_game("fifty-six")
    rules = g.rules.resolve([f"players={players}"])
    runner = Runner(RunSpec(g, rules, strategies, 7, deals, deals_mode=True))
    runner.play_rows(0, min(deals, 20_000), threads)  # warm-up (and compile if the cache is cold)
    return best_rate(runner, deals, threads, repeats)


def sweep(values: list[float]) -> list[tuple[float, float]]:
    g = get_game("fifty-six")
    rules = g.rules.resolve([])
    out = []
    for v in values:
        t0 = time.perf_counter()
        runner = Runner(RunSpec(g, rules, [f"evaluator:margin={v:g}"], 3, 10_000,
                                deals_mode=True))
        runner.play_rows(0, 10_000, numba.config.NUMBA_NUM_THREADS)
        out.append((v, time.perf_counter() - t0))
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--deals", type=int, default=2_000_000)
    ap.add_argument("--repeats", type=int, default=3)
    ap.add_argument("--json", default=None, help="also write the numbers to this file")
    a = ap.parse_args()
    cores = numba.config.NUMBA_NUM_THREADS
    results = {"deals": a.deals, "rates": {}, "sweep_s": []}
    print(f"56 heuristics, 4 players, deals mode, {a.deals:,} deals, best of {a.repeats}")
    print(f"{'strategy':<14}{'1 thread':>14}{f'{cores} threads':>14}{'scaling':>9}")
    for name in ("random", "evaluator", "conventional", "cautious", "aggressive", "tuned"):
        r1 = rate([name], a.deals, 1, a.repeats)
        rn = rate([name], a.deals, cores, a.repeats)
        results["rates"][name] = {"1": round(r1), str(cores): round(rn)}
        print(f"{name:<14}{r1:>14,.0f}{rn:>14,.0f}{rn / r1:>8.2f}x")
    mixed = rate(["0=evaluator", "1=conventional"], a.deals, cores, a.repeats)
    results["rates"]["evaluator-vs-conventional-duplicate"] = {str(cores): round(mixed)}
    print(f"{'eval v conv':<14}{'':>14}{mixed:>14,.0f}   (duplicate seating)")

    from cardsim.simulator.games.fifty_six.kernel import KERNEL

    kernel = KERNEL.play_blocks

    before = len(kernel.signatures)
    times = sweep([float(v) for v in range(-4, 6)])
    after = len(kernel.signatures)
    results["sweep_s"] = [round(t, 4) for _, t in times]
    print("sweep of evaluator margin over 10 values (Runner + 10,000 deals each):")
    print("  " + "  ".join(f"{v:g}:{t:.3f}s" for v, t in times))
    print(f"  first {times[0][1]:.3f} s, others mean {sum(t for _, t in times[1:]) / 9:.3f} s; "
          f"kernel signatures before/after: {before}/{after}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump(results, f, indent=1)


if __name__ == "__main__":
    main()
