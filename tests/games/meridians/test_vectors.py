"""The Meridians vectors: perft at every depth given, removals, and Ludii's games."""

from __future__ import annotations

from types import ModuleType

import pytest

from .vector_files import (
    LUDII_FILE,
    PERFT_FILE,
    REMOVALS_FILE,
    LudiiGame,
    PerftVector,
    RemovalVector,
    ludii_games,
    perft_vectors,
    removal_vectors,
)

PERFT = perft_vectors()
REMOVALS = removal_vectors()
GAMES = ludii_games()


def _count_lines(text: str, keyword: str) -> int:
    return sum(1 for line in text.splitlines() if line.startswith(keyword + " "))


def test_every_vector_is_read() -> None:
    perft_text = PERFT_FILE.read_text()
    assert len(PERFT) == _count_lines(perft_text, "id") == 231
    assert sum(len(v.counts) for v in PERFT) == _count_lines(perft_text, "perft")
    assert len(REMOVALS) == _count_lines(REMOVALS_FILE.read_text(), "id") == 116
    assert len(GAMES) == 200
    assert LUDII_FILE.stat().st_size > 0


@pytest.mark.parametrize("vector", PERFT, ids=[v.id for v in PERFT])
def test_perft(engine: ModuleType, vector: PerftVector) -> None:
    board = engine.Board(vector.fen, pie=vector.pie)
    assert board.fen() == vector.fen
    for depth, expected in vector.counts:
        nodes = board.perft(depth)
        if nodes != expected:
            divide = board.perft_divide(depth)
            report = "\n".join(f"  {move}: {count}" for move, count in divide.items())
            print(f"perft({depth}) of {vector.fen!r} by move:\n{report}")
            pytest.fail(f"{vector.id}: perft({depth}) = {nodes}, expected {expected}")
    assert board.fen() == vector.fen, "perft must leave the position as it found it"


@pytest.mark.parametrize("vector", REMOVALS, ids=[v.id for v in REMOVALS])
def test_removal(engine: ModuleType, vector: RemovalVector) -> None:
    board = engine.Board(vector.fen, pie=vector.pie)
    move = engine.Move.parse(vector.move)
    assert move in board.legal_moves
    board.push(move)
    assert board.fen() == vector.after
    assert board.last_removed == vector.removed
    assert board.pop() == move
    assert board.fen() == vector.fen
    assert board.last_removed == ()


def _replay(engine: ModuleType, game: LudiiGame) -> None:
    board = engine.Board(size=game.size)
    for ply, record in enumerate(game.moves):
        where = f"game {game.index}, ply {ply} ({record.move}) in {board.fen()!r}"
        assert not board.is_game_over(), where
        assert len(board.legal_moves) == record.legal, where
        board.push_str(record.move)
        assert board.last_removed == record.removed, where
    assert board.is_game_over(), f"game {game.index} goes on in {board.fen()!r}"
    assert str(board.winner)[0] == game.winner
    assert board.outcome() == (board.winner, board.stones)
    assert len(board.legal_moves) == 0


@pytest.mark.parametrize("game", GAMES, ids=[f"game{game.index:03}" for game in GAMES])
def test_ludii_game(engine: ModuleType, game: LudiiGame) -> None:
    _replay(engine, game)
