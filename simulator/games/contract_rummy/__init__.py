"""Contract Rummy: the game adapter the engine and CLI use (rules, strategies, kernel, tables)."""
from __future__ import annotations

from simulator._cache import use_game_cache

# Numba cache folder keyed by this game's sources (see simulator/_cache.py); must run before
# any of the game's @njit functions are decorated, i.e. before the imports below.
use_game_cache("contract_rummy")
