"""A run's specification and the runner that plays its chunks, shared by the local threads
(simulator.batch) and the Ray workers (simulator.ray_backend): rows come back in game-index
order, so the tables depend only on (rules, strategies, seed, count), never on threads, chunk
or block sizes. A block that runs out of row space (games of unknown length) reports where it
stopped and is simply continued."""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from cardsim.simulator.errors import StrategyError, UsageError
from cardsim.simulator.strategy import resolve_seating


@dataclass
class RunSpec:
    game: object  # the game adapter (simulator.games.<game>.GAME)
    rules: dict
    strategies: list[str]
    seed: int
    count: int
    deals_mode: bool = False
    threads: int | None = None
    chunk_size: int | None = None
    debug: bool = False
    extra: dict = field(default_factory=dict)  # more keys for run.json
    registry: dict | None = None  # strategies beyond the built-ins (plug-ins, tests)
    seating: str = "auto"  # auto | fixed | duplicate (see simulator.strategy.resolve_seating)
    backend: str = "local"  # local (threads in this process) | ray (simulator.ray_backend)
    address: str | None = None  # ray: None starts a local instance; auto / HOST:PORT join one
    # a constrained.Spec: every game's first deal (in deals mode every deal) is dealt from it,
    # its places counted from the first player (simulator.constrained)
    fixed_deal: object | None = None


def plan_blocks(first: int, n: int, threads: int) -> tuple[np.ndarray, np.ndarray]:
    nb = max(1, min(n, 16 * threads))
    edges = first + (np.arange(nb + 1, dtype=np.int64) * n) // nb
    return np.ascontiguousarray(edges[:-1]), np.ascontiguousarray(edges[1:])


class Runner:
    """Plays chunks of a prepared game; ``play_chunk`` returns typed deal and game tables."""

    def __init__(self, spec: RunSpec):
        self.spec = spec
        g = spec.game
        self.n_teams = g.n_teams(spec.rules)
        self.defs, self.params, self.described = g.resolve_strategies(
            spec.strategies, spec.rules, spec.registry)
        self.rotations = seating_rotations(g, spec.seating, self.described, self.n_teams)
        if self.rotations and spec.count % self.rotations:
            unit = "--deals" if spec.deals_mode else "--games"
            raise UsageError(f"{unit} {spec.count}: duplicate seating plays sets of "
                             f"{self.rotations} games on the same deals, so the count must be "
                             f"a multiple of {self.rotations} (or use --seating fixed)")
        self._ctx = None
        self._scratch: dict = {}  # row buffers reused from chunk to chunk (no page faults)

    @property
    def ctx(self):
        """The kernel's inputs, made on first use: they hold the kernel's own functions, so
        making them imports (and on a cold cache compiles) the kernel, which ``run`` times
        and announces apart, after the strategies are checked."""
        if self._ctx is None:
            self._ctx = self.spec.game.prepare(self.spec.rules, self.defs, self.params,
                                               self.rotations)
        return self._ctx

    def play_rows(self, first: int, n: int, threads: int, tally=None):
        """Kernel output for games first..first+n-1 in game order: deal table column-major
        (columns x deals, possibly a view of a reused buffer) and game rows (games x columns;
        None in deals mode). ``tally`` (a progress.Tally) counts the games as they finish."""
        g = self.spec.game
        deals_mode = self.spec.deals_mode
        starts, ends = plan_blocks(first, n, threads)
        per_game = 1 if deals_mode else g.expected_deals(self.spec.rules)
        pieces: dict[int, list[np.ndarray]] = {}
        game_rows = None if deals_mode else np.empty((n, g.game_ncols), np.int32)
        pending = [(b, int(s), int(e)) for b, (s, e) in enumerate(zip(starts, ends)) if e > s]
        passes = 0
        while pending:
            bs = np.array([p[1] for p in pending], np.int64)
            be = np.array([p[2] for p in pending], np.int64)
            # deals mode: exactly one row per game, so blocks land back to back in game order
            room = (be - bs) * per_game + (0 if deals_mode else 8)
            row_ends = np.cumsum(room)
            row_starts = row_ends - room
            done = np.zeros(len(pending), np.int64)
            if tally is not None:
                tally.watch(done)
            presets = None
            if self.spec.fixed_deal is not None:
                from cardsim.simulator.constrained import board_deals

                presets = board_deals(self.spec.fixed_deal, self.spec.seed, int(bs[0]),
                                      int(be[-1] - bs[0]), self.rotations)
            deal_cols, deal_n, gr, stopped, errs = g.run_blocks(
                self.ctx, self.spec.seed, bs, be, row_starts, row_ends, deals_mode,
                self.spec.debug, self._scratch, done, presets)
            if tally is not None:
                # a block that ran out of rows is played on from its first unfinished game,
                # which this pass did not count
                tally.settle(int(np.where(stopped >= 0, stopped, be).sum() - bs.sum()))
            self._raise_errors(errs)
            base = int(bs[0])
            again = bool((stopped >= 0).any())  # another pass will reuse the row buffer
            if deals_mode and not again and passes == 0:
                return deal_cols[:, : int(row_ends[-1])], None
            nxt = []
            for i, (b, s, e) in enumerate(pending):
                cols = deal_cols[:, row_starts[i]: row_starts[i] + deal_n[i]]
                cols = cols.copy() if again else cols
                cols[0] += base - first  # kernel offsets are relative to this call's first game
                pieces.setdefault(b, []).append(cols)
                done_to = e if stopped[i] < 0 else int(stopped[i])
                if game_rows is not None:
                    game_rows[s - first: done_to - first] = gr[s - base: done_to - base]
                if stopped[i] >= 0:
                    nxt.append((b, int(stopped[i]), e))
            pending = nxt
            per_game *= 2
            passes += 1
        ordered = [p for b in sorted(pieces) for p in pieces[b]]
        if ordered:
            deal_cols = np.concatenate(ordered, axis=1)
        else:
            deal_cols = np.zeros((g.deal_ncols, 0), np.int32)
        return deal_cols, game_rows

    def _raise_errors(self, errs: np.ndarray) -> None:
        bad = np.nonzero(errs[:, 0])[0]
        if len(bad) == 0:
            return
        kind, game, seat, team, value = (int(x) for x in errs[bad[0]])
        msg = self.spec.game.describe_error(kind, game, seat, team, value, self.described)
        if self.spec.game.is_invariant_error(kind):
            raise AssertionError(msg)
        raise StrategyError(msg)

    def play_chunk(self, first: int, n: int, threads: int, tally=None):
        deal_cols, game_rows = self.play_rows(first, n, threads, tally)
        return self.spec.game.frames(deal_cols, game_rows, first, self.spec.deals_mode)


def seating_rotations(game, seating: str, described: list[dict], n_teams: int) -> int:
    """Rotations per duplicate set for this run (0: fixed seats); games without duplicate
    seating support fall back to fixed seats unless it was asked for explicitly."""
    k = resolve_seating(seating, described, n_teams)
    if k and not getattr(game, "supports_seating", False):
        if seating == "duplicate":
            raise UsageError(f"--seating duplicate is not available for {game.name}")
        return 0
    return k
