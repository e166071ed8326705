"""Reading finished cardsim output folders (every study starts here)."""
from __future__ import annotations

import json
from pathlib import Path

from simulator.errors import UsageError


def read_info(folder, name: str, what: str) -> dict:
    """The JSON file ``name`` a finished ``what`` (run, sweep, comparison) writes last."""
    folder = Path(folder)
    try:
        return json.loads((folder / name).read_text())
    except (OSError, ValueError):
        raise UsageError(f"{folder}: no readable {name} (not a finished cardsim {what})") \
            from None
