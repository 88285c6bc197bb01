"""The folder of a stopped run's parts (``FILE.partial``): which of its files a
run wrote, and their removal, which never touches another file.

A run writes ``run.json`` (its manifest), its parts
``part-<first game>-<games>.<parquet|txt|npz>``, while writing one
``.<name>.<pid>.tmp``, and while merging them into the finished file
``.merged.<pid>.tmp``, renamed onto that file when whole. Anything else in
the folder is someone else's: a run refuses to go on (naming it) rather
than delete it. A run holds the folder locked (``flock``) while it writes,
so that a second run of the same file is refused rather than mixed in.
"""

from __future__ import annotations

import fcntl
import os
import re
from pathlib import Path

from veletas.errors import DatasetError

__all__ = [
    "MANIFEST",
    "hold",
    "is_temporary",
    "merged_temporary",
    "part_range",
    "refuse_foreign",
    "remove_run_folder",
]

MANIFEST = "run.json"
_PART = re.compile(r"part-(\d{20})-(\d{20})\.(?:parquet|txt|npz)")
_TEMPORARY = re.compile(r"\.(?:run\.json|merged|part-\d{20}-\d{20}\.(?:parquet|txt|npz))\.\d+\.tmp")


def part_range(entry: Path) -> tuple[int, int] | None:
    """The first game and the count of a part's file name, or None."""
    match = _PART.fullmatch(entry.name)
    return None if match is None else (int(match[1]), int(match[2]))


def is_temporary(entry: Path) -> bool:
    """Whether ``entry`` is a file that a run was writing when it stopped."""
    return _TEMPORARY.fullmatch(entry.name) is not None and entry.is_file()


def merged_temporary(folder: Path) -> Path:
    """Where this process merges the parts of ``folder`` before the rename
    onto the finished file (in the folder, so that a stopped merge leaves
    nothing outside it)."""
    return folder / f".merged.{os.getpid()}.tmp"


def hold(folder: Path) -> int:
    """Lock ``folder`` for this run: an exclusive ``flock`` on the folder,
    held until the returned descriptor is closed (or the process ends).

    :raises DatasetError: if another run holds it, naming the folder.
    """
    descriptor = os.open(folder, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(descriptor)
        raise DatasetError(
            f"{folder} is held by another run of veletas that is still writing it: let it "
            "finish (or stop it), then run the command again"
        ) from None
    return descriptor


def _is_own(entry: Path) -> bool:
    if not entry.is_file() or entry.is_symlink():
        return False
    return entry.name == MANIFEST or part_range(entry) is not None or is_temporary(entry)


def refuse_foreign(folder: Path) -> None:
    """:raises DatasetError: if ``folder`` holds a file no run writes, naming it."""
    foreign = sorted(entry for entry in folder.iterdir() if not _is_own(entry))
    if foreign:
        more = f" (and {len(foreign) - 1} more)" if len(foreign) > 1 else ""
        raise DatasetError(
            f"{folder} holds {foreign[0]}{more}, which no run of veletas writes: move it "
            "away (nothing there was changed), then run the command again"
        )


def remove_run_folder(folder: Path) -> None:
    """Remove a run's folder of parts, file by file: the last games' parts
    first and the manifest last, so that a removal cut short leaves a run
    that ``--resume`` completes (its manifest and its first parts).

    :raises DatasetError: if it holds a file no run writes (then nothing is removed).
    """
    refuse_foreign(folder)
    entries = sorted(folder.iterdir(), key=lambda entry: entry.name, reverse=True)
    for entry in sorted(entries, key=lambda entry: entry.name == MANIFEST):
        entry.unlink()
    folder.rmdir()
