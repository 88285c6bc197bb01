"""The action encoding and observation planes of Meridians: the pure-Python
reference (``veletas.games.meridians.encoding``) on boards of both engines,
held against the rules and against the native planes of the VectorEnv."""

from __future__ import annotations

import copy
import pickle
import random
from types import ModuleType, SimpleNamespace
from typing import Any

import numpy as np
import pytest
from veletas.errors import IllegalMoveError, InvalidRulesError
from veletas.games.meridians import encoding
from veletas.games.meridians.encoding import DecisionState, observation_for
from veletas.games.meridians.types import SIZES, Color, Phase, parse_point, point_name

Engine = ModuleType | SimpleNamespace
RULES = [(size, pie) for size in SIZES for pie in (False, True)]


def random_states(engine: Engine, size: str, pie: bool, seed: int) -> list[DecisionState]:
    """Every decision of a random game, the finished one last."""
    rng = random.Random(seed)
    state = DecisionState(engine.Board(size=size, pie=pie))
    states = [state.copy()]
    while not state.is_terminal():
        state.apply(rng.choice(state.legal_actions()))
        states.append(state.copy())
    return states


def test_ids_number_the_grid_then_swap_and_keep() -> None:
    for size, n in zip(SIZES, (10, 12, 14), strict=True):
        assert encoding.side(size) == n
        assert (encoding.swap_action(size), encoding.keep_action(size)) == (n * n, n * n + 1)
        for action in range(n * n):
            point = encoding.action_to_point(action, size)
            assert (point % 14, point // 14) == (action % n, action // n)
            assert encoding.point_to_action(point, size) == action
        with pytest.raises(ValueError, match="is not a point's id"):
            encoding.action_to_point(n * n, size)
        if n < 14:
            with pytest.raises(ValueError, match="is not on the"):
                encoding.point_to_action(parse_point("n1"), size)
    assert encoding.point_to_action(parse_point("f2"), "6-7") == 17
    with pytest.raises(InvalidRulesError, match="unknown size"):
        encoding.side("8-9")


@pytest.mark.parametrize(("size", "pie"), RULES)
def test_legal_actions_are_the_legal_moves_in_playout_order(
    engine: Engine, size: str, pie: bool
) -> None:
    for state in random_states(engine, size, pie, seed=len(size) + pie):
        board = state.board
        moves = list(board.legal_moves)
        ids = state.legal_actions()
        # The playouts list the moves by ascending point number, then swap,
        # then keep: the ids ascend in the same order.
        assert ids == sorted(ids)
        assert [state.move_of(a) for a in ids] == moves
        assert [state.action_of(m) for m in moves] == ids
        assert [encoding.action_to_string(state, a) for a in ids] == [str(m) for m in moves]
        mask = state.action_mask()
        assert mask.dtype == np.int8
        assert mask.shape == (state.num_actions,)
        assert np.flatnonzero(mask).tolist() == ids
        assert state.is_terminal() == board.is_game_over() == (not ids)
        if state.phase is Phase.PIE:
            assert ids == [state.swap_action, state.keep_action]


@pytest.mark.parametrize(("size", "pie"), RULES)
def test_planes_follow_the_definition(engine: Engine, size: str, pie: bool) -> None:
    n = encoding.side(size)
    b = int(size.split("-")[1])
    for state in random_states(engine, size, pie, seed=7)[::3]:
        board = state.board
        planes = state.observation()
        assert planes.shape == (len(encoding.OBSERVATION_PLANES), n, n)
        assert planes.dtype == np.float32
        own = board.turn
        for rank in range(n):
            for file in range(n):
                point = rank * 14 + file
                on_board = abs(file - rank) <= b - 1
                piece = board.piece_at(point) if on_board else None
                assert planes[0, rank, file] == (piece == own)
                assert planes[1, rank, file] == (piece == own.other)
                assert planes[2, rank, file] == on_board
        constants = planes[3:, 0, 0].tolist()
        assert (planes[3:] == np.array(constants)[:, None, None]).all()
        phase = board.phase
        assert constants == [
            phase is Phase.OPEN,
            phase is Phase.OPEN and board.stones[own] == 1,
            phase is Phase.PIE,
            phase is Phase.PLAY,
            own is Color.DARK,
        ]


def test_the_second_stone_plane_marks_the_turn_that_needs_a_path(engine: Engine) -> None:
    state = DecisionState(engine.Board(size="5-6"))
    second = encoding.OBSERVATION_PLANES.index("second_stone")
    marked = []
    for name in ("d3", "h8", "d6", "h5"):
        marked.append(bool(state.observation()[second].all()))
        state.apply(encoding.point_to_action(parse_point(name), "5-6"))
    assert marked == [False, False, True, True]
    assert state.phase is Phase.PLAY
    assert not state.observation()[second].any()


def test_observation_for_trades_the_stone_planes(engine: Engine) -> None:
    for state in random_states(engine, "5-6", False, seed=3)[:20]:
        acting = state.seat_to_act
        mine = observation_for(state, acting)
        theirs = observation_for(state, 1 - acting)
        np.testing.assert_array_equal(mine, state.observation())
        np.testing.assert_array_equal(theirs[[1, 0]], mine[:2])
        np.testing.assert_array_equal(theirs[2:], mine[2:])
    with pytest.raises(ValueError, match="seat 2 is not 0 or 1"):
        observation_for(state, 2)


def test_seats_follow_the_swap(engine: Engine) -> None:
    for choice, swapped in (("swap", True), ("keep", False)):
        state = DecisionState(engine.Board(size="5-6", pie=True))
        for name in ("d3", "h8"):  # the first player places Light, then Dark
            assert state.seat_to_act == 0
            state.apply(encoding.point_to_action(parse_point(name), "5-6"))
        assert (state.phase, state.turn, state.seat_to_act) == (Phase.PIE, Color.DARK, 1)
        action = state.swap_action if choice == "swap" else state.keep_action
        assert str(state.apply(action)) == choice
        assert state.swapped is swapped
        assert state.turn is Color.LIGHT
        assert state.seat_to_act == int(swapped)
        # A state read from the board alone finds the swap in its move stack.
        board = engine.Board(size="5-6", pie=True)
        for text in ("d3", "h8", choice):
            board.push_str(text)
        assert DecisionState(board) == state
        assert DecisionState(board, swapped=not swapped) != state


def test_illegal_actions_raise_and_change_nothing(engine: Engine) -> None:
    state = DecisionState(engine.Board(size="5-6"))
    state.apply(0)
    before = state.copy()
    for bad in (0, 9, 100, 101, 102, -1):
        with pytest.raises(IllegalMoveError, match=rf"illegal action {bad} at '.*': legal"):
            state.apply(bad)
        assert state == before
    with pytest.raises(TypeError):
        state.apply(1.0)  # type: ignore[arg-type]
    with pytest.raises(IllegalMoveError, match="illegal move 'a1'"):
        state.action_of(engine.Move.parse("a1"))
    state.apply(np.int64(1))
    assert state != before


def test_copies_pickles_and_equality(engine: Engine) -> None:
    states = random_states(engine, "6-7", True, seed=11)
    state = states[len(states) // 2]
    for twin in (
        state.copy(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
    ):
        assert twin == state
        assert hash(twin) == hash(state)
        assert twin.legal_actions() == state.legal_actions()
        twin.apply(twin.legal_actions()[0])
        assert twin != state
    board = state.board
    board.push(next(iter(board.legal_moves)))
    assert state.board != board, "the board property is a copy"
    assert "DecisionState" in repr(state)


def test_states_of_both_engines_agree() -> None:
    native = pytest.importorskip("veletas._veletas", reason="the extension is not built")
    from veletas.meridians import reference

    for size, pie in RULES:
        rng = random.Random(size + str(pie))
        ours = DecisionState(native.MeridiansBoard(size=size, pie=pie))
        theirs = DecisionState(reference.Board(size=size, pie=pie))
        while True:
            assert ours == theirs
            assert ours.legal_actions() == theirs.legal_actions()
            np.testing.assert_array_equal(ours.observation(), theirs.observation())
            assert encoding.describe(ours) == encoding.describe(theirs)
            if ours.is_terminal():
                break
            action = rng.choice(ours.legal_actions())
            assert str(ours.apply(action)) == str(theirs.apply(action))
        assert ours.winner == theirs.winner is not None


@pytest.mark.parametrize(("size", "pie"), RULES)
def test_native_planes_are_the_reference_planes(size: str, pie: bool) -> None:
    # The VectorEnv writes its planes in Rust (updating them in place from
    # step to step); the reference computes them in Python from the board.
    native = pytest.importorskip("veletas._veletas", reason="the extension is not built")
    env = native.MeridiansVectorEnv(3, size=size, pie=pie, seed=5)
    obs, mask, player = env.reset()
    episodes = 0
    while episodes < 4:
        for k in range(3):
            state: Any = env.state(k)
            assert isinstance(state, DecisionState)
            np.testing.assert_array_equal(obs[k], state.observation())
            np.testing.assert_array_equal(mask[k], state.action_mask())
            assert player[k] == state.seat_to_act
        obs, mask, _, terminated, player = env.step(env.random_actions())
        episodes += int(terminated.sum())


def test_board_plane_and_game_length() -> None:
    for size, points in zip(SIZES, (80, 114, 154), strict=True):
        plane = encoding.board_plane(size)
        assert int(plane.sum()) == points
        n = encoding.side(size)
        assert plane[0, 0] == plane[n - 1, n - 1] == 1
        assert plane[0, n - 1] == plane[n - 1, 0] == 0
        state = encoding.new_state(size=size)
        assert encoding.max_game_length(state) == 10 * points
    plane[0, 0] = 5  # a copy: the cached plane is untouched
    assert encoding.board_plane("7-8")[0, 0] == 1


def test_new_state_and_openspiel_parameters() -> None:
    state = encoding.new_state(size="5-6", pie=True)
    assert (state.size, state.pie, state.n, state.num_actions) == ("5-6", True, 10, 102)
    assert encoding.rules_of(state).pie
    start = encoding.openspiel_start({"size": 7})
    assert (start.size, start.pie) == ("7-8", False)
    for bad in (4, 8, True):
        with pytest.raises(InvalidRulesError, match=rf"size {bad!r} is not 5, 6 or 7"):
            encoding.openspiel_start({"size": bad})
    with pytest.raises(InvalidRulesError, match="pie must be a bool"):
        encoding.new_state(pie=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="expected a Meridians board"):
        DecisionState(object())


def test_point_names_of_the_ids() -> None:
    state = encoding.new_state()
    names = [encoding.action_to_string(state, a) for a in state.legal_actions()]
    assert names[:3] == ["a1", "b1", "c1"]
    assert names[-1] == "l12"
    assert point_name(encoding.action_to_point(143, "6-7")) == "l12"
