"""The map of the house (docs/architecture.md) names every source file of
``rust/src``, ``rust/benches`` and ``python/veletas``, each in its folder,
and names no file that is not there."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "docs" / "architecture.md"
SOURCES = {
    "rust/src": ("*.rs",),
    "rust/benches": ("*.rs",),
    "python/veletas": ("*.py", "*.pyi"),
}

# A name at the head of a line of the map: a file or a folder, relative to
# the folder the line sits in (by its indent).
NAME = re.compile(r"[\w.]+(/[\w.]+)*/?")


def map_block(text: str) -> list[str]:
    """The lines of the map's tree: the first fenced block of the page."""
    return text.split("```", 2)[1].splitlines()[1:]


def named_files(lines: list[str]) -> set[str]:
    """The files the tree names, as paths from the repository's root: the
    names that start a line, before its description, each in the folder of
    the nearest line above that is indented less and names a folder."""
    folders: list[tuple[int, str]] = []
    named = set()
    for line in lines:
        if not line.strip():
            continue
        indent = len(line) - len(line.lstrip())
        heads = []
        for token in line.split():
            if not (NAME.fullmatch(token) and (token.endswith("/") or "." in token)):
                break
            heads.append(token)
        if not heads:
            continue
        while folders and folders[-1][0] >= indent:
            folders.pop()
        parent = folders[-1][1] if folders else ""
        for head in heads:
            if head.endswith("/"):
                folders.append((indent, parent + head))
            else:
                named.add(parent + head)
    return named


def source_files() -> set[str]:
    return {
        path.relative_to(ROOT).as_posix()
        for folder, patterns in SOURCES.items()
        for pattern in patterns
        for path in (ROOT / folder).rglob(pattern)
    }


def test_the_map_names_every_source_file_in_its_folder() -> None:
    named = named_files(map_block(MAP.read_text()))
    missing = sorted(source_files() - named)
    assert missing == [], f"docs/architecture.md does not name {missing}"


def test_the_map_names_no_file_that_is_not_there() -> None:
    named = named_files(map_block(MAP.read_text()))
    stale = sorted(
        path for path in named if path.startswith(tuple(SOURCES)) and not (ROOT / path).exists()
    )
    assert stale == [], f"docs/architecture.md names {stale}, which are not there"


def test_the_reading_of_the_map_follows_the_indent() -> None:
    lines = [
        "rust/src/",
        "  lib.rs game.rs     the crate; the traits",
        "  veletas/           a room:",
        "    mod.rs           its doors",
        "                     board.rs, in a description, is no name",
        "    playout/         runners",
        "      micro.rs",
        "  bits.rs            back at the top",
        "python/veletas/",
        "  games/__init__.py  the registry",
    ]
    assert named_files(lines) == {
        "rust/src/lib.rs",
        "rust/src/game.rs",
        "rust/src/veletas/mod.rs",
        "rust/src/veletas/playout/micro.rs",
        "rust/src/bits.rs",
        "python/veletas/games/__init__.py",
    }
