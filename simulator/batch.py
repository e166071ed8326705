"""Batch runner shared by every game: chunks of game indices, parallel blocks, Parquet output.

A run is a range of game indices cut into chunks, each played by a Runner
(simulator.runner: on local threads here, or on Ray workers) and written as it finishes;
run.json is written last, so a folder without it is an unfinished run that --resume continues.
"""
from __future__ import annotations

import datetime as _dt
import os
import platform
import subprocess
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from cardsim._version import __version__
from cardsim.simulator.errors import UsageError
from cardsim.simulator.progress import Progress, announce_compile
from cardsim.simulator.tables import write_json_atomic, write_parquet_atomic
# the API of a run, kept importable from here
from cardsim.simulator.runner import RunSpec, Runner  # noqa: F401


def git_commit() -> str | None:
    try:
        here = Path(__file__).resolve().parent
        out = subprocess.run(["git", "rev-parse", "HEAD"], cwd=here, capture_output=True,
                             text=True, timeout=5)
        return out.stdout.strip() or None if out.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        return None


def prepare_out_dir(out: Path) -> Path:
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise UsageError(f"--out {out}: exists and is not a folder")
    if out.exists() and any(out.iterdir()):
        raise UsageError(f"--out {out}: folder is not empty (choose a new folder)")
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".write-test"
        probe.write_text("")
        probe.unlink()
    except OSError as e:
        raise UsageError(f"--out {out}: cannot write there ({e.strerror or e})") from None
    return out


def check_mode(g, deals_mode: bool) -> None:
    """--deals only for a game with a deals mode (56)."""
    if deals_mode and not g.supports_deals_mode:
        raise UsageError(f"--deals is not available for {g.name} (use --games)")


