"""Write the figures of one ``make bench`` run into the README and docs/.

Every speed figure of the documents sits between markers, as in

    <!-- figure:micro_1t -->416,000<!-- /figure --> games/s

and this script rewrites the text between them from the pytest-benchmark
JSON of one run (``make bench`` writes it and then runs this script):

    python scripts/bench_figures.py .benchmarks/bench.json   # rewrite the documents
    python scripts/bench_figures.py --check                  # only check them

A figure is either *measured* (read from the JSON) or *derived*: a ratio or
another quotient of two figures, computed from the two as the documents show
them (rounded), so that a reader who divides the parts gets the ratio shown.
``--check``, which ``tests/test_bench_figures.py`` runs, reads no JSON: it
checks that each figure reads the same everywhere, and that every derived
figure follows from its parts as shown.

Where one thing is measured by several benchmarks of the run (one thread of
micro playouts is timed beside OpenSpiel, beside two threads, beside the
uniform policy and beside the reference), the best rate counts: the run least
disturbed by other work on the machine, as each benchmark itself keeps the
best of its repeats.
"""

from __future__ import annotations

import argparse
import json
import math
import re
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent


def pages() -> list[Path]:
    """The documents that hold figures: the README and every page of docs/."""
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


SPAN = re.compile(r"<!-- figure:([a-z0-9_]+) -->(.*?)<!-- /figure -->", re.DOTALL)


# ----------------------------------------------------------------------
# Kinds of figures: how each is written, and read back


def _significant(value: float, digits: int = 3) -> float:
    if value == 0:
        return 0.0
    return round(value, digits - 1 - math.floor(math.log10(abs(value))))


def _format_rate(value: float) -> str:
    """Per second: ``416,000``, ``188``, ``14.4 M``."""
    if value >= 1e6:
        return f"{_significant(value / 1e6):g} M"
    return f"{_significant(value):,.0f}" if value >= 100 else f"{_significant(value):g}"


def _parse_rate(text: str) -> float:
    number, millions, _ = text.partition(" M")
    return float(number.replace(",", "")) * (1e6 if millions else 1.0)


_UNITS = [("s", 1.0), ("ms", 1e-3), ("µs", 1e-6), ("ns", 1e-9)]


def _format_time(seconds: float) -> str:
    """``107 ms``, ``0.72 µs``, ``7.1 s``: three significant figures."""
    for unit, scale in _UNITS:
        if seconds >= scale or unit == "ns":
            return f"{_significant(seconds / scale):g} {unit}"
    raise AssertionError("unreachable")


def _parse_time(text: str) -> float:
    number, unit = text.split()
    return float(number) * dict(_UNITS)[unit]


def _format_ratio(value: float) -> str:
    """``931x``, ``1,860x``, ``1.99x``."""
    return f"{value:.2f}x" if value < 10 else f"{_significant(value):,.0f}x"


def _parse_ratio(text: str) -> float:
    return float(text.removesuffix("x").replace(",", ""))


def _format_count(value: float) -> str:
    """An exact count: ``1,954,282``."""
    return f"{round(value):,}"


def _parse_count(text: str) -> float:
    return float(text.replace(",", ""))


def _format_billions(value: float) -> str:
    """``17 billion``."""
    return f"{_significant(value / 1e9, 2):g} billion"


def _parse_billions(text: str) -> float:
    return float(text.removesuffix(" billion")) * 1e9


@dataclass(frozen=True)
class Kind:
    format: Callable[[float], str]
    parse: Callable[[str], float]


RATE = Kind(_format_rate, _parse_rate)
TIME = Kind(_format_time, _parse_time)
RATIO = Kind(_format_ratio, _parse_ratio)
COUNT = Kind(_format_count, _parse_count)
BILLIONS = Kind(_format_billions, _parse_billions)


# ----------------------------------------------------------------------
# The figures


@dataclass(frozen=True)
class Measured:
    """A figure read from the JSON of the run."""

    kind: Kind
    read: Callable[[Bench], float]


@dataclass(frozen=True)
class Derived:
    """``factor * numerator / denominator``, from the figures as shown (a
    missing numerator or denominator counts as 1)."""

    kind: Kind
    numerator: str | None
    denominator: str | None
    factor: float = 1.0


