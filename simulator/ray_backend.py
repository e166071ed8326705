"""Ray backend: the chunks of a run played as Ray tasks, on a local Ray instance or a cluster.

A task plays one seeded chunk (game indices first..first+n-1) with the same code path as the
local backend, so the tables are identical; tasks are launched a bounded window ahead of the
chunk the driver is writing, and results are taken in chunk order (the driver holds one chunk
at a time, and an early stop lands on the same game as a local run). Only this module imports
Ray, and only when ``--backend ray`` is asked for.
"""
from __future__ import annotations

import hashlib
import logging
import os
import resource
import socket
import tempfile
import time
from collections import deque
from pathlib import Path

from cardsim.simulator.errors import BackendError, StrategyError, UsageError

# per worker process: the prepared game of the run it is playing, so a worker's second and
# later chunks neither prepare nor compile again
_RUNNERS: dict = {}
_REMOTE = None
_CONNECTED = None  # (address,) this process's Ray was initialised with
_COUNTER = None  # Numba compile events seen by this process (see compile_count)
_CHECKED: set = set()  # (node id, game, digest) found running the driver's code
INSTALL = "pip install 'cardsim[ray]'"


def connect(address: str | None):
    """Ray, initialised once per process: ``address`` None starts a local instance (all
    cores), 'auto' or HOST:PORT or ray://HOST:PORT joins a running cluster."""
    os.environ.setdefault("RAY_USAGE_STATS_ENABLED", "0")
    if address not in (None, "auto"):
        _reachable(address)
    try:
        import ray
    except ImportError:
        raise UsageError(f"--backend ray: Ray is not installed (install it with: {INSTALL})") \
            from None
    global _CONNECTED
    if ray.is_initialized():
        if _CONNECTED == (address,):
            return ray
        ray.shutdown()  # another address than this process joined before
    quiet = {"logging_level": logging.ERROR, "log_to_driver": False}
    if address is not None:
        match_cluster_auth(address)
    try:
        if address is None:
            ray.init(include_dashboard=False, **quiet)
        else:
            ray.init(address=address, **quiet)
    except (ConnectionError, ValueError, RuntimeError, ray.exceptions.RayError) as e:
        first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
        where = "a local Ray instance" if address is None else address
        raise UsageError(f"--address {address or '(local)'}: cannot connect to {where}: "
                         f"{first}") from None
    _CONNECTED = (address,)
    return ray


def match_cluster_auth(address: str) -> str:
    """Set this driver's token authentication to the cluster's, found by asking its GCS
    without a token; returns the mode ('disabled' or 'token').

    The driver owns its tasks' arguments and results, so the cluster's workers call back to
    it. A driver in token mode rejects a cluster without tokens ("Missing authorization
    header in request!"), which its tasks see as the owner of their arguments having died
    (OwnerDiedError). Ray 2.59+ writes ~/.ray/auth_token on a machine's first local
    ``ray.init()`` and then turns token mode on for ``address='auto'`` whenever that file
    exists, whatever the cluster does; a cluster started without tokens (``RAY_AUTH_MODE=
    disabled ray start``, ray.cluster_utils, an older Ray) then fails every run. Ray reads
    the mode when it is imported and when its config is initialised again, as here. Ray
    Client addresses (ray://) are left to Ray."""
    try:
        from ray._private.services import canonicalize_bootstrap_address
        from ray._raylet import AuthenticationTokenLoader, Config, GcsClient
        from ray.exceptions import AuthenticationError
    except ImportError:  # a Ray without token authentication (before 2.52)
        return "disabled"
    if address.startswith("ray://"):
        return os.environ.get("RAY_AUTH_MODE", "disabled")
    try:
        gcs = canonicalize_bootstrap_address(address)
    except Exception:  # noqa: BLE001  (no cluster found: ray.init names the problem)
        gcs = None
    if not gcs:
        return os.environ.get("RAY_AUTH_MODE", "disabled")

    def accepted(mode: str) -> bool | None:
        """Whether the GCS takes this process's requests in ``mode`` (None: no answer)."""
        os.environ["RAY_AUTH_MODE"] = mode
        Config.initialize("")
        err = os.dup(2)  # Ray's C++ client logs each refusal to stderr
        try:
            with open(os.devnull, "w") as null:
                os.dup2(null.fileno(), 2)
                GcsClient(address=gcs)
            return True
        except AuthenticationError:
            return False
        except Exception:  # noqa: BLE001  (other trouble: ray.init reports it)
            return None
        finally:
            os.dup2(err, 2)
            os.close(err)

    if accepted("disabled") is not False:
        return "disabled"
    if not AuthenticationTokenLoader.instance().has_token(ignore_auth_mode=True):
        raise UsageError(f"--address {address}: the cluster requires token authentication "
                         "and this machine has no token: set RAY_AUTH_TOKEN or "
                         "RAY_AUTH_TOKEN_PATH, or copy ~/.ray/auth_token from the head node")
    if accepted("token") is False:
        raise UsageError(f"--address {address}: the cluster requires token authentication "
                         "and refuses this machine's token (RAY_AUTH_TOKEN, "
                         "RAY_AUTH_TOKEN_PATH or ~/.ray/auth_token): give it the cluster's "
                         "token (`ray get-auth-token` on the head node)")
    return "token"


