"""The strategy dispatch: generated from each registry, current, ids pinned, routing each id to
its own functions."""
import importlib
import re
import sys

import numpy as np
import pytest

from cardsim.simulator import dispatchgen
from cardsim.simulator.strategy import StrategyDef, builtin_ids

# The built-ins' ids, pinned: a saved run.json and the kernels' dispatch keep meaning the same
# strategy when the registry grows. Changing a line here is changing what an id means.
PINNED = {
    "fifty-six": {"random": 0, "evaluator": 1, "conventional": 2, "cautious": 3,
                  "aggressive": 4, "tuned": 5, "expert": 6},
    "hand-and-foot": {"random": 0, "early_melder": 1, "patient_builder": 2, "pile_taker": 3,
                      "waiting_melder": 4, "table_reader": 5},
    "contract-rummy": {"random": 0, "lay_down_at_once": 1, "hold_for_more": 2,
                       "pile_hunter": 3, "table_reader": 4},
}


@pytest.mark.parametrize("game", sorted(PINNED))
def test_ids_are_pinned(game):
    from cardsim.simulator.games import get_game

    module = importlib.import_module(get_game(game).strategies_module)
    assert builtin_ids(module.BUILTINS) == PINNED[game]
    assert module.BUILTIN_IDS == PINNED[game]


@pytest.mark.parametrize("game", sorted(PINNED))
def test_dispatch_files_are_current(game):
    spec = dispatchgen.specs()[game]
    path = dispatchgen.target_path(spec)
    assert path.read_text() == dispatchgen.generate(spec), (
        f"{path} is stale: run python -m cardsim.simulator.dispatchgen")


_IMPORTS_STRATEGIES = re.compile(r"^\s*(from|import)\s+cardsim\.strategies\b", re.M)


@pytest.mark.parametrize("game", sorted(PINNED))
def test_kernels_name_no_heuristic(game):
    """A kernel reaches its strategies only through the game's dispatch (a play-out module,
    rollout.py, is the searching players' model of the rest of a deal, not the kernel: it
    plays the heuristic itself)."""
    from cardsim.simulator.games import get_game

    adapter = get_game(game)
    folder = dispatchgen.target_path(dispatchgen.specs()[game]).parent
    for path in folder.glob("*.py"):
        if path.name in ("__init__.py", "dispatch.py", "replay.py", "analysis.py", "cli.py",
                         "rollout.py"):
            continue
        assert not _IMPORTS_STRATEGIES.search(path.read_text()), (
            f"{path.name} imports a strategy module: go through dispatch.py")
    assert adapter.dispatch_spec


def test_builtin_ids_refuse_missing_and_taken_ids():
    f = object()
    with pytest.raises(ValueError, match="pinned id"):
        builtin_ids([StrategyDef("a", "", {"play": f})])
    with pytest.raises(ValueError, match="id 3 is taken"):
        builtin_ids([StrategyDef("a", "", {"play": f}, id=3),
                     StrategyDef("b", "", {"play": f}, id=3)])


_REGISTRY = '''
from numba import njit
from cardsim.simulator.strategy import StrategyDef

@njit(cache=True)
def first(x, y):
    return x + y

@njit(cache=True)
def second(x, y):
    return x * y

@njit(cache=True)
def fast(x):
    return 10 * x

BUILTINS = (
    StrategyDef("a", "", {"go": first}, id=0),
    StrategyDef("b", "", {"go": second}, id=1, hooks={"quick": fast}),
    StrategyDef("c", "", {"go": first}, id=2),
    StrategyDef("d", "", {"go": second}, id=7, hooks={"quick": fast}),
)
'''


def test_generated_dispatch_routes_each_id(tmp_path, monkeypatch):
    """Ids sharing a function call it; a plug-in id goes to its pointer; a hook answers for
    the built-ins that declare it and the default for the rest."""
    from numba import njit

    (tmp_path / "reg_mod.py").write_text(_REGISTRY)
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setenv("NUMBA_CACHE_DIR", str(tmp_path / "cache"))
    spec = dispatchgen.DispatchSpec("reg_mod", "reg_mod_dispatch", (
        dispatchgen.Entry("go", ("x", "y")),
        dispatchgen.Entry("quick", ("x",), hook=True, default="-1"),
    ))
    source = dispatchgen.generate(spec)
    assert "1 <= sid" not in source and "sid == 1 or sid == 7" in source
    (tmp_path / "reg_mod_dispatch.py").write_text(source)
    try:
        d = importlib.import_module("reg_mod_dispatch")

        @njit
        def plug(x, y):
            return x - y

        @njit
        def go_all(fn):
            out = np.zeros((9, 2), np.int64)
            for sid in (-1, 0, 1, 2, 7):
                out[sid + 1, 0] = d.decide_go(sid, fn, 5, 3)
                out[sid + 1, 1] = d.hook_quick(sid, 5)
            return out

        out = go_all(plug)
        assert out[0].tolist() == [2, -1]  # plug-in: its pointer, the hook's default
        assert out[1].tolist() == [8, -1]  # a: first
        assert out[2].tolist() == [15, 50]  # b: second, its hook
        assert out[3].tolist() == [8, -1]  # c: first
        assert out[8].tolist() == [15, 50]  # d (id 7): second, its hook
    finally:
        sys.modules.pop("reg_mod_dispatch", None)
        sys.modules.pop("reg_mod", None)


def test_a_dispatched_function_must_be_importable_by_name(tmp_path, monkeypatch):
    (tmp_path / "reg_bad.py").write_text(_REGISTRY + "\nhidden = first\ndel first\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = dispatchgen.DispatchSpec("reg_bad", "reg_bad_dispatch",
                                    (dispatchgen.Entry("go", ("x", "y")),))
    try:
        with pytest.raises(ValueError, match="importable by its name"):
            dispatchgen.generate(spec)
    finally:
        sys.modules.pop("reg_bad", None)


def test_a_pointer_builtin_with_hooks_is_refused(tmp_path, monkeypatch):
    """A pointer built-in never enters the generated dispatch, so hooks it declares would be
    silently skipped: generation refuses the pair."""
    registry = _REGISTRY.replace(
        'StrategyDef("d", "", {"go": second}, id=7, hooks={"quick": fast}),',
        'StrategyDef("d", "", {"go": second}, id=7, hooks={"quick": fast}, pointer=True),')
    assert registry != _REGISTRY
    (tmp_path / "reg_ptr.py").write_text(registry)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = dispatchgen.DispatchSpec("reg_ptr", "reg_ptr_dispatch", (
        dispatchgen.Entry("go", ("x", "y")),
        dispatchgen.Entry("quick", ("x",), hook=True, default="-1"),
    ))
    try:
        with pytest.raises(ValueError, match=r"'d' is called through pointers.*\['quick'\]"):
            dispatchgen.generate(spec)
    finally:
        sys.modules.pop("reg_ptr", None)
