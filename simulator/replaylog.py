"""Replaying one game with the event log on, through the engine's replay driver: the log and
the deal rows grow until the game fits, and a failed status becomes the same error a batch run
raises."""
from __future__ import annotations

from importlib import import_module

import numpy as np

from simulator import engine
from simulator.errors import StrategyError


def logged_game(game, prepared, game_index: int, described: list[dict], debug: bool = True,
                preset=None, rows: int = 1 << 12, cap: int = 64):
    """Play game ``game_index`` of ``prepared`` (the game's (Ctx, fns), seed and mode set)
    with the event log on. Returns (log, deal_cols, game_row)."""
    ctx, fns = prepared
    k = import_module(game.kernel_module).KERNEL
    while True:
        log = np.zeros((rows, k.log_w), np.int32)
        status, deal_cols, game_row, err = k.replay(ctx, fns, game_index, log, debug, preset, cap,
                                                    game.deal_ncols, game.game_ncols)
        if status == engine.LOG_FULL:
            rows *= 8
        elif status == engine.ROWS_FULL:
            cap *= 8
        else:
            break
    if status != engine.OK:
        msg = game.describe_error(int(status), game_index, int(err[0]), int(err[1]),
                                  int(err[2]), described)
        raise AssertionError(msg) if status == engine.INVARIANT else StrategyError(msg)
    return log, deal_cols, game_row

