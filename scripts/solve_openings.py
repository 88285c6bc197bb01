"""Veletas's openings solved one by one (``make solve-5x5``, ``make
solve-6x6``): every position right after Black's opening, up to the board's
symmetries, with White to play and the pie declined, solved by a long solve
(:mod:`veletas.long_solve`) that spans many runs.

Each settled position of the searches is appended to
``docs/solved/veletas-NxN-3.progress.jsonl`` as it is settled, and each
solved opening to ``docs/solved/veletas-NxN-3.jsonl``; a run skips what is
solved, goes on from the progress file, gives each open opening ``--slice``
seconds in turn, stops cleanly after ``--seconds``, and renders the table of
``docs/solved.md`` from the two files.

    python scripts/solve_openings.py --size 5 --seconds 3600
    python scripts/solve_openings.py --size 5 --render     # render only
"""

from __future__ import annotations

import argparse
import fcntl
import json
import sys
import time
from pathlib import Path
from typing import Any

import veletas
from veletas.games.veletas.symmetry import canonical_fen, openings
from veletas.limits import MAX_SOLVE_NODES, max_solver_memory
from veletas.long_solve import LongSolve, ProgressFile, Settled

ROOT = Path(__file__).resolve().parent.parent
FOLDER = ROOT / "docs" / "solved"
PAGE = ROOT / "docs" / "solved.md"
SHOOTERS = 3
NAMES = ("black", "white")
MAX_CHECKED = 1_000_000
"""The biggest proof put together and checked, in positions."""
LEAF_NODES = 16_000_000
"""The budget of a leaf's solve, in positions: leaves of the 5x5 openings'
search that 1,000,000 left unknown are settled with 1.9 times fewer
positions searched in all by leaves of 16,000,000, and as many by leaves
of 64,000,000, whose failures cost four times as much (docs/solved.md)."""
SOLVE_FROM = 5
"""The pieces placed past the opening from which a leaf is given to the
native solver: of the 10,046 leaves of 5x5 and 6x6 with fewer (White's
setup and one turn of play) solved with 1,000,000 positions, one settled
(docs/solved.md), so such a leaf is expanded at once."""
FIELDS = ("fen", "winner", "line", "nodes", "seconds", "leaves", "proof_size", "checked")


def results_path(size: int) -> Path:
    return FOLDER / f"veletas-{size}x{size}-{SHOOTERS}.jsonl"


def progress_path(size: int) -> Path:
    return FOLDER / f"veletas-{size}x{size}-{SHOOTERS}.progress.jsonl"


