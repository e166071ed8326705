"""One subpackage per game; GAMES maps CLI names to the package that holds the game's adapter
(its ``GAME``). A game is its folder and its line here.

A game kept outside cardsim (one being written, or a test's) is registered with the
environment variable CARDSIM_GAMES="name=package[,name=package]": the package must be
importable (on PYTHONPATH)."""
import os
import re
from importlib import import_module
from importlib.util import find_spec
from pathlib import Path

from cardsim.simulator.errors import UsageError

GAMES = {
    "fifty-six": "cardsim.simulator.games.fifty_six",
    "hand-and-foot": "cardsim.simulator.games.hand_and_foot",
    "contract-rummy": "cardsim.simulator.games.contract_rummy",
}

_NAME = re.compile(r"[a-z][a-z0-9-]*$")
_PACKAGE = re.compile(r"[A-Za-z_][\w.]*$")


def _registered(text: str) -> dict[str, str]:
    """The games of CARDSIM_GAMES; a malformed entry is one clear line."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, sep, package = (x.strip() for x in part.partition("="))
        if not (sep and _NAME.match(name) and _PACKAGE.match(package)):
            raise UsageError(f"CARDSIM_GAMES: {part!r} is not allowed (allowed: "
                             "name=package, names in lower case with hyphens, comma-separated)")
        out[name] = package
    return out


try:
    GAMES.update(_registered(os.environ.get("CARDSIM_GAMES", "")))
    _REGISTRY_ERROR = None
except UsageError as e:  # reported when a game is asked for, as one line
    _REGISTRY_ERROR = e


def folder_of(name: str) -> Path:
    """The folder of a registered game's package."""
    spec = find_spec(GAMES[name])
    return Path(next(iter(spec.submodule_search_locations)))


def get_game(name: str):
    if _REGISTRY_ERROR is not None:
        raise _REGISTRY_ERROR
    if name not in GAMES:
        raise UsageError(f"unknown game '{name}' (allowed: {', '.join(GAMES)})")
    return import_module(GAMES[name]).GAME


def get_replay(name: str):
    """The game's ``play_one(game, rules, strategies, seed, game_index, ...)`` replay function."""
    get_game(name)
    return import_module(GAMES[name] + ".replay").play_one
