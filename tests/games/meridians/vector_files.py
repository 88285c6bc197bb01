"""Readers for the Meridians test vectors in ``tests/games/meridians/vectors`` (format:
``tests/games/meridians/vectors/README.md``)."""

from __future__ import annotations

import dataclasses
import gzip
import json
from pathlib import Path

from vector_blocks import read_blocks, single

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
                single(block, "id"),
                single(block, "fen"),
                _PIE[single(block, "rules")],
                counts,
            )
        )
    return vectors


def removal_vectors() -> list[RemovalVector]:
    """Every block of ``meridians_removals.txt``."""
    return [
        RemovalVector(
            single(block, "id"),
            single(block, "fen"),
            _PIE[single(block, "rules")],
            single(block, "move"),
            single(block, "after"),
            tuple(single(block, "removed").split()),
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
