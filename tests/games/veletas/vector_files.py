"""Readers for the test vectors in ``tests/games/veletas/vectors`` (format:
``tests/games/veletas/vectors/README.md``)."""

from __future__ import annotations

import dataclasses
import gzip
from pathlib import Path

from vector_blocks import read_blocks, single

VECTORS = Path(__file__).parent / "vectors"
PERFT_FILE = VECTORS / "perft.txt"
CLAIMS_FILE = VECTORS / "claims.txt"
CLAIMED_PERFT_FILE = VECTORS / "perft_claimed_shooters_block.txt"
"""Perft under ``claimed_shooters_block``, from the reference engine."""
CLAIMED_CLAIMS_FILE = VECTORS / "claims_claimed_shooters_block.txt"
"""Claims under ``claimed_shooters_block``, from the reference engine."""
BOARDSPACE_FILE = VECTORS / "boardspace_veletas_rev104.txt.gz"

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
    claimed_shooters_block: bool = False

    @property
    def options(self) -> dict[str, object]:
        """Keyword arguments of ``Board`` for the rule options."""
        return _options(self.setup_rule, self.shooters_block, self.claimed_shooters_block)


@dataclasses.dataclass(frozen=True)
class ClaimVector:
    """A move that traps at least one shooter, with the position after it."""

    id: str
    fen: str
    setup_rule: str
    shooters_block: bool
    move: str
    after: str
    claimed_shooters_block: bool = False

    @property
    def options(self) -> dict[str, object]:
        """Keyword arguments of ``Board`` for the rule options."""
        return _options(self.setup_rule, self.shooters_block, self.claimed_shooters_block)


def _options(setup_rule: str, shooters_block: bool, claimed: bool) -> dict[str, object]:
    options: dict[str, object] = {"setup_rule": setup_rule, "shooters_block": shooters_block}
    if claimed:
        options["claimed_shooters_block"] = True
    return options


def _rules(block: dict[str, list[str]]) -> tuple[str, bool, bool]:
    """The setup rule, ``shooters_block`` and ``claimed_shooters_block`` of
    a ``rules`` line: ``<setup rule> <lines> [claimed_shooters_block]``."""
    setup_rule, lines, *extra = single(block, "rules").split(" ")
    if extra not in ([], ["claimed_shooters_block"]):
        raise ValueError(f"unknown rule options {extra!r}")
    return setup_rule, _LINE_RULES[lines], bool(extra)


def perft_vectors(path: Path = PERFT_FILE) -> list[PerftVector]:
    """Every block of ``path`` (by default ``perft.txt``)."""
    vectors = []
    for block in read_blocks(path):
        setup_rule, shooters_block, claimed = _rules(block)
        counts = tuple(
            (int(depth), int(nodes))
            for depth, nodes in (line.split(" ") for line in block["perft"])
        )
        vectors.append(
            PerftVector(
                single(block, "id"),
                single(block, "fen"),
                setup_rule,
                shooters_block,
                counts,
                claimed,
            )
        )
    return vectors


def claim_vectors(path: Path = CLAIMS_FILE) -> list[ClaimVector]:
    """Every block of ``path`` (by default ``claims.txt``)."""
    vectors = []
    for block in read_blocks(path):
        setup_rule, shooters_block, claimed = _rules(block)
        vectors.append(
            ClaimVector(
                single(block, "id"),
                single(block, "fen"),
                setup_rule,
                shooters_block,
                single(block, "move"),
                single(block, "after"),
                claimed,
            )
        )
    return vectors


@dataclasses.dataclass(frozen=True)
class Decision:
    """A decision of a Boardspace game: the position before it, the number
    of whole moves Boardspace allowed there, and the move played."""

    fen: str
    legal: int
    move: str


@dataclasses.dataclass(frozen=True)
class BoardspaceGame:
    """A game played by Boardspace's engine (rules revision 104)."""

    record: int
    """The game's place in the file, from 0."""
    name: str
    """Its ``G`` line: game index, board and mode."""
    decisions: tuple[Decision, ...]
    winner: str
    """``b`` or ``w``."""
    claims: tuple[int, int]
    final: str
    """The final position string, with the phase ``over``."""


def boardspace_games() -> list[BoardspaceGame]:
    """Every game of ``boardspace_veletas_rev104.txt.gz``: ``G``, ``D`` and
    ``E`` lines (README.md)."""
    games: list[BoardspaceGame] = []
    name, decisions = "", list[Decision]()
    with gzip.open(BOARDSPACE_FILE, "rt") as lines:
        for line in lines:
            kind, *fields = line.split()
            if kind == "G":
                name, decisions = " ".join(fields), []
            elif kind == "D":
                board, turn, phase, shooters, legal, _hash, move = fields
                decisions.append(Decision(f"{board} {turn} {phase} {shooters}", int(legal), move))
            elif kind == "E":
                winner, black, white, *final = fields
                games.append(
                    BoardspaceGame(
                        len(games),
                        name,
                        tuple(decisions),
                        winner,
                        (int(black), int(white)),
                        " ".join(final),
                    )
                )
    return games
