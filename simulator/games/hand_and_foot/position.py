"""Hand and Foot positions as a player sees them, and their hidden cards dealt again
(simulator.position).

A player sees its own hand, the cards it drew, its foot once picked up, the upcard, every card
melded, discarded and taken from the pile, every red three laid, and how many cards each hand,
foot and the stock hold. It does not see the others' hands or draws, any foot not yet picked
up, or the order of the stock.

The deck of a position's header is laid out as the kernel deals it: the hands (a block each, in
turn order from the first player), the feet (the same order), the upcard, then the stock in
drawing order.
"""
from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import numpy as np

from cardsim.simulator import track as T
from cardsim.simulator.position import Position, events, first_consistent
from cardsim.simulator.games.hand_and_foot import kernel as K
from cardsim.simulator.games.hand_and_foot.view import BLACK3, JOKER, KIND_NAMES, KIND_OF, \
    RED3, TWO, VALUE

_DECK = K.H_DECK - T.T_HEAD  # where the deck starts in a position's header
_KIND = {n: k for k, n in enumerate(KIND_NAMES)}


@dataclass
class View:
    position: Position  # every deck place the seat has not seen set to -1
    seat: int
    seen: list[dict]  # the deal's events as the seat saw them (see _as_seen)


@dataclass
class _Layout:
    hands: dict[int, range]  # seat -> its hand's deck places
    feet: dict[int, range]
    upcard: int
    ncards: int


def _layout(pos: Position, deal: dict) -> _Layout:
    r = pos.rules
    n, hs, fs = int(r["players"]), int(r["hand_size"]), int(r["foot_size"])
    seats = [(deal["first_seat"] + k) % n for k in range(n)]
    hands = {s: range(i * hs, (i + 1) * hs) for i, s in enumerate(seats)}
    feet = {s: range(n * hs + i * fs, n * hs + (i + 1) * fs) for i, s in enumerate(seats)}
    return _Layout(hands, feet, n * (hs + fs), 54 * int(r["decks"]))


# what a points constraint counts (simulator.constrained): the cards' meld values
CARD_POINTS = np.array([VALUE[KIND_OF[c]] for c in range(53)], np.int64)


def deck(rules: dict) -> np.ndarray:
    """The unshuffled deck (kernel order)."""
    return K.FULL_DECK[:54 * int(rules["decks"])].astype(np.int64)


def turn_places(rules: dict) -> dict[str, list[int]]:
    """``places`` with the seats counted in turn order from the first player (hand0)."""
    n = int(rules["players"])
    return places(rules, 0 if rules["first_player"] == "hand_dealer" else n - 1)


def places(rules: dict, dealer: int, deal: int = 0) -> dict[str, list[int]]:
    """Where each seat's hand and foot and the upcard lie in the dealt deck of a deal that
    ``dealer`` deals (constrained dealing, simulator.constrained): ``hand<seat>``,
    ``foot<seat>``, ``upcard`` (the stock's top before any burial). Every deal is dealt
    alike, whatever ``deal``."""
    n, hs, fs = int(rules["players"]), int(rules["hand_size"]), int(rules["foot_size"])
    first = dealer if rules["first_player"] == "hand_dealer" else (dealer + 1) % n
    out = {}
    for k in range(n):
        s = (first + k) % n
        out[f"hand{s}"] = list(range(k * hs, (k + 1) * hs))
        out[f"foot{s}"] = list(range(n * hs + k * fs, n * hs + (k + 1) * fs))
    out["upcard"] = [n * (hs + fs)]
    return out


def _draws(evs: list[dict], lay: _Layout) -> list[tuple[int, int, int]]:
    """(event number, seat, deck place) of every card taken from the stock: a draw, a red
    three's replacement."""
    at, out = lay.upcard + 1, []
    for i, e in enumerate(evs):
        if e["event"] == "draw" or (e["event"] == "red_three" and e["replacement"]):
            out.append((i, e["seat"], at))
            at += 1
    return out


