"""Contract Rummy: the game adapter the engine and CLI use (rules, strategies, kernel, tables)."""
from __future__ import annotations

from cardsim.simulator._cache import use_game_cache

# Numba cache folder keyed by this game's sources (see simulator/_cache.py); must run before
# any of the game's @njit functions are decorated, i.e. before the imports below.
use_game_cache("contract_rummy")

import numpy as np  # noqa: E402

from cardsim.simulator.games.contract_rummy import outcomes as O  # noqa: E402
from cardsim.simulator.games.contract_rummy.rules import MAX_SEATS, RULES, to_array  # noqa: E402
from cardsim.simulator.games.contract_rummy.view import DECISIONS  # noqa: E402
from cardsim.simulator.adapter import GameAdapter  # noqa: E402


class ContractRummy(GameAdapter):
    """Each player plays for themselves: the engine's "teams" are the seats."""

    name = "contract-rummy"
    rules = RULES
    supports_deals_mode = False
    supports_seating = True  # duplicate seating (rotations of strategies over seats)
    default_strategy = "table_reader"
    strategies_module = "cardsim.strategies.contract_rummy"
    kernel_module = "cardsim.simulator.games.contract_rummy.kernel"
    dispatch_spec = "cardsim.simulator.games.contract_rummy.view:DISPATCH"
    outcomes_module = "cardsim.simulator.games.contract_rummy.outcomes"
    analysis_module = "cardsim.simulator.games.contract_rummy.analysis"
    position_module = "cardsim.simulator.games.contract_rummy.position"
    analyze_commands = {"contract-completion": "cardsim.simulator.games.contract_rummy.cli:contract_completion_cmd"}
    rules_doc = "docs/rules/contract_rummy.md"
    decision_errors = {"BAD_DRAW": "draw", "BAD_BUY": "buy", "BAD_LAY": "lay",
                       "BAD_LAYOFF": "layoff", "BAD_DISCARD": "discard"}
    seat_word = "strategy"
    deal_columns = O.DEAL_COLUMNS
    game_columns = O.GAME_COLUMNS
    deal_ncols = O.D_NCOLS
    game_ncols = O.G_NCOLS

    def n_teams(self, rules: dict) -> int:
        return rules["players"]

    def plugin_interface(self):
        from cardsim.simulator.games.contract_rummy.view import DECISION_SIG
        from cardsim.strategies.contract_rummy import heuristic_buy, heuristic_lay, heuristic_layoff

        return (DECISION_SIG, ("draw", "discard"),
                {"buy": heuristic_buy, "lay": heuristic_lay, "layoff": heuristic_layoff})

    def expected_deals(self, rules: dict) -> int:
        """Deal-table rows per game: one per deal and seat."""
        return len(rules["contracts"]) * rules["players"]

    def default_chunk(self, deals_mode: bool) -> int:
        return 20_000

    def prepare(self, rules: dict, defs, params, rotations: int = 0):
        from cardsim.simulator.games.contract_rummy.kernel import Ctx
        from cardsim.strategies.contract_rummy import BUILTIN_IDS

        # the kernel's own pointers (play_deal, the contract search) the engine appends
        sids, fns, padded = self.pack_strategies(defs, params, MAX_SEATS, BUILTIN_IDS, DECISIONS)
        return Ctx(np.uint64(0), False, to_array(rules), sids, padded, int(rotations)), fns

GAME = ContractRummy()