def run(spec: RunSpec, out: Path, progress: bool | None = None, stop=None,
        resume: bool = False) -> dict:
    """Play the run and write deals-*.parquet / games-*.parquet chunks, then run.json last.
    ``stop(deals, games)``, called with each chunk's tables, may end the run early (adaptive
    precision); ``spec.count`` is then a cap, and the chunk size sets where it can stop, so
    the same settings always stop at the same game.

    Every finished chunk is recorded in ``chunks.json`` (after its files are renamed into
    place), beside ``run-spec.json``, the run's settings. ``resume=True`` continues a run that
    died in ``out``: the settings must be the same, and only chunks missing from the record
    are played, so the tables equal an uninterrupted run's."""
    import numba

    g = spec.game
    if spec.backend not in BACKENDS:
        raise UsageError(f"--backend {spec.backend}: allowed: {', '.join(BACKENDS)}")
    if spec.backend == "local":
        threads = spec.threads or numba.config.NUMBA_NUM_THREADS
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise UsageError(f"--threads {threads}: allowed 1..{numba.config.NUMBA_NUM_THREADS} "
                             "on this machine")
    else:
        threads = spec.threads or 1  # per task: Ray runs one task per CPU
    check_mode(g, spec.deals_mode)
    if resume and stop is not None:
        raise UsageError("--resume cannot be combined with --precision")
    runner = Runner(spec)  # validates strategies before anything is written
    chunk = spec.chunk_size or g.default_chunk(spec.deals_mode)
    if stop is not None and runner.rotations:  # stop only after whole duplicate sets
        chunk = -(-chunk // runner.rotations) * runner.rotations
    unit = "deals" if spec.deals_mode else "games"
    settings = _settings(spec, runner, chunk)
    remote = None
    existed = Path(out).exists()
    if resume:
        out, done = _resume_state(Path(out), settings)
    else:
        out, done = prepare_out_dir(out), {}
    if spec.backend == "ray":
        from cardsim.simulator.ray_backend import RayChunks

        try:
            remote = RayChunks(runner, spec.address, threads)  # connects, checks --threads
        except BaseException:
            if not existed and not any(out.iterdir()):
                out.rmdir()  # leave no trace of a run that never started
            raise
    if not resume:
        write_json_atomic(settings, out / "run-spec.json")
    resumed = len(done)
    if spec.backend == "local":
        numba.set_num_threads(threads)
        # compiling (first run) or loading the kernel and the strategies' decisions (turned
        # into function pointers by runner.ctx) is timed apart from the simulation
        load_s = announce_compile(g.name, lambda: (g.load_kernel(), runner.ctx,
                                                   g.kernel_ready()), enabled=progress)
    else:
        load_s = 0.0  # the workers load it (ray section of run.json)
    started = _dt.datetime.now(_dt.timezone.utc)
    t0 = time.perf_counter()
    bar = Progress(spec.count, unit, enabled=progress,
                   done=sum(c["count"] for c in done.values()))
    todo = plan_chunks(spec.count, chunk, skip=done)
    source = remote.play(todo, runner) if remote else play_local(runner, todo, threads,
                                                                 bar.tally)
    pool = ThreadPoolExecutor(max_workers=1)
    pending = None
    try:
        for k, first, n, deals, games in source:
            if pending is not None:
                pending.result()
            names = [f"deals-{k:06d}.parquet"] + ([] if games is None else [f"games-{k:06d}.parquet"])
            done[k] = {"files": names, "count": n, "deal_rows": deals.height}
            pending = pool.submit(_write_chunk, out, names, deals, games, dict(done))
            if remote:
                bar.advance(n)  # a Ray task at a time; local games count as they finish
            if stop is not None and first + n < spec.count and stop(deals, games):
                break
        if pending is not None:
            pending.result()
    finally:
        source.close()
        pool.shutdown(wait=True)
        bar.close()
    played = sum(c["count"] for c in done.values())
    wall = time.perf_counter() - t0
    order = sorted(done)
    files = [f for k in order for f in done[k]["files"]]
    n_deal_rows = sum(done[k]["deal_rows"] for k in order)
    info = {
        "game": g.name,
        "mode": unit,
        unit: played,
        "deal_rows": n_deal_rows,
        "seed": spec.seed,
        "rules": spec.rules,
        "strategies": runner.described,
        "seating": "duplicate" if runner.rotations else "fixed",
        "rotations": runner.rotations,
        "threads": threads,
        "backend": spec.backend,
        **({"ray": remote.summary()} if remote else {}),
        "chunk_size": chunk,
        "debug_invariants": spec.debug,
        "package_version": __version__,
        "git_commit": git_commit(),
        "python": platform.python_version(),
        "numba": numba.__version__,
        "started_utc": started.isoformat(timespec="seconds"),
        "wall_time_s": round(wall, 4),
        "kernel_load_s": round(load_s, 3),  # compile (cold cache) or cache load, not in wall
        "throughput": {f"{unit}_per_s": round(played / wall, 1),
                       "deal_rows_per_s": round(n_deal_rows / wall, 1)},
        "files": files,
        **({"resumed_chunks": resumed} if resume else {}),
        **({"precision": stop.summary()} if hasattr(stop, "summary") else {}),
        **spec.extra,
    }
    write_json_atomic(info, out / "run.json")
    return info


BACKENDS = ("local", "ray")


def plan_chunks(count: int, chunk: int, skip=()) -> list[tuple[int, int, int]]:
    """(k, first game, games) of every chunk of a run, but those in ``skip``."""
    return [(k, first, min(chunk, count - first))
            for k, first in enumerate(range(0, count, chunk)) if k not in skip]


def play_local(runner: Runner, todo, threads: int, tally=None):
    for k, first, n in todo:
        yield (k, first, n, *runner.play_chunk(first, n, threads, tally))


def _settings(spec: RunSpec, runner: Runner, chunk: int) -> dict:
    """What a resumed run must share with the run it continues (JSON round-tripped)."""
    import json

    doc = {"game": spec.game.name, "mode": "deals" if spec.deals_mode else "games",
           "count": spec.count, "seed": spec.seed, "rules": spec.rules,
           "strategies": runner.described, "rotations": runner.rotations,
           "chunk_size": chunk, "debug_invariants": spec.debug}
    return json.loads(json.dumps(doc))


def _resume_state(out: Path, settings: dict) -> tuple[Path, dict]:
    import json

    if (out / "run.json").is_file():
        raise UsageError(f"--resume {out}: the run is already finished (run.json exists)")
    try:
        before = json.loads((out / "run-spec.json").read_text())
    except (OSError, ValueError):
        raise UsageError(f"--resume {out}: no run-spec.json (not a cardsim run folder)") \
            from None
    for key in settings:
        if before.get(key) != settings[key]:
            raise UsageError(f"--resume {out}: '{key}' differs from the interrupted run "
                             f"(it had {json.dumps(before.get(key))[:200]})")
    try:
        recorded = json.loads((out / "chunks.json").read_text())
    except (OSError, ValueError):
        recorded = {}
    done = {int(k): v for k, v in recorded.items()
            if all((out / f).is_file() for f in v["files"])}
    for stray in out.glob("*.tmp"):  # a chunk cut off mid-write
        stray.unlink()
    return out, done


def _write_chunk(out: Path, names, deals, games, done: dict) -> None:
    write_parquet_atomic(deals, out / names[0])
    if games is not None:
        write_parquet_atomic(games, out / names[1])
    write_json_atomic({str(k): v for k, v in done.items()}, out / "chunks.json")


def default_out(game: str, unit: str, seed: int) -> Path:
    stamp = _dt.datetime.now().strftime("%Y%m%d-%H%M%S")
    return Path(os.environ.get("CARDSIM_RESULTS", "results")) / f"{game}-{unit}-seed{seed}-{stamp}"
