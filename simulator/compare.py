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

from cardsim.simulator.errors import UsageError
from cardsim.simulator.strategy import parse_spec


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
                threads=None, chunk_size=None, debug=False, backend="local", address=None,
                progress=None, precision: float | None = None) -> dict:
    """Play every seating of every match for ``count`` boards into ``out``. With
    ``precision``, ``count`` is a cap: a first pass of min(count, 2,000) boards estimates how
    many boards every match's win-rate interval needs to be that narrow, and the comparison
    is played again with that many (repeated while an estimate falls short; each pass is
    seeded the same, so the passes' first boards coincide and the result is reproducible)."""
    import math
    import shutil

    from cardsim.simulator.batch import prepare_out_dir

    texts = check_strategies(game, rules, texts)
    if precision is not None and not (0 < precision < 1):
        raise UsageError(f"--precision {precision}: the win rate's 95% half-width, "
                         "between 0 and 1")
    out = prepare_out_dir(out)
    opts = {"threads": threads, "chunk_size": chunk_size, "debug": debug, "backend": backend,
            "address": address}
    if precision is None:
        return _play(game, rules, texts, seed, count, out, opts, progress)
    from cardsim.analysis.compare import study

    boards, passes = min(count, 2000), 0
    while True:
        passes += 1
        folder = out / ".passes" / str(passes)
        info = _play(game, rules, texts, seed, boards, folder, opts, progress)
        pairs = study(folder)["pairs"]
        half = max((h - lo) / 2 for h, lo in pairs.filter(pairs["metric"] == "win")
                   .select("hi", "lo").iter_rows())
        if half <= precision or boards >= count:
            break
        boards = min(count, max(boards + 1, math.ceil(boards * 1.1 * (half / precision) ** 2)))
    for item in folder.iterdir():
        shutil.move(str(item), out / item.name)
    shutil.rmtree(out / ".passes")
    info["precision"] = {"metric": "win", "target_half_width": precision, "half_width": half,
                         "boards": boards, "passes": passes, "reached": half <= precision}
    from cardsim.simulator.tables import write_json_atomic

    write_json_atomic(info, out / "compare.json")
    return info


def _play(game, rules, texts, seed, count, out, opts: dict, progress) -> dict:
    """``opts``: RunSpec's threads, chunk_size, debug, backend and address."""
    import datetime as _dt

    from cardsim.simulator.batch import RunSpec, run
    from cardsim.simulator.tables import write_json_atomic

    seatings = plan(game, rules, texts)
    started = _dt.datetime.now(_dt.timezone.utc)
    runs = []
    for s in seatings:
        spec = RunSpec(game, rules, list(s.specs), seed, count, seating="fixed", **opts,
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