class Bench:
    """The benchmarks of one run, as pytest-benchmark writes them."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.data = data
        self.benchmarks: list[dict[str, Any]] = data["benchmarks"]

    def _find(self, name: str) -> dict[str, Any]:
        # A bare test name may be shared by several files; such a name is
        # given as its full ``file::test`` name.
        found = [b for b in self.benchmarks if name in (b["name"], b["fullname"])]
        if not found:
            raise KeyError(f"the run has no benchmark {name!r} (was it skipped?)")
        if len(found) > 1:
            raise KeyError(f"several benchmarks are named {name!r}: give its file, 'file::test'")
        return found[0]

    def best(self, name: str) -> float:
        """The best time of a benchmark, in seconds."""
        return float(self._find(name)["stats"]["min"])

    def info(self, name: str, key: str) -> float:
        """A number the benchmark recorded in its extra info."""
        return float(self._find(name)["extra_info"][key])

    def machine(self) -> str:
        info = self.data["machine_info"]
        cpu = info.get("cpu", {})
        brand = cpu.get("brand_raw") or info.get("processor") or "unknown CPU"
        count = cpu.get("count")
        cpus = f"{count}-CPU " if count else ""
        kernel = info.get("veletas_kernel")
        kernels = f", the {kernel} kernel" if kernel else ""
        return f"a {cpus}{brand} machine with Python {info['python_version']}{kernels}"


def _most(*reads: Callable[[Bench], float]) -> Callable[[Bench], float]:
    return lambda bench: max(read(bench) for read in reads)


MICRO_1T = _most(
    lambda b: b.info("test_micro_against_openspiel_amazons", "veletas games/s"),
    lambda b: b.info("benches/test_playouts.py::test_two_threads_against_one", "1 thread games/s"),
    lambda b: b.info("test_micro_against_uniform", "micro games/s"),
    lambda b: b.info("test_rust_against_the_reference[micro]", "rust games/s"),
)
UNIFORM_1T = _most(
    lambda b: b.info("test_micro_against_uniform", "uniform games/s"),
    lambda b: b.info("test_rust_against_the_reference[uniform]", "rust games/s"),
)
RL = "test_vector_env_against_openspiel"
RL_MERIDIANS = "test_meridians_vector_env_against_openspiel"
GYM = "test_gymnasium_wrapper_against_the_raw_env"
OPPONENT = "test_random_opponent_against_self_play"
SOLVER = "test_endgames_against_the_plain_minimax"
NODES = "test_nodes_a_second_with_a_small_and_the_default_table"
SYMMETRIES = "test_the_setup_with_and_without_the_symmetries"

FIGURES: dict[str, Measured | Derived] = {
    # The native core against the reference (benches/test_engine.py).
    "perft_leaves": Measured(COUNT, lambda b: b.info("test_perft_2[rust]", "result")),
    "perft_rust": Measured(TIME, lambda b: b.best("test_perft_2[rust]")),
    "perft_reference": Measured(TIME, lambda b: b.best("test_perft_2[reference]")),
    "perft_speedup": Derived(RATIO, "perft_reference", "perft_rust"),
    "perft_leaves_per_s": Derived(BILLIONS, "perft_leaves", "perft_rust"),
    "legal_moves_count": Measured(COUNT, lambda b: b.info("test_len_legal_moves[rust]", "result")),
    "legal_moves_rust": Measured(TIME, lambda b: b.best("test_len_legal_moves[rust]")),
    "legal_moves_reference": Measured(TIME, lambda b: b.best("test_len_legal_moves[reference]")),
    "legal_moves_speedup": Derived(RATIO, "legal_moves_reference", "legal_moves_rust"),
    "push_pop_rust": Measured(TIME, lambda b: b.best("test_push_pop_turn[rust]")),
    "push_pop_reference": Measured(TIME, lambda b: b.best("test_push_pop_turn[reference]")),
    "push_pop_speedup": Derived(RATIO, "push_pop_reference", "push_pop_rust"),
    # Playouts (benches/test_playouts.py), games per second.
    "micro_1t": Measured(RATE, MICRO_1T),
    "micro_game_time": Derived(TIME, None, "micro_1t"),
    "micro_2t": Measured(
        RATE,
        lambda b: b.info(
            "benches/test_playouts.py::test_two_threads_against_one", "2 threads games/s"
        ),
    ),
    "threads_ratio": Derived(RATIO, "micro_2t", "micro_1t"),
    "uniform_1t": Measured(RATE, UNIFORM_1T),
    "micro_vs_uniform": Derived(RATIO, "micro_1t", "uniform_1t"),
    "reference_micro": Measured(
        RATE, lambda b: b.info("test_rust_against_the_reference[micro]", "reference games/s")
    ),
    "reference_uniform": Measured(
        RATE, lambda b: b.info("test_rust_against_the_reference[uniform]", "reference games/s")
    ),
    "micro_vs_reference": Derived(RATIO, "micro_1t", "reference_micro"),
    "uniform_vs_reference": Derived(RATIO, "uniform_1t", "reference_uniform"),
    "amazons": Measured(
        RATE, lambda b: b.info("test_micro_against_openspiel_amazons", "amazons games/s")
    ),
    "micro_vs_amazons": Derived(RATIO, "micro_1t", "amazons"),
    # Stepping for learning agents (benches/test_bench_rl.py), decisions per second.
    "vector_env_random": Measured(
        RATE, lambda b: b.info(RL, "VectorEnv, random_actions() (decisions/s)")
    ),
    "vector_env_numpy": Measured(
        RATE, lambda b: b.info(RL, "VectorEnv, numpy draws over the masks (decisions/s)")
    ),
    "openspiel_stepping": Measured(
        RATE, lambda b: b.info(RL, "OpenSpiel adapter, stepping only (decisions/s)")
    ),
    "openspiel_rl_environment": Measured(
        RATE, lambda b: b.info(RL, "OpenSpiel rl_environment over the adapter (decisions/s)")
    ),
    "vector_env_random_vs_stepping": Derived(RATIO, "vector_env_random", "openspiel_stepping"),
    "vector_env_numpy_vs_stepping": Derived(RATIO, "vector_env_numpy", "openspiel_stepping"),
    "vector_env_random_vs_rl_environment": Derived(
        RATIO, "vector_env_random", "openspiel_rl_environment"
    ),
    "vector_env_numpy_vs_rl_environment": Derived(
        RATIO, "vector_env_numpy", "openspiel_rl_environment"
    ),
    # The Gymnasium wrapper and the random opponent (benches/test_bench_gymnasium.py).
    "gymnasium_raw": Measured(RATE, lambda b: b.info(GYM, "raw VectorEnv (decisions/s)")),
    "gymnasium_wrapped": Measured(RATE, lambda b: b.info(GYM, "gymnasium make_vec (decisions/s)")),
    "gymnasium_vs_raw": Derived(RATIO, "gymnasium_wrapped", "gymnasium_raw"),
    "opponent_self_play": Measured(
        RATE,
        lambda b: b.info(OPPONENT, "self-play (both seats are the learner) (decisions/s)"),
    ),
    "opponent_random": Measured(
        RATE,
        lambda b: b.info(OPPONENT, "opponent='random' (the learner's seat only) (decisions/s)"),
    ),
    "opponent_vs_self_play": Derived(RATIO, "opponent_random", "opponent_self_play"),
    # The same for Meridians on the 6-7 board.
    "meridians_vector_env_random": Measured(
        RATE, lambda b: b.info(RL_MERIDIANS, "VectorEnv, random_actions() (decisions/s)")
    ),
    "meridians_vector_env_numpy": Measured(
        RATE, lambda b: b.info(RL_MERIDIANS, "VectorEnv, numpy draws over the masks (decisions/s)")
    ),
    "meridians_openspiel_stepping": Measured(
        RATE, lambda b: b.info(RL_MERIDIANS, "OpenSpiel adapter, stepping only (decisions/s)")
    ),
    "meridians_vector_env_random_vs_stepping": Derived(
        RATIO, "meridians_vector_env_random", "meridians_openspiel_stepping"
    ),
    "meridians_vector_env_numpy_vs_stepping": Derived(
        RATIO, "meridians_vector_env_numpy", "meridians_openspiel_stepping"
    ),
    # Ray (benches/test_distributed.py).
    "ray_2cpu": Measured(RATE, lambda b: b.info("test_ray_against_one_machine", "ray games/s")),
    "ray_local_2t": Measured(
        RATE, lambda b: b.info("test_ray_against_one_machine", "one machine games/s")
    ),
    "ray_vs_local": Derived(RATIO, "ray_2cpu", "ray_local_2t"),
    "ray_chunk_cost_fit": Measured(
        TIME, lambda b: b.info("test_the_cost_of_a_chunk", "ms per chunk (fit)") / 1e3
    ),
    "ray_chunk_cost_tiny": Measured(
        TIME, lambda b: b.info("test_the_cost_of_a_chunk", "ms per 1-game chunk") / 1e3
    ),
    "ray_join": Measured(
        TIME, lambda b: b.info("test_ray_against_one_machine", "seconds to join the cluster")
    ),
    "ray_local_runtime": Measured(TIME, lambda b: b.best("test_starting_a_local_runtime")),
    # The exact solver (benches/test_solver.py).
    "solve_endgames": Measured(
        RATE,
        lambda b: b.info(f"{SOLVER}[veletas-5x5]", "veletas.solve (df-pn, native) positions/s"),
    ),
    "minimax_endgames": Measured(
        RATE,
        lambda b: b.info(f"{SOLVER}[veletas-5x5]", "plain minimax (reference engine) positions/s"),
    ),
    "solve_vs_minimax": Derived(RATIO, "solve_endgames", "minimax_endgames"),
    "solve_endgames_meridians": Measured(
        RATE,
        lambda b: b.info(f"{SOLVER}[meridians-5-6]", "veletas.solve (df-pn, native) positions/s"),
    ),
    "minimax_endgames_meridians": Measured(
        RATE,
        lambda b: b.info(
            f"{SOLVER}[meridians-5-6]", "plain minimax (reference engine) positions/s"
        ),
    ),
    "solve_vs_minimax_meridians": Derived(
        RATIO, "solve_endgames_meridians", "minimax_endgames_meridians"
    ),
    "solve_nodes_small_veletas": Measured(
        RATE, lambda b: b.info(f"{NODES}[veletas-7x7]", "1 MiB table nodes/s")
    ),
    "solve_nodes_default_veletas": Measured(
        RATE, lambda b: b.info(f"{NODES}[veletas-7x7]", "256 MiB table (the default) nodes/s")
    ),
    "solve_nodes_veletas_ratio": Derived(
        RATIO, "solve_nodes_small_veletas", "solve_nodes_default_veletas"
    ),
    "solve_nodes_small_meridians": Measured(
        RATE, lambda b: b.info(f"{NODES}[meridians-5-6]", "1 MiB table nodes/s")
    ),
    "solve_nodes_default_meridians": Measured(
        RATE, lambda b: b.info(f"{NODES}[meridians-5-6]", "256 MiB table (the default) nodes/s")
    ),
    "solve_nodes_meridians_ratio": Derived(
        RATIO, "solve_nodes_small_meridians", "solve_nodes_default_meridians"
    ),
    "solve_setup_folded": Measured(RATE, lambda b: b.info(SYMMETRIES, "images folded nodes/s")),
    "solve_setup_plain": Measured(RATE, lambda b: b.info(SYMMETRIES, "not folded nodes/s")),
    "solve_setup_ratio": Derived(RATIO, "solve_setup_folded", "solve_setup_plain"),
    "solve_setup_entries_folded": Measured(
        RATE, lambda b: b.info(SYMMETRIES, "images folded entries/M nodes")
    ),
    "solve_setup_entries_plain": Measured(
        RATE, lambda b: b.info(SYMMETRIES, "not folded entries/M nodes")
    ),
    "solve_setup_entries_ratio": Derived(
        RATIO, "solve_setup_entries_folded", "solve_setup_entries_plain"
    ),
    # A chunk of CHUNK_SECONDS (veletas.distributed), 2 s, on one thread.
    "chunk_games": Derived(RATE, "micro_1t", None, factor=2.0),
}

MACHINE = "machine"
"""The one figure that is text: the machine and Python of the run."""


def measure(bench: Bench) -> dict[str, str]:
    """Every figure of the run, as the documents show it."""
    shown = {MACHINE: bench.machine()}
    for key, figure in FIGURES.items():
        if isinstance(figure, Measured):
            shown[key] = figure.kind.format(figure.read(bench))
    for key, figure in FIGURES.items():
        if isinstance(figure, Derived):
            shown[key] = derive(figure, shown)
    return shown


def derive(figure: Derived, shown: dict[str, str]) -> str:
    """A derived figure, computed from its parts as shown."""

    def value(key: str | None) -> float:
        if key is None:
            return 1.0
        part = FIGURES[key]
        assert isinstance(part, Measured), f"{key} is derived: derive from measured figures"
        return part.kind.parse(shown[key])

    return figure.kind.format(figure.factor * value(figure.numerator) / value(figure.denominator))


# ----------------------------------------------------------------------
# The documents


def spans(text: str) -> list[tuple[str, str]]:
    """The (key, text) of every figure of a document."""
    return [(match[1], match[2]) for match in SPAN.finditer(text)]


def rewrite(text: str, shown: dict[str, str]) -> str:
    def replace(match: re.Match[str]) -> str:
        key = match[1]
        if key not in shown:
            raise KeyError(f"unknown figure {key!r}")
        return f"<!-- figure:{key} -->{shown[key]}<!-- /figure -->"

    return SPAN.sub(replace, text)


CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.MULTILINE | re.DOTALL)
UNMARKED = re.compile(
    r"(?<![\w.,])\d[\d,.]*(?: M)? (?:games/s|decisions/s|games a second)"
    r"|(?<![\w.,])\d[\d,.]* (?:ns|µs|ms)\b"
    r"|(?<![\w.,])\d[\d,.]*x\b"
)
"""A speed, a time or a ratio written down without markers."""


def unmarked(text: str) -> list[str]:
    """The speeds, times and ratios of ``text`` outside figures and code."""
    return UNMARKED.findall(CODE.sub("", SPAN.sub("", text)))


def documents() -> list[tuple[str, str]]:
    """The name and text of every page of :func:`pages`."""
    return [
        (path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")) for path in pages()
    ]


def problems(documents: Iterable[tuple[str, str]]) -> list[str]:
    """What is wrong with the figures of ``documents`` (name and text): a
    speed, time or ratio outside the markers, an unknown key, a key that
    reads differently in two places, or a derived figure that does not follow
    from its parts as shown (or whose parts are not shown)."""
    found: dict[str, set[str]] = {}
    where: dict[str, list[str]] = {}
    errors = []
    for name, text in documents:
        for key, figure in spans(text):
            found.setdefault(key, set()).add(figure)
            where.setdefault(key, []).append(name)
        errors += [f"{name}: {loose!r} is not a marked figure" for loose in unmarked(text)]
    for key, texts in found.items():
        if key != MACHINE and key not in FIGURES:
            errors.append(f"unknown figure {key!r} in {', '.join(where[key])}")
        elif len(texts) > 1:
            errors.append(f"figure {key!r} reads {sorted(texts)} in {', '.join(where[key])}")
    shown = {key: next(iter(texts)) for key, texts in found.items() if len(texts) == 1}
    for key, figure in FIGURES.items():
        if key not in shown or not isinstance(figure, Derived):
            continue
        parts = [part for part in (figure.numerator, figure.denominator) if part is not None]
        missing = [part for part in parts if part not in shown]
        if missing:
            errors.append(f"figure {key!r} is shown without its parts {missing}")
            continue
        try:
            expected = derive(figure, shown)
        except (ValueError, KeyError) as error:
            errors.append(f"figure {key!r}: a part cannot be read: {error}")
            continue
        if shown[key] != expected:
            errors.append(
                f"figure {key!r} reads {shown[key]!r}; its parts as shown give {expected!r}"
            )
    return errors


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("json", nargs="?", type=Path, help="the --benchmark-json of the run")
    parser.add_argument("--check", action="store_true", help="only check the documents")
    args = parser.parse_args(argv)
    if not args.check:
        if args.json is None:
            parser.error("give the JSON of a run, or --check")
        shown = measure(Bench(json.loads(args.json.read_text(encoding="utf-8"))))
        for path in pages():
            text = path.read_text(encoding="utf-8")
            new = rewrite(text, shown)
            if new != text:
                path.write_text(new, encoding="utf-8")
                print(f"rewrote the figures of {path.relative_to(ROOT)}")
    errors = problems(documents())
    for error in errors:
        print(f"bench_figures: {error}", file=sys.stderr)
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
