"""Long native work in a thread of its own, so that Ctrl-C in the calling
thread can stop it: the searches and solves release the GIL, and the
calling thread waits in short joins that a signal can interrupt."""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Protocol, TypeVar

__all__ = ["interruptible"]

T = TypeVar("T")


class Stoppable(Protocol):
    """What stops the work: a :class:`veletas.bots.StopFlag`."""

    def set(self) -> None: ...


def interruptible(
    work: Callable[[], T],
    stop: Stoppable,
    while_waiting: Callable[[float], None] | None = None,
) -> T:
    """``work()`` in a thread; Ctrl-C here raises ``stop`` and, once the work
    has ended, ``KeyboardInterrupt``. ``while_waiting(seconds)`` hears how
    long the work has run, every tenth of a second while it does. What the
    work raises is raised here."""
    found: list[T] = []
    failed: list[BaseException] = []

    def target() -> None:
        try:
            found.append(work())
        except BaseException as error:  # handed to the calling thread
            failed.append(error)

    thread = threading.Thread(target=target, daemon=True)
    thread.start()
    start = time.monotonic()
    try:
        while thread.is_alive():
            thread.join(0.1)
            if while_waiting is not None and thread.is_alive():
                while_waiting(time.monotonic() - start)
    except KeyboardInterrupt:
        stop.set()
        thread.join()
        raise
    if failed:
        raise failed[0]
    return found[0]
