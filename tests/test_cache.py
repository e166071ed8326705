"""The Numba cache keys: every shared module with compiled code is part of the key, and plain
Python modules (CLI, batch runner, sweeps) are not, so editing them recompiles nothing."""
import re
import shutil

import pytest

from cardsim.simulator import _cache
from cardsim.simulator.games import GAMES

COMPILED = re.compile(r"^\s*@(njit|jit|intrinsic|vectorize)\b|=\s*njit\(", re.M)


def test_every_shared_module_with_compiled_code_is_in_the_key():
    for path in sorted((_cache.ROOT / "simulator").glob("*.py")):
        if COMPILED.search(path.read_text()):
            assert path.name in _cache.KERNEL_MODULES, path.name


def test_key_follows_kernel_sources_only(tmp_path, monkeypatch):
    for sub in ("simulator", "strategies"):
        shutil.copytree(_cache.ROOT / sub, tmp_path / sub,
                        ignore=shutil.ignore_patterns("__pycache__"))
    monkeypatch.setattr(_cache, "ROOT", tmp_path)
    game = "hand_and_foot"
    before = (_cache.source_digest(), _cache.source_digest(game),
              _cache.source_digest("fifty_six"))
    for plain in ("simulator/cli.py", "simulator/batch.py",
                  f"simulator/games/{game}/cli.py"):
        (tmp_path / plain).write_text((tmp_path / plain).read_text() + "\n# edited\n")
    assert (_cache.source_digest(), _cache.source_digest(game),
            _cache.source_digest("fifty_six")) == before
    kernel = tmp_path / f"simulator/games/{game}/kernel.py"
    kernel.write_text(kernel.read_text() + "\n# edited\n")
    assert _cache.source_digest(game) != before[1]
    assert _cache.source_digest("fifty_six") == before[2]  # other games stay warm
    rng = tmp_path / "simulator/rng.py"
    rng.write_text(rng.read_text() + "\n# edited\n")
    assert _cache.source_digest() != before[0]
    assert _cache.source_digest("fifty_six") != before[2]
    # a strategy module beside strategies/<game>.py (56 card play) is compiled into the kernel
    after = _cache.source_digest("fifty_six")
    play = tmp_path / "strategies/fifty_six_play.py"
    play.write_text(play.read_text() + "\n# edited\n")
    assert _cache.source_digest("fifty_six") != after
    # a strategy module two games share (the rummy legal lists) is in both keys, not in 56's
    keys = {g: _cache.source_digest(g) for g in ("fifty_six", "hand_and_foot", "contract_rummy")}
    shared = tmp_path / "strategies/rummy_legal.py"
    shared.write_text(shared.read_text() + "\n# edited\n")
    assert _cache.source_digest("fifty_six") == keys["fifty_six"]
    assert _cache.source_digest("hand_and_foot") != keys["hand_and_foot"]
    assert _cache.source_digest("contract_rummy") != keys["contract_rummy"]


def test_every_strategy_module_a_game_imports_is_in_its_key():
    import ast

    for folder in sorted(p.name for p in (_cache.ROOT / "simulator" / "games").iterdir()
                         if (p / "kernel.py").exists()):
        for path in sorted((_cache.ROOT / "strategies").glob(f"{folder}*.py")):
            for node in ast.walk(ast.parse(path.read_text())):
                if isinstance(node, ast.ImportFrom) and (node.module or "").startswith(
                        "cardsim.strategies."):
                    name = node.module.rsplit(".", 1)[1] + ".py"
                    assert name.startswith(folder) or name in _cache.SHARED_STRATEGIES.get(
                        folder, ()), f"{path.name} imports {name}, which {folder}'s key misses"


_COUNT_COMPILES = """
import sys
from numba.core import event as ev
names = []
class L(ev.Listener):
    def on_start(self, e):
        names.append(e.data["dispatcher"].py_func.__qualname__)
    def on_end(self, e):
        pass
ev.register("numba:compile", L())
from cardsim.simulator.batch import RunSpec, Runner
from cardsim.simulator.games import get_game
g = get_game(sys.argv[1])
spec = RunSpec(g, g.rules.resolve({}), [], seed=1, count=4)
Runner(spec).play_chunk(0, 4, 1)
print(",".join(names))
"""


