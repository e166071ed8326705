#!/usr/bin/env python
"""Benchmark of the 56 simulator: kernel throughput, overheads, a pure-Python reference,
cold/warm start and peak memory. Prints a compact table and a JSON blob; asserts nothing on time.

    python scripts/bench_fifty_six.py                 # full run (several minutes)
    python scripts/bench_fifty_six.py --quick         # small sizes, smoke test
    python scripts/bench_fifty_six.py --json bench.json

Every measurement is random-strategy, 4-player, default-rules 56 in deals mode (independent
deals, dealer rotating).

1. Kernel: ``Runner.play_rows`` (kernel rows only) at 1 and 2 threads, best of ``--repeats``
   after a warm-up call; ``Runner.play_chunk`` (rows -> typed polars frames); and a full
   ``cardsim run fifty-six --deals N --quiet --out TMP`` subprocess (start-up, kernel, tables,
   Parquet writing). The time inside the parallel kernel call (``game.run_blocks``, wrapped in
   this process only) is shown apart from play_rows' serial Python-side row assembly, so
   cpu/wall below the thread count does not by itself mean the machine was busy; the last line
   says how much CPU other processes used during the run.
2. A plain-Python reference deal (``py_random_deal``, no simulator imports) doing the same
   work, and the kernel/Python speed ratios. A few summary statistics of both are printed side
   by side to show that they play the same game with the same call distribution.
3. Cold start (``cardsim run ... --deals 1000`` with an empty numba cache: CARDSIM_CACHE_DIR
   set to a fresh folder) and warm start (the same command again with the same folder).
4. Peak RSS of ``cardsim run --deals M`` and of a 10x smaller run (does memory grow with the
   count?): the child's own ``ru_maxrss`` from ``os.wait4`` in a small helper process that forks
   it (see ``_HELPER`` for why not directly from this process).

Subprocesses use the installed ``cardsim`` console command next to this Python (else
``python -m cardsim``); output goes to temporary folders that are removed at the end.
If the package source changes while the benchmark runs, numba recompiles and some timings
include compilation: the script says so at the end; just rerun it.
"""
from __future__ import annotations

import argparse
import datetime as _dt
import gc
import json
import os
import platform
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# ---------------------------------------------------------------------------------------------
# Plain-Python reference: one random 4-player 56 deal (standalone: no simulator imports).
# A card is suit * 6 + r with r the rank strength: 0 Q, 1 K, 2 10, 3 A, 4 9, 5 J.
# ---------------------------------------------------------------------------------------------
_PY_DECK = [s * 6 + r for s in range(4) for r in range(6)] * 2  # two stripped decks, 48 cards
_PY_POINTS = (0, 0, 1, 1, 2, 3)  # Q K 10 A 9 J
_NT = 4  # trumps 0..3 are suits S H D C, 4 is no-trumps


def _py_band(value: int, made: bool) -> int:
    """Sheet payout: 28-39:1/2, 40-47:2/3, 48-55:3/4, 56:4/5 (receive if made / pay if not)."""
    if value <= 39:
        return 1 if made else 2
    if value <= 47:
        return 2 if made else 3
    if value <= 55:
        return 3 if made else 4
    return 4 if made else 5


