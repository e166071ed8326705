"""The measuring loop the benchmark scripts share (plain Python: not part of any kernel)."""
from __future__ import annotations

import time


def best_rate(runner, count: int, threads: int, repeats: int) -> float:
    """Games (or deals) per second of ``runner.play_rows`` over ``count``: the best of
    ``repeats`` timings with ``threads`` threads (kernel and row assembly, no Parquet). The
    caller warms the kernel up first, so compilation is not timed."""
    import numba

    numba.set_num_threads(threads)  # play_rows plans blocks for `threads`; numba runs them
    best = float("inf")
    for _ in range(repeats):
        t0 = time.perf_counter()
        runner.play_rows(0, count, threads)
        best = min(best, time.perf_counter() - t0)
    return count / best
