"""step through a game of a record file

Show the positions of a recorded game one by one: Enter or n for the next
move, p for the previous one, q to quit. With --all (or when the input is
not a terminal), print every position.
"""

from __future__ import annotations

import argparse
import sys

from veletas import games as registry
from veletas import records
from veletas.cli import draw, options


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", help="a record file (docs/records.md)")
    parser.add_argument(
        "--number",
        metavar="K",
        type=options.integer,
        default=1,
        help="which game of the file, from 1 (default 1)",
    )
    parser.add_argument(
        "--game",
        dest="number",
        type=options.integer,
        action=options.Deprecated,
        new="--number K (--game names a game elsewhere)",
        help=argparse.SUPPRESS,
    )
    parser.add_argument("--all", action="store_true", help="print every position and stop")
    parser.add_argument("--no-color", action="store_true", help="draw without colours")


def run(args: argparse.Namespace) -> int:
    from veletas import datasets

    try:
        if datasets.is_dataset(args.file):
            record = datasets.read_game(args.file, args.number - 1)
        else:
            # Only the records up to the one asked for are read, and only it is checked.
            record = records.read_game(args.file, args.number - 1)
    except IndexError as error:
        count = None
        if args.number >= 1 and not datasets.is_dataset(args.file):
            count = sum(1 for _ in records.iter_blocks(args.file))
        held = f"{args.file} holds {count} game(s)" if count is not None else str(error)
        if args.number < 1:
            held = "games count from 1"
        print(f"veletas: error: --number {args.number}: {held}", file=sys.stderr)
        return 2
    tags = record.tags
    room = registry.by_title(record.game).records
    first, second = room.PLAYERS
    rules = tags.get(room.RULE_TAGS[0], "?")
    print(
        f"{tags.get(first, '?')} ({first}) vs {tags.get(second, '?')} ({second}), "
        f"{record.game} {rules}, {len(record.moves)} moves, result {record.result}"
    )
    color = draw.use_color(sys.stdout, args.no_color)
    boards = list(record.boards())

    def show(ply: int) -> None:
        board = boards[ply]
        last = record.moves[ply - 1] if ply > 0 else None
        print()
        draw.print_board(board, color=color, lastmove=last)
        moved = f"{ply}. {draw.describe(board, last)}" if last is not None else "start"
        print(f"[{ply}/{len(record.moves)}] {moved}   position: {board.fen()}")

    if args.all or not sys.stdin.isatty():
        for ply in range(len(boards)):
            show(ply)
        print(f"result {record.result}")
        return 0
    ply = 0
    show(ply)
    while True:
        try:
            key = input("[Enter/n next, p previous, q quit]> ").strip().lower()
        except EOFError:
            break
        if key in ("", "n"):
            if ply == len(record.moves):
                print(f"the end: result {record.result}")
                continue
            ply += 1
        elif key == "p":
            if ply == 0:
                print("this is the start")
                continue
            ply -= 1
        elif key == "q":
            break
        else:
            print("keys: Enter or n (next), p (previous), q (quit)")
            continue
        show(ply)
    return 0
