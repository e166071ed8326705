"""One toy-tricks game as events: game, then per deal ``deal`` (the hands), ``play`` per card,
``trick`` per trick and ``score``; finally ``game_end``."""
from __future__ import annotations

from cardsim.simulator.cards import name as card_name
from cardsim.simulator.replaylog import log_events, replay

from tests.toy_tricks import kernel as K


def play_one(game, rules: dict, strategies: list[str], seed: int, game_index: int, **options):
    return replay(game, rules, strategies, seed, game_index, decode=decode,
                  room=lambda rules, deals_mode: 1 if deals_mode else 8, **options)


def decode(log, seed, game_index, rules, described, deals_mode=False, rot_k=0) -> list[dict]:
    events: list[dict] = []
    deal = -1
    for kind, (a, b, c, d, e, f), row in log_events(log):
        if kind == K.EV_GAME:
            events.append({"event": "game", "game": "toy-tricks", "seed": seed,
                           "game_index": game_index, "mode": "deals" if c else "games",
                           "first_dealer": b, "rules": dict(rules), "strategies": described})
        elif kind == K.EV_DEAL:
            deal = a
            events.append({"event": "deal", "deal": a, "dealer": b, "hands": {}})
        elif kind == K.EV_HAND:
            events[-1]["hands"][str(a)] = [card_name(x) for x in row[3:3 + b]]
        elif kind == K.EV_PLAY:
            events.append({"event": "play", "deal": deal, "trick": c, "seat": a,
                           "card": card_name(b)})
        elif kind == K.EV_TRICK:
            events.append({"event": "trick", "deal": deal, "trick": a, "winner": b, "team": c})
        elif kind == K.EV_SCORE:
            events.append({"event": "score", "deal": a, "points": [b, c], "totals": [d, e],
                           "last_trick_team": f})
        elif kind == K.EV_GAME_END:
            events.append({"event": "game_end", "winner_team": a if a >= 0 else None,
                           "capped": bool(b), "deals": c, "totals": [d, e]})
    return events
