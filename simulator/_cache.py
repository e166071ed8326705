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
KERNEL_MODULES = ("bits.py", "cards.py", "engine.py", "legal.py", "nrt.py", "rng.py", "tables.py")


def source_digest(game: str | None = None) -> str:
    paths = [ROOT / "simulator" / name for name in KERNEL_MODULES]
    if game:  # a game's cli.py holds only click commands: editing it recompiles nothing
        paths += sorted(p for p in (ROOT / "simulator" / "games" / game).rglob("*.py")
                        if p.name != "cli.py")
        # strategies/<game>.py and its companions (fifty_six_play.py): a kernel inlines them
        paths += sorted((ROOT / "strategies").glob(f"{game}*.py"))
    h = hashlib.blake2b(digest_size=8)
    for path in paths:
        if path.exists():
            h.update(str(path.relative_to(ROOT)).encode())
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


def use_game_cache(game: str) -> None:
    """Switch the cache folder for the functions of ``game`` (simulator/games/<game>/ and
    strategies/<game>.py); call it first thing in the game's package, before they are
    decorated."""
    if not os.environ.get("_CARDSIM_CACHE_SET"):
        return  # the user chose NUMBA_CACHE_DIR
    _set(os.path.join(_base(), f"{game}-" + source_digest(game)))
