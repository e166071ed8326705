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
    """(Position, the strategies it was cut with) from a position file's text: one cut by
    ``replay --stop-at`` (its header) or one written by hand (a [cards] table: the start of a
    deal with those cards); every missing or malformed field is refused in one line naming
    it."""
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
    hand_written = "cards" in doc
    if hand_written == ("header" in doc):
        raise UsageError(f"{path}: a position file has a 'header' (cut by cardsim replay "
                         "--stop-at) or a [cards] table (written by hand), not "
                         + ("both" if hand_written else "neither"))
    # a hand-written file may leave out what a cut one always holds
    opt = (lambda key, kind, default: _need(doc, key, kind, path) if key in doc or not
           hand_written else default)
    rules = game.rules.resolve(opt("rules", dict, {}))
    mode = opt("mode", str, "games")
    if mode not in ("games", "deals"):
        raise UsageError(f"{path}: position field 'mode' is {mode!r}; allowed games, deals")
    tape = opt("tape", list, [])
    trk, tape0, stash0 = _blank(game)
    if len(tape) > len(tape0) or not all(isinstance(x, int) for x in tape):
        raise UsageError(f"{path}: position field 'tape' must be at most {len(tape0)} "
                         "integers")
    strategies = [str(s) for s in opt("strategies", list, [game.default_strategy])]
    seed, index = opt("seed", int, 0), opt("game_index", int, 0)
    deal, rot_k = opt("deal", int, 0), opt("rotations", int, 0)
    if hand_written:
        pos = _from_cards(game, rules, strategies, seed, index, deal, mode == "deals", rot_k,
                          _need(doc, "cards", dict, path), path)
        if "streams" in doc:
            raise UsageError(f"{path}: position field 'streams': not with [cards] (the "
                             "players start with fresh streams)")
        if tape:
            pos.tape, pos.stash = np.array(tape, np.int32), None
        return pos, strategies
    header = _need(doc, "header", list, path)
    width = len(_header(trk))
    if len(header) != width or not all(isinstance(x, int) for x in header):
        raise UsageError(f"{path}: position field 'header' must be {width} integers "
                         f"({len(header)} given)")
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
    pos = Position(game.name, rules, seed, index, deal, np.array(header, np.int64),
                   np.array(tape, np.int32), stash, int(doc.get("seat", -1)), -1,
                   mode == "deals", rot_k)
    return pos, strategies


def _from_cards(game, rules, strategies, seed, index, deal, deals_mode, rot_k, cards: dict,
                path) -> Position:
    """A hand-written file's [cards]: places by seat (``hand0 = "JS 9S ..."``, ``foot1``,
    ``upcard``), optionally ``dealer``; the cards not named are dealt at random."""
    from cardsim.simulator import constrained as C
    from cardsim.simulator.position import dealt

    dealer = cards.get("dealer")
    if dealer is not None and (not isinstance(dealer, int) or isinstance(dealer, bool)
                               or not 0 <= dealer < int(rules["players"])):
        raise UsageError(f"{path}: cards.dealer must be a seat 0..{int(rules['players']) - 1}")
    fixed = {}
    for place, text in cards.items():
        if place == "dealer":
            continue
        if not isinstance(text, str):
            raise UsageError(f"{path}: cards.{place} must be a text of cards (\"JS 9S AH\")")
        fixed[place] = C.parse_cards(text, f"cards.{place}")
    try:
        return dealt(game, rules, strategies, seed, index, deal, fixed, dealer, deals_mode,
                     rot_k)
    except UsageError as e:
        raise UsageError(f"{path}: {e}") from None


def read(path: Path) -> tuple[Position, list[str]]:
    try:
        text = Path(path).read_text()
    except OSError as e:
        raise UsageError(f"--position {path}: cannot read ({e.strerror or e})") from None
    return loads(text, f"--position {path}")
