"""The Ray backend on several Ray nodes (ray.cluster_utils.Cluster: a head and worker nodes,
each a raylet of its own with its own CPUs, on this machine). Every game's run, compare and
sweep give the local tables; a node removed mid-run costs nothing but a retry (run.json says
which chunks); a driver killed mid-run resumes on the cluster; a node running other code is
refused by name; a node that joins late gets work. Kept small: the whole file is CI's short
version (118 s alone on 2 cores, one xdist worker in CI)."""
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pytest

from tests.test_ray import same_tables

ray = pytest.importorskip("ray")
from ray.cluster_utils import Cluster  # noqa: E402

ROOT = Path(__file__).resolve().parent.parent
CLI = [sys.executable, "-m", "cardsim"]
# The drivers run as on a machine where a local Ray run has left its token (Ray 2.59+ writes
# ~/.ray/auth_token on the first local ray.init()), while these clusters run without token
# authentication: a driver that turned token mode on because the token exists rejected the
# workers' calls back to it, and every task failed with OwnerDiedError.
TOKEN = Path(tempfile.mkdtemp(prefix="cardsim-token-")) / "auth_token"
TOKEN.write_text("cardsim-test-token-" + "0" * 24 + "\n")
BASE_ENV = {k: v for k, v in os.environ.items() if not k.startswith("RAY_AUTH")}
DRIVER_ENV = {**BASE_ENV, "RAY_AUTH_TOKEN_PATH": str(TOKEN)}


def cardsim(*args, env=None, **kw):
    return subprocess.run(CLI + [str(a) for a in args], capture_output=True, text=True,
                          timeout=600, env=DRIVER_ENV if env is None else env, **kw)


def start(*args):
    """A driver in its own process, so that the test can act on the cluster meanwhile."""
    return subprocess.Popen(CLI + [str(a) for a in args], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True,
                            env=DRIVER_ENV)


def chunks_done(out: Path) -> int:
    try:
        return len(json.loads((out / "chunks.json").read_text()))
    except (OSError, ValueError):
        return 0


def wait_for_chunks(out: Path, proc, k: int, timeout: float = 240) -> None:
    deadline = time.time() + timeout
    while chunks_done(out) < k:
        assert proc.poll() is None, proc.communicate()
        assert time.time() < deadline, f"no {k} chunks in {timeout} s"
        time.sleep(0.2)


def new_cluster(nodes: int, **head):
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    # An earlier test in this process (an in-process API run against a token-mode head) can
    # leave RAY_AUTH_MODE=token behind; these clusters run without tokens, as documented above.
    os.environ["RAY_AUTH_MODE"] = "disabled"
    from ray._raylet import Config
    Config.initialize("")
    c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1, **head})
    workers = [c.add_node(num_cpus=1, node_name=f"worker{i}") for i in range(nodes)]
    c.wait_for_nodes()
    return c, workers


@pytest.fixture
def cluster():
    """A head and two worker nodes, one CPU each; shut down after the test."""
    c, workers = new_cluster(2)
    yield c, workers
    ray.shutdown()
    c.shutdown()


def run_info(out: Path) -> dict:
    return json.loads((out / "run.json").read_text())


GAMES = {  # game: count options (each a few chunks of a few seconds' work in all)
    "fifty-six": ["--deals", 40_000, "--chunk-size", 10_000],
    "hand-and-foot": ["--games", 240, "--chunk-size", 60],
    "contract-rummy": ["--games", 120, "--chunk-size", 40],
}


def test_every_command_on_three_nodes_equals_local(cluster, tmp_path):
    c, _ = cluster
    on_ray = ["--backend", "ray", "--address", c.address, "--quiet"]
    for game, count in GAMES.items():
        base = ["run", game, *count, "--seed", 3]
        assert cardsim(*base, "--quiet", "--out", tmp_path / game / "local").returncode == 0
        p = cardsim(*base, *on_ray, "--out", tmp_path / game / "ray")
        assert p.returncode == 0, p.stderr
        same_tables(tmp_path / game / "local", tmp_path / game / "ray")
        spread = run_info(tmp_path / game / "ray")["ray"]["tasks_per_node"]
        assert len(spread) == 3, spread  # every node played
    # compare and sweep (one game each) through the same backend
    cmp = ["compare", "hand-and-foot", "--games", 60, "--seed", 4, "--strategy",
           "early_melder", "--strategy", "pile_taker"]
    assert cardsim(*cmp, "--quiet", "--out", tmp_path / "cmp-local").returncode == 0
    assert cardsim(*cmp, *on_ray, "--out", tmp_path / "cmp-ray").returncode == 0
    for run in sorted(p.name for p in (tmp_path / "cmp-local").iterdir() if p.is_dir()
                      and p.name != "studies"):
        same_tables(tmp_path / "cmp-local" / run, tmp_path / "cmp-ray" / run)
    sw = ["sweep", "contract-rummy", "--vary", "0.max_left=99,2", "--games", 40, "--seed", 4]
    assert cardsim(*sw, "--quiet", "--out", tmp_path / "sw-local").returncode == 0
    assert cardsim(*sw, *on_ray, "--out", tmp_path / "sw-ray").returncode == 0
    for s in ("s000", "s001"):
        same_tables(tmp_path / "sw-local" / s, tmp_path / "sw-ray" / s)


