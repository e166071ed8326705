"""One Contract Rummy game as an event log (JSON Lines), played by the same kernel as the tables.

Events (docs/contract_rummy.md describes every field): ``game``; per deal ``deal`` (the whole
shuffled deck in dealing order, every hand, the upcard and the stock from its top), then
``turn``, ``draw`` (from the stock), ``take`` (the top discard or from inside the pile, with
every card above it), ``buy``, ``meld`` (each melded card, jokers with the card they stand
for), ``contract_down``, ``lay_off``, ``joker_swap``, ``discard``, ``reshuffle``, ``stalled``,
``went_out``; ``deal_end``, ``score`` per seat; ``game_end``.
Run positions: 0 = ace low, 1..12 = ranks 2..K, 13 = ace high; set slots are suits S H D C.
"""
from __future__ import annotations

import json

import numpy as np

from cardsim.simulator.replaylog import log_events, replay
from cardsim.simulator.cards import SUITS, name as card_name
from cardsim.simulator.games.contract_rummy import turn as TU
from cardsim.simulator.games.contract_rummy.outcomes import END_NAMES

RANK_NAMES = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")


def slot_card(kind: int, key: int, slot: int) -> str:
    """Name of the card at ``slot`` of a meld (what a joker there stands for)."""
    if kind == 0:
        return RANK_NAMES[key] + SUITS[slot]
    rank = 12 if slot in (0, 13) else slot - 1
    return RANK_NAMES[rank] + SUITS[key]


def meld_dict(kind: int, key: int, nat: int, jok: int) -> dict:
    slots = range(4) if kind == 0 else range(14)
    cards = []
    for s in slots:
        if (nat >> s) & 1:
            cards.append(slot_card(kind, key, s))
        elif (jok >> s) & 1:
            cards.append("JK=" + slot_card(kind, key, s))
    return {"kind": "set" if kind == 0 else "run",
            "key": RANK_NAMES[key] if kind == 0 else SUITS[key],
            "nat": nat, "jok": jok, "cards": cards}


def play_one(game, rules: dict, strategies: list[str], seed: int, game_index: int,
             **options):
    """Play one game with logging on. Returns (events, deal_rows, game_row). ``seating`` as
    in ``cardsim run`` (auto: duplicate seating when the seats' strategies differ), so game
    ``game_index`` is the game of that run.

    ``preset_deck`` (card codes of the first deal in dealing order: one card at a time from
    the dealer's left, then the upcard, then the stock from its top) replaces its shuffle."""
    return replay(game, rules, strategies, seed, game_index, decode=decode,
                  room=lambda rules, _: game.expected_deals(rules), **options)


