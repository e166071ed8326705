"""Card encoding shared by every game.

A card is a small integer: ``suit * 13 + rank`` with suits S H D C (0-3) and ranks 2..A (0-12);
``JOKER`` (52) is a joker. Games keep their own orderings and values as lookup tables indexed by
this code, so names, parsing and replays are the same everywhere. Identical cards from several
decks share a code.
"""
import numpy as np

SUITS = "SHDC"
SUIT_NAMES = ("spades", "hearts", "diamonds", "clubs")
RANKS = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
JOKER = 52
N_CODES = 53

R2, R3, R4, R5, R6, R7, R8, R9, R10, RJ, RQ, RK, RA = range(13)


def code(rank: int, suit: int) -> int:
    return suit * 13 + rank


def name(c: int) -> str:
    """'JS', '10H', 'AD', 'JK' (joker)."""
    c = int(c)
    if c == JOKER:
        return "JK"
    if not 0 <= c < JOKER:
        raise ValueError(f"not a card code: {c}")
    return RANKS[c % 13] + SUITS[c // 13]


def parse(text: str) -> int:
    t = text.strip().upper()
    if t in ("JK", "JOKER"):
        return JOKER
    if len(t) < 2 or t[-1] not in SUITS or t[:-1] not in RANKS:
        raise ValueError(f"not a card: {text!r} (rank 2-10 J Q K A then suit S H D C, or JK)")
    return code(RANKS.index(t[:-1]), SUITS.index(t[-1]))


def deck(ranks, copies: int = 1, jokers: int = 0) -> np.ndarray:
    """All cards of the given ranks in four suits, ``copies`` times, plus jokers (ordered)."""
    one = [code(r, s) for s in range(4) for r in ranks]
    return np.array(one * copies + [JOKER] * jokers, dtype=np.int8)