@pytest.mark.parametrize("game", list(GAMES))
def test_a_second_process_loads_every_kernel_from_the_cache(game):
    """The kernels pass each game's scratch arrays as a named tuple (State) and its
    strategies as function tuples: both must be types Numba can cache, or every process would
    compile again. The first process may compile (cold cache); the second must not."""
    import subprocess
    import sys

    run = [sys.executable, "-c", _COUNT_COMPILES, game]
    first = subprocess.run(run, capture_output=True, text=True, timeout=900)
    assert first.returncode == 0, first.stderr
    second = subprocess.run(run, capture_output=True, text=True, timeout=900)
    assert second.returncode == 0, second.stderr
    assert second.stdout.strip() == "", f"compiled again: {second.stdout.strip()}"


_ASIDE = """
import os
from numba import njit, types
from cardsim.simulator.engine import _compile_aside

@njit(cache=True)
def helper(x):
    return x + 1

@njit(cache=True)
def big(x):
    return helper(x) * 2

args = (types.int64,)
pid = _compile_aside(big, args)
os.waitpid(pid, 0)
print(big._cache.load_overload(args, big.targetctx) is not None,
      helper._cache.load_overload(args, helper.targetctx) is not None,
      _compile_aside(big, args) is None, big(3))
"""


def test_a_function_compiled_aside_is_cached_alone(tmp_path):
    """On a cold cache engine.Kernel compiles a game's play_deal in a forked child while the
    parent compiles the rest: the child saves that function to the cache and nothing it
    compiled on the way (the parent may be saving those at the same time), and a warm cache
    forks nothing."""
    import os
    import subprocess
    import sys

    if not hasattr(os, "fork") or len(os.sched_getaffinity(0)) < 2:  # as _compile_aside
        pytest.skip("compiles aside only with fork and two cores")
    script = tmp_path / "aside.py"
    script.write_text(_ASIDE)
    env = {k: v for k, v in os.environ.items() if k != "_CARDSIM_CACHE_SET"}
    env.update(NUMBA_CACHE_DIR=str(tmp_path / "cache"), PYTHONPATH=str(_cache.ROOT))
    out = subprocess.run([sys.executable, str(script)], capture_output=True, text=True,
                         env=env, timeout=300)
    assert out.returncode == 0, out.stderr
    assert out.stdout.split() == ["True", "False", "True", "8"]


def fake_scipy(where):
    """A stand-in scipy whose linalg says when it is imported: the check below needs no real
    scipy (cardsim does not require it, and a user's fresh environment does not have it)."""
    pkg = where / "scipy"
    (pkg / "linalg").mkdir(parents=True)
    (pkg / "__init__.py").write_text("__version__ = '1.14.0'\n")
    (pkg / "linalg" / "__init__.py").write_text("print('imported scipy.linalg')\n")
    (pkg / "linalg" / "cython_blas.py").write_text("__pyx_capi__ = {}\n")
    return where


@pytest.mark.parametrize("numba_first", [False, True])
def test_a_run_does_not_import_scipy_linalg(tmp_path, numba_first):
    """Warm start: numba's BLAS probe would import scipy.linalg (a sixth of a warm start);
    cardsim.simulator hides it from the probe, also when numba came first, and lifts the block
    afterwards, so that linear algebra compiled later still finds scipy (numba's own
    ensure_blas, which a np.dot would call, succeeds)."""
    import os
    import subprocess
    import sys

    first = "import numba\n" if numba_first else ""
    code = (first + "import sys, cardsim.simulator.batch, cardsim.simulator.games.fifty_six.kernel\n"
            "print('linalg loaded:', 'scipy.linalg' in sys.modules)\n"
            "from numba.np.linalg import ensure_blas\n"
            "ensure_blas()\n"
            "print('linalg loaded:', 'scipy.linalg' in sys.modules)\n")
    env = {**os.environ, "PYTHONPATH": str(fake_scipy(tmp_path))}
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path, env=env)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == ["linalg loaded: False", "imported scipy.linalg",
                                       "linalg loaded: True"]
