"""Hand and Foot: the game adapter the engine and CLI use (rules, strategies, kernel, tables)."""
from __future__ import annotations

from cardsim.simulator._cache import use_game_cache

# Numba cache folder keyed by this game's sources (see simulator/_cache.py); must run before
# any of the game's @njit functions are decorated, i.e. before the imports below.
use_game_cache("hand_and_foot")

import numpy as np  # noqa: E402
import polars as pl  # noqa: E402

from cardsim.simulator.dispatchgen import DispatchSpec, Entry  # noqa: E402
from cardsim.simulator.games.hand_and_foot import outcomes as O  # noqa: E402
from cardsim.simulator.games.hand_and_foot.rules import RULES, n_teams, to_array  # noqa: E402
from cardsim.simulator.games.hand_and_foot.view import DECISIONS, MAX_TEAMS  # noqa: E402
from cardsim.simulator.adapter import GameAdapter  # noqa: E402

STRATEGIES = "cardsim.strategies.hand_and_foot"
_DECISION_ARGS = ("mine", "public", "private", "legal", "params", "rng")  # view.DECISION_SIG
# The kernel's strategy dispatch (dispatch.py), written from STRATEGIES.BUILTINS by
# python -m cardsim.simulator.dispatchgen: each decision inlined where the kernel asks it (as
# the direct calls to the built-ins always were), and the fast path meld_stops. Declared here
# rather than in view.py beside DECISION_SIG: it names the strategies module, which no
# kernel-side file of the game does (tests/test_dispatch.py).
DISPATCH = DispatchSpec(STRATEGIES, "cardsim.simulator.games.hand_and_foot.dispatch", (
    *(Entry(d, _DECISION_ARGS, inline=True) for d in DECISIONS),
    Entry("meld_stops", ("public", "private", "params"), hook=True, default="False",
          doc="true when built-in ``sid`` answers STOP to any meld list that holds STOP, so "
          "the kernel need not build the list (the heuristics while they wait to open); "
          "False for the others. Monotone in ``V_REACH``: true for a reach, it is true for "
          "every smaller one (0 or more), so the kernel may ask it with an upper bound of the "
          "reach first"),
))


class HandAndFoot(GameAdapter):
    name = "hand-and-foot"
    rules = RULES
    supports_deals_mode = False
    strategies_module = STRATEGIES
    # the strongest built-in (cardsim compare / ladder, docs/hand_and_foot.md)
    default_strategy = "table_reader"
    kernel_module = "cardsim.simulator.games.hand_and_foot.kernel"
    dispatch_spec = "cardsim.simulator.games.hand_and_foot:DISPATCH"
    outcomes_module = "cardsim.simulator.games.hand_and_foot.outcomes"
    analysis_module = "cardsim.simulator.games.hand_and_foot.analysis"
    position_module = "cardsim.simulator.games.hand_and_foot.position"
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
        from cardsim.simulator.games.hand_and_foot.kernel import Ctx

        from cardsim.strategies.hand_and_foot import BUILTIN_IDS

        sids, fns, padded = self.pack_strategies(defs, params, MAX_TEAMS, BUILTIN_IDS, DECISIONS)
        # (the kernel's own pointer, PLAY_DEAL, the engine passes beside these: kernel.KERNEL)
        return Ctx(np.uint64(0), False, to_array(rules), sids, padded), fns

    def finish_games(self, games):
        return games.with_columns(
            pl.when(pl.col("teams") >= 3).then(pl.col("total_team2")).alias("total_team2"))


GAME = HandAndFoot()
