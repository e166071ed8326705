"""The Ray backend on a real local Ray cluster (2 CPUs, started with `ray start --head`): the
same seed gives the same tables as the local backend for every game, whatever the chunk size;
an early stop lands on the same game; a run resumes across backends; plug-in files reach the
workers; errors are one line. The cluster is joined by address, as a user's would be."""
import json
import os
import shutil
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import polars as pl
import pytest

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cardsim"]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    """HOST:PORT of a 2-CPU Ray head node started for these tests and stopped after them."""
    ray = shutil.which("ray", path=os.path.dirname(sys.executable)) or shutil.which("ray")
    assert ray, "the test extra installs Ray (cardsim[ray])"
    port = _free_port()
    temp = Path(f"/tmp/cardsim-ray-{os.getpid()}")  # Ray's socket paths must stay short
    env = {**os.environ, "RAY_USAGE_STATS_ENABLED": "0"}
    log = open(tmp_path_factory.mktemp("ray") / "head.log", "w")
    head = subprocess.Popen([ray, "start", "--head", "--block", "--num-cpus", "2",
                             "--port", str(port), "--include-dashboard", "false",
                             "--disable-usage-stats", "--temp-dir", str(temp)],
                            stdout=log, stderr=subprocess.STDOUT, env=env,
                            start_new_session=True)
    address = f"127.0.0.1:{port}"
    deadline = time.time() + 120
    while True:
        try:
            socket.create_connection(("127.0.0.1", port), timeout=1).close()
            break
        except OSError:
            assert head.poll() is None, f"ray start failed: {log.name}"
            assert time.time() < deadline, "the Ray head did not come up in 120 s"
            time.sleep(0.5)
    time.sleep(2)  # the raylet registers with the GCS just after the port opens
    yield address
    os.killpg(head.pid, signal.SIGTERM)  # the head and every Ray process it started
    try:
        head.wait(timeout=10)
    except subprocess.TimeoutExpired:
        pass
    try:
        os.killpg(head.pid, signal.SIGKILL)  # stragglers still shutting down gracefully
    except ProcessLookupError:
        pass
    head.wait()
    log.close()
    shutil.rmtree(temp, ignore_errors=True)


def cardsim(*args, cwd=None):
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True,
                          timeout=900, cwd=cwd)


def tables(out: Path) -> dict[str, pl.DataFrame]:
    got = {}
    for kind in ("deals", "games"):
        files = sorted(out.glob(f"{kind}-*.parquet"))
        if files:
            got[kind] = pl.read_parquet(files)
    return got


def same_tables(a: Path, b: Path) -> None:
    ta, tb = tables(a), tables(b)
    assert ta.keys() == tb.keys() and ta
    for kind in ta:
        assert ta[kind].equals(tb[kind]), kind


CASES = {  # name: (game and count options, local chunk, ray chunk)
    # one chunk played as two tasks (a part is at least a quarter of the default chunk)
    "fifty-six": (["fifty-six", "--deals", 600_000], 200_000, 600_000),
    # duplicate seating (the strategies differ): parts are cut at whole duplicate sets
    "fifty-six-duplicate": (["fifty-six", "--games", 30_000, "--strategy", "0=random"],
                            10_000, 30_000),
    "hand-and-foot": (["hand-and-foot", "--games", 1_200], 1_200, 500),
    "contract-rummy": (["contract-rummy", "--games", 600], 600, 250),
}


@pytest.mark.parametrize("case", list(CASES))
def test_ray_tables_equal_local_tables(cluster, tmp_path, case):
    count, local_chunk, ray_chunk = CASES[case]
    common = ["run", *count, "--seed", 77, "--quiet"]
    p = cardsim(*common, "--chunk-size", local_chunk, "--out", tmp_path / "local")
    assert p.returncode == 0, p.stderr
    p = cardsim(*common, "--chunk-size", ray_chunk, "--out", tmp_path / "ray",
                "--backend", "ray", "--address", cluster)
    assert p.returncode == 0, p.stderr
    assert p.stderr == ""  # quiet means quiet, Ray included
    same_tables(tmp_path / "local", tmp_path / "ray")
    info = json.loads((tmp_path / "ray" / "run.json").read_text())
    r = info["ray"]
    assert info["backend"] == "ray" and r["cluster_cpus"] == 2
    chunks = -(-count[2] // ray_chunk)
    assert chunks <= r["tasks"] <= 4 * chunks  # a chunk is played in 1..4 tasks
    if case.startswith("fifty-six"):
        assert r["tasks"] == 2 * chunks  # big enough to be cut in two
    assert len(list((tmp_path / "ray").glob("deals-*.parquet"))) == chunks
    # the driver warmed the node's Numba cache, so no worker compiled the kernel
    assert r["tasks_that_compiled"] == 0
    assert r["worker_peak_rss_mib"] > 0


def test_precision_stop_and_threads_per_task(cluster, tmp_path):
    common = ["run", "fifty-six", "--deals", 400_000, "--chunk-size", 10_000, "--seed", 5,
              "--precision", 0.01, "--metric", "made_rate", "--quiet"]
    assert cardsim(*common, "--out", tmp_path / "local").returncode == 0
    p = cardsim(*common, "--out", tmp_path / "ray", "--backend", "ray", "--address", cluster,
                "--threads", 2)
    assert p.returncode == 0, p.stderr
    a = json.loads((tmp_path / "local" / "run.json").read_text())
    b = json.loads((tmp_path / "ray" / "run.json").read_text())
    assert 10_000 <= a["deals"] == b["deals"] < 400_000  # stopped early, at the same chunk
    assert b["ray"]["threads_per_task"] == 2 and b["threads"] == 2
    same_tables(tmp_path / "local", tmp_path / "ray")


def test_a_local_run_resumes_on_ray(cluster, tmp_path):
    common = ["run", "hand-and-foot", "--games", 900, "--chunk-size", 300, "--seed", 9,
              "--quiet"]
    assert cardsim(*common, "--out", tmp_path / "whole").returncode == 0
    cut = tmp_path / "cut"
    assert cardsim(*common, "--out", cut).returncode == 0
    # make it an interrupted run: no run.json, the middle chunk missing from disk and record
    (cut / "run.json").unlink()
    record = json.loads((cut / "chunks.json").read_text())
    for f in record.pop("1")["files"]:
        (cut / f).unlink()
    (cut / "chunks.json").write_text(json.dumps(record))
    p = cardsim(*common[:-1], "--quiet", "--resume", cut, "--backend", "ray",
                "--address", cluster)
    assert p.returncode == 0, p.stderr
    info = json.loads((cut / "run.json").read_text())
    assert info["resumed_chunks"] == 2 and 1 <= info["ray"]["tasks"] <= 4
    same_tables(tmp_path / "whole", cut)


def _busy_workers() -> list[int]:
    """Pids of Ray workers playing a chunk right now (Ray titles them by their task)."""
    pids = []
    for proc in Path("/proc").iterdir():
        try:
            if proc.name.isdigit() and (proc / "cmdline").read_bytes().startswith(
                    b"ray::play_task"):
                pids.append(int(proc.name))
        except OSError:
            pass
    return pids


@pytest.mark.cluster_faults
def test_a_killed_worker_is_retried_and_no_game_is_lost(cluster, tmp_path):
    common = ["run", "fifty-six", "--deals", 2_000_000, "--chunk-size", 250_000, "--seed", 21,
              "--quiet"]
    run = subprocess.Popen(CLI + [str(a) for a in common] + [
        "--out", str(tmp_path / "ray"), "--backend", "ray", "--address", cluster],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    killed, deadline = None, time.time() + 300
    while killed is None and run.poll() is None and time.time() < deadline:
        busy = _busy_workers()
        if busy:
            os.kill(busy[0], signal.SIGKILL)  # a worker dies mid-chunk
            killed = busy[0]
        time.sleep(0.05)
    _, err = run.communicate(timeout=600)
    assert killed is not None, "no worker was seen playing a chunk"
    assert run.returncode == 0, err
    assert cardsim(*common, "--out", tmp_path / "local").returncode == 0
    same_tables(tmp_path / "local", tmp_path / "ray")
    assert json.loads((tmp_path / "ray" / "run.json").read_text())["deals"] == 2_000_000


BAD_PLAY = """from numba import njit
from cardsim.simulator.games.fifty_six.view import PASS