def read_results(path: Path, known: set[str]) -> dict[str, dict[str, Any]]:
    """The solved openings of ``path`` by position string; a line that is
    not one of ``known`` openings, or not a result, stops the run."""
    solved: dict[str, dict[str, Any]] = {}
    if not path.exists():
        return solved
    try:
        text = path.read_text(encoding="utf-8")
    except UnicodeDecodeError as error:
        raise SystemExit(f"{path}: not a results file ({error})") from None
    for number, line in enumerate(text.splitlines(), 1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            result = json.loads(line)
        except json.JSONDecodeError as error:
            raise SystemExit(f"{where}: not JSON ({error.msg})") from None
        if not isinstance(result, dict) or set(result) != set(FIELDS):
            raise SystemExit(f"{where}: not an object of {', '.join(FIELDS)}")
        if result["fen"] not in known:
            raise SystemExit(f"{where}: {result['fen']!r} is not an opening of this board")
        if result["winner"] not in NAMES:
            raise SystemExit(f"{where}: winner must be black or white, not {result['winner']!r}")
        solved[result["fen"]] = result
    return solved


def solve(args: argparse.Namespace) -> None:
    # One run at a time appends to a board's files: a second waits for none
    # and stops at once.
    FOLDER.mkdir(parents=True, exist_ok=True)
    lock = progress_path(args.size).with_suffix(".lock").open("w")
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise SystemExit(f"another run is solving these openings (it holds {lock.name})") from None
    all_openings = openings(size=args.size, shooters=SHOOTERS)
    results = results_path(args.size)
    solved = read_results(results, set(all_openings))
    progress = ProgressFile(progress_path(args.size))
    deadline = time.monotonic() + args.seconds
    while True:
        open_ = [fen for fen in all_openings if fen not in solved]
        print(
            f"veletas {args.size}x{args.size}/{SHOOTERS}: {len(all_openings) - len(open_)} of "
            f"{len(all_openings)} openings solved",
            flush=True,
        )
        if not open_:
            return
        for fen in open_:
            left = deadline - time.monotonic()
            if left <= 0:
                return
            board = veletas.Board(fen, size=args.size, shooters=SHOOTERS)
            search = LongSolve(
                board,
                progress,
                leaf_nodes=args.leaf_nodes,
                memory=args.memory << 20,
                skip={"swap"},
                key=_key,
                solve_if=lambda board: pieces_placed(board.fen()) >= args.solve_from,
                workers=args.workers,
            )
            winner = search.run(seconds=min(args.slice, left))
            spent = list(progress.under(search.root.key))
            nodes = sum(entry.nodes for entry in spent)
            seconds = sum(entry.seconds for entry in spent)
            leaves = len(spent)
            if winner is None:
                print(
                    f"  {fen}: open, {leaves:,} positions solved so far "
                    f"({nodes:,} searched, {seconds:,.0f} s)",
                    flush=True,
                )
                continue
            proof = search.proof(max_positions=MAX_CHECKED)
            if proof is not None:
                search.check(proof)
            result = {
                "fen": fen,
                "winner": NAMES[winner],
                "line": search.line(),
                "nodes": nodes,
                "seconds": round(seconds, 1),
                "leaves": leaves,
                "proof_size": None if proof is None else proof.size(),
                "checked": proof is not None,
            }
            with results.open("a", encoding="utf-8") as out:
                out.write(json.dumps(result) + "\n")
            solved[fen] = result
            print(f"  {fen}: {NAMES[winner]} wins ({nodes:,} positions, {seconds:,.0f} s)")


def render(size: int) -> None:
    """The table of ``size``'s openings in ``docs/solved.md``, between its
    markers, from the results and progress files alone."""
    all_openings = openings(size=size, shooters=SHOOTERS)
    solved = read_results(results_path(size), set(all_openings))
    progress = ProgressFile(progress_path(size))
    rows = [
        "| # | opening (White to decide the pie) | winner if White declines | "
        "positions searched | seconds | proof | line |",
        "|---|---|---|---|---|---|---|",
    ]
    spent = {"nodes": 0, "seconds": 0.0, "leaves": 0}
    for number, fen in enumerate(all_openings, 1):
        result = solved.get(fen)
        if result is None:
            entries = list(progress.under(canonical_fen(fen)))
            nodes = sum(entry.nodes for entry in entries)
            seconds = sum(entry.seconds for entry in entries)
            spent["nodes"] += nodes
            spent["seconds"] += seconds
            spent["leaves"] += len(entries)
            rows.append(f"| {number} | `{fen}` | open | {nodes:,} | {seconds:,.0f} | | |")
            continue
        line = " ".join(result["line"])
        size = result["proof_size"]
        proof = "over 1,000,000" if size is None else f"{size:,}, checked"
        rows.append(
            f"| {number} | `{fen}` | {result['winner']} | {result['nodes']:,} | "
            f"{result['seconds']:,.0f} | {proof} | {line} |"
        )
    wins = {name: sum(r["winner"] == name for r in solved.values()) for name in NAMES}
    summary = (
        f"{len(solved)} of {len(all_openings)} openings solved: {wins['black']} won by Black, "
        f"{wins['white']} by White, if White declines the pie. The open ones have taken "
        f"{spent['leaves']:,} leaf solves, {spent['nodes']:,} positions and "
        f"{spent['seconds']:,.0f} s so far."
    )
    rows += ["", *_depths(progress, {canonical_fen(fen) for fen in all_openings})]
    begin = f"<!-- openings {size}x{size}: rendered by scripts/solve_openings.py -->"
    end = f"<!-- end of the openings {size}x{size} -->"
    text = PAGE.read_text(encoding="utf-8")
    head, found, rest = text.partition(begin)
    _, found_end, tail = rest.partition(end)
    if not found or not found_end:
        raise SystemExit(f"{PAGE} has no markers {begin!r} ... {end!r}")
    block = "\n".join([summary, "", *rows])
    PAGE.write_text(f"{head}{begin}\n{block}\n{end}{tail}", encoding="utf-8")


def _depths(progress: ProgressFile, roots: set[str]) -> list[str]:
    """The leaf solves so far by how far past the opening their position
    is, and the share they settled: what decides how far a run reaches."""
    by_depth: dict[int, list[Settled]] = {}
    for key, entry in progress.solves():
        if entry.root not in roots:
            continue
        depth = pieces_placed(key)
        by_depth.setdefault(depth, []).append(entry)
    rows = [
        "| pieces placed after the opening | leaves solved | settled | mean positions | "
        "mean seconds |",
        "|---|---|---|---|---|",
    ]
    for depth, entries in sorted(by_depth.items()):
        settled = sum(entry.winner is not None for entry in entries)
        nodes = sum(entry.nodes for entry in entries) / len(entries)
        seconds = sum(entry.seconds for entry in entries) / len(entries)
        rows.append(
            f"| {depth} | {len(entries):,} | {settled / len(entries):.1%} | {nodes:,.0f} | "
            f"{seconds:.2f} |"
        )
    return rows


def pieces_placed(fen: str) -> int:
    """The pieces on the board of ``fen`` past Black's opening (its
    shooter and its stone)."""
    board = fen.partition(" ")[0]
    return sum(board.count(piece) for piece in "sxoXO") - 2


def _key(board: Any) -> str:
    return canonical_fen(board.fen())


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--size", type=int, choices=(5, 6, 7), default=5)
    parser.add_argument("--seconds", type=float, default=600.0, help="stop after this long")
    parser.add_argument(
        "--slice", type=float, default=900.0, help="the seconds of an opening's turn"
    )
    parser.add_argument(
        "--leaf-nodes",
        type=int,
        default=LEAF_NODES,
        help=f"the budget of a leaf's solve, in positions (default {LEAF_NODES:,})",
    )
    parser.add_argument("--memory", type=int, default=64, help="a leaf's table, in MiB")
    parser.add_argument(
        "--workers",
        type=int,
        default=1,
        help="the leaves solved at once, each on a core with a table of its own (default 1)",
    )
    parser.add_argument(
        "--solve-from",
        type=int,
        default=SOLVE_FROM,
        help="the pieces placed past the opening from which a leaf is solved; one with "
        f"fewer is expanded at once (default {SOLVE_FROM}: with fewer, a leaf's solve "
        "hardly ever settles it)",
    )
    parser.add_argument("--render", action="store_true", help="render docs/solved.md only")
    args = parser.parse_args()
    if args.solve_from < 0:
        parser.error(f"--solve-from must be 0 or more, not {args.solve_from}")
    if not 1 <= args.workers <= 256:
        parser.error(f"--workers must be 1 to 256, not {args.workers}")
    if not 1 <= args.leaf_nodes <= MAX_SOLVE_NODES:
        parser.error(f"--leaf-nodes must be 1 to {MAX_SOLVE_NODES:,}, not {args.leaf_nodes}")
    most_memory = max_solver_memory() >> 20
    if not 1 <= args.memory <= most_memory:
        parser.error(f"--memory must be 1 to {most_memory:,} MiB, not {args.memory}")
    try:
        if not args.render:
            solve(args)
    except KeyboardInterrupt:
        print("stopped; the next run goes on from the progress file", file=sys.stderr)
    render(args.size)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
