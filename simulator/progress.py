"""Progress bar with games/s and ETA on a terminal; silent when piped or under CI."""
from __future__ import annotations

import os
import sys


def wanted() -> bool:
    return sys.stderr.isatty() and not os.environ.get("CI")


def announce_compile(what: str, load, enabled: bool | None = None, after: float = 1.0):
    """Call ``load()`` (which imports, and on a cold cache compiles, a game's kernels); on a
    terminal, say what is happening if it takes longer than ``after`` seconds. Returns the
    seconds it took."""
    import threading
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


class Progress:
    def __init__(self, total: int, unit: str, enabled: bool | None = None):
        self.enabled = wanted() if enabled is None else enabled
        self._bar = None
        if self.enabled:
            from rich.progress import (BarColumn, MofNCompleteColumn, Progress as RichProgress,
                                       ProgressColumn, TaskProgressColumn, TextColumn,
                                       TimeElapsedColumn, TimeRemainingColumn)
            from rich.text import Text

            class Rate(ProgressColumn):
                def render(self, task):
                    rate = task.finished_speed or task.speed
                    return Text("" if rate is None else f"{rate:,.0f} {unit}/s")

            self._bar = RichProgress(
                TextColumn("[bold]{task.description}"), BarColumn(), TaskProgressColumn(),
                MofNCompleteColumn(), Rate(), TextColumn("ETA"), TimeRemainingColumn(),
                TimeElapsedColumn(), transient=False, console=None,
            )
            self._bar.start()
            self._task = self._bar.add_task(unit, total=total)

    def advance(self, n: int) -> None:
        if self._bar is not None:
            self._bar.advance(self._task, n)

    def close(self) -> None:
        if self._bar is not None:
            self._bar.stop()
            self._bar = None
