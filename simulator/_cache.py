"""Numba cache location keyed by the package's own source.

Numba invalidates a cached function only when *its own* file changes, not when a function it
calls (in another file) changes. Keying the cache folder by a hash of every source file of the
package makes an edit anywhere start a fresh cache, while an unchanged install stays warm.
"""
import hashlib
import os
from pathlib import Path

_PACKAGES = ("simulator", "strategies")


def source_digest() -> str:
    root = Path(__file__).resolve().parent.parent
    h = hashlib.blake2b(digest_size=8)
    for pkg in _PACKAGES:
        for path in sorted((root / pkg).rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
    return h.hexdigest()


def configure_numba_cache() -> None:
    # A user's explicit NUMBA_CACHE_DIR wins; numba must not be imported before this runs.
    if os.environ.get("NUMBA_CACHE_DIR"):
        return
    base = os.environ.get("CARDSIM_CACHE_DIR") or os.path.join(
        os.environ.get("XDG_CACHE_HOME") or os.path.expanduser("~/.cache"), "cardsim", "numba"
    )
    path = os.path.join(base, source_digest())
    os.environ["NUMBA_CACHE_DIR"] = path
    import sys

    if "numba" in sys.modules:  # imported earlier (e.g. by a test): set the live config too
        sys.modules["numba"].config.CACHE_DIR = path
