"""Position files: a deal, or a point in the middle of one, as a TOML text a user can keep,
send and replay (docs/positions.md).

The data that counts is exact: the run's seed, game index and rules, the deal's header (the
cards as dealt and what the game carries into the deal, in the kernel's layout), the decisions
made so far (the tape) and, when the position was cut from a run, the strategies' random
streams. The events so far are written above the data as comments, for reading.
"""
from __future__ import annotations

import json
import tomllib
from pathlib import Path

import numpy as np
import tomli_w

from cardsim.simulator.errors import UsageError
from cardsim.simulator.position import Position

FORMAT = 1
_U64 = (1 << 64) - 1


def _plain(v):
    """A rule's value as TOML holds it (none as the text the rules read back)."""
    if v is None:
        return "none"
    if isinstance(v, (list, tuple)):
        return [_plain(x) for x in v]
    return v


def dumps(pos: Position, strategies: list[str], events: list[dict] | None = None,
          decision_names: tuple[str, ...] = ()) -> str:
    """The position as a TOML text; ``events`` (the game's replay events up to the stop)
    become the comment block at its top."""
    kind = (decision_names[pos.kind] if 0 <= pos.kind < len(decision_names)
            else str(pos.kind))
    head = [f"# cardsim position: {pos.game}, game {pos.game_index} of seed {pos.seed}, "
            f"deal {pos.deal}, after {len(pos.tape)} decisions; seat {pos.seat} to {kind}",
            "# what happened so far (for reading; cardsim reads the data below):"]
    head += [f"#   {json.dumps(e)}" for e in (events or [])
             if e.get("event") != "game"]
    doc = {
        "format": FORMAT, "game": pos.game, "seed": int(pos.seed),
        "game_index": int(pos.game_index), "deal": int(pos.deal),
        "mode": "deals" if pos.deals_mode else "games", "rotations": int(pos.rot_k),
        "seat": int(pos.seat), "decision": kind, "strategies": list(strategies),
        "tape": [int(x) for x in pos.tape], "header": [int(x) for x in pos.header],
    }
    if pos.stash is not None:  # uint64 streams: hex text (TOML integers are signed)
        doc["streams"] = [f"{int(x) & _U64:016x}" for x in pos.stash.ravel()]
    doc["rules"] = {k: _plain(v) for k, v in pos.rules.items()}
    return "\n".join(head) + "\n\n" + tomli_w.dumps(doc)


def _need(doc: dict, key: str, kind, path) -> object:
    if key not in doc:
        raise UsageError(f"{path}: position file has no '{key}'")
    v = doc[key]
    if not isinstance(v, kind) or isinstance(v, bool) and kind is not bool:
        raise UsageError(f"{path}: position field '{key}' has the wrong type "
                         f"({type(v).__name__})")
    return v


def loads(text: str, path="position") -> tuple[Position, list[str]]:
    """(Position, the strategies it was cut with) from a position file's text; every missing
    or malformed field is refused in one line naming it."""
    from cardsim.simulator.games import get_game
    from cardsim.simulator.position import _blank, _header

    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UsageError(f"{path}: not a TOML position file ({e})") from None
    if _need(doc, "format", int, path) != FORMAT:
        raise UsageError(f"{path}: position format {doc['format']}; this cardsim reads "
                         f"format {FORMAT}")
    game = get_game(_need(doc, "game", str, path))
    rules = game.rules.resolve(_need(doc, "rules", dict, path))
    mode = _need(doc, "mode", str, path)
    if mode not in ("games", "deals"):
        raise UsageError(f"{path}: position field 'mode' is {mode!r}; allowed games, deals")
    tape = _need(doc, "tape", list, path)
    header = _need(doc, "header", list, path)
    trk, tape0, stash0 = _blank(game)
    width = len(_header(trk))
    if len(header) != width or not all(isinstance(x, int) for x in header):
        raise UsageError(f"{path}: position field 'header' must be {width} integers "
                         f"({len(header)} given)")
    if len(tape) > len(tape0) or not all(isinstance(x, int) for x in tape):
        raise UsageError(f"{path}: position field 'tape' must be at most {len(tape0)} "
                         "integers")
    stash = None
    if "streams" in doc:
        try:
            words = [int(x, 16) for x in doc["streams"]]
        except (TypeError, ValueError):
            words = []
        if len(words) != stash0.size:
            raise UsageError(f"{path}: position field 'streams' must be {stash0.size} "
                             "hexadecimal words")
        stash = np.array(words, np.uint64).reshape(stash0.shape)
    strategies = _need(doc, "strategies", list, path)
    pos = Position(game.name, rules, _need(doc, "seed", int, path),
                   _need(doc, "game_index", int, path), _need(doc, "deal", int, path),
                   np.array(header, np.int64), np.array(tape, np.int32), stash,
                   int(doc.get("seat", -1)), -1, mode == "deals",
                   _need(doc, "rotations", int, path))
    return pos, [str(s) for s in strategies]


def read(path: Path) -> tuple[Position, list[str]]:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise UsageError(f"--position {path}: cannot read ({e.strerror or e})") from None
    return loads(text, f"--position {path}")
