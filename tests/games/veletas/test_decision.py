"""The pure-Python ``DecisionState``: turns as micro-decisions (docs/playouts.md)."""

from __future__ import annotations

import copy

import numpy as np
import pytest
import veletas
from veletas import Color, IllegalMoveError, Phase
from veletas.games.veletas.reference.decision import action_to_square, square_to_action
from veletas.reference import Board, DecisionState, Move

PLAY = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"


def positions() -> list[Board]:
    """Positions of every phase from random games, under each rule option."""
    found = []
    for setup_rule, shooters_block, seed in [
        ("perimeter", False, 0),
        ("spacing", True, 1),
        ("perimeter", True, 2),
    ]:
        games = veletas.games.veletas.reference.playouts(
            2,
            size=5,
            shooters=3,
            setup_rule=setup_rule,
            shooters_block=shooters_block,
            seed=seed,
            record=True,
        )
        for i in range(len(games)):
            board = Board(games.start, setup_rule=setup_rule, shooters_block=shooters_block)
            for k, move in enumerate(games.moves_of(i)):
                if k % 3 == 0 or board.phase is not Phase.PLAY:
                    found.append(board.copy())
                board.push(move)
    return found


def completed_moves(state: DecisionState) -> list[Move]:
    """Every move reachable by action sequences from ``state``, asserting
    that every offered action leads to at least one."""
    moves = []
    for action in state.legal_actions():
        child = state.copy()
        move = child.apply(action)
        below = [move] if move is not None else completed_moves(child)
        assert below, f"action {action} is a dead end in {state!r}"
        moves.extend(below)
    return moves


def test_turns_are_exactly_the_legal_moves() -> None:
    boards = positions()
    assert {board.phase for board in boards} == {Phase.SETUP, Phase.PIE, Phase.PLAY}
    for board in boards:
        state = DecisionState(board)
        moves = completed_moves(state)
        assert sorted(moves) == sorted(board.legal_moves), board.fen()
        assert len(moves) == len(set(moves)), "each move has one action sequence"
        for move in moves:
            turn = state.copy()
            actions = turn.actions_of(move)
            *first, last = actions
            assert all(turn.apply(action) is None for action in first)
            assert turn.apply(last) == move
            after = board.copy()
            after.push(move)
            assert turn.board == after
            assert turn.stage == "start"


def test_ids_ascend_and_pass_and_swap_come_last() -> None:
    state = DecisionState(Board(PLAY))
    assert (state.size, state.num_actions, state.pass_action, state.swap_action) == (7, 51, 49, 50)
    actions = state.legal_actions()
    assert actions == sorted(actions)
    assert actions[-1] == state.pass_action
    assert [action_to_square(a, 7) for a in actions[:-1]] == board_shooters(PLAY)
    mask = state.action_mask()
    assert mask.dtype == np.int8
    assert mask.shape == (51,)
    assert np.flatnonzero(mask).tolist() == actions
    pie = DecisionState(Board("7/7/7/7/2s4/7/x6 w pie 3"))
    assert pie.legal_actions()[-1] == pie.swap_action
    assert pie.pass_action not in pie.legal_actions()


def board_shooters(fen: str) -> list[int]:
    return Board(fen).pieces(veletas.Piece.SHOOTER)


def test_square_ids() -> None:
    for size in range(5, 11):
        squares = [rank * 10 + file for rank in range(size) for file in range(size)]
        ids = [square_to_action(sq, size) for sq in squares]
        assert ids == list(range(size * size))
        assert [action_to_square(a, size) for a in ids] == squares


def test_stages_and_partial_turns() -> None:
    state = DecisionState(Board(PLAY))
    assert (state.stage, state.origin, state.destination) == ("start", None, None)
    state.apply(state.pass_action)
    assert (state.stage, state.origin) == ("target", None)
    union = sorted({sq for s in board_shooters(PLAY) for sq in Board(PLAY).reach(s)})
    assert [action_to_square(a, 7) for a in state.legal_actions()] == union
    assert state.turn is Color.BLACK
    assert state.seat_to_act == 0
    state = DecisionState(Board(PLAY))
    c2, c3 = veletas.C2, veletas.C3
    state.apply(square_to_action(c2, 7))
    assert (state.stage, state.origin) == ("destination", c2)
    assert [action_to_square(a, 7) for a in state.legal_actions()] == Board(PLAY).reach(c2)
    state.apply(square_to_action(c3, 7))
    assert (state.stage, state.origin, state.destination) == ("target", c2, c3)
    assert square_to_action(c2, 7) in state.legal_actions(), "it can shoot back"


def test_illegal_actions_change_nothing() -> None:
    state = DecisionState(Board(PLAY))
    state.apply(state.legal_actions()[0])
    before = state.copy()
    for action in [state.pass_action, state.swap_action, 999, -1]:
        with pytest.raises(IllegalMoveError, match=f"illegal action {action} in "):
            state.apply(action)
        assert state == before
        assert state.board == before.board
        assert state.stage == before.stage
    with pytest.raises(TypeError):
        state.apply("3")  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="illegal move 'a1-a2/a3' in "):
        state.actions_of(Move.parse("a1-a2/a3"))


@pytest.mark.native
def test_swap_and_seats() -> None:
    board = Board("7/7/7/7/2s4/7/x6 w pie 3")
    state = DecisionState(board)
    assert (state.swapped, state.seat_to_act) == (False, 1)
    assert state.apply(state.swap_action) == Move.swap()
    assert (state.swapped, state.seat_to_act, state.turn) == (True, 0, Color.WHITE)
    # From a board whose stack holds the swap, or told so.
    board.push(Move.swap())
    assert DecisionState(board).swapped
    assert not DecisionState(board, swapped=False).swapped
    native = veletas._veletas.Board("7/7/7/7/2s4/7/x6 w pie 3")
    native.push_str("swap")
    from_native = DecisionState(native)
    assert from_native.swapped
    assert isinstance(from_native.board, Board)
    assert from_native.board.fen() == native.fen()
    assert from_native.actions_of(native.legal_moves.__iter__().__next__()) == [
        square_to_action(veletas.B2, 7)
    ]
    with pytest.raises(TypeError, match="expected a Board"):
        DecisionState("7/7/7/7/7/7/7 b setup 3")  # type: ignore[arg-type]


def test_end_of_the_game() -> None:
    won = DecisionState(Board("x1xxxoo/2xs1ox/2ooxxX/1xxooox/xxoXxo1/oooxoxo/xxox1oo w play 3"))
    assert won.is_terminal()
    assert won.winner is Color.BLACK
    assert won.legal_actions() == []
    stuck = DecisionState(Board("xxxxxxx/xoxoxox/xxxxxxx/oxoxoxo/xxsxxxx/oxoxoxo/xxxXxxO w play 3"))
    assert stuck.is_terminal()
    assert stuck.winner is None
    assert not DecisionState(Board(PLAY)).is_terminal()


def test_copies_equality_and_hashing() -> None:
    state = DecisionState(Board(PLAY))
    twin = copy.deepcopy(state)
    assert twin == state
    assert hash(twin) == hash(state)
    assert twin is not state
    twin.apply(twin.pass_action)
    assert twin != state
    assert state.stage == "start"
    other = copy.copy(state)
    other.apply(other.legal_actions()[0])
    assert state.legal_actions()[-1] == state.pass_action
    assert len({state, DecisionState(Board(PLAY)), twin}) == 2
    assert "stage='start'" in repr(state)
    board = state.board
    board.push(Move.parse("c1"))
    assert state.board.fen() == PLAY, "the board property is a copy"
