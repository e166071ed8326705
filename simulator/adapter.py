"""What every game adapter shares beyond its strategies: turning kernel rows into typed
frames and kernel error codes into one clear message. A game sets ``kernel_module`` (with
INVARIANT and the error codes), ``outcomes_module`` (columns and G_GAME), ``decision_errors``
(error-code name in the kernel -> decision) and, if it likes, ``invariant_detail``."""
from __future__ import annotations

from importlib import import_module

import numpy as np

from simulator.strategy import GameStrategies
from simulator.tables import to_frame


class GameAdapter(GameStrategies):
    kernel_module: str
    outcomes_module: str
    decision_errors: dict[str, str]
    invariant_detail = "cards not conserved or a meld broke the rules"
    seat_word = "team"  # what the engine's teams are called in messages (seats in rummy)

    def frames(self, deal_cols, game_rows, first, deals_mode):
        o = import_module(self.outcomes_module)
        deals = to_frame(deal_cols, o.DEAL_COLUMNS, o.DEAL_NULL_IF_NEGATIVE, index_base=first)
        if deals_mode:
            return deals, None
        game_cols = np.ascontiguousarray(game_rows.T)
        game_cols[o.G_GAME] = np.arange(game_cols.shape[1], dtype=np.int32)
        games = to_frame(game_cols, o.GAME_COLUMNS, o.GAME_NULL_IF_NEGATIVE, index_base=first)
        return deals, self.finish_games(games)

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
