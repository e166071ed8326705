"""`cardsim tune`: the parameter values of one strategy that win most against a pool.

Every candidate plays the same boards (one seed for the whole study: common random numbers)
against each strategy of the pool, once from every seat, in memory; its score is its mean win
share (ties half) over those games. Parameters are a row of the strategy's parameter matrix,
so a candidate compiles nothing. Optuna proposes the candidates (TPE by default, CMA-ES or
random on request); the study lives in SQLite (``tune.db``) in the output folder, so a killed
study goes on with ``--resume``, and several processes may work on one study at once.

At the end the best candidate, and the strategy as given, are played again on boards the
study never saw (seed + 1), which gives an honest win rate with a paired 95% interval:
the best value of a search over noisy scores is biased upwards. ``tune.json`` is written last.
"""
from __future__ import annotations

import math
import time
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from cardsim.simulator.errors import UsageError
from cardsim.simulator.strategy import parse_spec

SAMPLERS = ("tpe", "cmaes", "random")


@dataclass(frozen=True)
class Range:
    name: str
    lo: float
    hi: float


def parse_range(text: str) -> Range:
    """'p=lo..hi'."""
    name, eq, span = text.partition("=")
    lo, dots, hi = span.partition("..")
    try:
        if not (eq and dots and name.strip()):
            raise ValueError
        r = Range(name.strip(), float(lo), float(hi))
    except ValueError:
        raise UsageError(f"--param {text!r}: write NAME=LO..HI, as in margin=-2..4") from None
    if not r.lo < r.hi:
        raise UsageError(f"--param {text!r}: LO must be below HI")
    return r


def check(game, rules, strategy: str, ranges: list[Range], pool: list[str]):
    """The tuned strategy's definition and fixed parameters; every input checked before
    anything runs."""
    spec = parse_spec(strategy)
    if spec.team >= 0:
        raise UsageError(f"--strategy {strategy!r}: tune seats the strategy itself; give "
                         "NAME[:k=v,...] without a team")
    defs = game.resolve_strategies([strategy], rules)[0]
    sdef = defs[0]
    known = {p.name: p for p in sdef.params}
    if not ranges:
        raise UsageError("tune needs at least one --param NAME=LO..HI (parameters of "
                         f"'{sdef.name}': {', '.join(known) or 'none'})")
    for r in ranges:
        p = known.get(r.name)
        if p is None:
            raise UsageError(f"--param {r.name}: strategy '{sdef.name}' has no such parameter "
                             f"(allowed: {', '.join(known) or 'none'})")
        if r.lo < p.lo or r.hi > p.hi:
            raise UsageError(f"--param {r.name}={r.lo:g}..{r.hi:g}: outside the parameter's "
                             f"range {p.lo:g}..{p.hi:g}")
        if r.name in spec.params:
            raise UsageError(f"--param {r.name}: also fixed in --strategy {strategy!r}")
    if len({r.name for r in ranges}) != len(ranges):
        raise UsageError("--param: a parameter is given twice")
    if not pool:
        raise UsageError("--against: at least one strategy to play against")
    for t in pool:
        if parse_spec(t).team >= 0:
            raise UsageError(f"--against {t!r}: give NAME[:k=v,...] without a team")
        game.resolve_strategies([t], rules)
    return sdef, spec


def text_of(name: str, params: dict[str, float]) -> str:
    ps = ",".join(f"{k}={v:.10g}" for k, v in params.items())
    return f"{name}:{ps}" if ps else name


def board_wins(game, rules, candidate: str, pool: list[str], seed: int, boards: int,
               threads: int, backend: str = "local", address: str | None = None) -> np.ndarray:
    """Per board: the candidate's mean win share over the pool's strategies and every seat
    (a Runner per seating: they share the compiled kernel). With ``backend`` ray the boards
    are played as Ray tasks (``threads`` per task); the games, and so the wins, are the same."""
    from cardsim.analysis.compare import a_side
    from cardsim.simulator.batch import RunSpec, Runner

    teams = game.n_teams(rules)
    total = np.zeros(boards)
    for opponent in pool:
        for r in range(teams):
            specs = [f"{t}={candidate if t == r else opponent}" for t in range(teams)]
            runner = Runner(RunSpec(game, rules, specs, seed, boards, seating="fixed"))
            if backend == "ray":
                import polars as pl

                from cardsim.simulator.ray_backend import RayChunks

                remote = RayChunks(runner, address, threads)
                games = pl.concat([g for *_, g in remote.play([(0, 0, boards)], runner)])
            else:
                games = runner.play_chunk(0, boards, threads)[1]
            side = a_side(games, game.name, r, teams).sort("game_index")
            total += side["win"].to_numpy()
    return total / (len(pool) * teams)


def _sampler(name: str, seed: int):
    import optuna

    if name == "tpe":
        return optuna.samplers.TPESampler(seed=seed)
    if name == "cmaes":
        return optuna.samplers.CmaEsSampler(seed=seed)
    return optuna.samplers.RandomSampler(seed=seed)


