"""Contract Rummy positions as a player sees them, and their hidden cards dealt again
(simulator.position).

A player sees its own hand and the cards it drew, the upcard, every card discarded, taken from
the pile, laid down, laid off or swapped, and how many cards each hand and the stock hold. It
does not see the others' hands, the cards they drew from the stock (a bought card's penalty
card too), the order of the stock, or how many penalty points a hand kept when it went down.

The deck of a position's header is in dealing order: one card at a time from the dealer's left,
the upcard, then the stock from its top.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.simulator import track as T
from cardsim.simulator.cards import JOKER, parse
from cardsim.simulator.position import Position, events, first_consistent
from cardsim.simulator.games.contract_rummy import kernel as K
from cardsim.simulator.games.contract_rummy import view as V

_DECK = K.H_DECK - T.T_HEAD  # where the deck starts in a position's header
_STREAM = K.H_STREAM - T.T_HEAD


def _code(name: str) -> int:
    return JOKER if name.startswith("JK") else parse(name)


@dataclass
class View:
    position: Position  # every deck place the seat has not seen set to -1
    seat: int
    seen: list[dict]  # the deal's events as the seat saw them (see _as_seen)
    # the stock after each reshuffle before the position, top first: not seen, but kept by
    # resample (the known limit it names)
    reshuffled: list[list[int]]


def _deal_events(pos: Position) -> list[dict]:
    return [e for e in events(pos) if e.get("deal") == pos.deal]


def _ncards(rules: dict) -> int:
    return 52 * int(rules["decks"]) + int(rules["jokers"])


def _dealt(deal: dict, seats: int) -> dict[int, list[int]]:
    """Each seat's deck places: dealt one at a time from the first seat."""
    each, first = deal["cards_each"], deal["first_seat"]
    out = {s: [] for s in range(seats)}
    for i in range(seats * each):
        out[(first + i) % seats].append(i)
    return out


# what a points constraint counts (simulator.constrained): the cards' penalty points
CARD_POINTS = np.asarray(V.PENALTY, np.int64)


def deck(rules: dict) -> np.ndarray:
    """The unshuffled deck (kernel order)."""
    n = _ncards(rules)
    return np.array([i % 52 if i < 52 * int(rules["decks"]) else JOKER for i in range(n)],
                    np.int64)


def turn_places(rules: dict, deal: int = 0) -> dict[str, list[int]]:
    """``places`` with the seats counted in turn order from the first player (hand0)."""
    return places(rules, int(rules["players"]) - 1, deal)


def places(rules: dict, dealer: int, deal: int = 0) -> dict[str, list[int]]:
    """Where each seat's hand and the upcard lie in the dealt deck of deal ``deal`` (its
    contract sets the hand size) that ``dealer`` deals (constrained dealing,
    simulator.constrained): ``hand<seat>``, ``upcard``."""
    n = int(rules["players"])
    each = int(rules["contracts"][deal][2])
    hands = _dealt({"cards_each": each, "first_seat": (dealer + 1) % n}, n)
    out = {f"hand{s}": hands[s] for s in range(n)}
    out["upcard"] = [n * each]
    return out


def _pops(evs: list[dict], seats: int) -> dict[int, tuple[int, int]]:
    """Event number -> (seat, deck place) of every card taken from the stock before the first
    reshuffle: a draw, a bought card's penalty card."""
    at = seats * evs[0]["cards_each"] + 1
    out = {}
    for i, e in enumerate(evs):
        if e["event"] == "reshuffle":
            break
        if e["event"] in ("draw", "buy"):
            out[i] = (e["seat"], at)
            at += 1
    return out


def _as_seen(evs: list[dict], seat: int) -> list[dict]:
    """The events with what ``seat`` did not see taken out."""
    out = []
    for e in evs:
        e = dict(e)
        ev, mine = e["event"], e.get("seat") == seat
        if ev == "deal":
            e = {k: e[k] for k in ("event", "deal", "dealer", "first_seat", "sets", "runs",
                                   "cards_each", "all_at_once", "upcard")}
            e["hand"] = sorted(evs[0]["hands"][str(seat)])
        elif ev == "draw" and not mine:
            e["card"] = None
        elif ev == "buy" and not mine:
            e["penalty_card"] = None
        elif ev == "contract_down" and not mine:
            e["penalty_left"] = None
        elif ev == "reshuffle":
            e["stock"] = None
        out.append(e)
    return out


def observe(pos: Position, seat: int) -> View:
    evs = _deal_events(pos)
    seats = int(pos.rules["players"])
    known = set(_dealt(evs[0], seats)[seat]) | {seats * evs[0]["cards_each"]}
    known |= {at for s, at in _pops(evs, seats).values() if s == seat}
    seen = pos.copy()
    seen.stash = None
    deck = seen.header[_DECK:_DECK + _ncards(pos.rules)]
    for i in range(len(deck)):
        if i not in known:
            deck[i] = -1
    stocks = [[_code(c) for c in e["stock"]] for e in evs if e["event"] == "reshuffle"]
    if not stocks:  # the stream of the reshuffles to come: nobody has seen it
        seen.header[_STREAM:_STREAM + 2] = 0
    return View(seen, seat, _as_seen(evs, seat), stocks)


