"""Python API for notebooks: the command line's run, compare, sweep and tune, returning
polars DataFrames (tune: its summary). Same engine, same seeds: a table from here equals the command's table.

    from cardsim.simulator.api import simulate, compare, sweep, tune
    r = simulate("fifty-six", deals=100_000, seed=1)
    r.deals.group_by("bid").agg(pl.col("made").mean())

Rules are a dict (``{"players": 6}``) or ``key=value`` strings; strategies are the CLI's
``--strategy`` texts (``["0=cautious:margin=2", "1=random"]``).
"""
from __future__ import annotations

import tempfile
from pathlib import Path
from typing import NamedTuple, Sequence

import polars as pl


class Result(NamedTuple):
    deals: pl.DataFrame
    games: pl.DataFrame | None  # None in deals mode
    info: dict


def _rules(g, rules):
    if rules is None:
        return g.rules.resolve({})
    return g.rules.resolve(dict(rules) if isinstance(rules, dict) else list(rules))


def simulate(game: str, *, games: int | None = None, deals: int | None = None, rules=None,
             strategies: Sequence[str] = (), seed: int = 0, threads: int | None = None,
             seating: str = "auto", chunk_size: int | None = None, debug: bool = False,
             backend: str = "local", address: str | None = None,
             out: str | Path | None = None) -> Result:
    """Play ``games`` whole games (or, for 56, ``deals`` independent deals). With ``out`` the
    run is also written as the command would write it; without, it stays in memory.
    ``backend="ray"`` plays the chunks on Ray (``address``: None starts a local instance,
    'auto' or HOST:PORT joins a cluster) with the same tables."""
    import numba

    from cardsim._version import __version__
    from cardsim.simulator.batch import BACKENDS, RunSpec, Runner, plan_chunks, play_local, run
    from cardsim.simulator.errors import UsageError
    from cardsim.simulator.games import get_game

    g = get_game(game)
    if games is not None and deals is not None:
        raise UsageError("give either games or deals, not both")
    deals_mode = deals is not None
    count = deals if deals_mode else (games if games is not None else 10_000)
    if count < 1:
        raise UsageError(f"{'deals' if deals_mode else 'games'} {count}: must be positive")
    if backend not in BACKENDS:
        raise UsageError(f"backend {backend!r}: allowed: {', '.join(BACKENDS)}")
    spec = RunSpec(g, _rules(g, rules), list(strategies), seed, count, deals_mode=deals_mode,
                   threads=threads, chunk_size=chunk_size, debug=debug, seating=seating,
                   backend=backend, address=address)
    if out is not None:
        info = run(spec, Path(out), progress=False)
        d = pl.read_parquet(sorted(Path(out).glob("deals-*.parquet")))
        gf = sorted(Path(out).glob("games-*.parquet"))
        return Result(d, pl.read_parquet(gf) if gf else None, info)
    if deals_mode and not g.supports_deals_mode:
        raise UsageError(f"deals mode is not available for {g.name} (use games)")
    runner = Runner(spec)
    chunk = chunk_size or g.default_chunk(deals_mode)
    todo = plan_chunks(count, chunk)
    if backend == "ray":
        from cardsim.simulator.ray_backend import RayChunks

        source = RayChunks(runner, address, threads or 1).play(todo, runner)
    else:
        n_threads = threads or numba.config.NUMBA_NUM_THREADS
        numba.set_num_threads(n_threads)
        source = play_local(runner, todo, n_threads)
    parts = [(d, gm) for *_, d, gm in source]
    d = pl.concat([p[0] for p in parts])
    gm = None if parts[0][1] is None else pl.concat([p[1] for p in parts])
    info = {"game": g.name, "mode": "deals" if deals_mode else "games", "seed": seed,
            "count": count, "rules": spec.rules, "strategies": runner.described,
            "rotations": runner.rotations, "package_version": __version__}
    return Result(d, gm, info)


