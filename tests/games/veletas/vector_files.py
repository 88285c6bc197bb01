"""Readers for the test vectors in ``tests/games/veletas/vectors`` (format:
``tests/games/veletas/vectors/README.md``)."""

from __future__ import annotations

import dataclasses
from pathlib import Path

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


def _rules(block: dict[str, list[str]]) -> tuple[str, bool]:
    setup_rule, lines = _single(block, "rules").split(" ")
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
                _single(block, "id"), _single(block, "fen"), setup_rule, shooters_block, counts
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
                _single(block, "id"),
                _single(block, "fen"),
                setup_rule,
                shooters_block,
                _single(block, "move"),
                _single(block, "after"),
            )
        )
    return vectors
