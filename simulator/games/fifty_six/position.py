"""56 positions as a player sees them, and their hidden cards dealt again (simulator.position).

A player sees its own hand, every call as the table heard it (with ``hidden_trump`` another
player's suit bids have their suit face down), every card played and by whom, and who asked for
the trump. It does not see the others' remaining cards, only that a player who did not follow
the suit led holds none of it; nor, until the trump is shown, the suit another player bid.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.simulator import track as T
from cardsim.simulator.cards import parse
from cardsim.simulator.position import Position, deal_unseen, events, first_consistent, resume
from cardsim.simulator.games.fifty_six import kernel as K
from cardsim.simulator.games.fifty_six import view as V

_DECK = K.H_DECK - T.T_HEAD  # where the dealt cards start in a position's header


@dataclass
class View:
    position: Position  # every card the seat cannot see set to -1, hidden bid suits face down
    seat: int
    plays: list[tuple[int, int]]  # (seat, card code) in order
    voids: dict[int, set[int]]  # seat -> suits it showed out of
    hidden_calls: list[int]  # tape places of calls whose suit the seat did not see
    blocks: dict[int, slice]  # each seat's dealt cards in the header


def _deal_event(evs, deal):
    return next(e for e in evs if e["event"] == "deal" and e["deal"] == deal)


def _blocks(evs, pos: Position) -> dict[int, slice]:
    """Each active seat's cards in the header: dealt in blocks of a hand, in turn order from
    the first seat to call."""
    d = _deal_event(evs, pos.deal)
    seats = sorted(int(s) for s in d["hands"])
    n = int(pos.rules["players"])
    size = len(next(iter(d["hands"].values())))
    at, s, out = 0, d["first"], {}
    for _ in seats:
        out[s] = slice(_DECK + at, _DECK + at + size)
        at += size
        s = (s + d["direction"]) % n
        while s not in seats:
            s = (s + d["direction"]) % n
    return out


# what a points constraint counts (simulator.constrained): the cards' points
CARD_POINTS = V.POINTS.astype(np.int64)


def deck(rules: dict) -> np.ndarray:
    """The unshuffled deck of a deal with every seat at the table (kernel order)."""
    n = int(rules["players"])
    return (K.DECK_64 if n * (12 if n == 4 else 8) == 64 else K.DECK_48).astype(np.int64)


def turn_places(rules: dict) -> dict[str, list[int]]:
    """``places`` with the seats counted in turn order from the first player (hand0)."""
    return places(rules, int(rules["players"]) - 1)


def places(rules: dict, dealer: int, deal: int = 0) -> dict[str, list[int]]:
    """Where each seat's hand lies in the dealt deck of a deal that ``dealer`` deals with every
    seat at the table (constrained dealing, simulator.constrained): ``hand<seat>``. Every deal
    is dealt alike, whatever ``deal``."""
    n = int(rules["players"])
    size = 12 if n == 4 else 8
    step = -1 if rules["turn_order"] == "sheet_clockwise" else 1
    s, out = (dealer + 1) % n, {}
    for k in range(n):
        out[f"hand{s}"] = list(range(k * size, (k + 1) * size))
        s = (s + step) % n
    return out


def observe(pos: Position, seat: int) -> View:
    evs = [e for e in events(pos) if e.get("deal") == pos.deal]
    plays, voids, led = [], {s: set() for s in range(V.MAX_SEATS)}, None
    hidden, k, last_bid = [], 0, -1
    for e in evs:
        if e["event"] == "call":
            if e["seat"] != seat and e["seen_as"].get("trump") == "hidden":
                hidden.append(k)
            if e["call"] == "bid":
                last_bid = k
            k += 1
        elif e["event"] == "play":
            c = parse(e["card"])
            if led is None:
                led = c // 13
            elif c // 13 != led:
                voids[e["seat"]].add(led)
            plays.append((e["seat"], c))
        elif e["event"] == "trick":
            led = None
    if any(e["event"] == "reveal" for e in evs) and last_bid in hidden:
        hidden.remove(last_bid)  # the contract's suit, shown to all
    seen = pos.copy()
    seen.stash = None
    blocks = _blocks(evs, pos)
    for s, b in blocks.items():
        if s != seat:
            seen.header[b] = -1
    for k in hidden:
        code = int(seen.tape[k])
        seen.tape[k] = V.bid_code(V.call_value(code), V.TRUMP_HIDDEN, V.call_form(code))
    return View(seen, seat, plays, voids, hidden, blocks)


def _weak(hands: list[list[int]], teams: list[int]) -> bool:
    """redeal_weak_hands: some hand has no card points, or some team holds no jack."""
    jacks = {t: 0 for t in teams}
    for h, t in zip(hands, teams):
        if sum(int(V.POINTS[c]) for c in h) == 0:
            return True
        jacks[t] += sum(c % 13 == 9 for c in h)
    return min(jacks.values()) == 0


def resample(view: View, rng: np.random.Generator, tries: int = 10_000) -> Position:
    """A position the seat cannot tell from the one it saw: each other seat holds the cards it
    played and unseen cards of no suit it showed out of, in a random order; a hidden bid's suit
    is drawn uniformly from the four suits. Uniform over such deals by rejection, which also
    throws out a deal the table would have redealt (redeal_weak_hands) and one on which the
    calls and plays seen would not have been legal (a bidder's trump lead, a noes bid)."""
    base = view.position
    blocks = view.blocks
    played = {s: [c for p, c in view.plays if p == s] for s in blocks}
    own = [int(c) for c in base.header[blocks[view.seat]]]
    size = blocks[view.seat].stop - blocks[view.seat].start
    # the active seats' deck (in a later deal of a pairs game, seats may have left)
    pool = [int(c) for c in (K.DECK_64 if size * len(blocks) == 64 else K.DECK_48)]
    for c in own + [c for s in played if s != view.seat for c in played[s]]:
        pool.remove(c)
    others = [s for s in blocks if s != view.seat]
    players = int(base.rules["players"])
    nteams = players // 2 if base.rules["team_layout"] == "pairs" else 2
    team_of = {s: s % nteams for s in blocks}
    weak_on = base.rules["redeal_weak_hands"]

    def draw():
        dealt = deal_unseen(pool, others, size, played, view.voids, rng)
        if dealt is None:
            return "a void broken"
        hands = {view.seat: own, **dealt[0]}
        seats = sorted(hands)
        if weak_on and _weak([hands[s] for s in seats], [team_of[s] for s in seats]):
            return "a weak deal (redealt)"
        pos = base.copy()
        for s in others:
            pos.header[blocks[s]] = hands[s]
        for k in view.hidden_calls:
            code = int(pos.tape[k])
            pos.tape[k] = V.bid_code(V.call_value(code), int(rng.integers(4)),
                                     V.call_form(code))
        return pos

    # the tape is legal on the candidate's cards (the kernel checks every answer)
    return first_consistent(draw, lambda pos: resume(pos, ["random"], stop=len(pos.tape))
                            is not None, tries)


def choices(pos: Position, kind: int) -> list[tuple[str, int]]:
    """The answers to list for decision ``kind`` in an outlook (simulator.outlook), as (label,
    tape value): every card of the deck for a play (the kernel refuses those the seat may not
    play). Calls are not listed: too many to play each out."""
    if kind != V.PLAY:
        return []
    from cardsim.simulator.cards import name

    return [(name(c), c) for c in sorted(set(deck(pos.rules).tolist()))]
