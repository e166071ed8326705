"""The 56 double-dummy solver against the plain exhaustive search on random endings: every
player count (4, 6, 8), trump (S H D C, no-trumps), a trick already started or not, trumps
broken or not; ``makes`` against the same value at the target it only just reaches, the one
just above and a random one. Prints the endings checked per size and any disagreement (there
should be none). ``--deals N``: also N whole 4-player deals (and N more of 10 tricks), where
the exhaustive search cannot go: ``makes`` against ``solve`` at several targets, each with a
table of its own."""
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
    ap.add_argument("--deals", type=int, default=0)
    a = ap.parse_args()
    rng = np.random.default_rng(a.seed)
    tables = {p: dd.new_table(p, 14) for p in MAX_TRICKS}
    seen, bad, bad_makes = {}, 0, 0
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
        for target in (want, want + 1, int(rng.integers(0, 40))):
            for x in tables[players]:
                x[:] = 0
            ok = dd.makes(hands, nxt, side, trump, leader, trick, br, target, *tables[players])
            if ok != (want >= target):
                bad_makes += 1
                print(f"makes disagrees: ending {i}, {players} players, {tricks} tricks, trump "
                      f"{trump}, target {target}: makes {ok}, exhaustive value {want}")
    print(f"{a.endings:,} endings in {time.perf_counter() - t0:.0f} s, {bad} disagreements of "
          f"solve, {bad_makes} of makes ({3 * a.endings:,} targets)")
    for (p, t), n in sorted(seen.items()):
        print(f"  {p} players, {t} tricks left: {n:,}")
    checked, bad_deals, t0 = 0, 0, time.perf_counter()
    for i in range(2 * a.deals):
        tricks = 12 if i % 2 == 0 else 10
        trump = int(rng.integers(-1, 4))
        hands, nxt, side, leader, trick, br = dd.random_ending(rng, 4, tricks, trump, 1)
        v = dd.solve(hands, nxt, side, trump, leader, trick, br, *dd.new_table(4))
        for target in (v - 5, v - 1, v, v + 1, v + 3):
            ok = dd.makes(hands, nxt, side, trump, leader, trick, br, target, *dd.new_table(4))
            checked += 1
            if ok != (v >= target):
                bad_deals += 1
                print(f"makes disagrees with solve: deal {i}, {tricks} tricks, trump {trump}, "
                      f"target {target}: makes {ok}, solve {v}")
    if a.deals:
        print(f"{a.deals} deals of 12 tricks and {a.deals} of 10: {checked} targets in "
              f"{time.perf_counter() - t0:.0f} s, {bad_deals} disagreements of makes with solve")


if __name__ == "__main__":
    main()
