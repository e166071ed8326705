"""Speed of the 56 double-dummy solver by tricks left: median and slowest milliseconds per
position on one core, random positions at a trick's start, 4 players (and 6, 8 for short
endings), a fresh table per position. ``--full-deals N``: also N whole 4-player deals (12
tricks, the 48-card deck, a random trump or no-trumps), median and 90th percentile."""
import argparse
import time

import numpy as np

from cardsim.simulator.games.fifty_six import dd


def _time(rng, players, tricks):
    """Milliseconds to solve one random position ``tricks`` from the end (a fresh table)."""
    trump = int(rng.integers(-1, 4))
    hands, nxt, side, leader, trick, br = dd.random_ending(rng, players, tricks, trump, 1)
    table = dd.new_table(players)
    t = time.perf_counter()
    dd.solve(hands, nxt, side, trump, leader, trick, br, *table)
    return (time.perf_counter() - t) * 1e3


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--max-tricks", type=int, default=8)
    ap.add_argument("--full-deals", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(1)
    print(f"{'players':>8}{'tricks':>8}{'median ms':>11}{'max ms':>9}")
    for players in (4, 6, 8):
        top = a.max_tricks if players == 4 else min(a.max_tricks, 6 if players == 6 else 5)
        for tricks in range(2, top + 1):
            ts = [_time(rng, players, tricks) for _ in range(a.positions)]
            print(f"{players:>8}{tricks:>8}{np.median(ts):>11.2f}{max(ts):>9.1f}")
    if a.full_deals:
        ts = [_time(rng, 4, 12) for _ in range(a.full_deals)]
        print(f"full deals (4 players, 12 tricks): median {np.median(ts):.0f} ms, 90th "
              f"percentile {np.percentile(ts, 90):.0f} ms, {a.full_deals} deals")


if __name__ == "__main__":
    main()
