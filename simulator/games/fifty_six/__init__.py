"""56: the game adapter the engine and CLI use (rules, strategies, kernel, tables, replay)."""
from __future__ import annotations

from cardsim.simulator._cache import use_game_cache

use_game_cache("fifty_six")  # before any of the game's @njit functions are decorated

import numpy as np  # noqa: E402

from cardsim.simulator.games.fifty_six import outcomes as O  # noqa: E402
from cardsim.simulator.games.fifty_six.rules import RULES, to_array  # noqa: E402
from cardsim.simulator.adapter import GameAdapter  # noqa: E402

from cardsim.simulator.games.fifty_six.view import DECISIONS  # noqa: E402


class FiftySix(GameAdapter):
    name = "fifty-six"
    rules = RULES
    supports_deals_mode = True
    supports_seating = True  # duplicate seating (rotations of strategies over teams)
    strategies_module = "cardsim.strategies.fifty_six"
    kernel_module = "cardsim.simulator.games.fifty_six.kernel"
    dispatch_spec = "cardsim.simulator.games.fifty_six.view:DISPATCH"
    outcomes_module = "cardsim.simulator.games.fifty_six.outcomes"
    analysis_module = "cardsim.simulator.games.fifty_six.analysis"
    position_module = "cardsim.simulator.games.fifty_six.position"
    analyze_commands = {"bid-success": "cardsim.simulator.games.fifty_six.cli:bid_success_cmd"}
    rules_doc = "docs/rules/fifty_six.md"
    decision_errors = {"BAD_BID": "bid", "BAD_PLAY": "play", "BAD_REVEAL": "reveal"}
    invariant_detail = "cards or points not conserved"
    default_strategy = "tuned"  # top of the ladder (cardsim ladder fifty-six)
    deal_columns = O.DEAL_COLUMNS
    game_columns = O.GAME_COLUMNS
    deal_ncols = O.D_NCOLS
    game_ncols = O.G_NCOLS

    def n_teams(self, rules: dict) -> int:
        return rules["players"] // 2 if rules["team_layout"] == "pairs" else 2

    def plugin_interface(self):
        from cardsim.simulator.games.fifty_six.view import DECISION_SIG
        from cardsim.strategies.fifty_six import never_reveal

        return DECISION_SIG, ("bid", "play"), {"reveal": never_reveal}

    def expected_deals(self, rules: dict) -> int:
        return min(rules["max_deals"] or 32, 32)

    def default_chunk(self, deals_mode: bool) -> int:
        return 1_000_000 if deals_mode else 50_000

    def prepare(self, rules: dict, defs, params, rotations: int = 0):
        from cardsim.simulator.games.fifty_six.kernel import Ctx
        from cardsim.simulator.games.fifty_six.view import MAX_TEAMS

        from cardsim.strategies.fifty_six import BUILTIN_IDS

        sids, fns, padded = self.pack_strategies(defs, params, MAX_TEAMS, BUILTIN_IDS, DECISIONS)
        # fns: bid, play and reveal (kernel.FNS3); the engine adds the kernel's own play_deal
        return Ctx(np.uint64(0), False, to_array(rules), sids, padded, int(rotations)), fns


GAME = FiftySix()