def _host_port(address: str) -> tuple[str, str]:
    host, _, port = address.removeprefix("ray://").rpartition(":")
    return host, port


def _reachable(address: str) -> None:
    """Fail in seconds, not after Ray's minute of retries, when nothing listens there."""
    host, port = _host_port(address)
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=5).close()
    except OSError as e:
        raise UsageError(f"--address {address}: no Ray cluster answers there "
                         f"({e.strerror or e})") from None


def check_address(address: str | None) -> None:
    if address is None or address == "auto":
        return
    host, port = _host_port(address)
    if not host or not port.isdigit() or not 0 < int(port) < 65536:
        raise UsageError(f"--address {address!r}: allowed: auto, HOST:PORT or ray://HOST:PORT")


def _payload(spec) -> dict:
    """What a worker needs to rebuild the run: names and numbers, plus the source of plug-in
    strategy files (a cluster node may not have them)."""
    from cardsim.simulator.strategy import parse_spec

    if spec.registry:
        raise UsageError("--backend ray: strategies given as Python objects cannot be sent to "
                         "workers; give them as plug-in files (FILE.py:NAME)")
    plugins = {}
    for text in spec.strategies:
        name = parse_spec(text).name
        if ".py:" in name:
            file = name.rpartition(":")[0]
            try:
                plugins[file] = Path(file).expanduser().resolve().read_bytes()
            except OSError:
                pass  # the driver's own resolve already named the missing file
    return {"game": spec.game.name, "rules": spec.rules, "strategies": list(spec.strategies),
            "plugins": plugins, "seed": spec.seed, "count": spec.count,
            "deals_mode": spec.deals_mode, "debug": spec.debug, "seating": spec.seating,
            "code": _digest(spec.game.name), "cwd": os.getcwd()}


def _digest(game: str) -> str:
    from cardsim.simulator._cache import source_digest
    from cardsim.simulator.games import folder_of

    return source_digest(folder_of(game))


def _local_plugins(payload: dict) -> list[str]:
    """The strategy texts with each plug-in file a path this worker can read: the driver's
    own file when it is there with the same content, else a copy in a temp folder."""
    def holds(path: Path) -> bool:
        try:
            return path.read_bytes() == source
        except OSError:
            return False

    texts = list(payload["strategies"])
    for file, source in payload["plugins"].items():
        path = Path(file).expanduser()
        if holds(path):  # as the driver named it (a local cluster shares the folder)
            continue
        path = path if path.is_absolute() else Path(payload["cwd"]) / path
        if not holds(path):
            digest = hashlib.blake2b(source, digest_size=8).hexdigest()
            path = Path(tempfile.gettempdir()) / "cardsim-plugins" / digest / Path(file).name
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(source)
        texts = [t.replace(file, str(path), 1) if f"{file}:" in t else t for t in texts]
    return texts


def _node_label(node_id: str, nodes=None) -> str:
    """How run.json and messages name a node: its Ray node name (its IP unless set) and the
    start of its node id (several nodes may share a machine)."""
    import ray

    for nd in nodes if nodes is not None else ray.nodes():
        if nd.get("NodeID") == node_id:
            return f"{nd.get('NodeName') or nd.get('NodeManagerAddress')} {node_id[:8]}"
    return node_id[:8]


def _here() -> str:
    import ray

    return ray.get_runtime_context().get_node_id()


def _different_code(game: str, here: str, driver: str, node: str) -> UsageError:
    return UsageError(f"--backend ray: node {node} (host {socket.gethostname()}) runs different "
                      f"cardsim code for {game} (source digest {here}, the driver's {driver}); "
                      "install the same version on every node")


def probe_code(game: str) -> tuple[str, str]:
    """(this node's id, its source digest of ``game``): run once on every node before a run."""
    return _here(), _digest(game)


