"""Long work in a thread that Ctrl-C can stop (``veletas._background``)."""

from __future__ import annotations

import threading

import pytest
from veletas._background import interruptible


def test_the_work_s_value_and_error_come_back() -> None:
    assert interruptible(lambda: 7, threading.Event()) == 7

    def fail() -> None:
        raise ValueError("bad position")

    with pytest.raises(ValueError, match="bad position"):
        interruptible(fail, threading.Event())


def test_ctrl_c_raises_the_stop_flag_and_waits_for_the_work() -> None:
    stop = threading.Event()
    ended = threading.Event()
    heard: list[float] = []

    def work() -> str:
        stop.wait(10)  # a search that runs until it is stopped
        ended.set()
        return "stopped"

    def while_waiting(seconds: float) -> None:
        heard.append(seconds)
        if len(heard) == 3:
            raise KeyboardInterrupt  # as Ctrl-C does in the waiting thread

    with pytest.raises(KeyboardInterrupt):
        interruptible(work, stop, while_waiting)
    assert stop.is_set()
    assert ended.is_set(), "the work ended before KeyboardInterrupt came back"
    assert heard == sorted(heard)
    assert heard[0] >= 0.1
