"""Progress bar with games/s and ETA on a terminal; silent when piped or under CI.

The bar moves between chunk ends: the engine's blocks keep a count of the games they have
finished in an array (engine.Kernel.run_blocks' ``done``), a ``Tally`` adds those of the kernel
call under way to those of the calls before it, and a thread of the bar reads it a few times a
second."""
from __future__ import annotations

import os
import sys
import threading

POLL_S = 0.25  # how often the bar reads the live count and redraws


def wanted() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


def announce_compile(what: str, load, enabled: bool | None = None, after: float = 1.0):
    """Call ``load()`` (which imports, and on a cold cache compiles, a game's kernels); on a
    terminal, say what is happening if it takes longer than ``after`` seconds. Returns the
    seconds it took."""
    import time

    show = wanted() if enabled is None else enabled
    timer = None
    if show:
        timer = threading.Timer(after, lambda: print(
            f"compiling the {what} kernels (first run only; later runs load them from the "
            "cache in about a second) ...", file=sys.stderr, flush=True))
        timer.daemon = True
        timer.start()
    t0 = time.perf_counter()
    try:
        load()
    finally:
        if timer is not None:
            timer.cancel()
    return time.perf_counter() - t0


class Tally:
    """Games finished so far by a Runner's kernel calls, readable from another thread while a
    call plays: the games of the calls already over plus the live per-block counts of the one
    under way."""

    def __init__(self):
        # (settled games, live slots or None), replaced whole: a reader never sees a call's
        # games both settled and live, or neither
        self._now = (0, None)

    def watch(self, slots) -> None:
        """A kernel call is about to play, counting into ``slots`` (all zero)."""
        self._now = (self._now[0], slots)

    def settle(self, games: int) -> None:
        """The call under way is over, having finished ``games`` games."""
        self._now = (self._now[0] + games, None)

    def value(self) -> int:
        settled, slots = self._now
        return settled if slots is None else settled + int(slots.sum())


def _console():
    from rich.console import Console

    return Console(stderr=True)  # where wanted() looked, and away from the run's summary


class Progress:
    """A bar of ``total`` games that starts at ``done`` (a resumed run's chunks): ``advance``
    moves it by whole chunks (Ray tasks); ``tally``, the Tally a local run's Runner feeds,
    moves it while a chunk plays. ``tally`` is None when the bar is off."""

    def __init__(self, total: int, unit: str, enabled: bool | None = None, done: int = 0):
        self.enabled = wanted() if enabled is None else enabled
        self.total = total
        self.tally = Tally() if self.enabled else None
        self._bar = None
        self._advanced = self._shown = done
        self._lock = threading.Lock()
        if self.enabled:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                       ProgressColumn, TaskProgressColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            from rich.text import Text

            class Rate(ProgressColumn):
                def render(self, task):
                    rate = task.finished_speed or task.speed
                    return Text("" if rate is None else f"{rate:,.0f} {unit}/s")

            # redrawn by the poller, right after it reads the count
            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"), BarColumn(), TaskProgressColumn(),
                MofNCompleteColumn(), Rate(), TextColumn("ETA"), TimeRemainingColumn(),
                TimeElapsedColumn(), transient=False, console=_console(), auto_refresh=False,
            )
            self._bar.start()
            self._task = self._bar.add_task(unit, total=total, completed=done)
            self._stop = threading.Event()
            self._poller = threading.Thread(target=self._poll, name="cardsim-progress",
                                            daemon=True)
            self._poller.start()

    def _poll(self) -> None:
        while not self._stop.wait(POLL_S):
            self._show()

    def _show(self) -> None:
        with self._lock:
            if self._bar is None:
                return
            # forward only, and never past the total, whatever a count says
            now = min(self.total, self._advanced + self.tally.value())
            self._shown = max(self._shown, now)
            self._bar.update(self._task, completed=self._shown, refresh=True)

    def advance(self, n: int) -> None:
        if self._bar is not None:
            with self._lock:
                self._advanced += n
            self._show()

    def close(self) -> None:
        if self._bar is not None:
            self._stop.set()
            self._poller.join()
            self._show()
            with self._lock:
                self._bar.stop()
                self._bar = None
