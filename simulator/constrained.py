"""Constrained dealing: some cards fixed at given places of a deck, the rest dealt uniformly at
random among the deals that satisfy a set of constraints.

A game names the *places* of its dealt deck (``"hand0"``: the positions seat 0's hand is dealt
from, ``"foot0"``, ``"upcard"`` ...): places are sets of deck positions, so one mechanism serves
every game's dealing order. A deal is then specified by

- fixed cards: codes that a place must hold (a whole hand or part of one, the upcard), put at
  the first positions of the place; and
- constraints on places: card points in a range, the count of a rank or of a suit in a range,
  holding a card.

Dealing removes the fixed cards from the deck and shuffles the rest into the free positions
(Fisher-Yates on the deal's counter-based stream, as every shuffle in cardsim), then rejects
the deals that break a constraint and shuffles again. That is exactly uniform among the deals
satisfying the constraints: the fixed cards are where they were put, every arrangement of the
others is equally likely, and rejection keeps the conditional distribution. A specification
that accepts no deal within ``MAX_TRIES`` draws is refused with one line.
"""
from __future__ import annotations

import re
from dataclasses import dataclass

import numpy as np
from numba import njit

from cardsim.simulator import rng as R
from cardsim.simulator.cards import JOKER, RANKS, SUITS, name, parse
from cardsim.simulator.errors import UsageError

C_POINTS, C_RANK, C_SUIT, C_HOLDS = range(4)  # constraint kinds (Spec.cons[:, 1])
KINDS = {"points": C_POINTS, "rank": C_RANK, "suit": C_SUIT, "holds": C_HOLDS}
MAX_TRIES = 1_000_000  # draws without one accepted deal: the specification is refused


@dataclass(frozen=True)
class Constraint:
    place: str
    kind: str  # points | rank | suit | holds
    arg: int  # the rank index (rank), suit index (suit) or card code (holds); 0 for points
    lo: int
    hi: int

    def text(self) -> str:
        arg = {"rank": lambda a: RANKS[a], "suit": lambda a: SUITS[a],
               "holds": name, "points": lambda a: ""}[self.kind](self.arg)
        what = f"{self.kind}={arg}" if arg else self.kind
        return f"{self.place}:{what}:{self.lo}..{self.hi}"


@dataclass(frozen=True)
class Spec:
    """A constrained deal in the arrays the dealer reads (see ``build``)."""
    ncards: int
    fixed_at: np.ndarray  # int64: deck positions of the fixed cards
    fixed_code: np.ndarray  # int64: their codes
    free_at: np.ndarray  # int64: the other positions, in order
    free_cards: np.ndarray  # int64: the cards left for them (the deck minus the fixed cards)
    places: np.ndarray  # int64 (constrained place, width): its positions, -1 padded
    cons: np.ndarray  # int64 (constraint, 5): place row, kind, arg, lo, hi
    points: np.ndarray  # int64 (53): card points by code, for points constraints


def parse_cards(text: str, field: str = "--hand") -> list[int]:
    """Card codes from the replay logs' names ('JC 10H 9S', commas allowed, 'JK' a joker);
    a bad name is refused in one line naming ``field``."""
    out = []
    for t in re.split(r"[\s,]+", text.strip()):
        if not t:
            continue
        if t.upper() == "JK":
            out.append(JOKER)
            continue
        try:
            out.append(parse(t.upper()))
        except ValueError:
            raise UsageError(f"{field}: {t!r} is not a card (allowed: rank 2-10, J, Q, K, A "
                             f"then suit {', '.join(SUITS)}, as in JC 10H 9S; JK a joker)"
                             ) from None
    return out


def _range(text: str, field: str) -> tuple[int, int]:
    m = re.fullmatch(r"(-?\d+)(?:\.\.(-?\d+))?", text)
    if not m:
        raise UsageError(f"{field}: {text!r} is not a count or range (allowed: N or LO..HI)")
    lo = int(m.group(1))
    hi = int(m.group(2)) if m.group(2) is not None else lo
    if lo > hi:
        raise UsageError(f"{field}: {text!r} is empty (LO must not exceed HI)")
    return lo, hi


