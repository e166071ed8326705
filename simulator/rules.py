"""Typed rule options shared by every game: parsing ``key=value``, ranges, presets, listing.

A game declares its options as a tuple of :class:`Field` and a cross-field check; values are
plain JSON-able Python, so the fully resolved rules go into ``run.json`` as they are.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

import numpy as np

from cardsim.simulator.errors import UsageError

_TRUE = {"1", "true", "on", "yes"}
_FALSE = {"0", "false", "off", "no"}


class Slots:
    """Positions in a flat int array (a kernel's rule vector, a public or private record),
    handed out by name in order, so that no index is counted by hand and adding an entry
    cannot shift another::

        S = Slots()
        P_DEALER = S.one("P_DEALER")
        P_HAND_N = S.block("P_HAND_N", MAX_SEATS)
        P_LEN = S.size

    A game's rule vector is not written this way: its Fields name their slots (``Field.slot``)
    and ``RuleSet`` lays them out and fills them.
    """

    def __init__(self):
        self.size = 0
        self.names: dict[str, tuple[int, int]] = {}  # name -> (position, length)

    def block(self, name: str, n: int) -> int:
        if name in self.names:
            raise ValueError(f"rule slot {name!r} given twice")
        at = self.size
        self.names[name] = (at, n)
        self.size += n
        return at

    def one(self, name: str) -> int:
        return self.block(name, 1)

    @property
    def offsets(self) -> dict[str, int]:
        """Name -> position, as module constants (``globals().update(S.offsets)``)."""
        return {name: at for name, (at, _) in self.names.items()}


@dataclass(frozen=True)
class Block:
    """Kernel slots that no single option fills one by one: ``n`` ints named ``slot``, filled
    by ``fill(rules) -> n ints`` (a table derived from an option, say)."""
    slot: str
    n: int
    fill: Callable[[dict], Any]
    doc: str = ""


@dataclass(frozen=True)
class Field:
    name: str
    default: Any
    doc: str
    kind: str = "int"  # int | bool | choice | custom
    choices: tuple = ()
    lo: int | None = None
    hi: int | None = None
    none_ok: bool = False  # ints only: "none" allowed
    parse: Callable[[str], Any] | None = None  # custom: text -> value, raises ValueError(allowed)
    allowed: str = ""  # custom: how to describe what is allowed
    # the constant naming the option's place in the kernel's rule vector (None: the kernel
    # does not read it, or only through a Block)
    slot: str | None = None
    # value -> the int the kernel reads; default: a bool or int as it is, none as 0, a
    # choice as its position in ``choices``
    encode: Callable[[Any], int] | None = None

    def kernel_value(self, v: Any) -> int:
        if self.encode is not None:
            return int(self.encode(v))
        if self.kind == "choice":
            return self.choices.index(v)
        return 0 if v is None else int(v)

    def describe_allowed(self) -> str:
        if self.kind == "bool":
            return "true or false"
        if self.kind == "choice":
            return " | ".join(self.choices)
        if self.kind == "custom":
            return self.allowed
        lo = "" if self.lo is None else str(self.lo)
        hi = "" if self.hi is None else str(self.hi)
        rng = f"an integer {lo}..{hi}" if (lo or hi) else "an integer"
        return rng + (" or none" if self.none_ok else "")

    def coerce(self, raw: Any) -> Any:
        """Text (from the CLI) or a Python value (from the API) -> validated value."""
        bad = UsageError(
            f"rule '{self.name}': {raw!r} is not allowed (allowed: {self.describe_allowed()})"
        )
        if self.kind == "bool":
            if isinstance(raw, bool):
                return raw
            t = str(raw).strip().lower()
            if t in _TRUE:
                return True
            if t in _FALSE:
                return False
            raise bad
        if self.kind == "choice":
            t = str(raw).strip()
            if t not in self.choices:
                raise bad
            return t
        if self.kind == "custom":
            try:
                return self.parse(raw)
            except (ValueError, TypeError) as e:
                msg = str(e) or self.allowed
                raise UsageError(f"rule '{self.name}': {raw!r} is not allowed ({msg})") from None
        if raw is None or (isinstance(raw, str) and raw.strip().lower() == "none"):
            if self.none_ok:
                return None
            raise bad
        if isinstance(raw, bool):
            raise bad
        try:
            v = int(str(raw).strip()) if not isinstance(raw, int) else raw
        except ValueError:
            raise bad from None
        if (self.lo is not None and v < self.lo) or (self.hi is not None and v > self.hi):
            raise bad
        return v


class RuleSet:
    """All options of one game, with presets and a cross-field check."""

    def __init__(self, game: str, fields: tuple[Field, ...], check: Callable[[dict], None],
                 presets: dict[str, dict] | None = None, blocks: tuple[Block, ...] = ()):
        self.game = game
        self.fields = {f.name: f for f in fields}
        self.check = check
        self.presets = {"default": {}, **(presets or {})}
        # the kernel's rule vector: each Field with a slot, in order, then the blocks
        self.blocks = blocks
        self.slots = Slots()
        for f in fields:
            if f.slot:
                self.slots.one(f.slot)
        for b in blocks:
            self.slots.block(b.slot, b.n)

    def to_array(self, v: dict) -> np.ndarray:
        """Resolved rules -> the kernel's int64 rule vector (``slots``)."""
        r = np.zeros(self.slots.size, np.int64)
        at = self.slots.offsets
        for f in self.fields.values():
            if f.slot:
                r[at[f.slot]] = f.kernel_value(v[f.name])
        for b in self.blocks:
            r[at[b.slot]:at[b.slot] + b.n] = b.fill(v)
        return r

    def defaults(self) -> dict:
        return {name: f.default for name, f in self.fields.items()}

    def resolve(self, overrides: dict | list[str] | tuple = (), preset: str = "default") -> dict:
        if preset not in self.presets:
            raise UsageError(
                f"unknown rules preset '{preset}' for {self.game} "
                f"(allowed: {', '.join(self.presets)})"
            )
        values = self.defaults()
        values.update(self.presets[preset])
        pairs = overrides.items() if isinstance(overrides, dict) else map(split_assignment, overrides)
        for key, raw in pairs:
            field = self.fields.get(key)
            if field is None:
                raise UsageError(
                    f"unknown rule '{key}' for {self.game} (allowed: {', '.join(self.fields)})"
                )
            values[key] = field.coerce(raw)
        self.check(values)
        return values

    def listing(self) -> list[tuple[str, str, str, str]]:
        """(name, default, allowed, doc) rows for `cardsim rules`."""
        rows = []
        for f in self.fields.values():
            rows.append((f.name, show_value(f.default), f.describe_allowed(), f.doc))
        return rows


def split_assignment(text: str) -> tuple[str, str]:
    if "=" not in text:
        raise UsageError(f"rule option {text!r} must look like key=value")
    key, _, value = text.partition("=")
    return key.strip(), value.strip()


def show_value(v: Any) -> str:
    if v is None:
        return "none"
    if isinstance(v, bool):
        return "true" if v else "false"
    return str(v)


def read_rules_file(path, rules: RuleSet) -> list[str]:
    """A file of rule options (TOML, or JSON by its .json suffix): top-level ``key = value``
    pairs, lists for list options (``min_meld = [50, 90, 120, 150]``), and optionally
    ``game = "<name>"``. Returned as ``key=value`` texts, to go before any ``--rule``, which
    override them; every key and value is checked here so an error names the file."""
    import json
    import tomllib
    from pathlib import Path

    path = Path(path)
    where = f"--rules-file {path}"
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as e:
        raise UsageError(f"{where}: cannot read it ({getattr(e, 'strerror', None) or e})") \
            from None
    try:
        doc = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as e:
        kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
        raise UsageError(f"{where}: not valid {kind} ({str(e).splitlines()[0]})") from None
    if not isinstance(doc, dict):
        raise UsageError(f"{where}: must hold key = value pairs of rule options")
    game = doc.pop("game", rules.game)
    if game != rules.game:
        raise UsageError(f"{where}: is for game {game!r}, not {rules.game}")
    out = []
    for key, value in doc.items():
        field = rules.fields.get(key)
        if field is None:
            raise UsageError(f"{where}: unknown rule '{key}' for {rules.game} "
                             f"(allowed: {', '.join(rules.fields)})")
        if isinstance(value, list) and all(_scalar(v) for v in value):
            text = ",".join(show_value(v) for v in value)
        elif _scalar(value):
            text = show_value(value)
        else:
            raise UsageError(f"{where}: rule '{key}' must be a value or a list of values "
                             f"(allowed: {field.describe_allowed()})")
        try:
            field.coerce(text)
        except UsageError as e:
            raise UsageError(f"{where}: {e}") from None
        out.append(f"{key}={text}")
    return out


def _scalar(v) -> bool:
    return v is None or isinstance(v, (str, int, bool)) and not isinstance(v, float)
