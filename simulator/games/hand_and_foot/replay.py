"""One Hand and Foot game as an event log (JSON Lines), played by the same kernel as the tables.

Events (docs/hand_and_foot.md describes every field): ``game``; per deal ``deal`` (the whole
shuffled deck in order, every hand and foot, the upcard burials and the stock order), then
``red_three``, ``turn``, ``draw``, ``pile_take``, ``meld``, ``foot``, ``permission``,
``discard``, ``no_discard``, ``went_out``; ``deal_end``, ``score`` per team; ``game_end``.
After the deal, cards are named by kind: 4..10 J Q K A, 2, JK, 3B (black three), 3R (red).
"""
from __future__ import annotations

import json

import numpy as np

from cardsim.simulator.replaylog import log_events, replay
from cardsim.simulator.cards import name as card_name
from cardsim.simulator.games.hand_and_foot import kernel as K
from cardsim.simulator.games.hand_and_foot.outcomes import END_NAMES
from cardsim.simulator.games.hand_and_foot.view import (
    B3_T, KIND_NAMES, KIND_OF, NK, OP_ADD_JOKER, OP_ADD_NAT, OP_ADD_TWO, OP_START2_JOKER,
    OP_START2_TWO, OP_START3, WILD_T,
)

OP_NAMES = {OP_ADD_NAT: "add_natural", OP_ADD_TWO: "add_two", OP_ADD_JOKER: "add_joker",
            OP_START3: "start_3_naturals", OP_START2_TWO: "start_2_naturals_and_two",
            OP_START2_JOKER: "start_2_naturals_and_joker", -1: "pile_start", -2: "pile_add"}
BOOKS = {-1: None, 0: "clean", 1: "dirty", 2: "wild"}
R3_SOURCES = ("dealt", "stock", "foot", "pile")


def _target(t: int) -> str:
    if t == WILD_T:
        return "wild"
    if t == B3_T:
        return "black_threes"
    return KIND_NAMES[t]


def play_one(game, rules: dict, strategies: list[str], seed: int, game_index: int,
             **options):
    """Play one game with logging on. Returns (events, deal_rows, game_row). Hand and Foot
    seats are fixed; ``seating`` is checked as ``cardsim run`` checks it.

    ``preset_deck`` (card codes of the first deal in dealing order: hands from the first
    player round the table, then feet, then the stock from its top) replaces its shuffle."""
    return replay(game, rules, strategies, seed, game_index, decode=decode,
                  room=lambda rules, _: rules["deals"] * game.n_teams(rules), **options)


