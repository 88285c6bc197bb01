"""The cost of the stable ABI (abi3) on the bindings' per-call paths.

Two interpreters, each with one build of veletas installed (say the
version-specific wheel and the abi3 wheel), time the same workloads: the
calls where the bindings' overhead is most of the cost (legal moves, push and
pop, FEN strings, a turn of micro-decisions) and the adapters' stepping
(OpenSpiel, PettingZoo, ``VectorEnv``, Gymnasium), with a batch of playouts
as the control that the stable ABI should leave alone. Each interpreter runs
a worker process; their rounds are interleaved, workload by workload and in
alternating order, so that a busy spell of the machine slows both alike. The
table gives the best time per call of each build and their ratio (the second
build's time over the first's), so that 1.10 means 10% slower.

    python benches/stable_abi.py \\
        --build version-specific=venv-cp311/bin/python --build abi3=venv-abi3/bin/python

On a busy machine the times move from round to round; ``--callgrind``
counts instructions instead (``valgrind --tool=callgrind``, which the load
does not change): each build's worker runs every workload ``k`` and ``2k``
times, each inside one call of ``operator.call`` (CPython 3.11 or later),
the only code callgrind collects, and the difference of the two counts over
``k`` calls is the cost of a call.

``make bench-stable-abi`` builds both wheels, installs each into a venv of its own
and runs this. Each venv needs numpy, and for the adapters' rows OpenSpiel,
PettingZoo and Gymnasium (the extras ``openspiel``, ``pettingzoo``,
``gymnasium``); a missing one leaves its rows out, in both builds.
"""

from __future__ import annotations

import argparse
import json
import operator
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, TextIO

FEN_10X10 = "8x1/10/1o5xx1/o3x1o3/2ssx2s2/os1o4x1/1sx6s/2o7/6ox2/s9 w play 7"
RULES_10X10 = {"setup_rule": "perimeter", "shooters_block": False}
"""A 10x10 play-phase position of the vectors (``public-145``) and its rules."""

TURN_10X10 = "c6-c9/f9"
TIMING_SECONDS = 0.05
"""About how long one timing of one workload runs (its number of calls is
fixed once, at the first timing)."""

Workload = Callable[[], int]
"""Runs a fixed amount of work from a fixed start; returns its number of calls."""


def workloads() -> dict[str, Workload]:
    """The workloads this interpreter can run, by name, in table order."""
    import veletas
    from veletas import meridians

    board = veletas.Board(FEN_10X10, **RULES_10X10)
    turn = veletas.Move.parse(TURN_10X10)
    meridians_board = meridians.Board()
    meridians_move = next(iter(meridians_board.legal_moves))
    found: dict[str, Workload] = {}

    def calls(function: Callable[[], object]) -> Workload:
        def run() -> int:
            function()
            return 1

        return run

    def push_pop(target: Any, move: Any) -> Callable[[], None]:
        def both() -> None:
            target.push(move)
            target.pop()

        return both

    found["len(legal_moves), 10x10 play (1,428 moves)"] = calls(lambda: len(board.legal_moves))
    found["list(legal_moves), 10x10 play"] = calls(lambda: list(board.legal_moves))
    found["push + pop of a turn, 10x10"] = calls(push_pop(board, turn))
    found["fen(), 10x10"] = calls(board.fen)
    found["Move.parse + str"] = calls(lambda: str(veletas.Move.parse(TURN_10X10)))
    found["Meridians len(legal_moves), 6-7 start"] = calls(lambda: len(meridians_board.legal_moves))
    found["Meridians push + pop"] = calls(push_pop(meridians_board, meridians_move))

    small = veletas.Board(variant="small")
    decisions = veletas.DecisionState(small)
    opening = [decisions.legal_actions()[0]]
    decisions.apply(opening[0])
    opening.append(decisions.legal_actions()[-1])

    def decision_turn() -> int:
        state = veletas.DecisionState(small)
        for action in opening:
            state.action_mask()
            state.apply(action)
        return len(opening)

    found["DecisionState: action_mask + apply"] = decision_turn

    env = veletas.VectorEnv(16, variant="standard", seed=0)

    def vector_steps() -> int:
        env.reset(seed=0)
        for _ in range(20):
            env.step(env.random_actions())
        return 20

    found["VectorEnv(16).step(random_actions())"] = vector_steps
    found.update(adapter_workloads())

    def batch() -> int:
        veletas.playouts(200, variant="small", seed=1, threads=1)
        return 1

    found["control: 200 playouts of 7x7 (batch work)"] = batch
    return found