def parse_constraint(text: str, places, field: str = "--constraint") -> Constraint:
    """``PLACE:points:LO..HI``, ``PLACE:rank=J:LO..HI``, ``PLACE:suit=H:LO..HI`` or
    ``PLACE:holds=JC`` (a range optional for holds: at least one). ``places``: the names a
    game allows."""
    parts = text.split(":")
    if len(parts) not in (2, 3) or not parts[0]:
        raise UsageError(f"{field}: {text!r} is not a constraint (allowed: PLACE:points:LO..HI, "
                         "PLACE:rank=R:LO..HI, PLACE:suit=S:LO..HI, PLACE:holds=CARD)")
    place, what = parts[0], parts[1]
    if place not in places:
        raise UsageError(f"{field}: {text!r}: no place {place!r} (allowed: "
                         f"{', '.join(places)})")
    kind, _, arg = what.partition("=")
    if kind not in KINDS:
        raise UsageError(f"{field}: {text!r}: {kind!r} is not a constraint kind (allowed: "
                         f"{', '.join(KINDS)})")
    if kind == "points":
        if arg or len(parts) != 3:
            raise UsageError(f"{field}: {text!r}: points take a range (PLACE:points:LO..HI)")
        lo, hi = _range(parts[2], field)
        return Constraint(place, kind, 0, lo, hi)
    if kind == "holds":
        code = parse_cards(arg, field)
        if len(code) != 1:
            raise UsageError(f"{field}: {text!r}: holds takes one card (PLACE:holds=JC)")
        lo, hi = _range(parts[2], field) if len(parts) == 3 else (1, 1 << 20)
        return Constraint(place, kind, code[0], lo, hi)
    table = RANKS if kind == "rank" else SUITS
    if arg.upper() not in table or len(parts) != 3:
        raise UsageError(f"{field}: {text!r}: {kind} takes one of {', '.join(table)} and a "
                         f"range ({place}:{kind}={table[0]}:LO..HI)")
    lo, hi = _range(parts[2], field)
    return Constraint(place, kind, table.index(arg.upper()), lo, hi)


def build(deck, places: dict[str, list[int]], fixed: dict[str, list[int]] | None = None,
          constraints: list[Constraint] = (), points=None) -> Spec:
    """The dealer's arrays for ``deck`` (the game's unshuffled deck: card codes, copies
    repeated), its named ``places`` (deck positions), the cards ``fixed`` at places (put at
    their first positions) and the ``constraints``; ``points``: card points by code (needed
    for points constraints). Every card fixed beyond the deck's copies, a place given more
    cards than it holds, or a place fixed twice over the same positions is refused in one
    line naming it."""
    deck = np.asarray(deck, np.int64)
    n = deck.shape[0]
    fixed = fixed or {}
    left = {}
    for c in deck.tolist():
        left[c] = left.get(c, 0) + 1
    fixed_at, fixed_code = [], []
    for place, cards in fixed.items():
        if place not in places:
            raise UsageError(f"fixed cards: no place {place!r} (allowed: "
                             f"{', '.join(places)})")
        at = list(places[place])
        if len(cards) > len(at):
            raise UsageError(f"{place}: {len(cards)} cards fixed, but it holds {len(at)}")
        for c, p in zip(cards, at):
            if left.get(c, 0) == 0:
                copies = int((deck == c).sum())
                raise UsageError(f"{place}: {name(c)} is fixed more often than the deck has it "
                                 f"({copies} {'copy' if copies == 1 else 'copies'})")
            left[c] -= 1
            if p in fixed_at:
                raise UsageError(f"{place}: deck position {p} is fixed twice")
            fixed_at.append(p)
            fixed_code.append(c)
    taken = set(fixed_at)
    free_at = [p for p in range(n) if p not in taken]
    free_cards = []
    for c in deck.tolist():  # the deck's order, minus the fixed copies
        if left[c] > 0:
            free_cards.append(c)
            left[c] -= 1
    assert len(free_cards) == len(free_at)
    names = sorted({c.place for c in constraints})
    for c in constraints:
        if c.place not in places:
            raise UsageError(f"--constraint: no place {c.place!r} (allowed: "
                             f"{', '.join(places)})")
        if c.kind == "points" and points is None:
            raise UsageError(f"--constraint {c.text()}: this game has no card points")
    width = max([len(places[p]) for p in names] or [1])
    prow = np.full((max(len(names), 1), width), -1, np.int64)
    for i, p in enumerate(names):
        prow[i, :len(places[p])] = places[p]
    cons = np.array([[names.index(c.place), KINDS[c.kind], c.arg, c.lo, c.hi]
                     for c in constraints], np.int64).reshape(-1, 5)
    pts = np.zeros(53, np.int64) if points is None else np.asarray(points, np.int64)
    return Spec(n, np.array(fixed_at, np.int64), np.array(fixed_code, np.int64),
                np.array(free_at, np.int64), np.array(free_cards, np.int64), prow, cons, pts)