def compare(game: str, strategies: Sequence[str], *, games: int = 10_000, rules=None,
            seed: int = 0, threads: int | None = None, backend: str = "local",
            address: str | None = None,
            out: str | Path | None = None) -> dict[str, pl.DataFrame]:
    """Every strategy against every other on the same deals from every seat (as
    ``cardsim compare``): {"pairs": paired estimates and tests, "ratings": the ranking}."""
    from cardsim.analysis.compare import study
    from cardsim.simulator.compare import run_compare
    from cardsim.simulator.games import get_game

    g = get_game(game)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out) if out is not None else Path(tmp) / "compare"
        run_compare(g, _rules(g, rules), list(strategies), seed, games, folder,
                    threads=threads, backend=backend, address=address, progress=False)
        return study(folder)


def tune(game: str, strategy: str, params: dict[str, tuple[float, float]], *,
         against: Sequence[str] = (), budget: int = 100, boards: int = 2_000, rules=None,
         seed: int = 0, threads: int | None = None, sampler: str = "tpe",
         out: str | Path | None = None, resume: bool = False) -> dict:
    """The values of ``strategy``'s parameters in ``params`` ({name: (lo, hi)}) that win most
    against ``against`` (default: the game's default strategy), as ``cardsim tune``: returns
    what tune.json holds ("best": the strategy text, parameters, and the win share on fresh
    boards with its 95% interval). With ``out`` the study (and best.toml) is kept there."""
    from cardsim.simulator.games import get_game
    from cardsim.simulator.tune import Range, run_tune

    g = get_game(game)
    ranges = [Range(k, float(lo), float(hi)) for k, (lo, hi) in params.items()]
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out) if out is not None else Path(tmp) / "tune"
        return run_tune(g, _rules(g, rules), strategy, ranges,
                        list(against) or [g.default_strategy], budget=budget, boards=boards,
                        seed=seed, out=folder, threads=threads, sampler=sampler,
                        resume=resume)


def _text(v) -> str:
    if isinstance(v, (list, tuple)):
        return "/".join(str(x) for x in v)
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def sweep(game: str, vary: dict[str, Sequence], *, games: int = 10_000, rules=None,
          strategies: Sequence[str] = (), seed: int = 0, threads: int | None = None,
          backend: str = "local", address: str | None = None,
          out: str | Path | None = None) -> pl.DataFrame:
    """A grid over rule options and strategy parameters (keys as for ``--vary``: ``min_meld``,
    ``0.hold``, ``all.margin``, ``1.strategy``), every setting on the same seed. Returns the
    tidy table: a row per (setting, metric) with its interval and the paired difference from
    the first setting."""
    from cardsim.analysis.sweep import write_sweep_table
    from cardsim.simulator.games import get_game
    from cardsim.simulator.sweep import Axis, expand, parse_vary, run_sweep

    g = get_game(game)
    if rules is None:
        base = []
    elif isinstance(rules, dict):
        base = [f"{k}={_text(v).replace('/', ',')}" for k, v in rules.items()]
    else:
        base = list(rules)
    axes: list[Axis] = [parse_vary(f"{k}=" + ",".join(_text(v) for v in values))
                        for k, values in vary.items()]
    settings = expand(g, base, list(strategies), axes)
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(out) if out is not None else Path(tmp) / "sweep"
        run_sweep(g, settings, seed, games, folder, threads=threads, backend=backend,
                  address=address, progress=False)
        return write_sweep_table(folder)