def adapter_workloads() -> dict[str, Workload]:
    """The adapters' stepping, for those of their packages that are installed."""
    found: dict[str, Workload] = {}
    try:
        import pyspiel
        import veletas.openspiel  # noqa: F401  (registers the games)
    except ImportError:
        pass
    else:
        game = pyspiel.load_game("veletas")

        def openspiel_steps() -> int:
            rng = random.Random(0)
            state = game.new_initial_state()
            for _ in range(200):
                if state.is_terminal():
                    state = game.new_initial_state()
                state.apply_action(rng.choice(state.legal_actions()))
            return 200

        found["OpenSpiel: legal_actions + apply_action"] = openspiel_steps
    try:
        from veletas import pettingzoo
    except ImportError:
        pass
    else:
        aec = pettingzoo.env(variant="standard")

        def pettingzoo_steps() -> int:
            rng = random.Random(0)
            aec.reset(seed=0)
            for _ in range(100):
                observation, _, terminated, truncated, _ = aec.last()
                if terminated or truncated:
                    aec.reset(seed=0)
                    continue
                legal = observation["action_mask"].nonzero()[0]
                aec.step(int(rng.choice(legal)))
            return 100

        found["PettingZoo: last + step"] = pettingzoo_steps
    try:
        from veletas import gymnasium
    except ImportError:
        pass
    else:
        import numpy as np

        vector = gymnasium.make_vec(16, variant="standard", opponent="random", seed=0)

        def gymnasium_steps() -> int:
            rng = np.random.default_rng(0)
            _, info = vector.reset(seed=0)
            for _ in range(20):
                mask = info["action_mask"]
                actions = np.argmax(rng.random(mask.shape) * mask, axis=1)
                _, _, _, _, info = vector.step(actions)
            return 20

        found["Gymnasium make_vec(16).step, random opponent"] = gymnasium_steps
    return found


def worker(requests: TextIO, replies: TextIO) -> None:
    """Answers the driver: first what is installed here and the workloads'
    names; then, for each name it sends, the time per call of one timing."""
    import veletas
    import veletas._veletas as extension

    found = workloads()
    hello = {
        "extension": Path(extension.__file__ or "?").name,
        "location": str(Path(veletas.__file__ or "?").parent),
        "python": sys.version.split()[0],
        "workloads": list(found),
    }
    print(json.dumps(hello), file=replies, flush=True)
    numbers: dict[str, int] = {}
    for line in requests:
        name = json.loads(line)
        run = found[name]
        if name not in numbers:
            start = time.perf_counter()
            run()
            once = max(time.perf_counter() - start, 1e-7)
            numbers[name] = max(1, round(TIMING_SECONDS / once))
        count = 0
        start = time.perf_counter()
        for _ in range(numbers[name]):
            count += run()
        per_call = (time.perf_counter() - start) / count
        print(json.dumps(per_call), file=replies, flush=True)


COUNT_SECONDS = 0.002
"""About how long the ``k`` runs of a workload take natively, under ``--callgrind``."""


def count_worker(replies: TextIO) -> None:
    """For ``--callgrind``: every workload run ``k`` and then ``2k`` times,
    each inside one ``operator.call``, whose exits callgrind dumps; the
    workloads' names and ``k`` and calls go to the driver."""
    found = workloads()
    plan = []
    for name, run in found.items():
        run()  # warm: first calls fill caches and lazy tables
        start = time.perf_counter()
        calls = run()
        once = max(time.perf_counter() - start, 1e-7)
        repeats = max(5, round(COUNT_SECONDS / once))

        def loop(times: int, run: Workload = run) -> None:
            for _ in range(times):
                run()

        operator.call(loop, repeats)
        operator.call(loop, 2 * repeats)
        plan.append({"name": name, "calls": repeats * calls})
    print(json.dumps(plan), file=replies, flush=True)


def instruction_counts(label: str, python: str, folder: Path) -> tuple[str, dict[str, float]]:
    """The instructions per call of each workload in one build, counted by
    callgrind; and the build's extension."""
    out = folder / label
    command = ["valgrind", "--tool=callgrind", "--collect-atstart=no"]
    command += ["--toggle-collect=_operator_call", "--dump-after=_operator_call"]
    command += [f"--callgrind-out-file={out}.%p", python, str(Path(__file__).resolve()), "--count"]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    if result.returncode != 0:
        raise SystemExit(f"the callgrind run of {label!r} failed:\n{result.stderr[-2000:]}")
    extension, plan = result.stdout.splitlines()[-2:]
    dumps = sorted(folder.glob(f"{label}.*.*"), key=lambda path: int(path.name.rsplit(".", 1)[1]))
    totals = []
    for dump in dumps:
        for line in dump.read_text().splitlines():
            if line.startswith("totals:"):
                totals.append(int(line.split()[1]))
    rows = json.loads(plan)
    if len(totals) != 2 * len(rows):
        raise SystemExit(f"{label}: {len(totals)} dumps of callgrind for {len(rows)} workloads")
    counts = {}
    for index, row in enumerate(rows):
        once, twice = totals[2 * index], totals[2 * index + 1]
        counts[row["name"]] = (twice - once) / row["calls"]
    return extension, counts


