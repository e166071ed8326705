"""Toy tricks positions as a player sees them, and their hidden cards dealt again
(simulator.position). A player sees its own hand, every card played and by whom, the totals;
it does not see the others' remaining cards, only that a player who did not follow the suit led
holds none of it."""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cardsim.simulator.cards import parse
from cardsim.simulator.position import Position, deal_unseen, events
from cardsim.simulator import track as T

from tests.toy_tricks import kernel as K
from tests.toy_tricks.view import SEATS


@dataclass
class View:
    position: Position  # the position with every card the seat cannot see set to -1
    seat: int
    plays: list[tuple[int, int]]  # (seat, card code) in order
    voids: dict[int, set[int]]  # seat -> suits it showed out of


def _block(pos: Position, seat: int) -> slice:
    hs = pos.rules["hand_size"]
    i = (seat - int(pos.header[K.H_DEALER - T.T_HEAD]) - 1) % SEATS
    at = K.H_DECK - T.T_HEAD + i * hs
    return slice(at, at + hs)


def _rest(pos: Position) -> slice:
    """The cards nobody was dealt."""
    return slice(K.H_DECK - T.T_HEAD + SEATS * pos.rules["hand_size"],
                 K.H_DECK - T.T_HEAD + K.DECK.shape[0])


def observe(pos: Position, seat: int) -> View:
    plays, voids, led = [], {s: set() for s in range(SEATS)}, None
    for e in events(pos):
        if e["event"] == "play" and e["deal"] == pos.deal:
            c = parse(e["card"])
            if led is None:
                led = c // 13
            elif c // 13 != led:
                voids[e["seat"]].add(led)
            plays.append((e["seat"], c))
        elif e["event"] == "trick" and e["deal"] == pos.deal:
            led = None
    seen = pos.copy()
    seen.stash = None
    for s in range(SEATS):
        if s != seat:
            seen.header[_block(pos, s)] = -1
    seen.header[_rest(pos)] = -1
    return View(seen, seat, plays, voids)


def resample(view: View, rng: np.random.Generator, tries: int = 10_000) -> Position:
    """A position the seat cannot tell from the one it saw: each other seat holds the cards it
    played and unseen cards of no suit it showed out of, in a random order, the rest undealt;
    uniform over such deals (rejection from uniform deals of the unseen cards)."""
    pos = view.position.copy()
    played = {s: [c for p, c in view.plays if p == s] for s in range(SEATS)}
    pool = [int(c) for c in K.DECK]
    for c in [int(c) for c in pos.header[_block(pos, view.seat)]] + [
            c for s in played if s != view.seat for c in played[s]]:
        pool.remove(c)
    hs = pos.rules["hand_size"]
    others = [s for s in range(SEATS) if s != view.seat]
    for _ in range(tries):
        dealt = deal_unseen(pool, others, hs, played, view.voids, rng)
        if dealt is not None:
            hands, rest = dealt
            for s in others:
                pos.header[_block(pos, s)] = hands[s]
            pos.header[_rest(pos)] = rest
            return pos
    raise ValueError(f"no deal consistent with the view in {tries} tries")
