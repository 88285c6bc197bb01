"""solve a position exactly: a win or a loss for the player to act

Solve the position of a position string exactly, with a depth-first
proof-number search: whether the player to act can force a win, a winning
move, the positions searched, the time and the size of the proof. Small
boards and the ends of games solve in moments; a budget (--seconds,
--max-nodes) stops a long solve with the value unknown. A line on stderr
every second says how far a long solve is; Ctrl-C stops it.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any

from veletas import games as registry
from veletas.cli import options
from veletas.limits import MAX_PROOF_POSITIONS, SOLVER_MEMORY

_MIB = 1 << 20


EPILOG = (
    "examples:\n"
    "  veletas solve '1o5/sx5/xx5/7/3s3/7/1o3oX b play 3'\n"
    "  veletas solve 's4/2s2/1xsoo/5/5 w play 3' --proof win.json\n"
    "  veletas solve FEN --game meridians --seconds 60 --memory 2048"
)
"""The examples below the options of ``--help``."""


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "fen", help="the position string, e.g. '1o5/sx5/xx5/7/3s3/7/1o3oX b play 3'"
    )
    group = parser.add_argument_group("the solve")
    group.add_argument(
        "--seconds", type=options.seconds, help="stop after this long (default: no limit)"
    )
    group.add_argument(
        "--max-nodes",
        type=options.positive,
        metavar="N",
        help="stop after N positions searched (default: no limit)",
    )
    group.add_argument(
        "--memory",
        type=options.positive,
        metavar="MIB",
        default=SOLVER_MEMORY // _MIB,
        help="the memory of the table of positions, in MiB (default "
        f"{SOLVER_MEMORY // _MIB}; at most half of the machine's)",
    )
    group.add_argument(
        "--proof",
        type=options.output_file,
        metavar="FILE",
        help="write the proof of a win to FILE as JSON (see 'veletas.solving.Proof'); an "
        "existing FILE is kept unless --force",
    )
    group.add_argument("--force", action="store_true", help="replace an existing --proof FILE")
    group.add_argument(
        "--threads",
        type=options.positive,
        default=1,
        help="search threads, each on one of the first decisions open to the player at a "
        "time, the memory shared among them (default 1)",
    )
    options.add_rules(parser)


def run(args: argparse.Namespace) -> int:
    from veletas.limits import max_solver_memory
    from veletas.solving import solve

    if args.force and args.proof is None:
        return _refuse("--force needs --proof FILE")
    if args.proof is not None:
        if Path(args.proof).suffix.lower() in (".parquet", ".pq"):
            return _refuse(f"cannot write {args.proof}: a proof is JSON; name the file .json")
        if os.path.lexists(args.proof) and not args.force:
            return _refuse(f"{args.proof} exists: add --force to replace it")
    board = options.board_from(args, args.fen)
    room = registry.game_of(board).records
    if board.is_game_over():
        winner = board.winner
        won = "nobody" if winner is None else room.PLAYERS[int(winner)]
        return _refuse(
            f"the game is over in {board.fen()!r} ({won} won): there is nothing to solve"
        )
    limit = max_solver_memory() // _MIB
    if args.memory > limit:
        return _refuse(
            f"--memory must be 1 to {limit:,} MiB (half of this machine's memory), not "
            f"{args.memory:,}"
        )
    memory = args.memory * _MIB
    to_act = room.PLAYERS[int(board.turn)]
    print(f"solving {board.fen()} ({to_act} to act)...", file=sys.stderr, flush=True)
    # The proof is built after the search, and after a long one takes far
    # longer than it: only when it is to be written.
    proof = args.proof is not None
    result = solve(
        board,
        seconds=args.seconds,
        max_nodes=args.max_nodes,
        memory=memory,
        proof=proof,
        progress=_progress,
        threads=args.threads,
        max_proof=MAX_PROOF_POSITIONS if proof else 0,
    )
    searched = f"{result.nodes:,} positions searched in {result.seconds:.2f} s"
    if result.value == "win":
        if not proof:
            size = "--proof FILE builds and writes its proof"
        elif result.proof_size is not None:
            size = f"a proof of {result.proof_size:,} positions"
        else:
            size = "a proof too big to build"
        print(f"{to_act} to act in {board.fen()}: {to_act} wins with {result.move}")
        print(f"{searched}; {size}")
    elif result.value == "loss":
        print(f"{to_act} to act in {board.fen()}: {to_act} loses against best play")
        print(searched)
    else:
        print(
            f"{to_act} to act in {board.fen()}: unknown, the budget ran out ({searched}); "
            "give it more time (--seconds), positions (--max-nodes) or memory (--memory)"
        )
    if args.proof is not None:
        _write_proof(args.proof, result)
    return 0


def _progress(nodes: int, seconds: float, entries: int) -> None:
    print(
        f"solving: {nodes:,} positions in {seconds:.0f} s, {entries:,} in the table",
        file=sys.stderr,
        flush=True,
    )


def _write_proof(path: str, result: Any) -> None:
    if result.proof is None:
        why = "there is no win to prove" if result.value != "win" else "the proof is too big"
        print(f"no proof written to {path}: {why}", file=sys.stderr)
        return
    target = Path(path)
    temporary = target.with_name(f".{target.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(result.proof.to_json() + "\n", encoding="utf-8")
        os.replace(temporary, target)
    finally:
        temporary.unlink(missing_ok=True)
    print(f"wrote the proof to {path}", file=sys.stderr)


def _refuse(message: str) -> int:
    print(f"veletas: error: {message}", file=sys.stderr)
    return 2
