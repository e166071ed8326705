"""cardsim engine: RNG, cards, batching, tables, CLI and one subpackage per game (the version
is ``cardsim.__version__``, from the package metadata)."""
import warnings

from cardsim.simulator._cache import configure_numba_cache

configure_numba_cache()  # before numba is imported anywhere


def _import_numba() -> None:
    """Import numba without scipy.linalg. Numba checks whether scipy provides a BLAS when it loads
    its array functions, which imports scipy.linalg: a sixth of a warm start, for linear
    algebra no kernel uses. Numba imports scipy when a function needing it is compiled, as
    usual; a process that already has scipy keeps it."""
    import sys

    if "numba.np.arraymath" in sys.modules or "scipy.linalg" in sys.modules:
        return
    sys.modules["scipy.linalg"] = None  # an import of scipy.linalg fails while this stands
    try:
        import numba.np.arraymath  # noqa: F401  (where the check is)
    finally:
        del sys.modules["scipy.linalg"]


_import_numba()

from numba.core.errors import NumbaExperimentalFeatureWarning  # noqa: E402

# Plug-in strategies are first-class function values, which numba still labels experimental.
warnings.filterwarnings("ignore", category=NumbaExperimentalFeatureWarning)
