"""Speed of the 56 double-dummy solver by tricks left: median and slowest milliseconds per
position on one core, random positions at a trick's start, 4 players (and 6, 8 for short
endings), a fresh table per call. Two questions: ``solve`` (the exact value) and ``makes``
(does the declaring side take a target?) at the position's value, the hardest target (a
null-window search proving the value reached; the target one above it costs about as much).
``--full-deals N``: also N whole 4-player deals (12 tricks, the 48-card deck, a random trump
or no-trumps), median and 90th percentile. ``--repeat R`` times each call R times (the
median of those counts: the machine may be shared)."""
import argparse
import time

import numpy as np

from cardsim.simulator.games.fifty_six import dd


def _ms(f, players, repeat):
    """The median milliseconds of ``repeat`` calls of ``f(table)``, a fresh table each (made
    before the clock starts), and the answer."""
    ts = []
    for _ in range(repeat):
        table = dd.new_table(players)
        t = time.perf_counter()
        v = f(table)
        ts.append((time.perf_counter() - t) * 1e3)
    return float(np.median(ts)), v


def _time(rng, players, tricks, repeat):
    """Milliseconds to solve one random position ``tricks`` from the end and to answer
    ``makes`` at its value (a fresh table each call)."""
    trump = int(rng.integers(-1, 4))
    hands, nxt, side, leader, trick, br = dd.random_ending(rng, players, tricks, trump, 1)
    ts, v = _ms(lambda tt: dd.solve(hands, nxt, side, trump, leader, trick, br, *tt),
                players, repeat)
    tm, ok = _ms(lambda tt: dd.makes(hands, nxt, side, trump, leader, trick, br, v, *tt),
                 players, repeat)
    assert ok
    return ts, tm


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--positions", type=int, default=20)
    ap.add_argument("--max-tricks", type=int, default=8)
    ap.add_argument("--full-deals", type=int, default=0)
    ap.add_argument("--repeat", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    _time(np.random.default_rng(0), 4, 3, 1)  # compile (or load) first
    print(f"{'players':>8}{'tricks':>8}{'solve median ms':>17}{'max':>9}"
          f"{'makes median ms':>17}{'max':>9}")
    for players in (4, 6, 8):
        top = a.max_tricks if players == 4 else min(a.max_tricks, 6 if players == 6 else 5)
        for tricks in range(2, top + 1):
            ts = np.array([_time(rng, players, tricks, a.repeat) for _ in range(a.positions)])
            print(f"{players:>8}{tricks:>8}{np.median(ts[:, 0]):>17.2f}{ts[:, 0].max():>9.1f}"
                  f"{np.median(ts[:, 1]):>17.2f}{ts[:, 1].max():>9.1f}", flush=True)
    if a.full_deals:
        ts = np.array([_time(rng, 4, 12, 1) for _ in range(a.full_deals)])
        for j, name in enumerate(("solve", "makes at the value")):
            print(f"full deals (4 players, 12 tricks), {name}: median {np.median(ts[:, j]):.0f} "
                  f"ms, 90th percentile {np.percentile(ts[:, j], 90):.0f} ms, "
                  f"{a.full_deals} deals")


if __name__ == "__main__":
    main()
