"""Replaying one game with the event log on, through the engine's replay driver: the log and
the deal rows grow until the game fits, and a failed status becomes the same error a batch run
raises."""
from __future__ import annotations

from importlib import import_module

import numpy as np

from cardsim.simulator import engine
from cardsim.simulator.errors import StrategyError


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


def replay(game, rules: dict, strategies: list[str], seed: int, game_index: int, *, decode,
           room, deals_mode: bool = False, preset_deck=None, debug: bool = True,
           registry=None, seating: str = "auto"):
    """What every game's replay shares: the strategies resolved and seated as ``cardsim run``
    would seat them (``seating``; so game ``game_index`` is the game of that run), the game
    played with the log on (``preset_deck``: card codes replacing the first deal's shuffle),
    and the log turned into events by the game's ``decode(log, seed, game_index, rules,
    described, deals_mode, rot_k)``; ``room(rules, deals_mode)`` is the deal rows to start
    with. Returns (events, deal rows, game row)."""
    from cardsim.simulator.runner import seating_rotations

    defs, params, described = game.resolve_strategies(strategies, rules, registry)
    rot_k = seating_rotations(game, seating, described, game.n_teams(rules))
    ctx, fns = game.prepare(rules, defs, params, rot_k)
    ctx = ctx._replace(seed=np.uint64(seed), deals_mode=bool(deals_mode))
    log, deal_cols, game_row = logged_game(game, (ctx, fns), game_index, described, debug,
                                           preset_deck, cap=room(rules, deals_mode))
    events = decode(log, seed, game_index, rules, described, deals_mode, rot_k)
    deals = game.frames(deal_cols, game_row[None, :], game_index, deals_mode)[0]
    return events, deals, game_row


def log_events(log: np.ndarray):
    """The rows of an event log (row 0 holds the count): (kind, the first six fields as
    ints, the whole row for the wider events)."""
    for row in log[1:int(log[0, 0]) + 1]:
        yield int(row[0]), tuple(int(x) for x in row[1:7]), row
