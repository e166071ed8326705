"""Toy tricks, a fourth game kept outside cardsim: it proves that a game is one folder and one
registry line (CARDSIM_GAMES=toy-tricks=tests.toy_tricks; tests/test_fourth_game.py). Rules:
rules.py."""
from __future__ import annotations

from pathlib import Path

from cardsim.simulator._cache import use_game_cache

use_game_cache(Path(__file__).parent)  # before any of the game's @njit functions

import numpy as np  # noqa: E402

from cardsim.simulator.adapter import GameAdapter  # noqa: E402

from tests.toy_tricks import outcomes as O  # noqa: E402
from tests.toy_tricks.rules import RULES, to_array  # noqa: E402
from tests.toy_tricks.view import DECISIONS, TEAMS  # noqa: E402


class ToyTricks(GameAdapter):
    name = "toy-tricks"
    rules = RULES
    supports_deals_mode = True
    strategies_module = "tests.toy_tricks.strategies"
    kernel_module = "tests.toy_tricks.kernel"
    dispatch_spec = "tests.toy_tricks.view:DISPATCH"
    position_module = "tests.toy_tricks.position"  # observe and resample (simulator.position)
    outcomes_module = "tests.toy_tricks.outcomes"
    analysis_module = "tests.toy_tricks.analysis"
    analyze_commands = {"trick-share": "tests.toy_tricks.cli:trick_share_cmd"}
    decision_errors = {"BAD_PLAY": "play"}
    invariant_detail = "a hand not played out or tricks not counted"
    default_strategy = "highest"
    deal_columns = O.DEAL_COLUMNS
    game_columns = O.GAME_COLUMNS
    deal_ncols = O.D_NCOLS
    game_ncols = O.G_NCOLS

    def n_teams(self, rules: dict) -> int:
        return TEAMS

    def plugin_interface(self):
        from tests.toy_tricks.view import DECISION_SIG

        return DECISION_SIG, DECISIONS, {}

    def expected_deals(self, rules: dict) -> int:
        per_deal = (rules["hand_size"] + rules["last_trick_bonus"]) // 2 or 1
        return min(rules["max_deals"], -(-rules["target"] // per_deal) + 2)

    def default_chunk(self, deals_mode: bool) -> int:
        return 200_000

    def prepare(self, rules: dict, defs, params, rotations: int = 0):
        from cardsim.simulator.engine import Ctx

        from tests.toy_tricks.strategies import BUILTIN_IDS

        sids, fns, padded = self.pack_strategies(defs, params, TEAMS, BUILTIN_IDS, DECISIONS)
        return Ctx(np.uint64(0), False, to_array(rules), sids, padded, 0), fns


GAME = ToyTricks()
