"""Studies and reports from outcome tables: polars only, no Numba; reads a run's files alone."""