def decode(log: np.ndarray, seed, game_index, rules, described, *_) -> list[dict]:
    """The events of a logged game (``*_``: deals mode and rotation, which it has not)."""
    seats = rules["players"]
    deal = -1
    turn = 0
    events: list[dict] = []
    for kind, (a, b, c, d, e, f), row in log_events(log):
        if kind == K.EV_GAME:
            events.append({"event": "game", "game": "hand-and-foot", "seed": seed,
                           "game_index": game_index, "players": b, "teams": c,
                           "first_dealer": d, "deals": e, "rules": dict(rules),
                           "strategies": described})
        elif kind == K.EV_DEAL:
            deal = a
            events.append({"event": "deal", "deal": a, "hand_dealer": b, "first_seat": c,
                           "min_meld": d, "deck": [], "hands": {}, "feet": {}, "upcard": None,
                           "buried": [], "stock": []})
        elif kind == K.EV_DECK:
            events[-1]["deck"] += [int(x) for x in row[3:3 + b]]
        elif kind == K.EV_UPCARD:
            ev = next(x for x in reversed(events) if x["event"] == "deal")
            if b:
                ev["buried"].append({"card": card_name(a), "under": c})
            else:
                ev["upcard"] = card_name(a)
                _layout(ev, rules, seats)
        elif kind == K.EV_RED3:
            events.append({"event": "red_three", "deal": deal, "seat": a,
                           "source": R3_SOURCES[b],
                           "replacement": card_name(c) if c >= 0 else None})
        elif kind == K.EV_TURN:
            turn = b
            events.append({"event": "turn", "deal": deal, "turn": b, "seat": a})
        elif kind == K.EV_DRAW:
            events.append({"event": "draw", "deal": deal, "turn": turn, "seat": a,
                           "card": card_name(b)})
        elif kind == K.EV_PILE:
            counts = {KIND_NAMES[k]: int(row[4 + k]) for k in range(NK) if row[4 + k]}
            events.append({"event": "pile_take", "deal": deal, "turn": turn, "seat": a,
                           "taken": b, "top": KIND_NAMES[c], "cards": counts})
        elif kind == K.EV_MELD:
            if b < 0:
                events.append({"event": "meld_cancelled", "deal": deal, "turn": turn,
                               "seat": a})
                continue
            ev = {"event": "meld", "deal": deal, "turn": turn, "seat": a, "target": _target(b),
                  "naturals": (d // 100) % 10, "twos": (d // 10) % 10, "jokers": d % 10,
                  "black_threes": d // 1000, "book": BOOKS[e], "counted": f}
            if b == B3_T:
                ev["action"] = "black_threes"
            elif c in OP_NAMES:
                ev["action"] = OP_NAMES[c]
            else:
                ev["action"] = "start_wild"
            ev["team"] = int(row[10])
            ev["meld_after"] = [int(row[7]), int(row[8]), int(row[9])]  # black threes: zeros
            events.append(ev)
        elif kind == K.EV_FOOT:
            events.append({"event": "foot", "deal": deal, "turn": turn, "seat": a,
                           "way": "melded_hand" if b == 0 else "after_discard"})
        elif kind == K.EV_ASK:
            events.append({"event": "permission", "deal": deal, "turn": turn, "seat": a,
                           "partner": b, "asked": bool(c),
                           "granted": None if d < 0 else bool(d)})
        elif kind == K.EV_DISCARD:
            events.append({"event": "discard", "deal": deal, "turn": turn, "seat": a,
                           "card": KIND_NAMES[b]})
        elif kind == K.EV_NO_DISCARD:
            events.append({"event": "no_discard", "deal": deal, "turn": turn, "seat": a,
                           "cards": b})
        elif kind == K.EV_OUT:
            events.append({"event": "went_out", "deal": deal, "turn": b, "seat": a})
        elif kind == K.EV_SCORE:
            events.append({"event": "score", "deal": a, "team": b, "melded_points": c,
                           "book_bonus": d, "red_three_bonus": e, "going_out_bonus": f,
                           "hand_penalty": int(row[7]), "foot_penalty": int(row[8]),
                           "red_three_penalty": int(row[9]), "score": int(row[10]),
                           "cumulative": int(row[11]), "books_clean": int(row[12]),
                           "books_dirty": int(row[13]), "books_wild": int(row[14]),
                           "red_threes_table": int(row[15]), "red_threes_caught": int(row[16])})
        elif kind == K.EV_DEAL_END:
            events.append({"event": "deal_end", "deal": a, "end": END_NAMES[b], "turns": c,
                           "out_seat": d if d >= 0 else None})
        elif kind == K.EV_GAME_END:
            events.append({"event": "game_end", "winner_team": a if a >= 0 else None,
                           "capped_deals": b, "deals": c,
                           "totals": [int(x) for x in row[7:7 + events[0]["teams"]]]})
    for ev in events:
        if ev["event"] == "deal":
            ev["deck"] = [card_name(x) for x in ev["deck"]]
    return events


def _layout(ev: dict, rules: dict, seats: int) -> None:
    """Hands, feet and the stock (top first, after burials) from the dealt deck order."""
    deck = list(ev["deck"])
    h, f = rules["hand_size"], rules["foot_size"]
    first = ev["first_seat"]
    pos = 0
    for k in range(seats):
        ev["hands"][str((first + k) % seats)] = [card_name(x) for x in deck[pos:pos + h]]
        pos += h
    for k in range(seats):
        ev["feet"][str((first + k) % seats)] = [card_name(x) for x in deck[pos:pos + f]]
        pos += f
    stock = deck[pos:]
    for bury in ev["buried"]:
        code = stock.pop(0)
        assert card_name(code) == bury["card"]
        stock.insert(bury["under"], code)
    assert card_name(stock[0]) == ev["upcard"]
    ev["stock"] = [card_name(x) for x in stock[1:]]


def kind_of(card: str) -> str:
    """Kind name of a card name ('QH' -> 'Q', '3D' -> '3R', 'JK' -> 'JK')."""
    from cardsim.simulator.cards import parse

    return KIND_NAMES[KIND_OF[parse(card)]]


def write_jsonl(events: list[dict], path) -> None:
    with open(path, "w") as fh:
        for ev in events:
            fh.write(json.dumps(ev) + "\n")