def _runner(payload: dict):
    from cardsim.simulator.runner import Runner, RunSpec
    from cardsim.simulator.games import get_game

    key = hashlib.blake2b(repr(sorted((k, repr(v)) for k, v in payload.items())).encode(),
                          digest_size=12).hexdigest()
    if key not in _RUNNERS:
        here = _digest(payload["game"])
        if here != payload["code"]:  # a node that joined after the run's check
            raise _different_code(payload["game"], here, payload["code"], _node_label(_here()))
        _RUNNERS.clear()  # one run at a time per worker keeps its memory bounded
        spec = RunSpec(get_game(payload["game"]), payload["rules"], _local_plugins(payload),
                       payload["seed"], payload["count"], deals_mode=payload["deals_mode"],
                       debug=payload["debug"], seating=payload["seating"])
        _RUNNERS[key] = Runner(spec)
    return _RUNNERS[key]


def compile_count() -> int:
    """Numba compilations in this process since the first call (a function loaded from the
    disk cache is not one). Counted with Numba's compile events, so compilations at import
    (functions with explicit signatures) and of callees count too."""
    global _COUNTER
    if _COUNTER is None:
        from numba.core import event

        class Counter(event.Listener):
            n = 0

            def on_start(self, ev):
                pass

            def on_end(self, ev):
                self.n += 1

        _COUNTER = Counter()
        event.register("numba:compile", _COUNTER)
    return _COUNTER.n


def play_task(payload: dict, first: int, n: int, threads: int):
    """One chunk on a worker: the same tables as Runner.play_chunk on the driver."""
    import numba

    t0 = time.perf_counter()
    before = compile_count()
    runner = _runner(payload)
    numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
    deals, games = runner.play_chunk(first, n, threads)
    info = {"host": socket.gethostname(), "node": _here(), "pid": os.getpid(),
            "seconds": time.perf_counter() - t0, "compiled": compile_count() > before,
            "peak_rss_mib": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}
    return deals, games, info


