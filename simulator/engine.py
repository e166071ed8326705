"""The block loop every game shares: blocks of games played by a game's ``play_block`` kernel
on a few threads at once.

A game's ``play_block`` is compiled with ``nogil=True`` and plays one block (its games, its
own rows of the output arrays), so Python threads run blocks truly in parallel. This replaced a
``prange`` loop inside each game's kernel: Numba's parallel compilation (a parfor pass and a
generated gufunc holding a second copy of the whole game) cost seconds of every cold start,
and the loop was written once per game.
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


def run_blocks(play_block, head: tuple, starts, ends, row_starts, row_ends, tail: tuple) -> None:
    """``play_block(*head, b, starts[b], ends[b], starts[0], row_starts[b], row_ends[b],
    *tail)`` for every block b, on ``threads()`` threads. Blocks write disjoint parts of the
    output arrays in ``tail``, so their order does not matter."""
    nb = len(starts)
    g0 = int(starts[0])
    calls = [(b, int(starts[b]), int(ends[b]), g0, int(row_starts[b]), int(row_ends[b]))
             for b in range(nb)]
    n = min(threads(), nb)
    if n <= 1:
        for c in calls:
            play_block(*head, *c, *tail)
        return
    futures = [_pool(n).submit(play_block, *head, *c, *tail) for c in calls]
    for f in futures:
        f.result()
