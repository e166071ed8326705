"""cardsim: a Monte Carlo simulator for 56, Hand and Foot and Contract Rummy.

The public Python API (docs/api.md)::

    import cardsim
    r = cardsim.simulate("fifty-six", deals=100_000, seed=1)
    c = cardsim.compare("hand-and-foot", ["table_reader", "early_melder"], games=2_000)

The engine, strategies and analysis live in ``cardsim.simulator``, ``cardsim.strategies``
and ``cardsim.analysis``. Everything cardsim imports is under ``cardsim.``, so a user's own
``simulator.py`` or ``analysis.py`` beside a notebook cannot shadow it.
"""
from __future__ import annotations

import os as _os

_here = _os.path.dirname(_os.path.abspath(__file__))
_parent = _os.path.dirname(_here)
if not _os.path.isdir(_os.path.join(_here, "simulator")) and _os.path.isfile(
        _os.path.join(_parent, "simulator", "__init__.py")):
    # a checkout (editable install, or none): the three folders sit beside this one, as the
    # project's layout has them; an installed wheel holds them inside this package
    __path__.append(_parent)  # noqa: F821  (a package's __path__)


from cardsim._version import __version__  # noqa: E402

__all__ = ["simulate", "compare", "sweep", "tune", "hand", "outlook", "Result", "UsageError",
           "GAMES", "__version__"]


def __getattr__(name: str):
    # the API imports polars; the command line does not need it to start
    if name in ("simulate", "compare", "sweep", "tune", "hand", "outlook", "Result"):
        from cardsim.simulator import api

        return getattr(api, name)
    if name == "UsageError":
        from cardsim.simulator.errors import UsageError

        return UsageError
    if name == "GAMES":
        from cardsim.simulator.games import GAMES

        return tuple(GAMES)
    raise AttributeError(f"module 'cardsim' has no attribute {name!r}")


def __dir__():
    return sorted(list(globals()) + __all__)