def _meld_cards(e: dict) -> list[int]:
    return [JOKER if c.startswith("JK") else parse(c) for c in e["cards"]]


def resample(view: View, rng: np.random.Generator, tries: int = 500) -> Position:
    """A position the seat cannot tell from the one it saw. Each other player is given, from
    the unseen cards, the cards it was seen to lay down, lay off, swap in and discard, each in a
    card it had by then (dealt, or drawn from the stock) and not accounted for by the cards it
    took from the pile; the other unseen places get the rest in a random order. Every
    candidate is replayed: its tape must be legal and its events the same as the seat saw
    (the contract search must lay down the same melds). Consistent with the view, not exactly
    uniform over such deals. The stream that reshuffles the stock is drawn again, unless a
    reshuffle came before the position: then the order of the reshuffled stock is kept (a
    known limit: that order is not dealt again yet)."""
    base = view.position
    seat = view.seat
    evs = view.seen
    seats = int(base.rules["players"])
    ncards = _ncards(base.rules)
    deck0 = base.header[_DECK:_DECK + ncards]
    full = deck(base.rules).tolist()
    for c in deck0:
        if c >= 0:
            full.remove(int(c))
    pops = _pops(evs, seats)
    dealt = _dealt({"cards_each": evs[0]["cards_each"], "first_seat": evs[0]["first_seat"]},
                   seats)
    reshuffled = any(e["event"] == "reshuffle" for e in evs)
    others = [s for s in range(seats) if s != seat]

    def draw():
        pool: dict[int, list[int]] = {}
        for c in rng.permutation(full):
            pool.setdefault(int(c), []).append(int(c))
        deck = [int(c) for c in deck0]
        held = {s: list(dealt[s]) for s in others}  # unseen places each holds
        known = {s: [] for s in others}  # cards each is known to hold (from the pile)
        pile = [_code(evs[0]["upcard"])]
        failed = None
        stocks = [list(st) for st in view.reshuffled]
        stock = None  # after a reshuffle: the cards to be drawn, top first

        def use(s, c):
            """Card ``c`` leaves the hand of ``s``: a known one, else an unseen place."""
            if c in known[s]:
                known[s].remove(c)
                return True
            free = [i for i in held[s] if deck[i] < 0]
            if not free or not pool.get(c):
                return False
            i = free[int(rng.integers(len(free)))]
            deck[i] = pool[c].pop()
            held[s].remove(i)
            return True

        for i, e in enumerate(evs):
            ev, s = e["event"], e.get("seat")
            if ev == "discard":
                pile.append(_code(e["card"]))
            elif ev == "take":
                taken, pile = pile[e["index"]:], pile[:e["index"]]
                if s in known:
                    known[s] += taken
                continue
            elif ev == "buy":
                c = pile.pop()
                if s in known:
                    known[s].append(c)
            elif ev == "reshuffle":
                pile = pile[-1:]
                stock = stocks.pop(0)
            if ev in ("draw", "buy") and stock is not None:  # a card of the reshuffled stock
                c = stock.pop(0)
                if s in known:
                    known[s].append(c)
            if s not in known:
                continue
            if i in pops:
                held[s].append(pops[i][1])
            cards = []
            if ev == "meld":
                cards = _meld_cards(e)
            elif ev == "lay_off":
                cards = [_code(e["card"])]
            elif ev == "joker_swap":
                cards = [_code(e["card"])]
            elif ev == "discard":
                cards = [_code(e["card"])]
            for c in cards:
                if not use(s, c):
                    failed = f"placing a {ev} seen"
                    break
            if failed:
                break
        if failed:
            return failed
        rest = [c for k in pool for c in pool[k]]
        rng.shuffle(rest)
        free = [i for i in range(ncards) if deck[i] < 0]
        for i, c in zip(free, rest):
            deck[i] = c
        pos = base.copy()
        pos.header[_DECK:_DECK + ncards] = deck
        if not reshuffled:  # a reshuffle to come: its order is unknown too
            pos.header[_STREAM] = int(rng.integers(-(1 << 62), 1 << 62))
            pos.header[_STREAM + 1] = 0
        return pos

    return first_consistent(draw, lambda pos: _as_seen(_deal_events(pos), seat) == evs, tries)


def choices(pos: Position, kind: int) -> list[tuple[str, int]]:
    """The answers to list for decision ``kind`` in an outlook (simulator.outlook), as (label,
    tape value): the stock or the top discard for a draw, every card for a discard (the kernel
    refuses those the seat does not hold). Deep draws, buys and melds are not listed."""
    from cardsim.simulator.cards import name

    if kind == K.KD_DRAW:
        return [("stock", V.D_STOCK), ("top discard", V.D_TOP)]
    if kind == K.KD_DISCARD:
        return [(name(c), c) for c in sorted(set(deck(pos.rules).tolist()))]
    return []
