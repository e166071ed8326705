"""User strategies from a Python file: ``--strategy TEAM=path/to/file.py:NAME[:k=v,...]``.

The file defines @njit decision functions named ``NAME_<decision>`` (for 56: ``NAME_bid`` and
``NAME_play``, optionally ``NAME_reveal``) with the game's decision signature, and optionally a
dict ``NAME_params`` of parameter names and defaults. Each function is compiled once for that
signature here, so a wrong file fails with one line before anything runs; with
``@njit(cache=True)`` the compiled code is reused by later runs.
"""
from __future__ import annotations

import hashlib
import importlib.util
import sys
from pathlib import Path

from cardsim.simulator.errors import UsageError
from cardsim.simulator.strategy import Param, StrategyDef


def is_plugin(name: str) -> bool:
    return ".py:" in name


def _load_module(path: Path):
    key = "cardsim_plugin_" + hashlib.blake2b(str(path).encode(), digest_size=6).hexdigest()
    if key in sys.modules:
        return sys.modules[key]
    spec = importlib.util.spec_from_file_location(key, path)
    if spec is None or spec.loader is None:
        raise UsageError(f"--strategy {path}: not a Python file")
    module = importlib.util.module_from_spec(spec)
    sys.modules[key] = module
    try:
        spec.loader.exec_module(module)
    except Exception as e:  # the user's code: any error becomes one line
        del sys.modules[key]
        raise UsageError(f"--strategy {path}: importing it failed: "
                         f"{type(e).__name__}: {str(e).splitlines()[0] if str(e) else ''}") from None
    return module


def load_plugin(name: str, signature, required: tuple[str, ...],
                optional: dict[str, object]) -> StrategyDef:
    """``name`` is 'path/to/file.py:NAME'. ``optional`` maps decision names to the @njit
    function used when the file does not define one."""
    file, _, strat = name.rpartition(":")
    path = Path(file).expanduser().resolve()
    if not path.is_file():
        raise UsageError(f"--strategy {file}: no such file")
    module = _load_module(path)
    want = ", ".join(f"{strat}_{d}" for d in required)
    decisions = {}
    for d in (*required, *optional):
        fn = getattr(module, f"{strat}_{d}", None)
        if fn is None:
            if d in optional:
                decisions[d] = optional[d]
                continue
            raise UsageError(f"--strategy {name}: the file does not define {strat}_{d} "
                             f"(a strategy needs @njit functions {want})")
        if not hasattr(fn, "compile") or not hasattr(fn, "py_func"):
            raise UsageError(f"--strategy {name}: {strat}_{d} is not an @njit function")
        try:
            fn.compile(signature.args)
        except Exception as e:
            first = str(e).strip().splitlines()[0] if str(e).strip() else type(e).__name__
            raise UsageError(f"--strategy {name}: {strat}_{d} does not compile for "
                             f"{signature}: {first}") from None
        decisions[d] = fn
    raw = getattr(module, f"{strat}_params", {}) or {}
    try:
        params = tuple(Param(str(k), float(v), "plug-in parameter") for k, v in raw.items())
    except (AttributeError, TypeError, ValueError):
        raise UsageError(f"--strategy {name}: {strat}_params must be a dict of name: number") from None
    doc = (getattr(module, "__doc__", None) or "").strip().splitlines()
    return StrategyDef(name, doc[0] if doc else f"plug-in {name}", decisions, params,
                       plugin=True)
