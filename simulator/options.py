"""Option values the game commands share (plain Python: part of no kernel)."""
from __future__ import annotations

from cardsim.simulator.errors import UsageError


def whole_numbers(option: str, text: str, lowest: int) -> list[int]:
    """A comma-separated list of whole numbers from ``lowest`` (e.g. --turns), sorted and
    without repeats; anything else is one line naming the option."""
    try:
        values = sorted({int(t) for t in text.split(",") if t.strip()})
    except ValueError:
        raise UsageError(f"{option} {text!r}: comma-separated whole numbers") from None
    if not values or values[0] < lowest:
        raise UsageError(f"{option} {text!r}: comma-separated whole numbers from {lowest}")
    return values