def py_random_deal(rng: random.Random, dealer: int):
    """Shuffle, deal 12 each, random auction, 12 tricks, score. Seat s is in team s % 2; turn
    order from the dealer's right, (seat + 1) % 4. Returns (bid, level, made, stake, calls,
    bidder); bidder -1 when everyone passed (the non-dealer team then holds 28 no-trumps)."""
    randrange = rng.randrange
    deck = _PY_DECK[:]
    rng.shuffle(deck)
    first = (dealer + 1) % 4
    order = [(first + k) % 4 for k in range(4)]
    hands = [None] * 4
    for k in range(4):
        hands[order[k]] = deck[12 * k: 12 * k + 12]

    # auction: uniform over pass / double / redouble / every (value, trump) bid, then a
    # uniform bid form among those allowed (forms never change the rules)
    high_v, high_t, high_b, level, passes, calls, pos = 0, -1, -1, 1, 0, 0, 0
    while True:
        seat = order[pos]
        team = seat & 1
        opening = high_v == 0
        dbl = 1 if (not opening and level == 1 and (high_b & 1) != team) else 0
        rdbl = 1 if (level == 2 and (high_b & 1) == team) else 0
        lo = 28 if opening else max(28, high_v + 1)
        nbid = (56 - lo + 1) * 5 if lo <= 56 else 0
        r = randrange(1 + dbl + rdbl + nbid)
        calls += 1
        if r == 0:  # pass
            passes += 1
            if passes == (4 if opening else 3):
                break
        elif r <= dbl:  # double
            level = 2
            passes = 0
        elif r <= dbl + rdbl:  # redouble ends the auction
            level = 4
            break
        else:
            r -= 1 + dbl + rdbl
            value = lo + r // 5
            trump = r % 5
            if trump < _NT:  # number_suit, suit_number (+ plus_suit after the opening)
                nforms = 2 if opening else 3
            else:  # number_nt
                nforms = 1
            if (opening and trump == _NT) or (not opening and high_t == trump):
                nforms += 1  # noes
                if not opening and value == high_v + 2:
                    nforms += 1  # plus_two_noes
            randrange(nforms)  # the form: recorded by the real game, no effect on play
            high_v, high_t, high_b, level, passes = value, trump, seat, 1, 0
        pos = (pos + 1) % 4

    if high_v == 0:
        value, trump, cteam = 28, _NT, first & 1
    else:
        value, trump, cteam = high_v, high_t, high_b & 1

    # play: follow suit if able, uniform random legal card; trump, else led suit, wins;
    # of identical cards the first played wins (only a strictly stronger card takes over)
    tr = trump if trump < _NT else -1
    pts = [0, 0]
    leader = 0  # index into order
    for _ in range(12):
        led = -1
        best = -1
        best_k = 0
        tpts = 0
        for k in range(4):
            hand = hands[order[(leader + k) % 4]]
            if led < 0:
                idx = randrange(len(hand)) if len(hand) > 1 else 0
            else:
                legal = [i for i, c in enumerate(hand) if c // 6 == led]
                if not legal:
                    legal = range(len(hand))
                idx = legal[randrange(len(legal))] if len(legal) > 1 else legal[0]
            c = hand.pop(idx)
            tpts += _PY_POINTS[c % 6]
            cs = c // 6
            if led < 0:
                led = cs
                best = c
            else:
                bs = best // 6
                if (cs == bs and c % 6 > best % 6) or (cs == tr and bs != tr):
                    best = c
                    best_k = k
        leader = (leader + best_k) % 4
        pts[order[leader] & 1] += tpts

    made = pts[cteam] >= value
    return value, level, made, _py_band(value, made) * level, calls, high_b


def py_bench(n: int, seed: int):
    rng = random.Random(seed)
    out = []
    t0 = time.perf_counter()
    for i in range(n):
        out.append(py_random_deal(rng, i % 4))
    return time.perf_counter() - t0, out


# ---------------------------------------------------------------------------------------------
# helpers
# ---------------------------------------------------------------------------------------------
def cardsim_cmd() -> list[str]:
    exe = Path(sys.executable).parent / "cardsim"
    if exe.exists():
        return [str(exe)]
    found = shutil.which("cardsim")
    return [found] if found else [sys.executable, "-m", "cardsim"]


# Peak RSS must be read from a child forked by a *small* process: Linux copies the RSS high-water
# mark of the process image an exec replaces into the new program's ru_maxrss, and Python spawns
# children with vfork, so a child started directly from this (large) process would report at
# least this process's own peak. This helper forks and execs the command, then reports the
# command's own wall time, peak RSS (floor: the ~10 MiB helper image) and CPU time as JSON in
# the file argv[1].
_HELPER = r"""
import json, os, sys, time
t0 = time.perf_counter()
pid = os.fork()
if pid == 0:
    try:
        os.execvp(sys.argv[2], sys.argv[2:])
    finally:
        os._exit(127)
_, status, ru = os.wait4(pid, 0)
wall = time.perf_counter() - t0
kib = ru.ru_maxrss / 1024 if sys.platform == "darwin" else ru.ru_maxrss
with open(sys.argv[1], "w") as f:
    json.dump({"rc": os.waitstatus_to_exitcode(status), "wall_s": wall, "peak_rss_mib": kib / 1024,
               "cpu_s": ru.ru_utime + ru.ru_stime}, f)
"""


def run_child(cmd: list[str], env: dict | None = None) -> dict:
    """Run a command; its wall time, own peak RSS (MiB) and CPU seconds (see _HELPER)."""
    with tempfile.TemporaryDirectory() as d:
        report = Path(d) / "child.json"
        with open(Path(d) / "out", "w+b") as out:
            p = subprocess.run([sys.executable, "-c", _HELPER, str(report)] + cmd, env=env,
                               stdout=out, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
            res = json.loads(report.read_text()) if report.exists() else {"rc": p.returncode}
            if p.returncode != 0 or res["rc"] != 0:
                out.seek(0)
                raise RuntimeError(f"{' '.join(cmd)} exited {res['rc']}:\n"
                                   f"{out.read().decode(errors='replace')}")
    del res["rc"]
    return res


def cardsim_run(n: int, out: Path, env: dict | None = None) -> dict:
    res = run_child(cardsim_cmd() + ["run", "fifty-six", "--deals", str(n), "--quiet", "--strategy", "random",
                                     "--out", str(out)], env)
    info = json.loads((out / "run.json").read_text())
    res["deal_rows"] = info["deal_rows"]
    res["in_run_wall_s"] = info["wall_time_s"]  # chunks + Parquet, without start-up
    res["out_mib"] = sum(f.stat().st_size for f in out.iterdir()) / 2**20
    shutil.rmtree(out)
    return res


class KernelClock:
    """Wraps ``game.run_blocks`` on this game instance (nothing is changed on disk) to add up
    the time spent inside the parallel kernel call, apart from play_rows' Python-side work."""

    def __init__(self, game):
        self.total = 0.0
        inner = game.run_blocks

        def timed(*a, **k):
            t0 = time.perf_counter()
            try:
                return inner(*a, **k)
            finally:
                self.total += time.perf_counter() - t0

        game.run_blocks = timed


def best_of(fn, repeats: int, clock: KernelClock) -> dict:
    """Best wall time of ``repeats`` calls, with for that call: the process CPU time / wall
    time and the time inside the kernel (run_blocks)."""
    best = {"best_s": float("inf")}
    for _ in range(repeats):
        gc.collect()
        clock.total = 0.0
        c0 = time.process_time()
        t0 = time.perf_counter()
        fn()
        wall = time.perf_counter() - t0
        if wall < best["best_s"]:
            best = {"best_s": wall, "cpu_per_wall": (time.process_time() - c0) / wall,
                    "kernel_s": clock.total}
    return best


def busy_cpu_s() -> float | None:
    """CPU seconds used by everything on the machine so far (Linux /proc/stat), else None."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:]]
        return (v[0] + v[1] + v[2] + sum(v[5:8])) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return None


def own_cpu_s() -> float:
    import resource

    ch = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + ch.ru_utime + ch.ru_stime


def summary(rows) -> dict:
    """rows: iterable of (bid, level, made, stake, calls, bidder)."""
    n = len(rows)
    return {
        "mean_bid": sum(r[0] for r in rows) / n,
        "made": sum(1 for r in rows if r[2]) / n,
        "doubled": sum(1 for r in rows if r[1] > 1) / n,
        "mean_stake": sum(r[3] for r in rows) / n,
        "mean_calls": sum(r[4] for r in rows) / n,
        "all_pass": sum(1 for r in rows if r[5] < 0) / n,
    }


def kernel_summary(deals) -> dict:
    """The same statistics from the kernel's deal table (a polars frame from play_chunk)."""
    import polars as pl

    row = deals.select(
        mean_bid=pl.col("bid").cast(pl.Float64).mean(),
        made=pl.col("made").cast(pl.Float64).mean(),
        doubled=(pl.col("double_level") > 1).cast(pl.Float64).mean(),
        mean_stake=pl.col("stake").cast(pl.Float64).mean(),
        mean_calls=pl.col("calls").cast(pl.Float64).mean(),
        all_pass=(pl.col("bidder").is_null() | (pl.col("bidder") < 0)).cast(pl.Float64).mean(),
    ).row(0, named=True)
    return {k: float(v) for k, v in row.items()}


def fmt_n(x) -> str:
    return f"{x:,.0f}"


# ---------------------------------------------------------------------------------------------
def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=2_000_000,
                    help="deals for the kernel, play_chunk and end-to-end timings")
    ap.add_argument("--big-deals", type=int, default=20_000_000,
                    help="deals for the peak-memory run (also run at a tenth of it)")
    ap.add_argument("--skip-big", action="store_true", help="skip the peak-memory runs")
    ap.add_argument("--python-deals", type=int, default=20_000,
                    help="deals for the pure-Python reference")
    ap.add_argument("--start-deals", type=int, default=1000, help="deals for cold/warm start")
    ap.add_argument("--repeats", type=int, default=3, help="best of this many timings")
    ap.add_argument("--threads", default="1,2", help="kernel thread counts, comma-separated")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--skip-cold", action="store_true", help="skip the cold/warm start runs")
    ap.add_argument("--quick", action="store_true",
                    help="small sizes for a smoke test (200k deals, 2M big deals, 5k Python)")
    ap.add_argument("--json", type=Path, default=None, help="also save the JSON blob here")
    args = ap.parse_args(argv)
    if args.quick:
        args.deals = min(args.deals, 200_000)
        args.big_deals = min(args.big_deals, 2_000_000)
        args.python_deals = min(args.python_deals, 5_000)

    import numba
    import numpy as np

    import cardsim
    from cardsim.simulator._cache import source_digest
    from cardsim.simulator.batch import RunSpec, Runner, git_commit
    from cardsim.simulator.games import get_game

    digest0 = source_digest()
    load0 = os.getloadavg()
    busy0, own0, wall0 = busy_cpu_s(), own_cpu_s(), time.perf_counter()
    threads = [int(t) for t in args.threads.split(",")]
    max_t = numba.config.NUMBA_NUM_THREADS
    bad = [t for t in threads if not 1 <= t <= max_t]
    if bad:
        ap.error(f"--threads {bad[0]}: allowed 1..{max_t} on this machine")
    N = args.deals
    res: dict = {
        "benchmark": "fifty-six random strategy, 4 players, default rules, deals mode",
        "when_utc": _dt.datetime.now(_dt.timezone.utc).isoformat(timespec="seconds"),
        "machine": {"cpus": os.cpu_count(), "numba_threads": max_t,
                    "platform": platform.platform(), "python": platform.python_version(),
                    "numba": numba.__version__, "numpy": np.__version__,
                    "cardsim": cardsim.__version__, "git_commit": git_commit()},
        "params": {k: (str(v) if isinstance(v, Path) else v) for k, v in vars(args).items()},
    }
    lines: list[str] = []

    def say(s=""):
        lines.append(s)
        print(s, flush=True)

    def log(s):
        print(f"  .. {s}", file=sys.stderr, flush=True)

    tmp_root = Path(tempfile.mkdtemp(prefix="cardsim-bench-"))
    try:
        # ---- 1. kernel ---------------------------------------------------------------------
        g = get_game("fifty-six")
        clock = KernelClock(g)
        r = Runner(RunSpec(g, g.rules.resolve({}), ["random"], seed=args.seed, count=N, deals_mode=True))
        log("kernel warm-up (the first run after a source change compiles, ~1 min)")
        numba.set_num_threads(max(threads))
        t0 = time.perf_counter()
        r.play_rows(0, min(N, 10_000), max(threads))
        warmup = time.perf_counter() - t0
        kern = {"deals": N, "repeats": args.repeats, "warmup_s": warmup, "play_rows": {}}
        for t in threads:
            log(f"play_rows, {t} thread(s)")
            numba.set_num_threads(t)
            r.play_rows(0, N, t)  # warm-up at full size (pages, thread pool)
            b = best_of(lambda: r.play_rows(0, N, t), args.repeats, clock)
            b["deals_per_s"] = N / b["best_s"]
            b["kernel_deals_per_s"] = N / b["kernel_s"]
            kern["play_rows"][str(t)] = b
        t_hi = max(threads)
        if 1 in threads and t_hi > 1:
            k1, kt = kern["play_rows"]["1"], kern["play_rows"][str(t_hi)]
            kern[f"speedup_{t_hi}_over_1"] = k1["best_s"] / kt["best_s"]
            kern[f"speedup_{t_hi}_over_1_run_blocks_only"] = k1["kernel_s"] / kt["kernel_s"]
        log(f"play_chunk, {t_hi} thread(s)")
        numba.set_num_threads(t_hi)
        b = best_of(lambda: r.play_chunk(0, N, t_hi), args.repeats, clock)
        b.update(threads=t_hi, deals_per_s=N / b["best_s"],
                 frames_overhead_s=b["best_s"] - kern["play_rows"][str(t_hi)]["best_s"])
        kern["play_chunk"] = b
        ksum = kernel_summary(r.play_chunk(0, N, t_hi)[0])
        gc.collect()

        log("end-to-end cardsim run (priming the cache first)")
        cardsim_run(1000, tmp_root / "prime")
        e2e = None
        for i in range(args.repeats):
            one = cardsim_run(N, tmp_root / f"e2e{i}")
            if e2e is None or one["wall_s"] < e2e["wall_s"]:
                e2e = one
        e2e["deals_per_s"] = N / e2e["wall_s"]
        e2e["in_run_deals_per_s"] = N / e2e["in_run_wall_s"]
        kern["end_to_end"] = e2e
        res["kernel"] = kern

        # ---- 2. pure Python ----------------------------------------------------------------
        log(f"pure-Python reference, {args.python_deals:,} deals")
        py_bench(min(200, args.python_deals), args.seed)  # warm-up
        py_s, py_rows = py_bench(args.python_deals, args.seed)
        py_rate = args.python_deals / py_s
        res["python"] = {"deals": args.python_deals, "s": py_s, "deals_per_s": py_rate}
        for t in threads:
            res["python"][f"kernel_{t}t_over_python"] = kern["play_rows"][str(t)]["deals_per_s"] / py_rate
        res["sanity"] = {"kernel": ksum, "python": summary(py_rows)}
        del py_rows

        # ---- 3. cold / warm start ----------------------------------------------------------
        if not args.skip_cold:
            cache = tmp_root / "numba-cache"
            cache.mkdir()
            env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
            env["CARDSIM_CACHE_DIR"] = str(cache)
            log(f"cold start (empty numba cache {cache}), ~1 min")
            cold = cardsim_run(args.start_deals, tmp_root / "cold", env)
            log("warm start")
            warm = cardsim_run(args.start_deals, tmp_root / "warm", env)
            res["startup"] = {"deals": args.start_deals, "cold_s": cold["wall_s"],
                              "warm_s": warm["wall_s"], "cold_cpu_s": cold["cpu_s"],
                              "warm_cpu_s": warm["cpu_s"],
                              "cold_peak_rss_mib": cold["peak_rss_mib"],
                              "warm_peak_rss_mib": warm["peak_rss_mib"],
                              "cache_mib": sum(f.stat().st_size for f in cache.rglob("*")
                                               if f.is_file()) / 2**20}

        # ---- 4. peak memory ----------------------------------------------------------------
        if not args.skip_big:
            mem = []
            for m in (max(1, args.big_deals // 10), args.big_deals):
                log(f"peak memory, cardsim run --deals {m:,}")
                one = cardsim_run(m, tmp_root / f"big{m}")
                one["deals"] = m
                one["deals_per_s"] = m / one["wall_s"]
                mem.append(one)
            res["memory"] = mem
    finally:
        shutil.rmtree(tmp_root, ignore_errors=True)

    changed = source_digest() != digest0
    res["source_changed_during_run"] = changed
    res["load_avg_1_5_15"] = {"start": list(load0), "end": list(os.getloadavg())}
    busy1 = busy_cpu_s()
    if busy0 is not None and busy1 is not None:
        wall = time.perf_counter() - wall0
        other = max(0.0, (busy1 - busy0) - (own_cpu_s() - own0))
        res["other_processes"] = {"cpu_s": other, "wall_s": wall,
                                  "share_of_machine": other / (wall * (os.cpu_count() or 1))}

    # ---- report ----------------------------------------------------------------------------
    m = res["machine"]
    say(f"56 benchmark: random strategy, 4 players, deals mode | {m['cpus']} CPUs, numba "
        f"{m['numba']}, Python {m['python']}, commit {(m['git_commit'] or '?')[:10]}")
    say(f"1. kernel, {N:,} deals, best of {args.repeats} (warm-up call {kern['warmup_s']:.2f} s)")
    for t in threads:
        k = kern["play_rows"][str(t)]
        say(f"   play_rows  {t} thread{'s' if t > 1 else ' '}       {k['best_s']:8.3f} s "
            f"{fmt_n(k['deals_per_s']):>12} deals/s  (run_blocks {k['kernel_s']:.3f} s = "
            f"{fmt_n(k['kernel_deals_per_s'])}/s; cpu/wall {k['cpu_per_wall']:.2f})")
    key = f"speedup_{t_hi}_over_1"
    if key in kern:
        say(f"   speed-up {t_hi}/1 threads      {kern[key]:8.2f}x  "
            f"(run_blocks only {kern[key + '_run_blocks_only']:.2f}x)")
    pc = kern["play_chunk"]
    say(f"   play_chunk {pc['threads']} threads       {pc['best_s']:8.3f} s "
        f"{fmt_n(pc['deals_per_s']):>12} deals/s  (cpu/wall {pc['cpu_per_wall']:.2f}; "
        f"frames +{pc['frames_overhead_s']:.3f} s)")
    e = kern["end_to_end"]
    say(f"   cardsim run end-to-end  {e['wall_s']:8.3f} s {fmt_n(e['deals_per_s']):>12} deals/s  "
        f"(in-run {e['in_run_wall_s']:.3f} s = {fmt_n(e['in_run_deals_per_s'])}/s; "
        f"start-up +{e['wall_s'] - e['in_run_wall_s']:.2f} s; Parquet {e['out_mib']:.1f} MiB; "
        f"cpu/wall {e['cpu_s'] / e['wall_s']:.2f})")
    p = res["python"]
    say(f"2. pure Python, {p['deals']:,} deals {p['s']:8.3f} s {fmt_n(p['deals_per_s']):>12} deals/s")
    for t in threads:
        say(f"   kernel {t} thread{'s' if t > 1 else ' '} / Python   "
            f"{p[f'kernel_{t}t_over_python']:8.0f}x")
    ks, ps = res["sanity"]["kernel"], res["sanity"]["python"]
    say("   same game? kernel vs Python: " + ", ".join(
        f"{name} {ks[name]:.3g}/{ps[name]:.3g}" for name in ks))
    if "startup" in res:
        s = res["startup"]
        say(f"3. cardsim run --deals {s['deals']} --quiet: cold (empty numba cache) "
            f"{s['cold_s']:.2f} s, warm {s['warm_s']:.2f} s  (cache {s['cache_mib']:.1f} MiB)")
    if "memory" in res:
        say("4. peak memory, cardsim run --deals M --quiet --out TMP")
        for one in res["memory"]:
            say(f"   M={one['deals']:>12,}  rows {one['deal_rows']:>12,}  peak RSS "
                f"{one['peak_rss_mib']:7.0f} MiB  wall {one['wall_s']:7.2f} s "
                f"({fmt_n(one['deals_per_s'])}/s, cpu/wall {one['cpu_s'] / one['wall_s']:.2f})"
                f"  Parquet {one['out_mib']:.0f} MiB")
    la = res["load_avg_1_5_15"]
    o = res.get("other_processes")
    say(f"load average (1 min) at start {la['start'][0]:.2f}, at end {la['end'][0]:.2f}"
        + ("" if o is None else
           f"; other processes used {o['cpu_s']:.1f} CPU-s during the {o['wall_s']:.0f} s run "
           f"({100 * o['share_of_machine']:.1f}% of the machine)"
           + ("  <- busy machine: rerun when idle" if o["share_of_machine"] > 0.05 else "")))
    if changed:
        say("WARNING: the package source changed during the run (numba recompiled); rerun.")
    blob = json.dumps(res, indent=2)
    print(blob)
    if args.json:
        args.json.write_text(blob + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