@njit(cache=True)
def satisfied(deck, places, cons, points):
    """Whether ``deck`` meets every constraint (rows of ``cons``: place row, kind, arg, lo,
    hi)."""
    for k in range(cons.shape[0]):
        row, kind, arg, lo, hi = cons[k, 0], cons[k, 1], cons[k, 2], cons[k, 3], cons[k, 4]
        v = 0
        for j in range(places.shape[1]):
            p = places[row, j]
            if p < 0:
                break
            c = deck[p]
            if kind == C_POINTS:
                v += points[c]
            elif kind == C_RANK:
                if c != JOKER and c % 13 == arg:
                    v += 1
            elif kind == C_SUIT:
                if c != JOKER and c // 13 == arg:
                    v += 1
            elif c == arg:
                v += 1
        if v < lo or v > hi:
            return False
    return True


@njit(cache=True)
def deal_into(deck, scratch, fixed_at, fixed_code, free_at, places, cons, points, rng,
              max_tries):
    """One constrained deal into ``deck`` (its first ``len(fixed_at) + len(free_at)``
    positions), drawing from ``rng``; ``scratch`` holds the free cards, reset by the caller to
    the same order for every deal (so that a deal depends on its stream alone; within a deal
    each try shuffles the last try's order again, as uniform as a fresh copy). Returns the
    draws it took, or -1 when ``max_tries`` draws accepted none."""
    for j in range(fixed_at.shape[0]):
        deck[fixed_at[j]] = fixed_code[j]
    nfree = free_at.shape[0]
    for t in range(max_tries):
        R.shuffle(rng, scratch, nfree)
        for i in range(nfree):
            deck[free_at[i]] = scratch[i]
        if satisfied(deck, places, cons, points):
            return t + 1
    return -1


@njit(cache=True)
def _deals(seed, first, n, ncards, fixed_at, fixed_code, free_at, free_cards, places, cons,
           points, max_tries, out, tries):
    rng = np.zeros(2, np.uint64)
    scratch = free_cards.copy()
    deck = np.zeros(ncards, np.int64)
    for g in range(n):
        R.substream(rng, R.game_key(seed, first + g), R.SUB_FIXED, 0)
        scratch[:] = free_cards
        t = deal_into(deck, scratch, fixed_at, fixed_code, free_at, places, cons, points, rng,
                      max_tries)
        tries[g] = t
        if t < 0:
            return g
        out[g, :] = deck
    return n


def deals(spec: Spec, seed: int, n: int, first: int = 0,
          max_tries: int = MAX_TRIES) -> tuple[np.ndarray, np.ndarray]:
    """Decks ``first`` .. ``first + n - 1`` of a run with ``seed`` (each from its own stream,
    keyed by the game index, or the board with duplicate seating: see ``board_deals``), and the
    draws each took. Refused in one line when a deal finds no accepted draw within
    ``max_tries``."""
    out = np.zeros((n, spec.ncards), np.int64)
    tries = np.zeros(n, np.int64)
    got = _deals(np.uint64(seed), int(first), int(n), spec.ncards, spec.fixed_at,
                 spec.fixed_code, spec.free_at, spec.free_cards, spec.places, spec.cons,
                 spec.points, int(max_tries), out, tries)
    if got < n:
        raise UsageError(f"--constraint: no deal met the constraints in {max_tries:,} draws "
                         "(they are impossible, or accept under one deal in a million)")
    return out, tries


def board_deals(spec: Spec, seed: int, first: int, n: int, rot_k: int = 0) -> np.ndarray:
    """The constrained first deals of games ``first`` .. ``first + n - 1`` of a run: with
    duplicate seating (``rot_k`` games per board) the games of a board share its deal."""
    if not rot_k:
        return deals(spec, seed, n, first)[0]
    b0, b1 = first // rot_k, (first + n - 1) // rot_k + 1
    boards = deals(spec, seed, b1 - b0, b0)[0]
    return boards[(np.arange(first, first + n) // rot_k) - b0]
