"""cardsim engine: RNG, cards, batching, tables, CLI and one subpackage per game."""
import warnings

from simulator._cache import configure_numba_cache

__version__ = "0.1.0"

configure_numba_cache()  # before numba is imported anywhere

from numba.core.errors import NumbaExperimentalFeatureWarning  # noqa: E402

# Plug-in strategies are first-class function values, which numba still labels experimental.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
