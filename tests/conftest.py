"""Compile every game's kernel before the tests, one process per game, all at once.

The tests themselves run on every core (pytest-xdist, ``-n auto`` in pyproject.toml), a test
file to a worker.

On a cold Numba cache (a fresh clone, CI, or after editing a kernel) each game's kernel
otherwise compiles inside whichever test first needs it, one game after another on one core;
compiled side by side they take the time of the slowest. On a warm cache each process only
loads its kernel (about a second). The tests then load the kernels from the cache like any
run does (tests/test_cache.py checks that loading compiles nothing).
"""
import os
import subprocess
import sys

import pytest

_LOAD = ("import sys; from cardsim.simulator.games import get_game; "
         "get_game(sys.argv[1]).load_kernel()")


@pytest.hookimpl(tryfirst=True)
def pytest_sessionstart(session):
    # once, in the main process: pytest-xdist's workers (PYTEST_XDIST_WORKER) start later and
    # load the kernels from the cache
    if os.environ.get("CARDSIM_TEST_NO_PRECOMPILE") or os.environ.get("PYTEST_XDIST_WORKER"):
        return
    from cardsim.simulator.games import GAMES

    procs = [subprocess.Popen([sys.executable, "-c", _LOAD, name], stdout=subprocess.PIPE,
                              stderr=subprocess.STDOUT, text=True) for name in GAMES]
    for name, p in zip(GAMES, procs):
        out, _ = p.communicate()
        if p.returncode != 0:  # the tests of that game will fail and show why
            sys.stderr.write(f"compiling the {name} kernel failed:\n{out}\n")
