"""One 56 game as an event log (JSON Lines), played by the same kernel as the tables.

Format (docs/replay.md has the full description): one JSON object per line, ``event`` first.
``game`` (header: seed, index, rules, strategies), then per deal ``redeal`` (cancelled hands,
if any), ``deal`` (every starting hand), ``call`` per call, ``contract``, ``reveal`` (hidden
trump shown), ``play`` per card, ``trick`` per trick, ``score``; finally ``game_end``.
"""
from __future__ import annotations

import json

import numpy as np

from cardsim.simulator.cards import name as card_name
from cardsim.simulator.replaylog import log_events, replay
from cardsim.simulator.games.fifty_six import kernel as K
from cardsim.simulator.games.fifty_six.view import (
    DOUBLE, FORM_NAMES, PASS, REDOUBLE, TRUMP_HIDDEN, TRUMP_NAMES, call_form, call_trump,
    call_value,
)


def _trump(t: int) -> str | None:
    if t == TRUMP_HIDDEN:
        return "hidden"
    return TRUMP_NAMES[t] if 0 <= t < len(TRUMP_NAMES) else None


def _call(code: int) -> dict:
    if code == PASS:
        return {"call": "pass"}
    if code == DOUBLE:
        return {"call": "double"}
    if code == REDOUBLE:
        return {"call": "redouble"}
    return {"call": "bid", "value": call_value(code), "trump": _trump(call_trump(code)),
            "form": FORM_NAMES[call_form(code)]}


def play_one(game, rules: dict, strategies: list[str], seed: int, game_index: int,
             **options):
    """Play one game with logging on. Returns (events, deal_rows, game_row).

    ``preset_deck`` (card codes, dealt in blocks of a hand each starting at the dealer's right)
    replaces the shuffle of the first deal: a hand-made position.
    """
    return replay(game, rules, strategies, seed, game_index, decode=decode,
                  room=lambda rules, deals_mode: 1 if deals_mode else 32, **options)


def decode(log: np.ndarray, seed, game_index, rules, described, deals_mode=False,
           rot_k: int = 0) -> list[dict]:
    events: list[dict] = []
    deal = -1
    teams = 2
    for kind, (a, b, c, d, e, f), row in log_events(log):
        if kind == K.EV_GAME:
            events.append({"event": "game", "game": "fifty-six", "seed": seed,
                           "game_index": game_index, "mode": "deals" if e else "games",
                           "seats": b, "teams": c, "first_dealer": d, "start_tables": f,
                           "rules": dict(rules), "strategies": described,
                           "seating": "duplicate" if rot_k else "fixed",
                           "board": game_index // rot_k if rot_k else game_index,
                           "rotation": int(row[7]),
                           "team_strategy": [(t + int(row[7])) % c for t in range(c)]})
            teams = c
        elif kind in (K.EV_DEAL, K.EV_REDEAL):
            deal = a
            if kind == K.EV_DEAL:
                events.append({"event": "deal", "deal": a, "dealer": b, "players": c,
                               "redeals": d, "first": e, "direction": f, "hands": {}})
            else:
                events.append({"event": "redeal", "deal": a, "attempt": b, "hands": {}})
        elif kind == K.EV_HAND:
            events[-1]["hands"][str(a)] = [card_name(x) for x in row[3:3 + b]]
        elif kind == K.EV_CALL:
            events.append({"event": "call", "deal": deal, "seat": a, **_call(b),
                           "seen_as": _call(c)})
        elif kind == K.EV_CONTRACT:
            events.append({"event": "contract", "deal": deal, "bidder": a, "team": b, "bid": c,
                           "trump": _trump(d), "form": FORM_NAMES[e], "double_level": f})
        elif kind == K.EV_REVEAL:
            events.append({"event": "reveal", "deal": deal, "seat": a, "trump": _trump(b),
                           "trick": c})
        elif kind == K.EV_PLAY:
            events.append({"event": "play", "deal": deal, "trick": c, "seat": a,
                           "card": card_name(b)})
        elif kind == K.EV_TRICK:
            events.append({"event": "trick", "deal": deal, "trick": a, "winner": b, "points": c})
        elif kind == K.EV_SCORE:
            events.append({"event": "score", "deal": deal, "made": bool(a),
                           "bidding_team_points": b, "opponent_points": c, "stake": d,
                           "tables_moved": e, "tricks_won": f,
                           "tables": [int(x) for x in row[7:7 + teams]]})
        elif kind == K.EV_GAME_END:
            events.append({"event": "game_end", "winner_team": a if a >= 0 else None,
                           "capped": bool(b), "deals": c,
                           "tables": [int(x) for x in row[7:7 + teams]]})
    return events


def write_jsonl(events: list[dict], path) -> None:
    with open(path, "w") as fh:
        for ev in events:
            fh.write(json.dumps(ev) + "\n")