def test_tune_on_three_nodes_equals_local(cluster, tmp_path):
    c, _ = cluster
    tune = ["tune", "fifty-six", "--strategy", "evaluator", "--param", "margin=-2..6",
            "--against", "cautious", "--budget", 3, "--boards", 300, "--seed", 2, "--quiet"]
    assert cardsim(*tune, "--out", tmp_path / "local").returncode == 0
    p = cardsim(*tune, "--backend", "ray", "--address", c.address, "--out", tmp_path / "ray")
    assert p.returncode == 0, p.stderr
    a, b = (json.loads((tmp_path / d / "tune.json").read_text()) for d in ("local", "ray"))
    assert a["best"] == b["best"] and a["candidates"] == b["candidates"] == 3
    assert b["backend"] == "ray"


def playing_on(node) -> bool:
    """A worker of this node is inside a task now: Ray titles a worker process
    ``ray::<function>`` while it runs one and ``ray::IDLE`` between tasks."""
    raylet = node.all_processes["raylet"][0].process.pid
    for d in os.listdir("/proc"):
        try:
            stat = Path(f"/proc/{d}/stat").read_text()
            if int(stat.rsplit(")", 1)[1].split()[1]) == raylet and \
                    Path(f"/proc/{d}/cmdline").read_text().startswith("ray::play_task"):
                return True
        except (OSError, ValueError, IndexError):
            continue
    return False


@pytest.mark.cluster_faults
def test_a_node_removed_mid_run_costs_a_retry_only(cluster, tmp_path):
    c, workers = cluster
    # chunks of about a second each, and the node goes while one of its workers is inside
    # a task (checked from the worker's process title), so a task is lost with it
    args = ["run", "contract-rummy", "--games", 12_000, "--chunk-size", 600, "--seed", 6]
    assert cardsim(*args, "--quiet", "--out", tmp_path / "local").returncode == 0
    proc = start(*args, "--backend", "ray", "--address", c.address, "--quiet", "--out",
                 tmp_path / "ray")
    wait_for_chunks(tmp_path / "ray", proc, 2)
    deadline = time.time() + 120
    while not playing_on(workers[1]):
        assert proc.poll() is None and time.time() < deadline, "worker1 never played"
        time.sleep(0.01)
    c.remove_node(workers[1], allow_graceful=False)  # its raylet and workers die at once
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    same_tables(tmp_path / "local", tmp_path / "ray")
    r = run_info(tmp_path / "ray")["ray"]
    assert r["retried"], r  # the tasks lost with the node were played again
    assert all({"chunk", "first", "count", "error"} <= set(x) for x in r["retried"])
    # every task that returned is counted once, on the node that played it (the removed
    # node's finished tasks may or may not be among them, depending on the timing)
    assert sum(r["tasks_per_node"].values()) == r["tasks"]
    assert any(k.startswith("worker0 ") for k in r["tasks_per_node"])  # a survivor played on


@pytest.mark.cluster_faults
def test_a_killed_driver_resumes_on_the_cluster(cluster, tmp_path):
    c, _ = cluster
    # 20 chunks of a few tenths of a second each: the run cannot end between two looks at
    # its chunks (240 games once did, after the players got faster)
    args = ["run", "contract-rummy", "--games", 6000, "--chunk-size", 300, "--seed", 8]
    assert cardsim(*args, "--quiet", "--out", tmp_path / "local").returncode == 0
    on_ray = ["--backend", "ray", "--address", c.address, "--quiet"]
    proc = start(*args, *on_ray, "--out", tmp_path / "ray")
    wait_for_chunks(tmp_path / "ray", proc, 2)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    assert not (tmp_path / "ray" / "run.json").exists()  # nothing that looks finished
    left = 20 - chunks_done(tmp_path / "ray")
    assert left > 0
    p = cardsim(*args, *on_ray, "--resume", tmp_path / "ray")
    assert p.returncode == 0, p.stderr
    same_tables(tmp_path / "local", tmp_path / "ray")


