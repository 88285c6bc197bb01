"""The one ``--save`` of the commands that write game records (``match``,
``play``): an existing file is kept unless ``--force`` replaces it or
``--append`` adds the games to it; a name that says Parquet is refused with
the reason, since a Parquet dataset holds the playouts of one run (``veletas
playout --save``). A replaced file is written beside it and renamed into
place, so that it is never left half-written."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from veletas.cli import options

__all__ = ["add_save", "save_problem", "save_records"]


def add_save(parser: argparse.ArgumentParser, what: str) -> None:
    """``--save FILE``, ``--force`` and ``--append``; ``what`` says what is saved."""
    group = parser.add_argument_group("saving")
    group.add_argument(
        "--save",
        metavar="FILE",
        type=options.output_file,
        help=f"write {what} to FILE as game records (see 'veletas replay'); an existing "
        "FILE is kept unless --force or --append",
    )
    group.add_argument("--force", action="store_true", help="replace an existing --save FILE")
    group.add_argument(
        "--append", action="store_true", help="add the games to an existing --save FILE"
    )


def save_problem(args: argparse.Namespace) -> str | None:
    """Why ``args.save`` cannot be written as asked, or None (checked before
    any game is played)."""
    if args.save is None:
        return "--force needs --save FILE" if args.force or args.append else None
    if args.force and args.append:
        return "--force and --append exclude each other"
    if Path(args.save).suffix.lower() in (".parquet", ".pq"):
        return (
            f"cannot write {args.save}: these games are written as game records, and a "
            "Parquet dataset holds the playouts of one run (veletas playout --save); "
            "name the file .txt"
        )
    if os.path.exists(args.save) and not (args.force or args.append):
        return f"{args.save} exists: add --force to replace it, or --append to add the games to it"
    return None


def save_records(args: argparse.Namespace, games: Iterable[Any]) -> None:
    """Write ``games`` (:class:`~veletas.records.GameRecord`) to ``args.save``:
    added to the file with ``--append``, else a new or replaced file."""
    from veletas import records

    text = records.write(games)
    path = Path(args.save)
    if args.append and path.exists() and path.stat().st_size > 0:
        with open(path, "a", encoding="utf-8") as file:
            file.write("\n" + text)
        return
    temporary = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)
    finally:
        temporary.unlink(missing_ok=True)
