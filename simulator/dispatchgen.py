"""Writes each game's strategy dispatch from its strategy registry.

A kernel asks its strategies through one module, the game's ``dispatch.py``, generated here
from the game's ``DispatchSpec`` (declared beside its decision signature) and its registry of
built-ins: for every decision a ``decide_<decision>(sid, fn, ...)`` that calls a built-in
directly by its pinned id (no function pointer, no reference counting per call) and anything
else (a plug-in, or a built-in marked ``pointer``: ``sid < 0``) through its pointer ``fn``;
for every kernel fast path a ``hook_<name>(sid, ...)`` that calls the built-in's hook or
returns the spec's default. So a kernel imports the game's view and its dispatch and never a
named heuristic, and a new built-in is one registry entry and a rerun of::

    python -m cardsim.simulator.dispatchgen          # every registered game
    python -m cardsim.simulator.dispatchgen --check  # exit 1 if a dispatch file is stale

The file is generated rather than built at import because Numba caches only functions whose
source is a file; tests/test_dispatch.py checks that every checked-in dispatch is current.
"""
from __future__ import annotations

import sys
import textwrap
from dataclasses import dataclass
from importlib import import_module
from pathlib import Path


@dataclass(frozen=True)
class Entry:
    """One function of the dispatch: a decision (a key of StrategyDef.decisions) or, with
    ``hook``, a kernel fast path (a key of StrategyDef.hooks) whose plug-in answer is
    ``default``. ``args``: the names the kernel passes after ``sid`` (and ``fn``); a hook's
    may name ``sid`` too, to hand the id on to functions that built-ins share."""
    name: str
    args: tuple[str, ...]
    hook: bool = False
    default: str = ""
    inline: bool = False  # inline="always": for calls in a hot loop
    doc: str = ""


@dataclass(frozen=True)
class DispatchSpec:
    registry: str  # module holding BUILTINS
    target: str  # module of the generated file
    entries: tuple[Entry, ...]
    # False: decisions go through ``fn`` for built-ins too (the kernel keeps its strategies out
    # of its own compile); hooks still switch on the id
    direct: bool = True


def _ranges(ids: list[int]) -> str:
    """``sid`` tests for a sorted id list, runs of consecutive ids as one chained test."""
    parts, i = [], 0
    while i < len(ids):
        j = i
        while j + 1 < len(ids) and ids[j + 1] == ids[j] + 1:
            j += 1
        if j == i:
            parts.append(f"sid == {ids[i]}")
        elif j == i + 1:
            parts += [f"sid == {ids[i]}", f"sid == {ids[j]}"]
        else:
            parts.append(f"{ids[i]} <= sid <= {ids[j]}")
        i = j + 1
    return " or ".join(parts)


def _where(f) -> tuple[str, str]:
    py = getattr(f, "py_func", f)
    module, name = py.__module__, py.__name__
    if getattr(import_module(module), name, None) is not f:
        raise ValueError(f"{module}.{name}: a dispatched function must be importable by its "
                         "name from its module")
    return module, name


