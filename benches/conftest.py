"""Shared timing for the benchmarks: rates measured in one run, and the
ratios printed at the end of the session.

Every benchmark compares two things timed one after the other in the same
process (Rust against the reference, two threads against one, ...), so that
a busy machine slows both alike and the ratio stays meaningful. Run them
with ``pytest benches --benchmark-enable``.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass

import pytest


@dataclass
class Ratio:
    """One comparison: the rates of two runs and what the ratio should reach."""

    name: str
    subject: str
    subject_rate: float
    other: str
    other_rate: float
    target: float | None = None

    @property
    def ratio(self) -> float:
        return self.subject_rate / self.other_rate

    def __str__(self) -> str:
        line = (
            f"{self.name}: {self.subject} {self.subject_rate:,.0f} games/s, "
            f"{self.other} {self.other_rate:,.0f} games/s: {self.ratio:.2f}x"
        )
        if self.target is not None:
            verdict = "met" if self.ratio >= self.target else "MISSED"
            line += f" (target {self.target:g}x: {verdict})"
        return line


_RATIOS: list[Ratio] = []


def games_per_second(play: Callable[[int], object], games: int, repeat: int = 3) -> float:
    """The best rate of ``repeat`` runs of ``play(games)``: the fastest run is
    the one least disturbed by other work on the machine."""
    best = float("inf")
    for _ in range(repeat):
        clock = time.perf_counter()
        play(games)
        best = min(best, time.perf_counter() - clock)
    return games / best


@pytest.fixture
def report(benchmark: object) -> Callable[..., Ratio]:
    """``report(name, subject, rate, other, rate, target=None)`` records a
    ratio, prints it and stores it with the benchmark's extra info."""

    def record(
        name: str,
        subject: str,
        subject_rate: float,
        other: str,
        other_rate: float,
        target: float | None = None,
    ) -> Ratio:
        ratio = Ratio(name, subject, subject_rate, other, other_rate, target)
        _RATIOS.append(ratio)
        info = benchmark.extra_info  # type: ignore[attr-defined]
        info[f"{subject} games/s"] = subject_rate
        info[f"{other} games/s"] = other_rate
        info["ratio"] = ratio.ratio
        print(ratio)
        return ratio

    return record


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    if _RATIOS:
        terminalreporter.section("ratios, each measured in one run")
        for ratio in _RATIOS:
            terminalreporter.write_line(str(ratio))