def hand(game: str, cards: str, *, seat: int = 0, constraints: Sequence[str] = (),
         deals: int = 20_000, strategies: Sequence[str] = (), rules=None, seed: int = 0,
         deal: int = 0, threads: int | None = None, contract: str | None = None,
         foot: str | None = None) -> dict:
    """What the hand ``cards`` (written as the replay logs write cards: ``"7S 7H 7D 9C"``) is
    worth to the player in place ``seat`` of the turn order (0 plays first), over ``deals``
    deals of the other cards at random under ``constraints`` (``PLACE:points:LO..HI`` ...; see
    docs/commands.md): the game's hand table as a dict whose ``rows`` hold one row each.
    ``deal``: which deal of the game (its contract or minimum meld). 56: the hand is the
    bidder's, in every contract or in ``contract`` alone (``"40C"``, ``"44NTx"``). Hand and
    Foot: ``foot`` fixes the hand's foot too."""
    import numba

    from cardsim.simulator import constrained as C
    from cardsim.simulator.errors import UsageError
    from cardsim.simulator.games import get_game
    from importlib import import_module

    from cardsim.simulator.runner import RunSpec, Runner

    g = get_game(game)
    an = g.analysis()
    if not hasattr(an, "hand_rows"):
        raise UsageError(f"cardsim hand: not available for {g.name} yet")
    if deals < 1:
        raise UsageError(f"--deals {deals}: must be a positive whole number")
    base = _rules(g, rules)
    played = an.hand_setup(g, base, deal)
    n = int(played["players"])
    if not 0 <= seat < n:
        raise UsageError(f"--seat {seat}: allowed 0..{n - 1} (the place in turn order, 0 "
                         "plays first)")
    pm = import_module(g.position_module)
    places = pm.turn_places(played)  # hand0 plays first
    mine = C.parse_cards(cards, "--hand")
    size = len(places[f"hand{seat}"])
    if len(mine) != size:
        raise UsageError(f"--hand: {len(mine)} cards, but a hand in this deal has {size}")
    fixed = {f"hand{seat}": mine}
    if foot is not None:
        if f"foot{seat}" not in places:
            raise UsageError(f"--foot: {g.name} deals no foot")
        fixed[f"foot{seat}"] = C.parse_cards(foot, "--foot")
        if len(fixed[f"foot{seat}"]) != len(places[f"foot{seat}"]):
            raise UsageError(f"--foot: {len(fixed[f'foot{seat}'])} cards, but a foot in this "
                             f"deal has {len(places[f'foot{seat}'])}")
    spec = C.build(pm.deck(played), places, fixed,
                   [C.parse_constraint(t, places) for t in constraints], pm.CARD_POINTS)
    if hasattr(an, "hand_plays"):
        plays = an.hand_plays(g, played, seat, contract)
    elif contract is not None:
        raise UsageError(f"--contract: {g.name} has no fixed contracts (a 56 study setting)")
    else:
        plays = {"": played}
    nthreads = threads or numba.config.NUMBA_NUM_THREADS
    numba.set_num_threads(nthreads)
    chunk = g.default_chunk(False)
    frames = {}
    for label, rules_k in plays.items():  # every run on the same seed: the same deals
        runner = Runner(RunSpec(g, rules_k, list(strategies), seed, deals, seating="fixed",
                                fixed_deal=spec))
        frames[label] = pl.concat([runner.play_chunk(first, min(chunk, deals - first),
                                                     nthreads)[0]
                                   for first in range(0, deals, chunk)])
    table = an.hand_rows(frames, seat, played)
    return {"game": g.name, "hand": cards, **({"foot": foot} if foot else {}), "seat": seat,
            "deal": deal, "seed": seed,
            "strategies": runner.described, "constraints": list(constraints), **table}


def outlook(position, *, samples: int = 500, strategies: Sequence[str] = (), seed: int = 0,
            choices: bool = True) -> dict:
    """What a position is worth to the seat to decide, and what each of its choices is worth:
    ``position`` is a position file's path (``cardsim replay --stop-at``, docs/commands.md) or
    a ``simulator.position.Position``. The cards the seat cannot see are dealt again
    ``samples`` times consistently with what it saw, and the deal is played on by
    ``strategies`` (default: the file's) after each choice: a dict whose ``rows`` hold one row
    per choice (``choice``), the first the strategies' own (simulator.outlook)."""
    from pathlib import Path

    from cardsim.simulator.outlook import outlook as run_outlook
    from cardsim.simulator.positionfile import read

    saved: list[str] = []
    if isinstance(position, (str, Path)):
        position, saved = read(Path(position))
    return run_outlook(position, samples, list(strategies) or saved, seed, choices)
