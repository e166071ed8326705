"""The engine every game shares: the block loop, the replay driver and the threads that run
blocks at once. A game supplies only its game (docs/design.md, "What a game provides"):

- ``Ctx``, a namedtuple of what is fixed for a run (seed, rule vector, strategies,
  parameters ...), and its Numba type;
- ``new_state(ctx) -> (owners, st)``: the scratch arrays of one game, ``st`` a namedtuple of
  unowned views (simulator.nrt.borrow) of the arrays in ``owners``;
- its strategies' functions, a tuple holding one tuple of first-class functions per decision
  (one per strategy slot), and its Numba type; kept out of ``Ctx`` because Numba converts
  dispatchers to first-class functions in a plain tuple but not in a namedtuple. The engine
  passes ``play_one`` ``fns = (strategy functions, own functions)``, the second the kernel's own
  ``pointers`` in the order the game gave them, so no game places its internals by position
  among its strategies;
- ``play_one(ctx, fns, st, game_index, deal_cols, row, row_end, game_row, err, log, log_on,
  debug, preset) -> (status, rows)``: one game (in deals mode one deal), its deal rows written to
  ``deal_cols[:, row:row_end]`` (column 0 is the game's index, set by the block loop) and its
  game row to ``game_row``.

One error convention for every game: ``status`` is OK, ROWS_FULL (no room for the game's rows:
the caller gives it more), LOG_FULL (replay log too short), INVARIANT (debug check failed) or
BAD + i for an illegal answer to the game's i-th decision; on an error ``err`` holds (seat,
strategy slot, value).

``Kernel`` compiles these once per game, with explicit signatures, into the game's cache folder;
the block loop and replay driver below take ``new_state`` and ``play_one`` as first-class
functions, so they are written once and still cached (a closure or a function passed as a plain
dispatcher would not be). Blocks run on Python threads through a ``nogil`` kernel: one call per
thread plays every n-th block. This replaced a ``prange`` loop in each game's kernel, whose
parallel compilation (a parfor pass and a gufunc holding a second copy of the whole game) cost
seconds of every cold start; one call per thread rather than per block because every call
converts the strategy tuples again (about 1.5 ms).
"""
from __future__ import annotations

import os
from collections import namedtuple
from concurrent.futures import ThreadPoolExecutor

import numpy as np
from numba import njit, types

from cardsim.simulator.nrt import keep_alive

OK, ROWS_FULL, LOG_FULL, INVARIANT = range(4)
BAD = 4  # BAD + i: an illegal answer to decision i of the game's decision list
ERR_W = 3  # err: seat, strategy slot, value

PLAY_RESULT = types.UniTuple(types.int64, 2)

# What is fixed for a run, as 56 and Contract Rummy take it (every game's Ctx starts with seed
# and deals_mode: simulator.adapter); Hand and Foot's has no rot_k.
Ctx = namedtuple("Ctx", ("seed", "deals_mode", "rules", "sids", "params", "rot_k"))
CTX = types.NamedTuple((types.uint64, types.boolean, types.int64[::1], types.int64[::1],
                        types.float64[:, ::1], types.int64), Ctx)


def state_type(new_state, ctx_type):
    """The type of the State of views ``new_state`` returns (compiling it, into the cache), for
    the signature of a game's play_deal."""
    return njit((ctx_type,), cache=True)(new_state).nopython_signatures[0].return_type.types[1]


I32_2D = types.int32[:, ::1]
I64_1D = types.int64[::1]


