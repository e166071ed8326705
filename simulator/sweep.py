"""Sweeps: a grid over rule options and strategy parameters, one run per setting.

Every setting is played with the same seed and game count, so settings meet the same deals
(the same counter-based streams) and their differences are paired. ``--vary`` keys:

- ``KEY=v1,v2``: a rule option (``cardsim rules GAME``); list-valued options separate their own
  items with ``/`` (``min_meld=50/90/120/150,0/0/0/0``);
- ``T.PARAM=v1,v2``: parameter PARAM of team T's strategy (T a team number or ``all``);
- ``T.strategy=a,b``: the strategy itself.

Each setting is a complete run folder (``sNNN/`` with run.json); ``sweep.json`` is written last,
so a sweep folder without it is unfinished.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from cardsim.simulator.errors import UsageError


@dataclass(frozen=True)
class Axis:
    key: str  # as given on the command line
    values: tuple[str, ...]
    team: int | None  # None: a rule option; -1: every team; t >= 0: team t
    param: str | None  # strategy parameter, or "strategy" for the strategy name


@dataclass
class Setting:
    index: int
    values: dict  # axis key -> value text
    rule_opts: list[str]
    strategies: list[str]
    rules: dict  # resolved

    @property
    def label(self) -> str:
        return " ".join(f"{k}={v}" for k, v in self.values.items()) or "base"

    @property
    def folder(self) -> str:
        return f"s{self.index:03d}"


def parse_vary(text: str) -> Axis:
    key, eq, rest = text.partition("=")
    key = key.strip()
    values = tuple(v.strip() for v in rest.split(",") if v.strip())
    if not eq or not key or not values:
        raise UsageError(f"--vary {text!r}: write KEY=v1,v2,... (a rule option, T.PARAM or "
                         "T.strategy with T a team number or all)")
    if len(set(values)) != len(values):
        raise UsageError(f"--vary {text!r}: a value is repeated")
    if "." not in key:
        return Axis(key, values, None, None)
    team_text, _, param = key.partition(".")
    if team_text == "all":
        team = -1
    else:
        try:
            team = int(team_text)
        except ValueError:
            raise UsageError(f"--vary {text!r}: '{team_text}' is not a team number or all") \
                from None
    if not param:
        raise UsageError(f"--vary {text!r}: no parameter name after '{team_text}.'")
    return Axis(key, values, team, param)


def _strategy_specs(game, rules, base: list[str], chosen: dict) -> list[str]:
    """Full per-team spec texts: the base strategies with the setting's overrides applied.
    ``chosen`` maps (team, param) to a value text (team -1: every team)."""
    _, _, described = game.resolve_strategies(base, rules)
    specs = []
    for d in described:
        t = d["team"]
        name = chosen.get((t, "strategy"), chosen.get((-1, "strategy"), d["name"]))
        params = dict(d["params"]) if name == d["name"] else {}
        for team in (-1, t):  # a team's own value wins over an 'all' value
            params.update({p: v for (tm, p), v in chosen.items()
                           if tm == team and p != "strategy"})
        ps = ",".join(f"{k}={v}" for k, v in params.items())
        specs.append(f"{t}={name}" + (f":{ps}" if ps else ""))
    return specs


def expand(game, rule_opts: list[str], strategies: list[str], axes: list[Axis]) -> list[Setting]:
    """Every setting of the grid, each checked now (rules resolved, strategies resolved), so
    bad input stops the sweep before anything is written."""
    keys = [a.key for a in axes]
    if len(set(keys)) != len(keys):
        raise UsageError("--vary: each key may be varied once")
    settings = []
    for i, combo in enumerate(itertools.product(*(a.values for a in axes))):
        opts = list(rule_opts)
        chosen = {}
        for a, v in zip(axes, combo):
            if a.team is None:
                if a.key not in game.rules.fields:
                    raise UsageError(
                        f"--vary {a.key}: not a rule option of {game.name} (allowed: "
                        f"{', '.join(game.rules.fields)}; T.PARAM or T.strategy for strategies)")
                opts.append(f"{a.key}={v.replace('/', ',')}")
            else:
                chosen[(a.team, a.param)] = v
        try:
            rules = game.rules.resolve(opts)
            n_teams = game.n_teams(rules)
            for team, _ in chosen:
                if team >= n_teams:
                    raise UsageError(f"no team {team} (allowed: 0..{n_teams - 1} or all)")
            specs = _strategy_specs(game, rules, strategies, chosen)
            game.resolve_strategies(specs, rules)
        except UsageError as e:
            label = " ".join(f"{a.key}={v}" for a, v in zip(axes, combo))
            raise UsageError(f"--vary ({label}): {e}") from None
        settings.append(Setting(i, dict(zip(keys, combo)), opts, specs, rules))
    return settings


def run_sweep(game, settings: list[Setting], seed: int, count: int, out: Path, *,
              threads=None, chunk_size=None, debug=False, backend="local", address=None,
              seating="auto", progress: bool | None = None, stop_factory=None) -> dict:
    """Play every setting into ``out/sNNN`` and write ``out/sweep.json`` last.
    ``stop_factory()`` gives each setting its own early stop (adaptive precision)."""
    import datetime as _dt

    from cardsim.simulator.batch import RunSpec, prepare_out_dir, run
    from cardsim.simulator.tables import write_json_atomic

    out = prepare_out_dir(out)
    started = _dt.datetime.now(_dt.timezone.utc)
    rows = []
    for s in settings:
        spec = RunSpec(game, s.rules, s.strategies, seed, count, threads=threads,
                       chunk_size=chunk_size, debug=debug, seating=seating, backend=backend,
                       address=address,
                       extra={"sweep_setting": {"index": s.index, "values": s.values,
                                                "label": s.label}})
        info = run(spec, out / s.folder, progress=progress,
                   stop=stop_factory() if stop_factory is not None else None)
        rows.append({"index": s.index, "folder": s.folder, "label": s.label,
                     "values": s.values, "games": info["games"],
                     "wall_time_s": info["wall_time_s"],
                     **({"precision": info["precision"]} if "precision" in info else {})})
    info = {"game": game.name, "seed": seed, "games": count,
            "started_utc": started.isoformat(timespec="seconds"), "settings": rows}
    write_json_atomic(info, out / "sweep.json")
    return info
