"""Resumable runs: a real process killed part way, then resumed, gives the tables of an
uninterrupted run, with no game missing or repeated; a resume with other settings is
refused."""
import json
import os
import signal
import subprocess
import sys
import time

import polars as pl

CLI = [sys.executable, "-m", "cardsim"]
ARGS = ["run", "fifty-six", "--deals", "900000", "--chunk-size", "30000", "--seed", "21",
        "--threads", "1", "--quiet"]


def _chunks(folder):
    try:
        return json.loads((folder / "chunks.json").read_text())
    except (OSError, ValueError):
        return {}


def test_killed_run_resumes_to_the_uninterrupted_tables(tmp_path):
    part = tmp_path / "part"
    proc = subprocess.Popen(CLI + ARGS + ["--out", str(part)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.PIPE)
    deadline = time.time() + 300
    while len(_chunks(part)) < 3 and time.time() < deadline and proc.poll() is None:
        time.sleep(0.05)
    assert proc.poll() is None, "the run ended before it could be interrupted"
    os.kill(proc.pid, signal.SIGKILL)
    proc.wait()
    killed_at = len(_chunks(part))
    assert 3 <= killed_at < 30 and not (part / "run.json").exists()

    p = subprocess.run(CLI + ARGS + ["--resume", str(part)], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    info = json.loads((part / "run.json").read_text())
    assert info["resumed_chunks"] >= killed_at and info["deals"] == 900_000
    assert not list(part.glob("*.tmp"))

    full = tmp_path / "full"
    p = subprocess.run(CLI + ARGS + ["--out", str(full)], capture_output=True, text=True,
                       timeout=600)
    assert p.returncode == 0, p.stderr
    a = pl.read_parquet(sorted(part.glob("deals-*.parquet")))
    b = pl.read_parquet(sorted(full.glob("deals-*.parquet")))
    assert a["game_index"].to_list() == list(range(900_000))  # none missing or twice
    assert a.equals(b)


def test_resume_refuses_other_settings_and_finished_runs(tmp_path):
    out = tmp_path / "r"
    small = ["run", "fifty-six", "--deals", "2000", "--chunk-size", "500", "--quiet"]
    assert subprocess.run(CLI + small + ["--out", str(out)], timeout=300).returncode == 0
    p = subprocess.run(CLI + small + ["--resume", str(out)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 2 and "already finished" in p.stderr
    (out / "run.json").unlink()  # as if it had died after its last chunk
    p = subprocess.run(CLI + small + ["--seed", "5", "--resume", str(out)],
                       capture_output=True, text=True, timeout=300)
    assert p.returncode == 2 and "'seed' differs" in p.stderr
    assert len(p.stderr.strip().splitlines()) == 1
    p = subprocess.run(CLI + small + ["--resume", str(out)], capture_output=True, text=True,
                       timeout=300)
    assert p.returncode == 0, p.stderr
    assert json.loads((out / "run.json").read_text())["resumed_chunks"] == 4
