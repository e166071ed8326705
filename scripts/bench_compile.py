#!/usr/bin/env python
"""Cold and warm start of `cardsim run` per game: seconds to the first results with an empty
Numba cache (everything compiled) and with the cache the cold run left (everything loaded).
Prints times; asserts nothing.

    python scripts/bench_compile.py                       # every game, 1,000 games or deals
    python scripts/bench_compile.py --game fifty-six --readme   # + the README's first command

Each measurement is its own process (`python -m cardsim run ...`) with its own fresh cache
folder (CARDSIM_CACHE_DIR), so nothing compiled by one game or by this script helps another.
Phases, from the run's run.json: `kernel` = importing the game's kernel (compiling it on a cold
cache, loading it on a warm one), `games` = playing and writing the tables; `start` = the rest
of the process (Python, imports, rules and strategy set-up, exit). `replay` times a cold
`cardsim replay` after the run (its kernel is compiled only when a replay is asked for).
"""
from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
GAMES = {"fifty-six": ["--deals"], "hand-and-foot": ["--games"], "contract-rummy": ["--games"]}


def timed(args: list[str], cache: str) -> float:
    env = dict(os.environ, CARDSIM_CACHE_DIR=cache)
    env.pop("NUMBA_CACHE_DIR", None)  # it would override the per-game folders
    t0 = time.perf_counter()
    p = subprocess.run([sys.executable, "-m", "cardsim", *args], capture_output=True,
                       text=True, env=env, cwd=ROOT)
    took = time.perf_counter() - t0
    if p.returncode != 0:
        sys.exit(f"failed: cardsim {' '.join(args)}\n{p.stderr}")
    return took


def one_run(game: str, count: int, cache: str, work: Path, tag: str) -> dict:
    out = work / f"{game}-{tag}"
    total = timed(["run", game, GAMES[game][0], str(count), "--quiet", "--out", str(out)],
                  cache)
    info = json.loads((out / "run.json").read_text())
    return {"total": total, "kernel": info["kernel_load_s"], "games": info["wall_time_s"],
            "start": total - info["kernel_load_s"] - info["wall_time_s"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", choices=list(GAMES), action="append",
                    help="game to measure (repeatable; default: every game)")
    ap.add_argument("--count", type=int, default=1000, help="games (56: deals) per run")
    ap.add_argument("--readme", action="store_true",
                    help="also time the README's first run, 1,000,000 56 deals, cold")
    args = ap.parse_args()
    games = args.game or list(GAMES)
    print(f"cold = empty cache, warm = the cache the cold run left; {os.cpu_count()} cpus; "
          f"{args.count:,} games (56: deals) per run; seconds")
    print(f"{'game':15s} {'':5s} {'total':>7s} {'start':>7s} {'kernel':>7s} {'games':>7s}"
          f" {'replay':>7s}")
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        for game in games:
            cache = str(work / f"cache-{game}")
            cold = one_run(game, args.count, cache, work, "cold")
            warm = one_run(game, args.count, cache, work, "warm")
            replay = timed(["replay", game, "--game-index", "3", "--out",
                            str(work / f"{game}.jsonl")], cache)
            for label, r, rep in (("cold", cold, f"{replay:7.1f}"), ("warm", warm, "")):
                print(f"{game:15s} {label:5s} {r['total']:7.1f} {r['start']:7.1f} "
                      f"{r['kernel']:7.1f} {r['games']:7.1f} {rep:>7s}", flush=True)
        if args.readme:
            cache = str(work / "cache-readme")
            r = one_run("fifty-six", 1_000_000, cache, work, "readme")
            print(f"README first command (cardsim run fifty-six --deals 1000000), cold: "
                  f"{r['total']:.1f} s (kernel {r['kernel']:.1f} s, deals {r['games']:.1f} s)")


if __name__ == "__main__":
    main()