class RayChunks:
    """Plays (k, first, n) chunks on Ray and yields (k, first, n, deals, games) in chunk
    order; ``summary()`` describes where they ran (for run.json). A task is a chunk or a
    part of one (see ``_tasks``)."""

    def __init__(self, runner, address: str | None, threads: int):
        global _REMOTE
        check_address(address)
        self.ray = ray = connect(address)
        self.address = address
        self.threads = threads
        self.payload = _payload(runner.spec)
        cpus = int(ray.cluster_resources().get("CPU", 0))
        per_node = max([int(nd["Resources"].get("CPU", 0)) for nd in ray.nodes()
                        if nd.get("Alive")] + [0])
        if not 1 <= threads <= max(per_node, 1):
            raise UsageError(f"--threads {threads}: with --backend ray it is threads per task; "
                             f"allowed 1..{max(per_node, 1)} (the largest node's CPUs)")
        self.cpus = cpus
        self.window = max(2, 2 * cpus // threads)  # tasks in flight
        if _REMOTE is None:
            _REMOTE = ray.remote(play_task)
        # no retries by Ray: a task lost with its node or worker is sent again by play(),
        # which records it (run.json: ray.retried)
        self._remote = _REMOTE.options(num_cpus=threads, max_retries=0)
        self.infos: list[dict] = []
        self.retried: list[dict] = []
        self._seen_cpus_at = time.monotonic()
        self._check_nodes()
        self._warm(runner)

    def _check_nodes(self) -> None:
        """Every node that can take a task runs the driver's code, or the run stops before
        it starts, naming the node (a node joining later is checked by its first task)."""
        from ray.util.scheduling_strategies import NodeAffinitySchedulingStrategy

        ray = self.ray
        game, code = self.payload["game"], self.payload["code"]
        nodes = [nd for nd in ray.nodes() if nd.get("Alive")
                 and nd["Resources"].get("CPU", 0) >= self.threads
                 and (nd["NodeID"], game, code) not in _CHECKED]  # tune asks once per node
        probe = ray.remote(probe_code)
        refs = [probe.options(num_cpus=self.threads, scheduling_strategy=(
            NodeAffinitySchedulingStrategy(nd["NodeID"], soft=False))).remote(
            self.payload["game"]) for nd in nodes]
        for node, digest in ray.get(refs):
            if digest != code:
                raise _different_code(game, digest, code, _node_label(node, nodes))
            _CHECKED.add((node, game, code))

    def _refresh_window(self) -> None:
        """Nodes may join (or leave) during a run: the tasks in flight follow the CPUs."""
        if time.monotonic() - self._seen_cpus_at < 2.0:
            return
        self._seen_cpus_at = time.monotonic()
        self.cpus = max(self.cpus, int(self.ray.cluster_resources().get("CPU", 0)))
        self.window = max(self.window, 2 * self.cpus // self.threads)

    def _warm(self, runner) -> None:
        """Compile (or load) the kernel here first when the driver is on a cluster node, so
        the workers beside it load a warm cache instead of each compiling."""
        ips = {nd.get("NodeManagerAddress") for nd in self.ray.nodes() if nd.get("Alive")}
        if self.ray.util.get_node_ip_address() in ips:
            runner.play_chunk(0, max(1, runner.rotations), 1)

    def _tasks(self, todo, runner):
        """Each chunk cut into 1..4 parts (whole duplicate sets), so that a run has about
        four tasks per CPU: a few big chunks on many CPUs would leave CPUs idle at the end.
        A part keeps at least a quarter of the game's default chunk, a second or more of
        work. The file layout stays the chunks'; the tables do not depend on the cut."""
        spec = runner.spec
        floor = max(1, spec.game.default_chunk(spec.deals_mode) // 4)
        unit = max(1, runner.rotations)
        want = -(-4 * max(1, self.cpus // self.threads) // max(1, len(todo)))
        for k, first, n in todo:
            parts = max(1, min(4, want, n // floor))
            edges = sorted({first + (n * j // parts) // unit * unit for j in range(parts)}
                           | {first + n})
            cuts = list(zip(edges[:-1], edges[1:]))
            for j, (lo, hi) in enumerate(cuts):
                yield k, first, n, j == len(cuts) - 1, lo, hi - lo

    def play(self, todo, runner):
        import polars as pl

        ray = self.ray
        ref = ray.put(self.payload)
        pending = deque()
        it = self._tasks(todo, runner)

        def top_up():
            self._refresh_window()
            for k, first, n, last, lo, m in it:
                pending.append((k, first, n, last, lo, m,
                                self._remote.remote(ref, lo, m, self.threads)))
                if len(pending) >= self.window:
                    return

        try:
            top_up()
            parts = []
            while pending:
                k, first, n, last, lo, m, task = pending.popleft()
                deals, games, info = self._get(task, k, lambda: self._remote.remote(
                    ref, lo, m, self.threads), lo, m)
                top_up()  # keep the workers busy while the driver writes
                self.infos.append(info)
                parts.append((deals, games))
                if not last:
                    continue
                if len(parts) > 1:
                    deals = pl.concat([d for d, _ in parts])
                    games = None if games is None else pl.concat([g for _, g in parts])
                parts = []
                yield k, first, n, deals, games
        finally:
            for *_, task in pending:
                ray.cancel(task)

    def _get(self, task, k: int, again, first: int, n: int, tries: int = 3):
        """The task's result; a task lost with its worker or node (not one that raised) is
        sent again up to ``tries`` times: its games are seeded by their index, so the tables
        do not change."""
        ray = self.ray
        for attempt in range(tries + 1):
            try:
                return ray.get(task)
            except ray.exceptions.RayTaskError as e:
                cause = getattr(e, "cause", None)
                if isinstance(cause, (UsageError, StrategyError, AssertionError)):
                    raise cause from None
                first_line = str(e).strip().splitlines()[0] if str(e).strip() \
                    else type(e).__name__
                if "OwnerDiedError" in str(e):  # the owner is this driver, which is alive
                    first_line += (" (the worker could not reach this driver, which owns the "
                                   "task's arguments: are RAY_AUTH_MODE and the token the "
                                   "same on the driver and every node?)")
                raise BackendError(f"chunk {k} failed on a Ray worker: {first_line}") from None
            except ray.exceptions.RayError as e:
                if attempt == tries:
                    line = str(e).strip().splitlines()[0] if str(e).strip() \
                        else type(e).__name__
                    raise BackendError(f"chunk {k} was lost on the Ray cluster {tries + 1} "
                                       f"times: {line}") from None
                self.retried.append({"chunk": k, "first": first, "count": n,
                                     "error": type(e).__name__})
                task = again()

    def summary(self) -> dict:
        workers = {(i["host"], i["pid"]) for i in self.infos}
        nodes = self.ray.nodes()
        per_node: dict[str, int] = {}
        for i in self.infos:
            label = _node_label(i["node"], nodes)
            per_node[label] = per_node.get(label, 0) + 1
        return {"address": self.address or "local", "cluster_cpus": self.cpus,
                "tasks_per_node": dict(sorted(per_node.items())), "retried": self.retried,
                "threads_per_task": self.threads, "window": self.window,
                "tasks": len(self.infos), "worker_processes": len(workers),
                "hosts": sorted({i["host"] for i in self.infos}),
                "tasks_that_compiled": sum(i["compiled"] for i in self.infos),
                "task_seconds": round(sum(i["seconds"] for i in self.infos), 3),
                "worker_peak_rss_mib": round(max([i["peak_rss_mib"] for i in self.infos]
                                                 + [0.0]), 1)}