def callgrind(builds: list[str], options: argparse.Namespace) -> int:
    labels = []
    counts = []
    with tempfile.TemporaryDirectory() as folder:
        for build in builds:
            label, python = build.split("=", 1)
            extension, found = instruction_counts(label, python, Path(folder))
            labels.append(f"{label} ({extension})")
            counts.append(found)
    names = [name for name in counts[0] if name in counts[1]]
    width = max(len(name) for name in names)
    print("\ninstructions per call (callgrind)")
    for label in labels:
        print(f"  {label}")
    first, second = (label.split(" ")[0] for label in labels)
    print(f"\n{'path':<{width}}  {first:>16}  {second:>16}  ratio")
    rows = {}
    for name in names:
        a, b = counts[0][name], counts[1][name]
        flag = "  > 1.10" if b / a > 1.10 else ""
        print(f"{name:<{width}}  {a:>16,.0f}  {b:>16,.0f}  {b / a:.3f}{flag}")
        rows[name] = {first: a, second: b, "ratio": b / a}
    if options.json:
        options.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


class Build:
    """A worker process in the interpreter of one build."""

    def __init__(self, label: str, python: str) -> None:
        self.label = label
        self.process = subprocess.Popen(
            [python, str(Path(__file__).resolve()), "--worker"],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        # Both are pipes (PIPE above); typed as optional.
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.requests, self.replies = self.process.stdin, self.process.stdout
        hello = self.reply()
        self.extension: str = hello["extension"]
        self.location: str = hello["location"]
        self.python: str = hello["python"]
        self.workloads: list[str] = hello["workloads"]

    def reply(self) -> Any:
        line = self.replies.readline()
        if not line:
            raise SystemExit(f"the worker of {self.label!r} stopped (see its error above)")
        return json.loads(line)

    def time(self, name: str) -> float:
        print(json.dumps(name), file=self.requests, flush=True)
        per_call: float = self.reply()
        return per_call

    def close(self) -> None:
        self.requests.close()
        self.process.wait()
        self.replies.close()


def seconds_text(seconds: float) -> str:
    for unit, scale in (("s", 1.0), ("ms", 1e-3), ("µs", 1e-6)):
        if seconds >= scale:
            return f"{seconds / scale:.3g} {unit}"
    return f"{seconds / 1e-9:.3g} ns"


def compare(first: Build, second: Build, rounds: int) -> dict[str, tuple[float, float]]:
    """The best time per call of each workload both builds run, by name."""
    names = [name for name in first.workloads if name in second.workloads]
    best = {name: [float("inf"), float("inf")] for name in names}
    for round_index in range(rounds):
        for name in names:
            order = (0, 1) if round_index % 2 == 0 else (1, 0)
            for index in order:
                build = (first, second)[index]
                best[name][index] = min(best[name][index], build.time(name))
        print(f"  round {round_index + 1}/{rounds}", file=sys.stderr, flush=True)
    return {name: (times[0], times[1]) for name, times in best.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="Time the bindings' per-call paths in two builds of veletas, "
        "interleaved in one run, and print the ratios (the second build's time "
        "per call over the first's).",
        epilog="make bench-stable-abi builds the version-specific and the abi3 wheel "
        "and runs this with their venvs.",
    )
    parser.add_argument(
        "--build",
        action="append",
        metavar="LABEL=PYTHON",
        help="a build's label and the interpreter it is installed in; give two",
    )
    parser.add_argument(
        "--rounds", type=int, default=9, help="interleaved rounds; the best is kept (default 9)"
    )
    parser.add_argument("--json", type=Path, help="also write the times and ratios here")
    parser.add_argument(
        "--callgrind",
        action="store_true",
        help="count instructions per call with valgrind's callgrind instead of timing",
    )
    parser.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--count", action="store_true", help=argparse.SUPPRESS)
    options = parser.parse_args(argv)
    if options.worker:
        worker(sys.stdin, sys.stdout)
        return 0
    if options.count:
        import veletas._veletas as extension

        print(Path(extension.__file__ or "?").name, flush=True)
        count_worker(sys.stdout)
        return 0
    builds = options.build or []
    if len(builds) != 2 or not all("=" in build for build in builds):
        parser.error("give two --build LABEL=PYTHON")
    if options.rounds < 1:
        parser.error(f"--rounds must be at least 1, not {options.rounds}")
    if options.callgrind:
        return callgrind(builds, options)
    first, second = (Build(*build.split("=", 1)) for build in builds)
    try:
        if first.extension == second.extension:
            parser.error(f"both builds load the same kind of extension, {first.extension}")
        times = compare(first, second, options.rounds)
    finally:
        first.close()
        second.close()
    print(f"\nPython {first.python}; time per call, best of {options.rounds} interleaved rounds")
    for build in (first, second):
        print(f"  {build.label}: {build.extension} from {build.location}")
    width = max(len(name) for name in times)
    print(f"\n{'path':<{width}}  {first.label:>16}  {second.label:>16}  ratio")
    for name, (a, b) in times.items():
        flag = "  > 1.10" if b / a > 1.10 else ""
        print(f"{name:<{width}}  {seconds_text(a):>16}  {seconds_text(b):>16}  {b / a:.3f}{flag}")
    if options.json:
        rows = {
            name: {first.label: a, second.label: b, "ratio": b / a}
            for name, (a, b) in times.items()
        }
        options.json.write_text(json.dumps(rows, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