def run_tune(game, rules, strategy: str, ranges: list[Range], pool: list[str], *, budget: int,
             boards: int, seed: int, out: Path, threads: int | None = None,
             sampler: str = "tpe", resume: bool = False, log=None, backend: str = "local",
             address: str | None = None) -> dict:
    """Run (or, with ``resume``, continue) the study in ``out``; returns what tune.json holds.
    ``log(text)`` hears one line per candidate."""
    import numba
    import optuna

    from cardsim.simulator.batch import prepare_out_dir
    from cardsim.simulator.tables import write_json_atomic

    sdef, spec = check(game, rules, strategy, ranges, pool)
    if sampler not in SAMPLERS:
        raise UsageError(f"--sampler {sampler!r}: allowed {', '.join(SAMPLERS)}")
    if budget < 1 or boards < 1:
        raise UsageError("--budget and --boards: at least 1")
    if backend == "ray":
        threads = threads or 1  # per task
    else:
        threads = threads or numba.config.NUMBA_NUM_THREADS
        if not 1 <= threads <= numba.config.NUMBA_NUM_THREADS:
            raise UsageError(f"--threads {threads}: allowed "
                             f"1..{numba.config.NUMBA_NUM_THREADS}")
    on = {"backend": backend, "address": address}
    out = Path(out)
    settings = {"game": game.name, "rules": rules, "strategy": strategy,
                "params": {r.name: [r.lo, r.hi] for r in ranges}, "against": pool,
                "boards": boards, "seed": seed, "sampler": sampler}
    if resume:
        import json

        if not (out / "tune-spec.json").exists():
            raise UsageError(f"--resume: {out} holds no tune study")
        if json.loads((out / "tune-spec.json").read_text()) != settings:
            raise UsageError(f"--resume: {out} was started with other settings "
                             "(tune-spec.json)")
        (out / "tune.json").unlink(missing_ok=True)
    else:
        out = prepare_out_dir(out)
        write_json_atomic(settings, out / "tune-spec.json")
    optuna.logging.set_verbosity(optuna.logging.WARNING)
    study = optuna.create_study(study_name="tune", direction="maximize",
                                storage=f"sqlite:///{out / 'tune.db'}",
                                sampler=_sampler(sampler, seed), load_if_exists=True)
    t0 = time.perf_counter()

    def objective(trial):
        values = {r.name: trial.suggest_float(r.name, r.lo, r.hi) for r in ranges}
        wins = board_wins(game, rules, text_of(spec.name, {**spec.params, **values}), pool,
                          seed, boards, threads, **on)
        return float(wins.mean())

    done = sum(t.state == optuna.trial.TrialState.COMPLETE for t in study.trials)
    for k in range(done, budget):
        # a sampler seeded by the candidate's number: a resumed study proposes what an
        # uninterrupted one would (the samplers keep the rest of their state in the study)
        study.sampler = _sampler(sampler, seed * 1_000_003 + k)
        study.optimize(objective, n_trials=1)
        t = study.trials[-1]
        if log is not None:
            log(f"candidate {k + 1}/{budget}: {t.value:.4f}  best {study.best_value:.4f}"
                f"  {text_of(spec.name, t.params)}")
    search_s = time.perf_counter() - t0
    best = {**spec.params, **study.best_params}
    best_text = text_of(spec.name, best)
    # fresh boards: the study's best score is biased upwards (it is the best of many noisy
    # estimates); the strategy as given on the same boards gives a paired difference
    fresh = seed + 1
    w_best = board_wins(game, rules, best_text, pool, fresh, boards, threads, **on)
    w_given = board_wins(game, rules, text_of(spec.name, spec.params), pool, fresh, boards,
                         threads, **on)
    teams = game.n_teams(rules)
    trials = [{"number": t.number, "value": t.value, **t.params} for t in study.trials
              if t.state == optuna.trial.TrialState.COMPLETE]
    import polars as pl

    pl.DataFrame(trials).write_parquet(out / "trials.parquet")
    write_preset(out / "best.toml", spec.name, best, pool, _interval(w_best))
    info = {**settings, "teams": teams, "fair_share": 1 / teams, "candidates": len(trials),
            "best": {"strategy": best_text, "params": best,
                     "study_score": study.best_value, "fresh_seed": fresh,
                     "win": _interval(w_best), "given": _interval(w_given),
                     "difference": _interval(w_best - w_given)},
            "search_s": round(search_s, 2), "preset": "best.toml", "backend": backend}
    write_json_atomic(info, out / "tune.json")
    return info


def _interval(x: np.ndarray) -> dict:
    """Mean per board with a 95% interval (boards are independent; a board's value already
    averages its seats and opponents, which keeps the pairing)."""
    n = len(x)
    mean = float(x.mean())
    se = float(x.std(ddof=1) / math.sqrt(n)) if n > 1 else math.nan
    return {"mean": mean, "lo": mean - 1.96 * se, "hi": mean + 1.96 * se, "boards": n}


def write_preset(path: Path, name: str, params: dict[str, float], pool: list[str],
                 win: dict) -> None:
    """A strategy preset file, usable as --strategy TEAM=FILE.toml."""
    lines = [f"# cardsim tune: win share {win['mean']:.4f} [{win['lo']:.4f}, {win['hi']:.4f}]"
             f" over {win['boards']:,} fresh boards against {', '.join(pool)}",
             f'strategy = "{name}"', "", "[params]"]
    lines += [f"{k} = {float(v)!r}" for k, v in params.items()]
    path.write_text("\n".join(lines) + "\n")
