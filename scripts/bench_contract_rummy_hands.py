#!/usr/bin/env python
"""Benchmark of the Contract Rummy dealt-hand mode: dealt hands checked per second against
each of the seven default contracts, at 1 and 2 threads, with two decks + two jokers (the
4-player default) and with one deck + one joker; then the probability that a dealt hand
holds each contract (and is one card away), with 95% Wilson intervals. Prints; asserts
nothing.

    python scripts/bench_contract_rummy_hands.py                  # 1,000,000 hands each
    python scripts/bench_contract_rummy_hands.py --hands 200000 --no-near

"checked" = deal the hand (partial shuffle), decide whether it lays the contract, and when it
does find the least penalty left (``near=False``: the hot path). The one-away pass
(``near=True, count_cards=False``) adds a second search for the hands that do not hold.
Default rules: min_run 4, contract melds of at most 4 cards, ace high or low, runs may share
a suit, the 3-run deal goes out all at once. Best of ``--repeats`` after a warm-up call.
"""
from __future__ import annotations

import argparse
import os
import time

import numpy as np

from cardsim.analysis.stats import wilson
from cardsim.simulator.games.contract_rummy.dealt import dealt_counts

# the rule sheet's seven deals: (sets, runs), cards dealt, all at once
CONTRACTS = np.array([(2, 0), (1, 1), (0, 2), (3, 0), (2, 1), (1, 2), (0, 3)], np.int64)
N_CARDS = np.array([10, 10, 10, 10, 12, 12, 12], np.int64)
GO_OUT = np.array([False] * 6 + [True])
DECKS = {"2 decks + 2 jokers": (2, 2), "1 deck + 1 joker": (1, 1)}


def label(c: int) -> str:
    s, r = (int(x) for x in CONTRACTS[c])
    parts = ([f"{s} set" + "s" * (s > 1)] if s else []) + ([f"{r} run" + "s" * (r > 1)] if r else [])
    return " + ".join(parts) + f" /{N_CARDS[c]}" + (" out" if GO_OUT[c] else "")


def pct(p: float) -> str:
    return f"{100 * p:8.4f}"


def count(hands, c, decks, jokers, threads, seed, near=False):
    sl = slice(c, c + 1) if c is not None else slice(None)
    return dealt_counts(seed, hands, N_CARDS[sl], decks, jokers, CONTRACTS[sl], 4, 4, True,
                        False, GO_OUT[sl], threads=threads, near=near, count_cards=False)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=1_000_000)
    ap.add_argument("--repeats", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--no-near", action="store_true", help="skip the one-away pass")
    args = ap.parse_args()
    n = args.hands
    print(f"contract rummy dealt hands, {n:,} hands per measurement, {os.cpu_count()} cpus, "
          f"best of {args.repeats}")
    for name, (decks, jokers) in DECKS.items():
        count(1000, None, decks, jokers, 2, args.seed, near=True)  # warm-up (and compilation)
        print(f"\n{name}")
        print(f"{'contract':22s} {'1 thread':>12s} {'2 threads':>12s}  {'holds':>8s} "
              f"{'P(holds) %':>10s} {'95% interval %':>18s}  mean left")
        for c in range(len(CONTRACTS)):
            rates = []
            for threads in (1, 2):
                best = float("inf")
                for _ in range(args.repeats):
                    t0 = time.perf_counter()
                    r = count(n, c, decks, jokers, threads, args.seed)
                    best = min(best, time.perf_counter() - t0)
                rates.append(n / best)
            h = int(r["holds"][0])
            lo, hi = wilson(h, n)
            mean = r["pen_sum"][0] / h if h else float("nan")
            print(f"{label(c):22s} {rates[0]:>10,.0f}/s {rates[1]:>10,.0f}/s  {h:8,d} "
                  f"{pct(h / n)} [{pct(lo)}, {pct(hi)}]  {mean:8.1f}", flush=True)
        if args.no_near:
            continue
        t0 = time.perf_counter()
        r = count(n, None, decks, jokers, 2, args.seed, near=True)
        dt = time.perf_counter() - t0
        print(f"one card away (a card still in the deck completes it), all seven contracts in "
              f"{dt:.1f} s at 2 threads ({n * len(CONTRACTS) / dt:,.0f} hand-contracts/s):")
        for c in range(len(CONTRACTS)):
            k = int(r["one_away"][c])
            lo, hi = wilson(k, n)
            print(f"{label(c):22s} {k:8,d} {pct(k / n)} [{pct(lo)}, {pct(hi)}]", flush=True)


if __name__ == "__main__":
    main()
