"""Speed of a position's outlook (cardsim hand --position): seconds and playouts/s per game
for a mid-deal decision with choices, the same machine and cache, warm (one small run first)."""
import argparse
import time

from cardsim.simulator import position as P
from cardsim.simulator.games import get_game
from cardsim.simulator.outlook import outlook

CASES = {"fifty-six": (3, 14), "contract-rummy": (3, 11), "hand-and-foot": (3, 8)}


def main():
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--samples", type=int, default=500)
    ap.add_argument("--game", action="append", choices=list(CASES))
    a = ap.parse_args()
    print(f"{'game':<16}{'decision':>10}{'choices':>9}{'samples':>9}{'seconds':>9}"
          f"{'playouts/s':>12}")
    for name in a.game or list(CASES):
        g = get_game(name)
        index, k = CASES[name]
        pos = P.snapshot(g, g.rules.resolve({}), [], 7, index, 0, k)
        outlook(pos, 5, seed=1)  # compiled and loaded
        t = time.perf_counter()
        r = outlook(pos, a.samples, seed=1)
        dt = time.perf_counter() - t
        n = len(r["rows"])
        print(f"{name:<16}{r['decision']:>10}{n - 1:>9}{a.samples:>9}{dt:>9.1f}"
              f"{a.samples * n / dt:>12,.0f}")


if __name__ == "__main__":
    main()
