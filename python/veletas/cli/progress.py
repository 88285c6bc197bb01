"""Progress of long work on stderr: tqdm's bar on a terminal, else a line
every 10 seconds (a log, a pipe, CI), so that a run without a terminal says
what it is doing too."""

from __future__ import annotations

import sys
import time
from typing import Any, TextIO

__all__ = ["LineProgress", "progress"]

LINE_SECONDS = 10.0
"""How often a run without a terminal prints its progress line."""


class LineProgress:
    """tqdm's ``update``, ``close`` and context manager, printing
    ``desc: N of TOTAL games (P%), R games/s`` every :data:`LINE_SECONDS`
    and once at the end."""

    def __init__(
        self,
        total: int,
        *,
        initial: int = 0,
        desc: str | None = None,
        file: TextIO | None = None,
        seconds: float = LINE_SECONDS,
        unit: str = "games",
    ) -> None:
        self.total = total
        self.unit = unit
        self.n = initial
        self.desc = desc or "played"
        self.file = file or sys.stderr
        self.seconds = seconds
        self._initial = initial
        self._start = time.monotonic()
        self._shown = self._start
        self._shown_n = initial
        self._closed = False

    def __enter__(self) -> LineProgress:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def update(self, count: int = 1) -> None:
        self.n += count
        now = time.monotonic()
        if now - self._shown >= self.seconds:
            self._shown = now
            self._print(now)

    def close(self) -> None:
        if not self._closed:
            self._closed = True
            if self.n != self._shown_n:  # the last count, unless just shown
                self._print(time.monotonic())

    def _print(self, now: float) -> None:
        self._shown_n = self.n
        elapsed = now - self._start
        rate = (self.n - self._initial) / elapsed if elapsed > 0 else 0.0
        share = f" ({self.n / self.total:.0%})" if self.total else ""
        print(
            f"{self.desc}: {self.n:,} of {self.total:,} {self.unit}{share}, "
            f"{rate:,.{2 if rate < 10 else 0}f} {self.unit}/s",
            file=self.file,
            flush=True,
        )


def progress(total: int, *, initial: int = 0, desc: str | None = None, unit: str = "games") -> Any:
    """A progress display of ``total`` games (or other ``unit``) on stderr:
    tqdm's bar on a terminal, else a :class:`LineProgress`."""
    if sys.stderr.isatty():
        from tqdm import tqdm

        return tqdm(
            total=total,
            initial=initial,
            unit=f" {unit}",
            unit_scale=True,
            file=sys.stderr,
            leave=False,
            desc=desc,
        )
    return LineProgress(total, initial=initial, desc=desc, unit=unit)
