#!/usr/bin/env python
"""Ray backend against the local backend on this machine: the same run, end to end (`cardsim
run` in its own process, so Ray's start-up and the workers' imports count) and inside the run
(run.json's wall time, after Ray is up). Also checks the tables are identical.

    python scripts/bench_ray.py                       # every game, default sizes
    python scripts/bench_ray.py --games fifty-six --scale 0.25
    python scripts/bench_ray.py --nodes 2     # a cluster of 2 Ray nodes on this machine

With ``--nodes N`` the Ray runs join a cluster of N Ray nodes started here
(``ray.cluster_utils.Cluster``: a head and N-1 worker nodes, each its own raylet with this
machine's CPUs shared out), so the overhead of several nodes is measured on the same cores as
the local run; the line per Ray run says how many tasks each node played.
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import polars as pl

# per game: the count option and a size giving several chunks of a few seconds each
SIZES = {"fifty-six": ("--deals", 4_000_000), "hand-and-foot": ("--games", 80_000),
         "contract-rummy": ("--games", 60_000)}


def run(game: str, unit: str, n: int, out: Path, extra: list[str]) -> tuple[float, dict]:
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "cardsim", "run", game, unit, str(n), "--seed", "1",
                    "--quiet", "--out", str(out), *extra], check=True)
    return time.perf_counter() - t0, json.loads((out / "run.json").read_text())


def same(a: Path, b: Path) -> bool:
    return all(pl.read_parquet(sorted(a.glob(f"{k}-*.parquet"))).equals(
        pl.read_parquet(sorted(b.glob(f"{k}-*.parquet"))))
        for k in ("deals", "games") if list(a.glob(f"{k}-*.parquet")))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", default=",".join(SIZES), help="comma-separated game names")
    ap.add_argument("--scale", type=float, default=1.0, help="multiply the default sizes")
    ap.add_argument("--address", default=None, help="join this Ray cluster instead of "
                    "starting a local instance per run")
    ap.add_argument("--nodes", type=int, default=0, help="start a cluster of this many Ray "
                    "nodes on this machine and join it")
    args = ap.parse_args()
    cluster = None
    if args.nodes:
        import os

        from ray.cluster_utils import Cluster

        per = max(1, (os.cpu_count() or 1) // args.nodes)
        cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": per})
        for i in range(args.nodes - 1):
            cluster.add_node(num_cpus=per, node_name=f"node{i + 1}")
        cluster.wait_for_nodes()
        args.address = cluster.address
    try:
        bench(args)
    finally:
        if cluster is not None:
            cluster.shutdown()


def bench(args) -> None:
    ray_opts = ["--backend", "ray"] + (["--address", args.address] if args.address else [])
    print(f"{'game':15} {'count':>11}  {'backend':7} {'end to end':>11} {'in run':>11}  "
          f"{'rate in run':>13}  tasks  compiled")
    for game in args.games.split(","):
        unit, n = SIZES[game]
        n = max(1, int(n * args.scale))
        with tempfile.TemporaryDirectory() as tmp:
            rows = {}
            for name, extra in (("local", []), ("ray", ray_opts)):
                wall, info = run(game, unit, n, Path(tmp) / name, extra)
                rows[name] = (wall, info)
                r = info.get("ray", {})
                rate = info["throughput"][f"{unit[2:]}_per_s"]
                print(f"{game:15} {n:>11,}  {name:7} {wall:>10.1f}s {info['wall_time_s']:>10.1f}s"
                      f"  {rate:>11,.0f}/s  {r.get('tasks', '-'):>5}  "
                      f"{r.get('tasks_that_compiled', '-'):>8}  "
                      f"{r.get('tasks_per_node', '')}", flush=True)
            (lw, li), (rw, ri) = rows["local"], rows["ray"]
            print(f"{'':15} ray / local: end to end {lw / rw:.2f}x, in run "
                  f"{li['wall_time_s'] / ri['wall_time_s']:.2f}x; identical tables: "
                  f"{same(Path(tmp) / 'local', Path(tmp) / 'ray')}", flush=True)


if __name__ == "__main__":
    main()