@njit(cache=True)
def bad_bid(hand, n, public, private, legal, params, rng):
    return PASS


@njit(cache=True)
def bad_play(hand, n, public, private, legal, params, rng):
    return n  # one past the last card: never legal
"""


def test_plugin_files_reach_the_workers(cluster, tmp_path):
    plug = tmp_path / "plug"
    plug.mkdir()
    shutil.copy(ROOT / "docs" / "examples" / "fifty_six_highcard.py", plug / "hc.py")
    (plug / "bad.py").write_text(BAD_PLAY)
    common = ["run", "fifty-six", "--games", 400, "--chunk-size", 200, "--seed", 3,
              "--quiet", "--strategy", "0=hc.py:highcard:min_jacks=1"]
    assert cardsim(*common, "--out", tmp_path / "local", cwd=plug).returncode == 0
    p = cardsim(*common, "--out", tmp_path / "ray", "--backend", "ray", "--address", cluster,
                cwd=plug)  # a relative path, as typed
    assert p.returncode == 0, p.stderr
    same_tables(tmp_path / "local", tmp_path / "ray")
    # an illegal answer on a worker is the same one line as on the local backend
    bad = ["run", "fifty-six", "--games", 50, "--seed", 3, "--quiet", "--strategy",
           "0=bad.py:bad"]
    local = cardsim(*bad, "--out", tmp_path / "bad-local", cwd=plug)
    remote = cardsim(*bad, "--out", tmp_path / "bad-ray", "--backend", "ray", "--address",
                     cluster, cwd=plug)
    assert local.returncode == remote.returncode == 2
    assert len(remote.stderr.strip().splitlines()) == 1, remote.stderr
    assert remote.stderr == local.stderr and "bad.py:bad" in remote.stderr
    assert not (tmp_path / "bad-ray" / "run.json").exists()


def test_bad_backend_input_is_one_line(cluster, tmp_path):
    cases = [
        (["--backend", "ray", "--address", cluster, "--threads", 3], "--threads 3"),
        (["--backend", "ray", "--address", "localhost:notaport"], "--address"),
        (["--backend", "ray", "--address", f"127.0.0.1:{_free_port()}"],
         "no Ray cluster answers there"),
        (["--address", cluster], "--address is used with --backend ray"),
        (["--backend", "spark"], "--backend"),
    ]
    for extra, needle in cases:
        out = tmp_path / "out"
        p = cardsim("run", "fifty-six", "--deals", 1000, "--quiet", "--out", out, *extra)
        assert p.returncode == 2, (extra, p.stderr)
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and needle in lines[0], (extra, p.stderr)
        assert not out.exists(), extra


def test_without_ray_installed_the_error_names_the_extra(tmp_path, monkeypatch):
    from click.testing import CliRunner

    from cardsim.simulator.cli import cli

    monkeypatch.setitem(sys.modules, "ray", None)  # import ray now fails
    r = CliRunner().invoke(cli, ["run", "fifty-six", "--deals", "100", "--backend", "ray",
                                 "--out", str(tmp_path / "o")], standalone_mode=False)
    assert "cardsim[ray]" in str(r.exception) and not (tmp_path / "o").exists()


def test_api_with_ray_equals_local(cluster):
    from cardsim.simulator.api import simulate

    a = simulate("contract-rummy", games=120, seed=4, chunk_size=120)
    try:  # Ray is imported by simulate, after it has set up token auth for the address
        b = simulate("contract-rummy", games=120, seed=4, chunk_size=50, backend="ray",
                     address=cluster)
    finally:
        if "ray" in sys.modules:
            sys.modules["ray"].shutdown()
    assert a.deals.equals(b.deals) and a.games.equals(b.games)


def test_sweep_and_compare_on_ray_equal_local(cluster, tmp_path):
    sweep = ["sweep", "hand-and-foot", "--games", 300, "--vary", "0.hold=0,60", "--seed", 2,
             "--quiet", "--strategy", "early_melder"]
    compare = ["compare", "contract-rummy", "--games", 80, "--seed", 2, "--quiet",
               "--strategy", "lay_down_at_once", "--strategy", "hold_for_more"]
    for name, argv in (("sweep", sweep), ("compare", compare)):
        assert cardsim(*argv, "--out", tmp_path / f"{name}-local").returncode == 0
        p = cardsim(*argv, "--out", tmp_path / f"{name}-ray", "--backend", "ray",
                    "--address", cluster)
        assert p.returncode == 0, p.stderr
        runs = sorted(d.name for d in (tmp_path / f"{name}-local").iterdir()
                      if (d / "run.json").is_file())
        assert len(runs) >= 2
        for run in runs:
            same_tables(tmp_path / f"{name}-local" / run, tmp_path / f"{name}-ray" / run)
            info = json.loads((tmp_path / f"{name}-ray" / run / "run.json").read_text())
            assert info["backend"] == "ray"


def test_compile_count_sees_compilations_and_not_cache_loads():
    from numba import njit

    from cardsim.simulator.ray_backend import compile_count

    before = compile_count()

    @njit
    def twice(x):
        return 2 * x

    assert twice(3) == 6 and compile_count() > before  # the check run.json's count rests on
    n = compile_count()
    twice(4)
    assert compile_count() == n  # same types: no new compilation
