"""The block loop every game shares: the blocks of a chunk played by a game's ``play_blocks``
kernel on a few threads at once.

A game's ``play_blocks`` is compiled with ``nogil=True`` and plays every ``step``-th block of
the chunk from a given one, each block into its own rows of the output arrays, so Python
threads run truly in parallel and the tables do not depend on which thread played a block.
This replaced a ``prange`` loop inside each game's kernel: Numba's parallel compilation (a
parfor pass and a generated gufunc holding a second copy of the whole game) cost seconds of
every cold start.
"""
from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

_POOLS: dict[int, ThreadPoolExecutor] = {}


def threads() -> int:
    """The thread count the run asked for (``numba.set_num_threads``, set by batch.run)."""
    import numba

    return numba.get_num_threads()


def _pool(n: int) -> ThreadPoolExecutor:
    if n not in _POOLS:
        _POOLS[n] = ThreadPoolExecutor(max_workers=n, thread_name_prefix="cardsim-block")
    return _POOLS[n]


def run_blocks(play_blocks, head: tuple, starts, ends, row_starts, row_ends, tail: tuple) -> None:
    """``play_blocks(*head, starts, ends, row_starts, row_ends, t, n, *tail)`` for t in
    0..n-1 on n = ``threads()`` threads: thread t plays blocks t, t + n, t + 2n, ... (blocks
    write disjoint parts of the output arrays in ``tail``)."""
    import numpy as np

    arrays = tuple(np.ascontiguousarray(a, dtype=np.int64)
                   for a in (starts, ends, row_starts, row_ends))
    n = max(1, min(threads(), len(starts)))
    if n == 1:
        play_blocks(*head, *arrays, 0, 1, *tail)
        return
    futures = [_pool(n).submit(play_blocks, *head, *arrays, t, n, *tail) for t in range(n)]
    for f in futures:
        f.result()