def _as_seen(evs: list[dict], seat: int) -> list[dict]:
    """The events with what ``seat`` did not see taken out: the deal's hands, feet and stock
    but its own hand; the cards the others drew and their red threes' replacements (only
    that a red three came, when one did)."""
    out = []
    for e in evs:
        e = dict(e)
        if e["event"] == "deal":
            e = {k: e[k] for k in ("event", "deal", "hand_dealer", "first_seat", "min_meld",
                                   "upcard")} | {"hand": e["hands"].get(str(seat))}
        elif e["event"] == "draw" and e["seat"] != seat:
            e["card"] = "red_three" if KIND_OF[_code(e["card"])] == RED3 else None
        elif e["event"] == "red_three" and e["seat"] != seat and e["replacement"]:
            e["replacement"] = ("red_three" if KIND_OF[_code(e["replacement"])] == RED3
                                else "card")
        out.append(e)
    return out


def _code(name: str) -> int:
    from cardsim.simulator.cards import JOKER as JK, parse

    return JK if name == "JK" else parse(name)


def _deal_events(pos: Position) -> list[dict]:
    return [e for e in events(pos) if e.get("deal") == pos.deal]


def observe(pos: Position, seat: int) -> View:
    evs = _deal_events(pos)
    lay = _layout(pos, evs[0])
    known = set(lay.hands[seat]) | {lay.upcard}
    known |= {at for _, s, at in _draws(evs, lay) if s == seat}
    if any(e["event"] == "foot" and e["seat"] == seat for e in evs):
        known |= set(lay.feet[seat])
    seen = pos.copy()
    seen.stash = None
    deck = seen.header[_DECK:_DECK + lay.ncards]
    for i in range(lay.ncards):
        if i not in known:
            deck[i] = -1
    return View(seen, seat, _as_seen(evs, seat))


def _needs(e: dict) -> list[tuple[int, int]]:
    """(kind, count) of the cards a meld takes from its player's hand."""
    t = e["target"]
    parts = [(_KIND[t], e["naturals"])] if t not in ("wild", "black_threes") else []
    parts += [(TWO, e["twos"]), (JOKER, e["jokers"]), (BLACK3, e["black_threes"])]
    return [(k, m) for k, m in parts if m > 0]


def _splits(parts: list[tuple[int, int]], counted: int) -> list[tuple[int, ...]]:
    """How many of each part were the player's own cards rather than the pile's taken this
    turn: the meld's counted points are its own cards' values (the kernel melds own cards
    first and counts only those)."""
    return [c for c in product(*(range(m + 1) for _, m in parts))
            if sum(n * int(VALUE[k]) for n, (k, _) in zip(c, parts)) == counted]


