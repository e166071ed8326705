"""Hand and Foot: the game adapter the engine and CLI use (rules, strategies, kernel, tables)."""
from __future__ import annotations

from cardsim.simulator._cache import use_game_cache

# Numba cache folder keyed by this game's sources (see simulator/_cache.py); must run before
# any of the game's @njit functions are decorated, i.e. before the imports below.
use_game_cache("hand_and_foot")

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from cardsim.simulator.games.hand_and_foot import outcomes as O  # noqa: E402
from cardsim.simulator.games.hand_and_foot.rules import RULES, n_teams, to_array  # noqa: E402
from cardsim.simulator.games.hand_and_foot.view import DECISIONS, MAX_TEAMS  # noqa: E402
from cardsim.simulator.adapter import GameAdapter  # noqa: E402


class HandAndFoot(GameAdapter):
    name = "hand-and-foot"
    rules = RULES
    supports_deals_mode = False
    strategies_module = "cardsim.strategies.hand_and_foot"
    # the strongest built-in (cardsim compare / ladder, docs/hand_and_foot.md)
    default_strategy = "table_reader"
    kernel_module = "cardsim.simulator.games.hand_and_foot.kernel"
    outcomes_module = "cardsim.simulator.games.hand_and_foot.outcomes"
    analysis_module = "cardsim.simulator.games.hand_and_foot.analysis"
    analyze_commands = {"min-meld": "cardsim.simulator.games.hand_and_foot.cli:min_meld_cmd"}
    rules_doc = "docs/rules/hand_and_foot.md"
    sweep_report = "cardsim.simulator.games.hand_and_foot.cli:sweep_report"
    decision_errors = {"BAD_DRAW": "draw", "BAD_MELD": "meld", "BAD_DISCARD": "discard",
                       "BAD_ASK": "ask", "BAD_GRANT": "grant"}
    deal_columns = O.DEAL_COLUMNS
    game_columns = O.GAME_COLUMNS
    deal_ncols = O.D_NCOLS
    game_ncols = O.G_NCOLS

    def n_teams(self, rules: dict) -> int:
        return n_teams(rules["players"])

    def plugin_interface(self):
        from cardsim.simulator.games.hand_and_foot.view import DECISION_SIG
        from cardsim.strategies.hand_and_foot import heuristic_ask, heuristic_grant

        return (DECISION_SIG, ("draw", "meld", "discard"),
                {"ask": heuristic_ask, "grant": heuristic_grant})

    def expected_deals(self, rules: dict) -> int:
        """Deal-table rows per game: one per deal and team."""
        return rules["deals"] * self.n_teams(rules)

    def default_chunk(self, deals_mode: bool) -> int:
        return 20_000

    def prepare(self, rules: dict, defs, params, rotations: int = 0):
        """The kernel's (Ctx, fns); seats are fixed, so ``rotations`` is always 0."""
        from cardsim.simulator.games.hand_and_foot.kernel import PLAY_DEAL, Ctx

        from cardsim.strategies.hand_and_foot import BUILTIN_IDS

        sids, fns, padded = self.pack_strategies(defs, params, MAX_TEAMS, BUILTIN_IDS, DECISIONS)
        # the kernel calls each deal through this pointer (see kernel.PLAY_DEAL)
        return Ctx(np.uint64(0), False, to_array(rules), sids, padded), (*fns, PLAY_DEAL)

    def finish_games(self, games):
        return games.with_columns(
            pl.when(pl.col("teams") >= 3).then(pl.col("total_team2")).alias("total_team2"))


GAME = HandAndFoot()