def generate(spec: DispatchSpec) -> str:
    """The source of ``spec``'s dispatch module."""
    from cardsim.simulator.strategy import builtin_ids

    builtins = import_module(spec.registry).BUILTINS
    ids = builtin_ids(builtins)
    for d in builtins:
        if d.pointer and d.hooks:  # a pointer built-in is never in the dispatch, hooks included
            raise ValueError(f"built-in {d.name!r} is called through pointers, so its hooks "
                             f"{sorted(d.hooks)} would be ignored: drop them or the pointer flag")
    imports: dict[str, set[str]] = {}
    bodies = []
    for e in spec.entries:
        groups: dict[object, list[int]] = {}  # function -> the ids that use it, in id order
        direct = [d for d in builtins if not d.pointer]
        for d in sorted(direct, key=lambda d: ids[d.name]):
            f = (d.hooks if e.hook else d.decisions).get(e.name)
            if f is None:
                if not e.hook:
                    raise ValueError(f"built-in {d.name!r} has no {e.name!r} decision")
                continue
            groups.setdefault(f, []).append(ids[d.name])
        args = ", ".join(e.args)
        # a hook may pass the id on (args naming "sid"), to tell apart built-ins sharing it
        own = ", ".join(a for a in e.args if a != "sid")
        if own != args and not e.hook:
            raise ValueError(f"decision {e.name!r}: only a hook may pass sid on")
        head = "sid" if e.hook else "sid, fn"
        deco = '@njit(cache=True, inline="always")' if e.inline else "@njit(cache=True)"
        lines = [deco, f"def {'hook' if e.hook else 'decide'}_{e.name}({head}, {own}):"]
        doc = e.doc or (f"the {e.name} fast path of built-in ``sid``; {e.default} for the others"
                        if e.hook else f"the {e.name} decision of built-in ``sid``, or of a "
                        "plug-in (sid < 0) through its pointer ``fn``")
        doc = textwrap.fill(doc[0].upper() + doc[1:] + ".", 92, initial_indent='    """',
                            subsequent_indent="    ")
        lines.append(doc + '"""')
        fallback = e.default if e.hook else f"fn({args})"
        if not e.hook and not spec.direct:
            groups = {}
        calls = []
        for f, members in groups.items():
            module, name = _where(f)
            imports.setdefault(module, set()).add(name)
            calls.append((members, f"{name}({args})"))
        covers_all = sum(len(m) for m, _ in calls) == len(direct)
        if calls:
            lines.append("    if sid < 0:")
            lines.append(f"        return {fallback}")
        for k, (members, call) in enumerate(calls):
            if covers_all and k == len(calls) - 1:
                lines.append(f"    return {call}")
            else:
                lines.append(f"    if {_ranges(members)}:")
                lines.append(f"        return {call}")
        if not (calls and covers_all):
            lines.append(f"    return {fallback}")
        bodies.append("\n".join(lines))
    text = (f"Strategy dispatch generated from {spec.registry}.BUILTINS by ``python -m "
            "cardsim.simulator.dispatchgen``: do not edit (tests/test_dispatch.py checks it is "
            "current). Built-in ids: "
            + ", ".join(f"{n} {i}" for n, i in sorted(ids.items(), key=lambda kv: kv[1])) + ".")
    head = [textwrap.fill(text, 95, initial_indent='"""') + '"""', "from numba import njit", ""]
    for module in sorted(imports):
        names = ", ".join(sorted(imports[module]))
        line = f"from {module} import {names}"
        if len(line) > 99:
            line = textwrap.fill(names, 95, initial_indent="    ", subsequent_indent="    ")
            line = f"from {module} import (\n{line},\n)"
        head.append(line)
    return "\n".join(head) + "\n\n\n" + "\n\n\n".join(bodies) + "\n"


def target_path(spec: DispatchSpec) -> Path:
    parent, _, leaf = spec.target.rpartition(".")
    return Path(import_module(parent).__file__).parent / f"{leaf}.py"


def specs() -> dict[str, DispatchSpec]:
    """Game name -> its DispatchSpec, for every registered game that declares one."""
    from cardsim.simulator.games import GAMES, get_game

    out = {}
    for name in GAMES:
        where = getattr(get_game(name), "dispatch_spec", None)
        if where:
            module, _, attr = where.partition(":")
            out[name] = getattr(import_module(module), attr)
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    stale = []
    for name, spec in specs().items():
        path, text = target_path(spec), generate(spec)
        if path.exists() and path.read_text() == text:
            continue
        if check:
            stale.append(f"{name}: {path} is not what dispatchgen writes")
        else:
            path.write_text(text)
            print(f"{name}: wrote {path}")
    for line in stale:
        print(line, file=sys.stderr)
    return 1 if stale else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