def resample(view: View, rng: np.random.Generator, tries: int = 500) -> Position:
    """A position the seat cannot tell from the one it saw. Each other player is given, from
    the unseen cards, the kinds it was seen to meld, discard and lay (red threes at the
    places they came from), each in a card it had by then (its hand, a draw, its foot) and not
    already accounted for by the pile it took; the other unseen places get the rest of the
    unseen cards in a random order, no red three in a card a player already holds (it would
    have been laid). Every candidate is replayed: its tape must be legal and its events the
    same as the seat saw. Consistent with the view, not exactly uniform over such deals (the
    kinds seen go to random places among those possible, not with their exact odds)."""
    base = view.position
    seat = view.seat
    evs = view.seen
    lay = _layout(base, evs[0])
    deck0 = base.header[_DECK:_DECK + lay.ncards]
    full = deck(base.rules).tolist()
    for c in deck0:
        if c >= 0:
            full.remove(int(c))
    draws = _draws(evs, lay)
    by_event = {i: (s, at) for i, s, at in draws}
    others = [s for s in lay.hands if s != seat]

    def draw():
        pool: dict[int, list[int]] = {}
        for c in rng.permutation(full):
            pool.setdefault(int(KIND_OF[c]), []).append(int(c))
        deck = [int(c) for c in deck0]
        held = {s: [i for i in lay.hands[s]] for s in others}  # unseen places each holds
        known = {s: [] for s in others}  # kinds each is known to hold as its own cards
        extra = {s: [] for s in others}  # kinds it took from the pile this turn (not counted)
        last_draw = {}
        turn_melds = {s: [] for s in others}
        banned: dict[int, set[int]] = {}  # place -> kinds it cannot hold (see the melds)
        ok = True

        def put(s, kind, places=None):
            """Place a card of ``kind`` in one of ``places`` (default: any held by ``s``);
            False when none is free or no such card is left."""
            free = [i for i in (held[s] if places is None else places)
                    if deck[i] < 0 and i in held[s] and kind not in banned.get(i, ())]
            if not free or not pool.get(kind):
                return False
            i = free[int(rng.integers(len(free)))]
            deck[i] = pool[kind].pop()
            held[s].remove(i)
            return True

        def take(kinds, k):
            if k in kinds:
                kinds.remove(k)
                return True
            return False

        def own_card(s, k):
            """One of the hand's own cards of kind k: a known one first (an unseen place can
            hold any kind, a known card only its own), else an unseen place."""
            return take(known[s], k) or put(s, k)

        for i, e in enumerate(evs):
            s = e.get("seat")
            if s not in held:
                continue
            ev = e["event"]
            if ev == "draw":
                held[s].append(by_event[i][1])
                last_draw[s] = by_event[i][1]
            elif ev == "turn":  # the pile's cards of a past turn count as the hand's own
                known[s] += extra[s]
                extra[s] = []
                turn_melds[s] = []
            elif ev == "foot":
                held[s] += list(lay.feet[s])
            elif ev == "pile_take":  # the top card counts as the hand's own, not the rest
                cards = [_KIND[k] for k, n in e["cards"].items() for _ in range(n)]
                cards.remove(_KIND[e["top"]])
                known[s].append(_KIND[e["top"]])
                extra[s] += cards
            elif ev == "red_three":
                # the red three itself: a dealt one in the hand, a drawn one where it was drawn
                if e["source"] == "pile":
                    ok = take(known[s], RED3) or take(extra[s], RED3)
                elif e["source"] == "stock":
                    ok = put(s, RED3, [last_draw.get(s, -1)])
                else:
                    ok = put(s, RED3, lay.hands[s] if e["source"] == "dealt" else lay.feet[s])
                if i in by_event:  # then its replacement, from the stock
                    held[s].append(by_event[i][1])
                    last_draw[s] = by_event[i][1]
            elif ev == "meld":
                parts = _needs(e)
                splits = _splits(parts, e["counted"])
                if not splits:
                    ok = False
                    failed = "placing a meld seen"
                    break
                own = splits[int(rng.integers(len(splits)))]
                for (k, m), n in zip(parts, own):
                    for j in range(m):
                        if j < n:
                            ok = ok and own_card(s, k)
                        else:
                            ok = ok and take(extra[s], k)
                    if n < m:  # the pile's cards were melded: the hand had no other of k
                        ok = ok and k not in known[s]
                        for at in held[s]:
                            banned.setdefault(at, set()).add(k)
                    turn_melds[s].append((k, n, m - n))
            elif ev == "discard":
                # a card of a known kind first, even one of the pile's (a discard ends the
                # turn, so whether it was counted no longer matters): an unseen place is
                # kept for the kinds still to come
                k = _KIND[e["card"]]
                ok = take(known[s], k) or take(extra[s], k) or put(s, k)
            elif ev == "meld_cancelled":  # the turn's melds go back to the hand
                for k, n, x in turn_melds[s]:
                    known[s] += [k] * n
                    extra[s] += [k] * x
                turn_melds[s] = []
            if not ok:
                failed = f"placing a {ev} seen"
                break
        if not ok:
            return failed
        rest = [c for k in pool for c in pool[k]]
        rng.shuffle(rest)
        reds = [c for c in rest if KIND_OF[c] == RED3]
        plain = [c for c in rest if KIND_OF[c] != RED3]
        for i in (i for s in others for i in held[s] if deck[i] < 0):  # cards held now
            j = next((j for j, c in enumerate(plain)
                      if KIND_OF[c] not in banned.get(i, ())), None)
            if j is None:
                return "too few plain cards"
            deck[i] = plain.pop(j)
        future = [i for i in range(lay.ncards) if deck[i] < 0]
        rest = reds + plain
        rng.shuffle(rest)
        for i, c in zip(future, rest, strict=True):
            deck[i] = c
        pos = base.copy()
        pos.header[_DECK:_DECK + lay.ncards] = deck
        return pos

    return first_consistent(draw, lambda pos: _as_seen(_deal_events(pos), seat) == evs, tries)


def choices(pos: Position, kind: int) -> list[tuple[str, int]]:
    """The answers to list for decision ``kind`` in an outlook (simulator.outlook), as (label,
    tape value): the stock or the pile for a draw, every kind of card for a discard (the
    kernel refuses those the seat does not hold). Melds, asking and granting are not listed."""
    if kind == K.KD_DRAW:
        return [("stock", 0), ("pile", 1)]
    if kind == K.KD_DISCARD:
        return [(n, k) for k, n in enumerate(KIND_NAMES)]
    return []
