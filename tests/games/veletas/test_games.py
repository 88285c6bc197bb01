"""Whole games: uniformly random playouts, and Hypothesis-driven games that
check the engine's invariants at every ply."""

from __future__ import annotations

import random
from types import ModuleType

import pytest
import veletas.reference
from hypothesis import given
from hypothesis import strategies as st

RULE_OPTIONS = [
    pytest.param("perimeter", False, id="perimeter+pass"),
    pytest.param("spacing", False, id="spacing+pass"),
    pytest.param("perimeter", True, id="perimeter+block"),
    pytest.param("spacing", True, id="spacing+block"),
]
VARIANTS = ["standard", "medium", "small"]


def play_random_game(
    board_class: type, variant: str, setup_rule: str, shooters_block: bool, seed: int
) -> object:
    """A game of uniformly random legal moves; returns the finished board."""
    rng = random.Random(seed)
    board = board_class(variant=variant, setup_rule=setup_rule, shooters_block=shooters_block)
    plies = 0
    limit = board.size * board.size + 1  # each ply adds a piece, except the swap
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
        plies += 1
        assert plies <= limit
    return board


def check_finished(board: object) -> None:
    """Exactly one winner, holding K // 2 + 1 claims (more if its last shot
    claimed several at once), and a loser with fewer."""
    needed = board.rules.claims_to_win  # type: ignore[attr-defined]
    outcome = board.outcome()  # type: ignore[attr-defined]
    assert outcome is not None
    winner = outcome.winner
    assert winner is not None
    assert winner == board.winner
    assert outcome.claims == board.claims  # type: ignore[attr-defined]
    assert outcome.claims[winner] >= needed > outcome.claims[winner.other]
    assert not board.legal_moves  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_random_games(
    backend: ModuleType, variant: str, setup_rule: str, shooters_block: bool
) -> None:
    for seed in range(4):
        check_finished(play_random_game(backend.Board, variant, setup_rule, shooters_block, seed))


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_many_random_games(variant: str, setup_rule: str, shooters_block: bool) -> None:
    for seed in range(1000):
        board = play_random_game(veletas.reference.Board, variant, setup_rule, shooters_block, seed)
        check_finished(board)


def check_position(backend: ModuleType, board: object, options: dict) -> list:
    """The invariants of one position; returns its legal moves."""
    view = board.legal_moves  # type: ignore[attr-defined]
    moves = list(view)
    assert len(view) == view.count() == len(moves) == board.perft(1)  # type: ignore[attr-defined]
    assert moves == sorted(moves)
    assert len(set(moves)) == len(moves)
    assert bool(view) == bool(moves)
    assert board.is_game_over() == (not moves or board.winner is not None)  # type: ignore[attr-defined]
    # A board read back from its position string is the same board, with the
    # same moves: the incremental state matches a fresh reading.
    fresh = backend.Board(board.fen(), **options)  # type: ignore[attr-defined]
    assert fresh == board
    assert list(fresh.legal_moves) == moves
    for move in moves[:: max(1, len(moves) // 40)]:  # a spread sample: all would be slow
        assert backend.Move.parse(str(move)) == move
    return moves


@pytest.mark.parametrize("variant", ["small", "medium"])
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
@given(data=st.data())
def test_invariants_along_a_game(
    backend: ModuleType, variant: str, setup_rule: str, shooters_block: bool, data: st.DataObject
) -> None:
    options = {"setup_rule": setup_rule, "shooters_block": shooters_block}
    board = backend.Board(variant=variant, **options)
    history = []
    while True:
        moves = check_position(backend, board, options)
        if not moves:
            break
        # is_legal agrees with the list for arbitrary moves, legal or not.
        probe = data.draw(
            st.one_of(
                st.builds(backend.Move, st.integers(0, 99)),
                st.builds(backend.Move.shooter, st.integers(0, 99)),
                st.builds(backend.Move, *[st.integers(0, 99)] * 3),
                st.just(backend.Move.swap()),
            ),
            label="probe",
        )
        assert board.is_legal(probe) == (probe in set(moves))
        move = moves[data.draw(st.integers(0, len(moves) - 1), label="move")]
        before = (board.fen(), hash(board), board.move_stack)
        board.push(move)
        after = board.fen()
        assert board.pop() == move
        assert (board.fen(), hash(board), board.move_stack) == before
        board.push(move)
        assert board.fen() == after
        history.append(before[0])
    check_finished(board)
    # Taking everything back returns to the start, through the same positions.
    for fen in reversed(history):
        board.pop()
        assert board.fen() == fen
    assert board == backend.Board(variant=variant, **options)
