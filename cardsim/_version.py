"""cardsim's version: the installed package's metadata, or pyproject.toml's in a checkout used
without installing. A module of its own, so that the engine can report it without importing
the API (cardsim/__init__.py)."""
import os as _os

_parent = _os.path.dirname(_os.path.dirname(_os.path.abspath(__file__)))


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("cardsim")
    except PackageNotFoundError:  # a checkout used without installing
        import re

        try:
            with open(_os.path.join(_parent, "pyproject.toml"), encoding="utf-8") as f:
                m = re.search(r'^version\s*=\s*"([^"]+)"', f.read(), re.M)
            return m.group(1) if m else "unknown"
        except OSError:
            return "unknown"


__version__ = _version()
