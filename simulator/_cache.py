"""Numba cache locations keyed by source.

Numba invalidates a cached function only when *its own* file changes, not when a function it
calls (in another file) changes. So every cache folder is keyed by a hash of the sources its
functions can depend on: the shared engine (simulator/*.py) and, for a game, that game's
package and strategies. An edit starts a fresh cache for what it can affect and leaves the
other games' caches warm; an unchanged install stays warm.
"""
import hashlib
import os
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


# the shared modules compiled code can depend on (tests/test_cache.py checks that every
# simulator/*.py using Numba is listed); the others (cli, batch, sweep ...) are plain Python,
# so editing them leaves every cache warm
KERNEL_MODULES = ("bits.py", "cards.py", "constrained.py", "engine.py", "nrt.py", "rng.py",
                  "tables.py", "track.py", "determinize.py")

# strategies/ modules that more than one game's strategies use (the rummy games' legal lists)
SHARED_STRATEGIES = {"hand_and_foot": ("rummy_legal.py",), "contract_rummy": ("rummy_legal.py",)}


# a game's files that hold no compiled code: editing them recompiles nothing
PLAIN_GAME_FILES = ("cli.py", "analysis.py", "position.py")


def game_folder(game: str | os.PathLike) -> Path:
    """A game's package folder: a built-in game's by its folder name (``fifty_six``), any
    other game's by its path."""
    if isinstance(game, str) and os.sep not in game and "/" not in game:
        return ROOT / "simulator" / "games" / game
    return Path(game).resolve()


def source_digest(game: str | os.PathLike | None = None) -> str:
    """A hash of the sources the shared engine's compiled code (no ``game``) or a game's can
    depend on: the shared kernel modules, and a game's package folder (its plain-Python files
    left out) with, for a built-in game, strategies/<folder name>*.py (a kernel inlines the
    built-in strategies; fifty_six_play.py goes with fifty_six)."""
    paths = [ROOT / "simulator" / name for name in KERNEL_MODULES]
    if game:
        folder = game_folder(game)
        paths += sorted(p for p in folder.rglob("*.py") if p.name not in PLAIN_GAME_FILES)
        if folder.parent == ROOT / "simulator" / "games":
            paths += sorted((ROOT / "strategies").glob(f"{folder.name}*.py"))
            paths += [ROOT / "strategies" / n for n in SHARED_STRATEGIES.get(folder.name, ())]
    h = hashlib.blake2b(digest_size=8)
    for path in paths:
        if path.exists():
            name = path.relative_to(ROOT) if path.is_relative_to(ROOT) else path.name
            h.update(str(name).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def _base() -> str:
    return os.environ.get("CARDSIM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cardsim", "numba"
    )


def _set(path: str) -> None:
    os.environ["NUMBA_CACHE_DIR"] = path
    if "numba" in sys.modules:  # numba reads its config when a function is decorated
        sys.modules["numba"].config.CACHE_DIR = path


def configure_numba_cache() -> None:
    """Cache folder for the shared engine; a user's explicit NUMBA_CACHE_DIR wins. Runs
    before numba is imported."""
    if os.environ.get("NUMBA_CACHE_DIR") and not os.environ.get("_CARDSIM_CACHE_SET"):
        return
    os.environ["_CARDSIM_CACHE_SET"] = "1"
    _set(os.path.join(_base(), "engine-" + source_digest()))


def use_game_cache(game: str | os.PathLike) -> None:
    """Switch the cache folder for the functions of ``game`` (a built-in game's folder name, or
    the path of a game's package folder: see ``source_digest``); call it first thing in the
    game's package, before they are decorated."""
    if not os.environ.get("_CARDSIM_CACHE_SET"):
        return  # the user chose NUMBA_CACHE_DIR
    _set(os.path.join(_base(), f"{game_folder(game).name}-" + source_digest(game)))
