"""The 56 double-dummy solver against the plain exhaustive search on random endings: every
player count (4, 6, 8), trump (S H D C, no-trumps), a trick already started or not, trumps
broken or not. Prints the endings checked per size and any disagreement (there should be
none)."""
import argparse
import time

import numpy as np

from cardsim.simulator.games.fifty_six import dd

# the plain search grows fast: the larger endings are checked where it finishes in seconds
MAX_TRICKS = {4: 5, 6: 4, 8: 3}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--endings", type=int, default=10_000)
    ap.add_argument("--seed", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    tables = {p: dd.new_table(p, 14) for p in MAX_TRICKS}
    seen, bad = {}, 0
    t0 = time.perf_counter()
    for i in range(a.endings):
        players = (4, 6, 8)[i % 3]
        tricks = int(rng.integers(1, MAX_TRICKS[players] + 1))
        trump = int(rng.integers(-1, 4))
        hands, nxt, side, leader, trick, br = dd.random_ending(
            rng, players, tricks, trump, int(rng.integers(2)), int(rng.integers(players)))
        for x in tables[players]:
            x[:] = 0
        got = dd.solve(hands, nxt, side, trump, leader, trick, br, *tables[players])
        want = dd.plain(hands, nxt, side, trump, leader, trick, br)
        seen[(players, tricks)] = seen.get((players, tricks), 0) + 1
        if got != want:
            bad += 1
            print(f"disagree: ending {i}, {players} players, {tricks} tricks, trump {trump}: "
                  f"solver {got}, exhaustive {want}")
    print(f"{a.endings:,} endings in {time.perf_counter() - t0:.0f} s, {bad} disagreements")
    for (p, t), n in sorted(seen.items()):
        print(f"  {p} players, {t} tricks left: {n:,}")


if __name__ == "__main__":
    main()