@pytest.mark.cluster_faults
def test_a_node_with_other_code_is_refused_by_name(tmp_path):
    # a copy of the package whose 56 kernel differs by a comment, first on that node's path
    other = tmp_path / "other"
    for d in ("cardsim", "simulator", "strategies", "analysis"):
        shutil.copytree(ROOT / d, other / d, ignore=shutil.ignore_patterns("__pycache__"))
    kernel = other / "simulator" / "games" / "fifty_six" / "kernel.py"
    kernel.write_text(kernel.read_text() + "\n# another version\n")
    c, _ = new_cluster(1)
    try:
        c.add_node(num_cpus=1, node_name="odd-node",
                   env_vars={"PYTHONPATH": str(other), "NUMBA_CACHE_DIR": str(tmp_path)})
        c.wait_for_nodes()
        # the driver away from the source tree: Ray puts the driver's folder first on every
        # worker's path, which would hide the node's own copy
        p = cardsim("run", "fifty-six", "--deals", 20_000, "--backend", "ray", "--address",
                    c.address, "--quiet", "--out", tmp_path / "run", cwd=tmp_path)
        assert p.returncode == 2
        lines = p.stderr.strip().splitlines()
        assert len(lines) == 1 and "node odd-node " in lines[0], p.stderr
        assert "different cardsim code" in lines[0]
        assert not (tmp_path / "run" / "run.json").exists()
    finally:
        ray.shutdown()
        c.shutdown()


@pytest.mark.cluster_faults
def test_a_node_joining_late_gets_work(tmp_path):
    c, _ = new_cluster(0)  # the head alone
    try:
        # about ten seconds of work on one CPU: the late node's raylet and first worker
        # take a few seconds to start
        args = ["run", "contract-rummy", "--games", 12_000, "--chunk-size", 300, "--seed", 10]
        proc = start(*args, "--backend", "ray", "--address", c.address, "--quiet", "--out",
                     tmp_path / "ray")
        wait_for_chunks(tmp_path / "ray", proc, 1)
        c.add_node(num_cpus=1, node_name="late")
        assert chunks_done(tmp_path / "ray") < 30, "the run is nearly over: give it more work"
        out, err = proc.communicate(timeout=600)
        assert proc.returncode == 0, err
        spread = run_info(tmp_path / "ray")["ray"]["tasks_per_node"]
        late = [n for k, n in spread.items() if k.startswith("late ")]
        assert late and late[0] > 0, spread
    finally:
        ray.shutdown()
        c.shutdown()


# A head and one worker node in token mode, in a process of their own so that this one's Ray
# stays out of token mode; up until its stdin closes.
TOKEN_CLUSTER = """
import sys
from ray.cluster_utils import Cluster
c = Cluster(initialize_head=True, head_node_args={"num_cpus": 1})
c.add_node(num_cpus=1, node_name="tokened")
c.wait_for_nodes()
print(c.address, flush=True)
sys.stdin.read()
c.shutdown()
"""


@pytest.mark.cluster_faults
def test_a_cluster_with_token_authentication(tmp_path):
    """The driver finds that the cluster wants tokens and sends this machine's; a wrong token
    or none is refused in one line, at once and before anything is written."""
    host = subprocess.Popen([sys.executable, "-c", TOKEN_CLUSTER], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env={
                                **BASE_ENV, "RAY_USAGE_STATS_ENABLED": "0",
                                "RAY_AUTH_MODE": "token", "RAY_AUTH_TOKEN_PATH": str(TOKEN)})
    try:
        address = host.stdout.readline().strip()
        assert address, "the token cluster did not start"
        args = ["run", "fifty-six", "--deals", 20_000, "--chunk-size", 5_000, "--seed", 6]
        assert cardsim(*args, "--quiet", "--out", tmp_path / "local").returncode == 0
        on_ray = ["--backend", "ray", "--address", address, "--quiet"]
        p = cardsim(*args, *on_ray, "--out", tmp_path / "ray")
        assert p.returncode == 0, p.stderr
        assert p.stderr == ""  # the probe's refusal in disabled mode is not shown
        same_tables(tmp_path / "local", tmp_path / "ray")
        assert len(run_info(tmp_path / "ray")["ray"]["tasks_per_node"]) == 2
        wrong = {**BASE_ENV, "RAY_AUTH_TOKEN": "not-the-token-" + "1" * 24}
        home = tmp_path / "home"  # no ~/.ray/auth_token there; the kernels' cache as before
        home.mkdir()
        from cardsim.simulator._cache import _base
        none = {**BASE_ENV, "HOME": str(home), "CARDSIM_CACHE_DIR": _base()}
        for env, says in ((wrong, "refuses this machine's token"), (none, "has no token")):
            t0 = time.monotonic()
            p = cardsim(*args, *on_ray, "--out", tmp_path / "refused", env=env)
            lines = p.stderr.strip().splitlines()
            assert p.returncode == 2 and len(lines) == 1 and says in lines[0], p.stderr
            assert "token authentication" in lines[0]
            assert time.monotonic() - t0 < 30  # not after Ray's minute of retries
            assert not (tmp_path / "refused").exists()
    finally:
        host.stdin.close()
        host.wait(timeout=120)
