"""The test vectors of tests/games/veletas/vectors: perft counts at every depth
given, and claim resolution."""

from __future__ import annotations

from types import ModuleType

import pytest

from .vector_files import (
    CLAIMS_FILE,
    PERFT_FILE,
    ClaimVector,
    PerftVector,
    claim_vectors,
    perft_vectors,
)

PERFT = perft_vectors()
CLAIMS = claim_vectors()


def _count_lines(path, keyword: str) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.startswith(keyword + " "))


def test_every_vector_is_read() -> None:
    assert len(PERFT) == _count_lines(PERFT_FILE, "id") > 0
    assert sum(len(v.counts) for v in PERFT) == _count_lines(PERFT_FILE, "perft")
    assert len(CLAIMS) == _count_lines(CLAIMS_FILE, "id") > 0


@pytest.mark.parametrize("vector", PERFT, ids=[v.id for v in PERFT])
def test_perft(backend: ModuleType, vector: PerftVector) -> None:
    board = backend.Board(vector.fen, **vector.options)
    assert board.fen() == vector.fen
    for depth, expected in vector.counts:
        nodes = board.perft(depth)
        if nodes != expected:
            divide = board.perft_divide(depth)
            report = "\n".join(f"  {move}: {count}" for move, count in divide.items())
            print(f"perft({depth}) of {vector.fen!r} by move:\n{report}")
            pytest.fail(f"{vector.id}: perft({depth}) = {nodes}, expected {expected}")
    assert board.fen() == vector.fen, "perft must leave the position as it found it"


@pytest.mark.parametrize("vector", CLAIMS, ids=[v.id for v in CLAIMS])
def test_claims(backend: ModuleType, vector: ClaimVector) -> None:
    board = backend.Board(vector.fen, **vector.options)
    move = backend.Move.parse(vector.move)
    assert move in board.legal_moves
    board.push(move)
    assert board.fen() == vector.after
    claims_before = backend.Board(vector.fen, **vector.options).claims
    assert sum(board.claims) > sum(claims_before), "each vector move traps a shooter"
    assert board.pop() == move
    assert board.fen() == vector.fen