def _play_blocks(new_state, play_one, ctx, fns, log, preset, presets, starts, ends, row_starts,
                 row_ends, first_b, step_b, per_block_rows, debug, deal_cols, deal_n, game_rows,
                 stopped, errs, done):
    """Play blocks first_b, first_b + step_b, ... of a chunk: block b plays games
    starts[b]..ends[b]-1 into deal rows row_starts[b]..row_ends[b]-1 and game rows
    game_rows[g - starts[0]] (with ``per_block_rows``, as in deals mode where game rows mean
    nothing, game_rows[b]). stopped[b] is the first game not played (-1: all), so the caller
    can continue a block whose rows ran out; errs[b] = (status, game, seat, strategy, value)
    of its first error. done[b] counts the games block b has finished so far, for a progress
    display that reads it while the blocks play (one slot per block: no atomics). ``presets``:
    none (no rows), or the first deal's cards of every game of the chunk (row g - starts[0]:
    a constrained deal, simulator.constrained), else ``preset`` (empty) for every game."""
    err = np.zeros(ERR_W, np.int64)
    g0 = starts[0]
    for b in range(first_b, starts.shape[0], step_b):
        stopped[b] = -1
        deal_n[b] = 0
        done[b] = 0
        if ends[b] <= starts[b]:
            continue
        owners, st = new_state(ctx)
        row = row_starts[b]
        for g in range(starts[b], ends[b]):
            p = presets[g - g0] if presets.shape[0] > 0 else preset
            status, nd = play_one(ctx, fns, st, g, deal_cols, row, row_ends[b],
                                  game_rows[b if per_block_rows else g - g0], err, log, False,
                                  debug, p)
            if status != OK:
                stopped[b] = g
                if status != ROWS_FULL:
                    errs[b, 0] = status
                    errs[b, 1] = g
                    errs[b, 2] = err[0]
                    errs[b, 3] = err[1]
                    errs[b, 4] = err[2]
                break
            for k in range(nd):
                deal_cols[0, row + k] = g - g0
            row += nd
            done[b] = g + 1 - starts[b]
        deal_n[b] = row - row_starts[b]
        keep_alive(owners)


def _replay(new_state, play_one, ctx, fns, game_index, log, debug, preset, cap, ncols, gcols):
    """One game with the event log on, with room for ``cap`` deal rows. Returns (status, deal
    rows, game row, err)."""
    owners, st = new_state(ctx)
    deal_cols = np.zeros((ncols, cap), np.int32)
    game_row = np.zeros(gcols, np.int32)
    err = np.zeros(ERR_W, np.int64)
    status, nd = play_one(ctx, fns, st, game_index, deal_cols, 0, cap, game_row, err, log, True,
                          debug, preset)
    keep_alive(owners)
    return status, deal_cols[:, :nd].copy(), game_row, err


def _track(new_state, play_one, ctx, fns, game_index, trk, tape, preset, log, log_on,
           debug, cap, ncols, gcols):
    """One game with its decisions tracked (simulator.track): ``trk`` and ``tape`` are copied
    into the State's own, and returned as the game left them. Returns (status, deal rows, game
    row, err, trk, tape); ``log`` as in _replay, when ``log_on``."""
    owners, st = new_state(ctx)
    st.trk[:] = trk
    st.tape[:] = tape
    deal_cols = np.zeros((ncols, cap), np.int32)
    game_row = np.zeros(gcols, np.int32)
    err = np.zeros(ERR_W, np.int64)
    status, nd = play_one(ctx, fns, st, game_index, deal_cols, 0, cap, game_row, err, log,
                          log_on, debug, preset)
    out = (status, deal_cols[:, :nd].copy(), game_row, err, st.trk.copy(), st.tape.copy())
    keep_alive(owners)
    return out


