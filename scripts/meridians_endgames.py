"""How far from the end a Meridians 5-6 position solves: for N placements
left, the positions N placements before the end of seeded random games,
each solved with a budget of positions, and the share the solve settles,
rendered into ``docs/solved.md`` between its markers.

    python scripts/meridians_endgames.py --games 100 --budget 300000
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from pathlib import Path

import veletas
from veletas import meridians

ROOT = Path(__file__).resolve().parent.parent
PAGE = ROOT / "docs" / "solved.md"
BEGIN = "<!-- meridians endgames: rendered by scripts/meridians_endgames.py -->"
END = "<!-- end of the meridians endgames -->"


def position(seed: int, left: int) -> meridians.Board | None:
    """The position ``left`` placements before the end of the random game
    ``seed`` of Meridians 5-6, or None for a shorter game."""
    rng = random.Random(seed)
    board = meridians.Board(size="5-6")
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    moves = board.move_stack
    if len(moves) <= left + 4:
        return None
    start = meridians.Board(size="5-6")
    for move in moves[: len(moves) - left]:
        start.push(move)
    return start


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=100, help="positions a row")
    parser.add_argument("--budget", type=int, default=300_000, help="positions a solve")
    parser.add_argument("--most", type=int, default=16, help="the most placements left")
    args = parser.parse_args()
    rows = [
        f"| placements left | positions | settled within {args.budget:,} positions | "
        "median positions searched | mean seconds |",
        "|---|---|---|---|---|",
    ]
    for left in range(2, args.most + 1, 2):
        settled, nodes, seconds, seed, count = 0, [], [], 0, 0
        while count < args.games:
            board = position(seed, left)
            seed += 1
            if board is None:
                continue
            count += 1
            started = time.perf_counter()
            result = veletas.solve(board, max_nodes=args.budget, memory=64 << 20)
            seconds.append(time.perf_counter() - started)
            nodes.append(result.nodes)
            settled += result.value != "unknown"
        share = settled / count
        rows.append(
            f"| {left} | {count} | {share:.0%} | {statistics.median(nodes):,.0f} | "
            f"{statistics.fmean(seconds):.2f} |"
        )
        print(rows[-1], flush=True)
        if share < 0.05:
            break
    text = PAGE.read_text(encoding="utf-8")
    head, found, rest = text.partition(BEGIN)
    _, found_end, tail = rest.partition(END)
    if not found or not found_end:
        raise SystemExit(f"{PAGE} has no markers {BEGIN!r} ... {END!r}")
    PAGE.write_text(f"{head}{BEGIN}\n" + "\n".join(rows) + f"\n{END}{tail}", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
