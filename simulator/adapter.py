"""What every game adapter shares beyond its strategies: running the game's engine kernel,
turning kernel rows into typed frames and kernel error codes into one clear message. A game
sets ``kernel_module`` (with its ``KERNEL``, a simulator.engine.Kernel, and its error codes),
``outcomes_module`` (columns and G_GAME), ``decision_errors`` (error-code name in the kernel
-> decision), a ``prepare`` that returns its kernel's (Ctx, fns) and, if it likes,
``invariant_detail``."""
from __future__ import annotations

from importlib import import_module

import numpy as np

from cardsim.simulator.plugins import load_plugin
from cardsim.simulator.strategy import resolve_strategies
from cardsim.simulator.tables import reuse, to_frame


class GameStrategies:
    """Strategy handling every game adapter shares. A game sets ``strategies_module`` (whose
    REGISTRY holds its built-ins), ``default_strategy``, and ``plugin_interface()`` returning
    (decision signature, required decision names, {optional name: default function})."""

    strategies_module: str
    default_strategy = "random"

    @property
    def registry(self):
        from importlib import import_module

        return import_module(self.strategies_module).REGISTRY

    def resolve_strategies(self, specs, rules, extra=None):
        """``extra``: more StrategyDefs by name (plug-ins, test strategies)."""
        registry = {**self.registry, **(extra or {})}
        return resolve_strategies(list(specs), registry, self.n_teams(rules),
                                  default=self.default_strategy, load=self.load_plugin)

    def load_plugin(self, name: str):
        signature, required, optional = self.plugin_interface()
        return load_plugin(name, signature, required, optional)


