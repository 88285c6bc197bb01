"""The test vectors of tests/games/veletas/vectors: perft counts at every depth
given, and claim resolution."""

from __future__ import annotations

from types import ModuleType

import pytest

from .vector_files import (
    CLAIMED_CLAIMS_FILE,
    CLAIMED_PERFT_FILE,
    CLAIMS_FILE,
    PERFT_FILE,
    ClaimVector,
    PerftVector,
    claim_vectors,
    perft_vectors,
)

CLAIMED_PERFT = perft_vectors(CLAIMED_PERFT_FILE)
CLAIMED_CLAIMS = claim_vectors(CLAIMED_CLAIMS_FILE)
PERFT = perft_vectors() + CLAIMED_PERFT
CLAIMS = claim_vectors() + CLAIMED_CLAIMS


def _count_lines(path, keyword: str) -> int:
    return sum(1 for line in path.read_text().splitlines() if line.startswith(keyword + " "))


def test_every_vector_is_read() -> None:
    for path, perft in ((PERFT_FILE, perft_vectors()), (CLAIMED_PERFT_FILE, CLAIMED_PERFT)):
        assert len(perft) == _count_lines(path, "id") > 0
        assert sum(len(v.counts) for v in perft) == _count_lines(path, "perft")
    for path, claims in ((CLAIMS_FILE, claim_vectors()), (CLAIMED_CLAIMS_FILE, CLAIMED_CLAIMS)):
        assert len(claims) == _count_lines(path, "id") > 0
    assert all(v.claimed_shooters_block for v in CLAIMED_PERFT + CLAIMED_CLAIMS)


def test_the_option_vectors_need_the_option(backend: ModuleType) -> None:
    # Every claim vector claims otherwise with the option off (or its move is
    # not legal then); of the perft positions (some are of setup and the pie,
    # where the option changes nothing), a quarter or more count otherwise.
    for vector in CLAIMED_CLAIMS:
        board = backend.Board(vector.fen, setup_rule=vector.setup_rule)
        move = backend.Move.parse(vector.move)
        if move in board.legal_moves:
            board.push(move)
            assert board.fen() != vector.after, vector.id
    differing = [
        vector.id
        for vector in CLAIMED_PERFT
        if any(
            backend.Board(vector.fen, setup_rule=vector.setup_rule).perft(depth) != nodes
            for depth, nodes in vector.counts
        )
    ]
    assert 4 * len(differing) >= len(CLAIMED_PERFT), differing


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
