"""Readers for the test vectors in ``tests/games/veletas/vectors`` (format:
``tests/games/veletas/vectors/README.md``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

from vector_blocks import read_blocks, single

VECTORS = Path(__file__).parent / "vectors"
PERFT_FILE = VECTORS / "perft.txt"
CLAIMS_FILE = VECTORS / "claims.txt"

_LINE_RULES = {"shooters_pass": False, "shooters_block": True}


@dataclasses.dataclass(frozen=True)
class PerftVector:
    """A position with its rule options and node counts by depth."""

    id: str
    fen: str
    setup_rule: str
    shooters_block: bool
    counts: tuple[tuple[int, int], ...]
    """(depth, nodes) pairs, in file order."""

    @property
    def options(self) -> dict[str, object]:
        """Keyword arguments of ``Board`` for the rule options."""
        return {"setup_rule": self.setup_rule, "shooters_block": self.shooters_block}


@dataclasses.dataclass(frozen=True)
class ClaimVector:
    """A move that traps at least one shooter, with the position after it."""

    id: str
    fen: str
    setup_rule: str
    shooters_block: bool
    move: str
    after: str

    @property
    def options(self) -> dict[str, object]:
        """Keyword arguments of ``Board`` for the rule options."""
        return {"setup_rule": self.setup_rule, "shooters_block": self.shooters_block}


def _rules(block: dict[str, list[str]]) -> tuple[str, bool]:
    setup_rule, lines = single(block, "rules").split(" ")
    return setup_rule, _LINE_RULES[lines]


def perft_vectors() -> list[PerftVector]:
    """Every block of ``perft.txt``."""
    vectors = []
    for block in read_blocks(PERFT_FILE):
        setup_rule, shooters_block = _rules(block)
        counts = tuple(
            (int(depth), int(nodes))
            for depth, nodes in (line.split(" ") for line in block["perft"])
        )
        vectors.append(
            PerftVector(
                single(block, "id"), single(block, "fen"), setup_rule, shooters_block, counts
            )
        )
    return vectors


def claim_vectors() -> list[ClaimVector]:
    """Every block of ``claims.txt``."""
    vectors = []
    for block in read_blocks(CLAIMS_FILE):
        setup_rule, shooters_block = _rules(block)
        vectors.append(
            ClaimVector(
                single(block, "id"),
                single(block, "fen"),
                setup_rule,
                shooters_block,
                single(block, "move"),
                single(block, "after"),
            )
        )
    return vectors