class GameAdapter(GameStrategies):
    kernel_module: str
    outcomes_module: str
    decision_errors: dict[str, str]
    invariant_detail = "cards not conserved or a meld broke the rules"
    seat_word = "team"  # what the engine's teams are called in messages (seats in rummy)
    # What the studies, compare, sweep, precision, report and the CLI need from a game, all
    # declared by the game (nothing outside its folder names a game):
    # ``analysis_module`` holds metrics(deals, games) (one row per game index: sweeps and
    # --precision), OUTCOME (games-table column of team t's total as "name{}", whether higher
    # totals are better, the winner column: compare), deal_values(deals, teams) (per game and
    # team: compare's per-deal metrics) and report_sections(dirs) (cardsim report of runs);
    # its analysis stays plain Python, so editing it recompiles nothing.
    analysis_module: str | None = None
    analyze_commands: dict[str, str] = {}  # cardsim analyze NAME -> "module:click command"
    rules_doc: str | None = None  # the page of docs/ with the rules as implemented
    # "module:function(sweep_dir, info, quiet)": the game's study over a sweep's settings,
    # printed and written after cardsim sweep (None: the shared sweep table only)
    sweep_report: str | None = None
    # observe(position, seat) and resample(view, rng) for simulator.position: the state a seat
    # sees in the middle of a deal, and a whole state consistent with it (None: not yet)
    position_module: str | None = None

    def analysis(self):
        """The game's analysis module (see ``analysis_module``)."""
        if self.analysis_module is None:
            from cardsim.simulator.errors import UsageError

            raise UsageError(f"{self.name}: this game declares no studies (analysis_module)")
        return import_module(self.analysis_module)

    def load_kernel(self) -> None:
        """Import the game's kernel, which compiles it on a cold cache (the first run after an
        install or an edit) and loads it from Numba's cache otherwise."""
        import_module(self.kernel_module)

    def kernel_ready(self) -> None:
        """Wait until the kernel's functions compiled aside (on a cold cache) are loaded
        (engine.Kernel.ready)."""
        import_module(self.kernel_module).KERNEL.ready()

    def run_blocks(self, prepared, seed, starts, ends, row_starts, row_ends, deals_mode, debug,
                   scratch=None, done=None, presets=None):
        """Play blocks of a chunk through the game's engine kernel (simulator.engine) and
        return its output arrays (see ``row_buffers``). ``prepared`` is what ``prepare``
        returned, (Ctx, fns); the Ctx's seed and mode are set here. ``done``: the blocks' live
        counts of finished games; ``presets``: each game's first deal from ``starts[0]`` on, or
        None (engine.Kernel.run_blocks)."""
        k = import_module(self.kernel_module).KERNEL
        ngames = len(starts) if deals_mode else int(ends[-1] - starts[0])
        out = self.row_buffers(scratch, starts, ends, row_ends, ngames)
        ctx, fns = prepared
        ctx = ctx._replace(seed=np.uint64(seed), deals_mode=bool(deals_mode))
        k.run_blocks(ctx, fns, starts, ends, row_starts, row_ends, deals_mode, debug, out, done,
                     presets)
        return out

    def frames(self, deal_cols, game_rows, first, deals_mode):
        o = import_module(self.outcomes_module)
        deals = to_frame(deal_cols, o.DEAL_COLUMNS, o.DEAL_NULL_IF_NEGATIVE, index_base=first)
        if deals_mode:
            return deals, None
        game_cols = np.ascontiguousarray(game_rows.T)
        game_cols[o.G_GAME] = np.arange(game_cols.shape[1], dtype=np.int32)
        games = to_frame(game_cols, o.GAME_COLUMNS, o.GAME_NULL_IF_NEGATIVE, index_base=first)
        return deals, self.finish_games(games)

    def pack_strategies(self, defs, params, slots: int, builtin_ids: dict, decisions):
        """Kernel inputs for the strategies of ``slots`` teams or seats: built-in ids (-1: call
        the function), one tuple of functions per decision (padded with the last one, so the
        kernel's tuple types never depend on the player count) and the padded parameter rows."""
        sids = np.full(slots, -1, np.int64)
        for t, d in enumerate(defs):
            sids[t] = -1 if d.plugin or d.pointer else builtin_ids.get(d.name, -1)
        arg_types = self.plugin_interface()[0].args
        fns = []
        for decision in decisions:
            per_slot = [d.decisions[decision] for d in defs]
            for f, d in zip(per_slot, defs):
                if not (d.plugin or d.pointer):
                    # compiled (or loaded) by argument types first, as a kernel calling a
                    # built-in directly caches it: turning it into a function pointer looks
                    # it up by the whole signature, a second cache entry that a cold run never
                    # wrote, so the first warm run compiled it again. (A plug-in is compiled
                    # by the whole signature, which also makes its return value an int64.)
                    f.compile(arg_types)
            fns.append(tuple(per_slot + [per_slot[-1]] * (slots - len(per_slot))))
        padded = np.zeros((slots, params.shape[1]), np.float64)
        padded[: params.shape[0]] = params
        return sids, tuple(fns), np.ascontiguousarray(padded)

    def row_buffers(self, scratch, starts, ends, row_ends, game_rows: int):
        """Output arrays of one kernel call: deal rows (reused between chunks), per-block row
        counts, ``game_rows`` game rows, where each block stopped, and its first error."""
        o = import_module(self.outcomes_module)
        nb = len(starts)
        return (reuse(scratch, "deal_cols", (o.D_NCOLS, int(row_ends[-1]))),
                np.zeros(nb, np.int64), reuse(scratch, "game_rows", (game_rows, o.G_NCOLS)),
                np.zeros(nb, np.int64), np.zeros((nb, 5), np.int64))

    def finish_games(self, games):
        """A game's last touches to its games table (default: none)."""
        return games

    def is_invariant_error(self, kind: int) -> bool:
        return kind == import_module(self.kernel_module).INVARIANT

    def describe_error(self, kind, game, seat, team, value, described) -> str:
        k = import_module(self.kernel_module)
        if kind == k.INVARIANT:
            return (f"{self.name}: invariant violated in game {game} ({self.invariant_detail};"
                    f" seat {seat}, detail {value})")
        decision = {getattr(k, code): d for code, d in self.decision_errors.items()}.get(
            kind, "?")
        # ``team``: the strategy's number in --strategy (duplicate seating moves strategies)
        name = described[team]["name"] if 0 <= team < len(described) else "?"
        return (f"strategy '{name}' ({self.seat_word} {team}, seat {seat}) returned an illegal "
                f"{decision} choice {value} in game {game}")
