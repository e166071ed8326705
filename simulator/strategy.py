"""Strategies as the engine sees them: named sets of @njit decision functions + float params.

A game's registry (``strategies/<game>.py``) maps names to :class:`StrategyDef`. The CLI form is
``TEAM=NAME[:key=value,...]``; ``resolve_strategies`` turns those into one parameter row per team.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardsim.simulator.errors import UsageError


@dataclass(frozen=True)
class Param:
    name: str
    default: float
    doc: str
    lo: float = -np.inf
    hi: float = np.inf


@dataclass(frozen=True)
class StrategyDef:
    name: str
    doc: str
    decisions: dict  # decision name -> @njit function of the game's decision signature
    params: tuple[Param, ...] = ()
    peeks: bool = False  # sees hidden information (must say so in its name)
    plugin: bool = False  # loaded from a user's file: called through function pointers
    # a built-in called through function pointers as a plug-in is, left out of the kernels'
    # dispatch: a kernel then never compiles it, so only a run that uses it pays its compile
    # (a search player's is a minute or more); its hooks are never called
    pointer: bool = False
    # A built-in's id, pinned: the kernels' dispatch (simulator/dispatchgen.py) and saved
    # tables' run.json keep meaning the same strategy when built-ins are added or reordered.
    id: int | None = None
    # kernel fast paths beyond the decisions (hook name -> @njit function), declared by the
    # game's dispatch spec; a plug-in has none and gets the spec's default
    hooks: dict = field(default_factory=dict)

    def param_vector(self, values: dict[str, float], width: int) -> np.ndarray:
        known = {p.name: p for p in self.params}
        vec = np.zeros(max(width, 1), np.float64)
        for i, p in enumerate(self.params):
            vec[i] = p.default
        for key, v in values.items():
            if key not in known:
                allowed = ", ".join(known) or "none"
                raise UsageError(
                    f"strategy '{self.name}' has no parameter '{key}' (allowed: {allowed})"
                )
            p = known[key]
            if not (p.lo <= v <= p.hi):
                raise UsageError(
                    f"strategy '{self.name}' parameter '{key}': {v} is out of range "
                    f"({p.lo}..{p.hi})"
                )
            vec[list(known).index(key)] = v
        return vec


def builtin_ids(builtins) -> dict[str, int]:
    """Name -> pinned id of a game's built-ins: each must carry its own ``id``, all
    different, from 0."""
    ids: dict[str, int] = {}
    for d in builtins:
        if not isinstance(d.id, int) or d.id < 0:
            raise ValueError(f"built-in strategy {d.name!r}: give it a pinned id (an int >= 0)")
        if d.id in ids.values():
            raise ValueError(f"built-in strategy {d.name!r}: id {d.id} is taken")
        ids[d.name] = d.id
    return ids


@dataclass
class StrategySpec:
    team: int
    name: str
    params: dict[str, float] = field(default_factory=dict)

    def text(self) -> str:
        ps = ",".join(f"{k}={v:g}" for k, v in self.params.items())
        return f"{self.team}={self.name}" + (f":{ps}" if ps else "")


def parse_spec(text: str, n_teams: int | None = None) -> StrategySpec:
    """'TEAM=NAME[:k=v,...]' or 'NAME[:...]' (team -1: every team without its own)."""
    head, sep, rest = text.partition(":")
    team = -1
    if "=" in head:
        t, _, name = head.partition("=")
        try:
            team = int(t)
        except ValueError:
            raise UsageError(f"--strategy {text!r}: team must be a number, as in 0=random") from None
        if team < 0 or (n_teams is not None and team >= n_teams):
            hi = "" if n_teams is None else f" (allowed: 0..{n_teams - 1})"
            raise UsageError(f"--strategy {text!r}: no team {team}{hi}")
    else:
        name = head
    name = name.strip()
    if name.endswith(".py") and sep:  # a plug-in: 'file.py:NAME[:k=v,...]'
        strat, sep, rest = rest.partition(":")
        name = f"{name}:{strat.strip()}"
    params = {}
    if sep:
        for part in rest.split(","):
            if not part.strip():
                continue
            k, eq, v = part.partition("=")
            if not eq:
                raise UsageError(f"--strategy {text!r}: parameters look like key=value")
            try:
                params[k.strip()] = float(v)
            except ValueError:
                raise UsageError(
                    f"--strategy {text!r}: parameter '{k.strip()}' must be a number"
                ) from None
    if not name:
        raise UsageError(f"--strategy {text!r}: no strategy name")
    if name.endswith(".toml"):  # a preset (as `cardsim tune` writes): its values, then k=v
        name, preset = read_preset(name)
        params = {**preset, **params}
    return StrategySpec(team, name, params)


def read_preset(path: str) -> tuple[str, dict[str, float]]:
    """(strategy name, parameters) of a preset file: ``strategy = "NAME"`` and a ``[params]``
    table of numbers."""
    import tomllib
    from pathlib import Path

    try:
        data = tomllib.loads(Path(path).read_text())
    except OSError as e:
        raise UsageError(f"--strategy {path}: cannot read the preset ({e.strerror})") from None
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"--strategy {path}: not a TOML preset ({e})") from None
    name = data.get("strategy")
    params = data.get("params", {})
    if (not isinstance(name, str) or name.endswith(".toml") or not isinstance(params, dict)
            or not all(isinstance(v, (int, float)) and not isinstance(v, bool)
                       for v in params.values())):
        raise UsageError(f"--strategy {path}: a preset holds strategy = \"NAME\" and a "
                         "[params] table of numbers")
    return name, {k: float(v) for k, v in params.items()}


def resolve_strategies(specs: list[str], registry: dict[str, StrategyDef], n_teams: int,
                       default: str = "random", load=None
                       ) -> tuple[list[StrategyDef], np.ndarray, list[dict]]:
    """Per team: the definition, a (teams x width) parameter matrix, and a JSON description.
    ``load(name)`` turns a plug-in name ('file.py:NAME') into a StrategyDef."""
    registry = dict(registry)
    chosen: list[StrategySpec | None] = [None] * n_teams
    fallback = StrategySpec(-1, default)
    for text in specs:
        s = parse_spec(text, n_teams)
        if load is not None and ".py:" in s.name and s.name not in registry:
            registry[s.name] = load(s.name)
        if s.name not in registry:
            raise UsageError(
                f"unknown strategy '{s.name}' (allowed: {', '.join(sorted(registry))})"
            )
        if s.team < 0:
            fallback = s
        else:
            chosen[s.team] = s
    final = [c if c is not None else StrategySpec(t, fallback.name, dict(fallback.params))
             for t, c in enumerate(chosen)]
    defs = [registry[s.name] for s in final]
    width = max([len(d.params) for d in defs] + [1])
    params = np.stack([d.param_vector(s.params, width) for d, s in zip(defs, final)])
    described = []
    for t, (d, s) in enumerate(zip(defs, final)):
        full = {p.name: float(params[t, i]) for i, p in enumerate(d.params)}
        described.append({"team": t, "name": d.name, "params": full})
    return defs, np.ascontiguousarray(params), described


SEATINGS = ("auto", "fixed", "duplicate")


def resolve_seating(seating: str, described: list[dict], n_teams: int) -> int:
    """How many rotations a duplicate set of games has (0: fixed seating). With duplicate
    seating, games g*k .. g*k+k-1 share their deals and each moves the strategies one team on,
    so every strategy plays every seat on the same cards. 'auto' rotates only when the teams'
    strategies differ (identical strategies would just replay the same game)."""
    if seating not in SEATINGS:
        raise UsageError(f"--seating {seating!r}: allowed {', '.join(SEATINGS)}")
    differ = len({(d["name"], tuple(sorted(d["params"].items()))) for d in described}) > 1
    if seating == "duplicate" or (seating == "auto" and differ):
        return n_teams
    return 0
