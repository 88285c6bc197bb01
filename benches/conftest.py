"""Shared fixtures of the benchmarks. Every benchmark compares two things
timed one after the other in the same process (Rust against the reference,
two threads against one, veletas against a peer), so that a busy machine
slows both alike and the ratio stays meaningful; the ratios are printed at
the end of the session.

``pytest benches --benchmark-enable`` times them (``make bench``); without
``--benchmark-enable`` each runs once, as a check of its results.
"""

from __future__ import annotations

import importlib
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType
from typing import Any

import pytest

# The test suite's helpers (pytest puts tests/ on the path, pyproject.toml):
# the backends under test, and the reader of the test vectors, which the
# benchmarks check their results against.
from games.veletas.backends import BACKEND_MODULES
from games.veletas.vector_files import PerftVector, perft_vectors

POSITION_ID = "public-145"
"""A 10x10 play-phase position of the vectors (perimeter, shooters pass)."""


@dataclass(frozen=True)
class Timing:
    """The times of one benchmark, in seconds per call."""

    best: float
    median: float


TIMINGS: dict[str, dict[str, Timing]] = {}
"""Timings by benchmark group, then by backend."""


@pytest.fixture(scope="session")
def position() -> PerftVector:
    """The 10x10 play position with its perft counts."""
    (vector,) = [v for v in perft_vectors() if v.id == POSITION_ID]
    return vector


@pytest.fixture(params=list(BACKEND_MODULES))
def backend(request: pytest.FixtureRequest) -> ModuleType:
    """The module providing ``Board`` and ``Move``: the reference, then the native core."""
    return importlib.import_module(BACKEND_MODULES[request.param])


def speedup(group: str) -> float | None:
    """How many times faster the native core ran than the reference in
    ``group`` (best times), once both have run in this session."""
    timings = TIMINGS.get(group, {})
    if "reference" not in timings or "rust" not in timings:
        return None
    return timings["reference"].best / timings["rust"].best


@pytest.fixture(name="speedup")
def speedup_fixture() -> Callable[[str], float | None]:
    """:func:`speedup`, for the tests that assert a ratio."""
    return speedup


@pytest.fixture
def timed(benchmark: Any, backend: ModuleType) -> Callable[..., Any]:
    """``timed(group, function, *args, rounds=None)``: benchmark ``function``
    in ``group`` (a fixed number of rounds for slow ones), record its times
    for the ratio table, and return its result."""
    name = next(key for key, module in BACKEND_MODULES.items() if module == backend.__name__)

    def run(group: str, function: Callable[..., Any], *args: Any, rounds: int | None = None) -> Any:
        benchmark.group = group
        if rounds is None:
            result = benchmark(function, *args)
        else:
            result = benchmark.pedantic(function, args=args, rounds=rounds, warmup_rounds=1)
        if isinstance(result, int):  # a count (perft leaves, legal moves), for the docs
            benchmark.extra_info["result"] = result
        if benchmark.enabled and benchmark.stats is not None:
            data = benchmark.stats.stats.data
            TIMINGS.setdefault(group, {})[name] = Timing(min(data), statistics.median(data))
            ratio = speedup(group)
            if ratio is not None:
                benchmark.extra_info["speedup_vs_reference"] = round(ratio, 1)
        return result

    return run


def _seconds(value: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("us", 1e-6)):
        if value >= scale:
            return f"{value / scale:8.2f} {unit}"
    return f"{value / 1e-9:8.2f} ns"


def _engine_table(terminalreporter: Any) -> None:
    """The table of ratios: reference and native best times per group."""
    if not TIMINGS:
        return
    write = terminalreporter.write_line
    terminalreporter.section("native core vs reference (best of each, one run)")
    write(f"{'benchmark':<34} {'reference':>11} {'rust':>11} {'speedup':>9}")
    for group, timings in TIMINGS.items():
        reference = timings.get("reference")
        rust = timings.get("rust")
        ratio = speedup(group)
        write(
            f"{group:<34} "
            f"{_seconds(reference.best) if reference else '-':>11} "
            f"{_seconds(rust.best) if rust else '-':>11} "
            f"{f'{ratio:.0f}x' if ratio is not None else '-':>9}"
        )


@dataclass
class Ratio:
    """One comparison: the rates of two runs and what the ratio should reach."""

    name: str
    subject: str
    subject_rate: float
    other: str
    other_rate: float
    target: float | None = None
    unit: str = "games/s"

    @property
    def ratio(self) -> float:
        return self.subject_rate / self.other_rate

    def __str__(self) -> str:
        line = (
            f"{self.name}: {self.subject} {self.subject_rate:,.0f} {self.unit}, "
            f"{self.other} {self.other_rate:,.0f} {self.unit}: {self.ratio:.2f}x"
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
        unit: str = "games/s",
    ) -> Ratio:
        ratio = Ratio(name, subject, subject_rate, other, other_rate, target, unit)
        _RATIOS.append(ratio)
        info = benchmark.extra_info  # type: ignore[attr-defined]
        info[f"{subject} {unit}"] = subject_rate
        info[f"{other} {unit}"] = other_rate
        info["ratio"] = ratio.ratio
        print(ratio)
        return ratio

    return record


def pytest_benchmark_update_machine_info(config: Any, machine_info: dict[str, Any]) -> None:
    """The kernel that ran (:mod:`veletas.kernels`),
    beside the CPU's name in the run's JSON."""
    from veletas import kernels

    machine_info["veletas_kernel"] = kernels.current() or "none (no extension)"


def pytest_terminal_summary(terminalreporter: Any) -> None:
    _engine_table(terminalreporter)
    if _RATIOS:
        terminalreporter.section("ratios, each measured in one run")
        for ratio in _RATIOS:
            terminalreporter.write_line(str(ratio))
