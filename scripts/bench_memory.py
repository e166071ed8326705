#!/usr/bin/env python
"""Peak memory (RSS) of `cardsim run` for growing counts: it should not grow with the count,
because chunks stream to disk. Each run is measured in its own process; prints MiB.

    python scripts/bench_memory.py                                  # quick: 56 1M/10M deals
    python scripts/bench_memory.py --game hand-and-foot --counts 100000,1000000 --unit games
    python scripts/bench_memory.py --backend ray    # also each Ray worker's peak (run.json)
    python scripts/bench_memory.py --game contract-rummy --unit games --study
        # also the peak of the game's study on each run (it should not grow with the run)
    python scripts/bench_memory.py --game contract-rummy --unit games --study \
        --counts 100000,1000000 --tile 10
        # and the study on ten copies of the 1M-game run (game numbers shifted): a 10M-game
        # table in a minute, where playing one takes over an hour on 2 cores

With Ray, the `cardsim run` process is the driver; the workers are Ray's processes, and each
reports its own peak in run.json (`ray.worker_peak_rss_mib`, the largest of them).
"""
from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path

PROBE = """
import resource, subprocess, sys
subprocess.run(sys.argv[1:], check=True)
print(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)
"""


def peak_mib(cmd: list[str]) -> float:
    out = subprocess.run([sys.executable, "-c", PROBE, *cmd], capture_output=True, text=True,
                         check=True).stdout
    return int(out.split()[-1]) / 1024  # Linux reports KiB


# the study each game's runs are read by (cardsim analyze ...)
STUDY = {"fifty-six": ["bid-success", "--by", "bid,trump_kind"],
         "hand-and-foot": ["min-meld"], "contract-rummy": ["contract-completion"]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--game", default="fifty-six")
    ap.add_argument("--unit", default="deals", choices=["deals", "games"])
    ap.add_argument("--counts", default="1000000,10000000")
    ap.add_argument("--backend", default="local", choices=["local", "ray"])
    ap.add_argument("--study", action="store_true",
                    help="also the peak RSS of `cardsim analyze` (the game's study) on each run")
    ap.add_argument("--run-option", action="append", default=[], metavar="OPT",
                    help="passed to `cardsim run` as is, e.g. --run-option=--rule=contracts=2s:10 "
                         "(repeatable)")
    ap.add_argument("--tile", type=int, default=0, metavar="K",
                    help="with --study, also the study on K copies of the last run, game numbers "
                         "shifted (its rows K times over, made without playing)")
    ap.add_argument("--keep", default=None,
                    help="make the runs in this folder and keep them (reused when present)")
    args = ap.parse_args()
    if args.tile and not (args.study and args.keep):
        ap.error("--tile: needs --study and --keep (the copies are made from the kept run)")
    print(f"{args.game}, --{args.unit}, {args.backend} backend: peak RSS of the `cardsim run` "
          "process" + (" and of the largest Ray worker" if args.backend == "ray" else ""))
    for n in (int(c) for c in args.counts.split(",")):
        with tempfile.TemporaryDirectory() as tmp:
            run = Path(args.keep or tmp) / f"{args.game}-{n}"
            t0 = time.perf_counter()
            if not (run / "run.json").is_file():
                mib = peak_mib([sys.executable, "-m", "cardsim", "run", args.game,
                                f"--{args.unit}", str(n), "--quiet", "--out", str(run),
                                "--backend", args.backend, *args.run_option])
                info = json.loads((run / "run.json").read_text())
                worker = (f", worker {info['ray']['worker_peak_rss_mib']:7.0f} MiB"
                          if "ray" in info else "")
                print(f"{n:>13,} {args.unit}: {mib:7.0f} MiB{worker}  "
                      f"({time.perf_counter() - t0:.0f} s)", flush=True)
            if args.study:
                t0 = time.perf_counter()
                mib = peak_mib([sys.executable, "-m", "cardsim", "analyze",
                                *STUDY[args.game], str(run)])
                print(f"{n:>13,} {args.unit}, study `cardsim analyze {STUDY[args.game][0]}`: "
                      f"{mib:7.0f} MiB  ({time.perf_counter() - t0:.0f} s)", flush=True)

    if args.tile:
        tiled = tile(run, args.tile, Path(args.keep))
        t0 = time.perf_counter()
        mib = peak_mib([sys.executable, "-m", "cardsim", "analyze", *STUDY[args.game],
                        str(tiled)])
        print(f"{n * args.tile:>13,} {args.unit} ({args.tile} copies of the last run), study "
              f"`cardsim analyze {STUDY[args.game][0]}`: {mib:7.0f} MiB  "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)


def tile(run: Path, k: int, where: Path) -> Path:
    """A run folder holding ``k`` copies of ``run``'s chunk files, each copy's game numbers
    shifted past the one before (a study sees k times the rows, in the same chunk layout)."""
    import polars as pl

    info = json.loads((run / "run.json").read_text())
    out = where / f"{run.name}-x{k}"
    if (out / "run.json").is_file():
        return out
    out.mkdir(parents=True, exist_ok=True)
    games = info["games"] if "games" in info else info["deals"]
    key = "game_index" if info["mode"] == "games" else "deal_index"
    chunks = sorted(f.name.split("-", 1)[1] for f in run.glob("deals-*.parquet"))
    for r in range(k):
        for j, c in enumerate(chunks):
            new = f"{r * len(chunks) + j:06d}.parquet"
            for kind in ("deals", "games"):
                src = run / f"{kind}-{c}"
                if src.is_file():
                    df = pl.read_parquet(src)
                    if key in df.columns:
                        df = df.with_columns(pl.col(key) + r * games)
                    df.write_parquet(out / f"{kind}-{new}")
    for name in ("games", "deals", "deal_rows"):
        if name in info:
            info[name] *= k
    info["tiled_from"] = {"run": str(run), "copies": k}
    (out / "run.json").write_text(json.dumps(info, indent=1))
    return out


if __name__ == "__main__":
    main()
