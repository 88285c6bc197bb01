"""Readers for the Meridians test vectors in ``tests/games/meridians/vectors`` (format:
``tests/games/meridians/vectors/README.md``)."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

VECTORS = Path(__file__).parent / "vectors"
PERFT_FILE = VECTORS / "meridians_perft.txt"
REMOVALS_FILE = VECTORS / "meridians_removals.txt"
LUDII_FILE = VECTORS / "meridians_ludii_6-7.jsonl.gz"

_PIE = {"pie": True, "nopie": False}


@dataclasses.dataclass(frozen=True)
class PerftVector:
    """A position with its pie option and node counts by depth."""

    id: str
    fen: str
    pie: bool
    counts: tuple[tuple[int, int], ...]
    """(depth, nodes) pairs, in file order."""


@dataclasses.dataclass(frozen=True)
class RemovalVector:
    """A move that removes at least one dead group, with the position after it."""

    id: str
    fen: str
    pie: bool
    move: str
    after: str
    removed: tuple[str, ...]
    """The names of the removed points, sorted."""


@dataclasses.dataclass(frozen=True)
class LudiiMove:
    """One decision of a Ludii game."""

    move: str
    legal: int
    """The number of legal moves before the move."""
    removed: tuple[str, ...]
    """The points the move removed, sorted."""


@dataclasses.dataclass(frozen=True)
class LudiiGame:
    """A random game played by Ludii, to its end."""

    index: int
    """The line of the game in the file, from 0."""
    size: str
    winner: str
    """``"l"`` or ``"d"``."""
    moves: tuple[LudiiMove, ...]


def read_blocks(path: Path) -> list[dict[str, list[str]]]:
    """The blank-line separated blocks of ``path``: each maps a keyword to the
    rest of its lines, in order. ``#`` lines are comments."""
    blocks: list[dict[str, list[str]]] = []
    block: dict[str, list[str]] = {}
    for line in [*path.read_text().splitlines(), ""]:
        line = line.strip()
        if line.startswith("#"):
            continue
        if not line:
            if block:
                blocks.append(block)
                block = {}
            continue
        keyword, _, rest = line.partition(" ")
        block.setdefault(keyword, []).append(rest)
    return blocks


def _single(block: dict[str, list[str]], keyword: str) -> str:
    values = block.get(keyword, [])
    if len(values) != 1:
        raise ValueError(f"expected one {keyword!r} line in block {block!r}")
    return values[0]


def perft_vectors() -> list[PerftVector]:
    """Every block of ``meridians_perft.txt``."""
    vectors = []
    for block in read_blocks(PERFT_FILE):
        counts = tuple(
            (int(depth), int(nodes))
            for depth, nodes in (line.split(" ") for line in block["perft"])
        )
        vectors.append(
            PerftVector(
                _single(block, "id"),
                _single(block, "fen"),
                _PIE[_single(block, "rules")],
                counts,
            )
        )
    return vectors


def removal_vectors() -> list[RemovalVector]:
    """Every block of ``meridians_removals.txt``."""
    return [
        RemovalVector(
            _single(block, "id"),
            _single(block, "fen"),
            _PIE[_single(block, "rules")],
            _single(block, "move"),
            _single(block, "after"),
            tuple(_single(block, "removed").split()),
        )
        for block in read_blocks(REMOVALS_FILE)
    ]


def ludii_games() -> list[LudiiGame]:
    """Every game of ``meridians_ludii_6-7.jsonl.gz``."""
    games = []
    with gzip.open(LUDII_FILE, "rt", encoding="utf-8") as lines:
        for index, line in enumerate(lines):
            record = json.loads(line)
            moves = tuple(
                LudiiMove(move["move"], move["legal"], tuple(move["removed"]))
                for move in record["moves"]
            )
            games.append(LudiiGame(index, record["size"], record["winner"], moves))
    return games
