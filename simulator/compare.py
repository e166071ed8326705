"""Strategy comparison: every strategy meets every other on the same deals, from every seat.

A match (A, B) is played as one run per *rotation*: in rotation r, team r is played by A and
every other team by B. All runs share the seed, so game g of every run deals the same cards
(the shuffles come from the game's own streams, never from the strategies' choices): a board
is one game index seen from every seat, and differences between strategies are paired on it.
This needs nothing from the game's kernel, so it works for every game. ``compare.json`` is
written last, so a comparison folder without it is unfinished.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from pathlib import Path

from simulator.errors import UsageError
from simulator.strategy import parse_spec


@dataclass(frozen=True)
class Seating:
    pair: int  # index of the match
    a: int  # strategy indices into the compared list
    b: int
    rotation: int  # team played by A
    specs: tuple[str, ...]  # --strategy texts per team

    @property
    def folder(self) -> str:
        return f"m{self.pair:02d}-r{self.rotation}"


def check_strategies(game, rules, texts: list[str]) -> list[str]:
    """Strategy texts without a team ('cautious:margin=2', 'file.py:NAME'), each resolved now
    so bad input stops before anything runs."""
    if len(texts) < 2:
        raise UsageError("compare needs at least two --strategy values (got "
                         f"{len(texts)})")
    for t in texts:
        if parse_spec(t).team >= 0:
            raise UsageError(f"--strategy {t!r}: compare seats the strategies itself; give "
                             "NAME[:k=v,...] without a team")
        game.resolve_strategies([t], rules)
    if len(set(texts)) != len(texts):
        raise UsageError("compare: a --strategy value is given twice")
    return list(texts)


def plan(game, rules, texts: list[str]) -> list[Seating]:
    """Every unordered pair, in every rotation."""
    n_teams = game.n_teams(rules)
    out = []
    for pair, (a, b) in enumerate(itertools.combinations(range(len(texts)), 2)):
        for r in range(n_teams):
            specs = tuple(f"{t}={texts[a] if t == r else texts[b]}" for t in range(n_teams))
            out.append(Seating(pair, a, b, r, specs))
    return out


def run_compare(game, rules, texts: list[str], seed: int, count: int, out: Path, *,
                threads=None, chunk_size=None, debug=False, progress=None) -> dict:
    import datetime as _dt

    from simulator.batch import RunSpec, prepare_out_dir, run
    from simulator.tables import write_json_atomic

    texts = check_strategies(game, rules, texts)
    seatings = plan(game, rules, texts)
    out = prepare_out_dir(out)
    started = _dt.datetime.now(_dt.timezone.utc)
    runs = []
    for s in seatings:
        spec = RunSpec(game, rules, list(s.specs), seed, count, threads=threads,
                       chunk_size=chunk_size, debug=debug, seating="fixed",
                       extra={"compare": {"pair": s.pair, "a": texts[s.a], "b": texts[s.b],
                                          "rotation": s.rotation}})
        info = run(spec, out / s.folder, progress=progress)
        runs.append({"folder": s.folder, "pair": s.pair, "a": s.a, "b": s.b,
                     "a_team": s.rotation, "wall_time_s": info["wall_time_s"]})
    info = {"game": game.name, "seed": seed, "games": count, "rules": rules,
            "strategies": texts, "teams": game.n_teams(rules),
            "started_utc": started.isoformat(timespec="seconds"), "runs": runs}
    write_json_atomic(info, out / "compare.json")
    return info
