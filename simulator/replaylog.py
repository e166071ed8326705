"""Running a game's ``replay_game`` kernel with a log that grows until the game fits, and
turning a failed status into the same errors a batch run raises."""
from __future__ import annotations

import numpy as np

from simulator.errors import StrategyError


def logged_game(call, kernel, game, game_index: int, described: list[dict]):
    """``call(log)`` runs the kernel and returns (status, deal_cols, game_row, err);
    ``kernel`` supplies LOG_W and the statuses OK, LOG_FULL and INVARIANT. Returns
    (log, deal_cols, game_row)."""
    rows = 1 << 14
    while True:
        log = np.zeros((rows, kernel.LOG_W), np.int32)
        status, deal_cols, game_row, err = call(log)
        if status != kernel.LOG_FULL:
            break
        rows *= 8
    if status != kernel.OK:
        msg = game.describe_error(int(status), game_index, int(err[0]), int(err[1]),
                                  int(err[2]), described)
        raise AssertionError(msg) if status == kernel.INVARIANT else StrategyError(msg)
    return log, deal_cols, game_row