class Kernel:
    """A game's kernel: its ``new_state`` and ``play_one`` (plain Python functions) compiled
    for its context type ``ctx_type`` and preset deck type, with the shared block loop, and
    the replay driver compiled on first use (a plain run never needs it). Create it at the
    end of the game's kernel module, so that it compiles (or loads from the cache) when the
    kernel is imported.

    ``pointers``: (dispatcher, signature) pairs of the game's functions that ``play_one``
    reaches through ``fns`` (its ``play_deal`` first), each decorated without a signature so
    that importing the module compiles nothing. On a cold cache the first is compiled in a
    child process while this one compiles the rest (about half the cold start on two cores);
    ``ready()`` waits for it."""

    def __init__(self, new_state, play_one, ctx_type, strategy_fns_type, preset_dtype,
                 log_w: int, pointers=()):
        import numba

        # by argument types, as a direct call from compiled code looks them up: a pointer
        # conversion then finds them compiled (see adapter.pack_strategies)
        self._pointers = [(d, tuple(sig.args)) for d, sig in pointers]
        self.own_fns = tuple(d for d, _ in pointers)
        fns_type = types.Tuple((strategy_fns_type,
                                types.Tuple(tuple(types.FunctionType(sig) for _, sig in pointers))))
        self._child = _compile_aside(*self._pointers[0]) if self._pointers else None
        self._waiting = bool(self._pointers)
        self.log_w = log_w
        self.preset_dtype = np.dtype(preset_dtype)
        preset_type = types.Array(numba.from_dtype(self.preset_dtype), 1, "C")
        self.cache_dir = numba.config.CACHE_DIR  # the game's (simulator._cache.use_game_cache)
        self.ctx_type = ctx_type
        self.new_state = njit((ctx_type,), cache=True)(new_state)
        (ns_sig,) = self.new_state.nopython_signatures
        self.state_type = ns_sig.return_type.types[1]
        self.fns_type = fns_type
        play_sig = PLAY_RESULT(ctx_type, fns_type, self.state_type, types.int64, I32_2D, types.int64,
                               types.int64, types.int32[::1], I64_1D, I32_2D, types.boolean,
                               types.boolean, preset_type)
        self.play_one = njit(play_sig, cache=True, no_cpython_wrapper=True)(play_one)
        self._fns = (types.FunctionType(ns_sig), types.FunctionType(play_sig))
        self._preset_type = preset_type
        presets_type = types.Array(numba.from_dtype(self.preset_dtype), 2, "C")
        block_sig = types.void(*self._fns, ctx_type, fns_type, I32_2D, preset_type,
                               presets_type, I64_1D, I64_1D, I64_1D, I64_1D, types.int64,
                               types.int64, types.boolean, types.boolean, I32_2D, I64_1D,
                               I32_2D, I64_1D, types.int64[:, ::1], I64_1D)
        self.play_blocks = njit(block_sig, cache=True, nogil=True)(_play_blocks)
        # called through its compiled entry point, which unboxes the arguments by the
        # signature: Numba's argument matching keys namedtuples by their field types alone,
        # so a second game whose Ctx has the same field types would be refused (seen: 56 then
        # Contract Rummy in one process)
        self._blocks_entry = _entry(self.play_blocks)
        self._replay = None
        self._track = None
        for d, args in self._pointers[1:]:
            d.compile(args)

    def ready(self) -> None:
        """Wait for the child compiling the first of ``pointers`` and load what it cached (or
        compile it here, if the child failed)."""
        if self._waiting:
            if self._child is not None:
                os.waitpid(self._child, 0)
                self._child = None
            d, args = self._pointers[0]
            d.compile(args)
            self._waiting = False

    def run_blocks(self, ctx, fns, starts, ends, row_starts, row_ends, per_block_rows, debug,
                   out, done=None, presets=None) -> None:
        """Play the blocks of a chunk on ``threads()`` threads at once, thread t playing blocks
        t, t + n, t + 2n ... (blocks write disjoint parts of ``out`` = (deal_cols, deal_n,
        game_rows, stopped, errs), so the tables do not depend on the thread count).
        ``done``: an int64 array, one slot per block, that the blocks keep at the number of
        games they have finished while they play (another thread may read it). ``presets``:
        the first deal's cards of each game from ``starts[0]`` on (constrained dealing), or
        None."""
        self.ready()
        arrays = tuple(np.ascontiguousarray(a, dtype=np.int64)
                       for a in (starts, ends, row_starts, row_ends))
        if done is None:
            done = np.zeros(len(starts), np.int64)
        elif done.dtype != np.int64 or done.shape != (len(starts),) \
                or not done.flags.c_contiguous:
            # a converted copy would count where nobody looks
            raise ValueError("done: a contiguous int64 array with one slot per block")
        n = max(1, min(threads(), len(starts)))
        no_log = np.zeros((1, self.log_w), np.int32)
        no_preset = np.zeros(0, self.preset_dtype)
        presets = (np.zeros((0, 1), self.preset_dtype) if presets is None
                   else np.ascontiguousarray(presets, self.preset_dtype))
        args = (self.new_state, self.play_one, ctx, (fns, self.own_fns), no_log, no_preset,
                presets, *arrays)
        tail = (bool(per_block_rows), bool(debug), *out, done)
        if n == 1:
            self._blocks_entry(*args, 0, 1, *tail)
            return
        futures = [_pool(n).submit(self._blocks_entry, *args, t, n, *tail) for t in range(n)]
        for f in futures:
            f.result()

    def replay(self, ctx, fns, game_index, log, debug, preset, cap, ncols, gcols):
        """``_replay`` for one game, compiled into the game's cache folder on first use.
        ``preset``: None, or the card codes that replace the first deal's shuffle."""
        self.ready()
        preset = np.zeros(0, self.preset_dtype) if preset is None else np.ascontiguousarray(
            preset, self.preset_dtype)
        if self._replay is None:
            sig = types.Tuple((types.int64, I32_2D, types.int32[::1], I64_1D))(
                *self._fns, self.ctx_type, self.fns_type, types.int64, I32_2D, types.boolean,
                self._preset_type, types.int64, types.int64, types.int64)
            self._replay = self._driver(_replay, sig)
        return self._replay(self.new_state, self.play_one, ctx, (fns, self.own_fns),
                            int(game_index), log,
                            bool(debug), preset, int(cap), int(ncols), int(gcols))

    def _driver(self, fn, sig):
        """``fn`` (an engine driver: _replay, _track) compiled for this game into the game's
        cache folder, on first use."""
        import numba

        here = numba.config.CACHE_DIR
        numba.config.CACHE_DIR = self.cache_dir
        try:
            return _entry(njit(sig, cache=True)(fn))
        finally:
            numba.config.CACHE_DIR = here

    def track(self, ctx, fns, game_index, trk, tape, debug, cap, ncols, gcols,
              log=None, preset=None):
        """``_track`` for one game (a game whose State has ``trk`` and ``tape``:
        simulator.track), compiled into the game's cache folder on first use. ``preset``: the
        dealt deck of the tracked deal (a position written by hand), else None."""
        self.ready()
        if self._track is None:
            st = self.state_type
            names = st.fields if hasattr(st, "fields") else ()
            if not {"trk", "tape"} <= set(names):
                raise TypeError("this game's kernel does not track decisions (its State has "
                                "no trk and tape)")
            ty = dict(zip(names, st.types))
            sig = types.Tuple((types.int64, I32_2D, types.int32[::1], I64_1D, I64_1D,
                               types.int32[::1]))(
                *self._fns, self.ctx_type, self.fns_type, types.int64, I64_1D,
                types.int32[::1], self._preset_type, I32_2D,
                types.boolean, types.boolean, types.int64, types.int64, types.int64)
            assert ty["trk"].dtype == types.int64 and ty["tape"].dtype == types.int32
            self._track = self._driver(_track, sig)
        return self._track(self.new_state, self.play_one, ctx, (fns, self.own_fns),
                           int(game_index), np.ascontiguousarray(trk, np.int64),
                           np.ascontiguousarray(tape, np.int32),
                           np.zeros(0, self.preset_dtype) if preset is None else
                           np.ascontiguousarray(preset, self.preset_dtype),
                           np.zeros((1, self.log_w), np.int32) if log is None else log,
                           log is not None, bool(debug), int(cap), int(ncols), int(gcols))