def decode(log: np.ndarray, seed, game_index, rules, described, *_) -> list[dict]:
    """The events of a logged game (``*_``: deals mode and rotation, which it has not)."""
    seats = rules["players"]
    deal = -1
    turn = 0
    events: list[dict] = []
    melds: list[list[int]] = []  # kind, key, nat, jok of the deal's table melds
    codes: list[int] = []
    for kind, (a, b, c, d, e, f), row in log_events(log):
        if kind == TU.EV_GAME:
            events.append({"event": "game", "game": "contract-rummy", "seed": seed,
                           "game_index": game_index, "players": b, "first_dealer": c,
                           "deals": d, "rules": dict(rules), "strategies": described,
                           "rotation": e})
        elif kind == TU.EV_DEAL:
            deal = a
            melds = []
            codes = []
            events.append({"event": "deal", "deal": a, "dealer": b, "first_seat": c,
                           "sets": d, "runs": e, "cards_each": f, "all_at_once": bool(row[7]),
                           "deck": [], "hands": {}, "upcard": None, "stock": []})
        elif kind in (TU.EV_DECK, TU.EV_STOCK):
            codes += [int(x) for x in row[3:3 + b]]
            ev = events[-1]
            if kind == TU.EV_DECK and len(codes) == _deck_size(rules):
                _layout(ev, codes, seats)
            if kind == TU.EV_STOCK and len(codes) == ev["count"]:
                ev["stock"] = [card_name(x) for x in codes]
        elif kind == TU.EV_TURN:
            turn = b
            events.append({"event": "turn", "deal": deal, "turn": b, "seat": a, "own_turn": c})
        elif kind == TU.EV_DRAW:
            events.append({"event": "draw", "deal": deal, "turn": turn, "seat": a,
                           "card": card_name(b)})
        elif kind == TU.EV_TAKE:
            events.append({"event": "take", "deal": deal, "turn": turn, "seat": a,
                           "index": b, "count": c, "card": card_name(d), "deep": c > 1})
        elif kind == TU.EV_BUY:
            events.append({"event": "buy", "deal": deal, "turn": turn, "seat": a,
                           "card": card_name(b), "penalty_card": card_name(c), "passed_by": d})
        elif kind == TU.EV_LAY:
            melds.append([c, d, e, f])
            events.append({"event": "meld", "deal": deal, "turn": turn, "seat": a, "meld": b,
                           **meld_dict(c, d, e, f)})
        elif kind == TU.EV_DOWN:
            events.append({"event": "contract_down", "deal": deal, "turn": c, "seat": a,
                           "own_turn": b, "after_deep_draw": bool(d), "penalty_left": e})
        elif kind == TU.EV_LAYOFF:
            mk, key = melds[b][0], melds[b][1]
            if d:
                melds[b][3] |= 1 << c
            else:
                melds[b][2] |= 1 << c
            events.append({"event": "lay_off", "deal": deal, "turn": turn, "seat": a,
                           "meld": b, "slot": c, "joker": bool(d),
                           "card": "JK" if d else card_name(e), "as": slot_card(mk, key, c)})
        elif kind == TU.EV_SWAP:
            m2, slot2 = e, f
            melds[b][2] |= 1 << c
            melds[b][3] &= ~(1 << c)
            melds[m2][3] |= 1 << slot2
            events.append({"event": "joker_swap", "deal": deal, "turn": turn, "seat": a,
                           "meld": b, "pos": c, "card": card_name(d),
                           "to_meld": m2, "to_slot": slot2,
                           "joker_as": slot_card(melds[m2][0], melds[m2][1], slot2)})
        elif kind == TU.EV_DISCARD:
            events.append({"event": "discard", "deal": deal, "turn": turn, "seat": a,
                           "card": card_name(b)})
        elif kind == TU.EV_RESHUFFLE:
            codes = []
            events.append({"event": "reshuffle", "deal": a, "turn": turn, "number": b,
                           "count": c, "stock": []})
        elif kind == TU.EV_STALL:
            events.append({"event": "stalled", "deal": a, "turn": b})
        elif kind == TU.EV_OUT:
            events.append({"event": "went_out", "deal": deal, "turn": b, "seat": a,
                           "own_turn": c})
        elif kind == TU.EV_DEAL_END:
            events.append({"event": "deal_end", "deal": a, "end": END_NAMES[b], "turns": c,
                           "out_seat": d if d >= 0 else None, "reshuffles": e})
        elif kind == TU.EV_SCORE:
            events.append({"event": "score", "deal": a, "seat": b, "penalty": c,
                           "cumulative": d, "cards_left": e, "jokers_held": f})
        elif kind == TU.EV_GAME_END:
            events.append({"event": "game_end", "winner": a if a >= 0 else None, "tied": b,
                           "deals": c, "totals": [int(x) for x in row[7:7 + seats]]})
    return events


def _deck_size(rules: dict) -> int:
    return 52 * rules["decks"] + rules["jokers"]


def _layout(ev: dict, codes: list[int], seats: int) -> None:
    """Hands, the upcard and the stock (top first) from the dealt deck order."""
    each = ev["cards_each"]
    first = ev["first_seat"]
    ev["deck"] = [card_name(x) for x in codes]
    hands: dict[str, list[str]] = {str(s): [] for s in range(seats)}
    for i in range(seats * each):
        hands[str((first + i) % seats)].append(card_name(codes[i]))
    ev["hands"] = hands
    ev["upcard"] = card_name(codes[seats * each])
    ev["stock"] = [card_name(x) for x in codes[seats * each + 1:]]


def write_jsonl(events: list[dict], path) -> None:
    with open(path, "w") as fh:
        for ev in events:
            fh.write(json.dumps(ev) + "\n")