def _compile_aside(dispatcher, args):
    """On a cold cache and a machine with two cores or more, fork a child that compiles
    ``dispatcher`` for ``args`` and saves it to Numba's cache, and nothing else: the functions
    it compiles on the way are linked into it, and this process may be compiling some of them
    at the same time (two processes saving one function could pair an index entry with the
    other's code). Returns the child's pid, or None."""
    import warnings

    cpus = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    cache = getattr(dispatcher, "_cache", None)
    if not hasattr(os, "fork") or (cpus or 1) < 2 or cache is None \
            or type(cache).__name__ == "NullCache":
        return None
    cres = cache.load_overload(args, dispatcher.targetctx)
    if cres is not None:  # warm: keep what was loaded, as Dispatcher.compile does on a hit
        dispatcher.targetctx.insert_user_function(cres.entry_point, cres.fndesc, [cres.library])
        dispatcher.add_overload(cres)
        return None
    with warnings.catch_warnings():  # Python 3.12+ warns of forking a threaded process; the
        warnings.simplefilter("ignore", DeprecationWarning)  # child only compiles
        pid = os.fork()
    if pid:
        return pid
    code = 1
    try:
        from numba.core.caching import Cache

        save = Cache.save_overload

        def save_only_it(self, sig, data):
            if self._py_func is dispatcher.py_func:
                save(self, sig, data)

        Cache.save_overload = save_only_it
        dispatcher.compile(args)
        code = 0
    finally:
        os._exit(code)


def _entry(dispatcher):
    """The compiled entry point of a dispatcher compiled for one explicit signature."""
    (sig,) = dispatcher.signatures
    return dispatcher.overloads[sig].entry_point


_POOLS: dict[int, ThreadPoolExecutor] = {}


def threads() -> int:
    """The thread count the run asked for (``numba.set_num_threads``, set by batch.run)."""
    import numba

    return numba.get_num_threads()


def _pool(n: int) -> ThreadPoolExecutor:
    if n not in _POOLS:
        _POOLS[n] = ThreadPoolExecutor(max_workers=n, thread_name_prefix="cardsim-block")
    return _POOLS[n]
