"""Every public object of both engines pickles and round-trips, and travels
through a real ``multiprocessing`` spawn pool (so process pools, joblib and
Ray tasks can take boards, moves, states and bots)."""

from __future__ import annotations

import copy
import multiprocessing
import pickle
from types import ModuleType
from typing import Any

import numpy as np
import pytest
import veletas
from veletas import (
    Claims,
    Color,
    IllegalMoveError,
    InvalidFenError,
    InvalidMoveError,
    InvalidRecordError,
    Outcome,
    Phase,
    Piece,
    Rules,
    records,
)
from veletas.playouts import PlayoutJob

PROTOCOLS = range(pickle.HIGHEST_PROTOCOL + 1)

SMALL_GAME = ["*c3", "g7", "swap", "*e5", "*d4", "a1", "d4-b6/b2", "e5-e3/e4"]
"""A 7x7 game through setup, the pie swap and two play turns."""

PLAY_FEN = "x1x2oo/2x2s1/2o4/1xx4/2s1x2/o5s/2o4 w play 3"


def round_trip(value: Any, protocol: int = pickle.DEFAULT_PROTOCOL) -> Any:
    return pickle.loads(pickle.dumps(value, protocol=protocol))


def boards(backend: ModuleType) -> list[Any]:
    """Boards of every kind: fresh, mid-game with a stack (setup, swap,
    play), from a position string, and under each rule option."""
    fresh = backend.Board()
    game = backend.Board(variant="small")
    for text in SMALL_GAME:
        game.push_str(text)
    from_fen = backend.Board(PLAY_FEN, setup_rule="spacing")
    from_fen.push_str("c3-b2/d2")
    blocked = backend.Board(variant="medium", shooters_block=True)
    blocked.push_str("*e5")
    custom = backend.Board(size=8, shooters=5, setup_rule="spacing", shooters_block=True)
    boardspace = backend.Board(variant="small", claimed_shooters_block=True)
    for text in SMALL_GAME:
        boardspace.push_str(text)
    return [fresh, game, from_fen, blocked, custom, boardspace]


def assert_same_board(restored: Any, board: Any) -> None:
    assert type(restored) is type(board)
    assert restored is not board
    assert restored == board
    assert restored.fen() == board.fen()
    assert restored.rules == board.rules
    assert restored.move_stack == board.move_stack
    assert list(restored.legal_moves) == list(board.legal_moves)
    # The stack is the real one: every pop gives the same move and position.
    restored, board = restored.copy(), board.copy()
    while board.move_stack:
        assert restored.pop() == board.pop()
        assert restored.fen() == board.fen()
    assert not restored.move_stack


@pytest.mark.parametrize("protocol", PROTOCOLS)
def test_boards_round_trip_with_stack_and_rules(backend: ModuleType, protocol: int) -> None:
    for board in boards(backend):
        assert_same_board(round_trip(board, protocol), board)


def test_restored_board_is_independent(backend: ModuleType) -> None:
    board = boards(backend)[1]
    restored = round_trip(board)
    restored.pop()
    assert restored != board
    assert len(board.move_stack) == len(SMALL_GAME)
    assert copy.deepcopy(board) == board


def test_finished_game_round_trips(backend: ModuleType) -> None:
    board = backend.Board("1o5/sx5/xx5/7/3s3/7/1o3oX b play 3")
    board.push_str("a6-a7/a6")
    assert board.is_game_over()
    restored = round_trip(board)
    assert_same_board(restored, board)
    assert restored.outcome() == board.outcome()


def test_board_pickles_by_position_and_moves(backend: ModuleType) -> None:
    # The pickle holds the start, the options and the moves as text; a
    # corrupted move is refused on loading rather than giving a wrong board.
    board = boards(backend)[2]
    restore, args = board.__reduce__()
    assert args == (PLAY_FEN, "spacing", False, ["c3-b2/d2"], False)
    assert_same_board(restore(*args), board)
    # Pickles of the four fields before claimed_shooters_block read as before.
    assert_same_board(restore(*args[:4]), board)
    restore, args = boards(backend)[5].__reduce__()
    assert args[2:] == (False, [str(m) for m in boards(backend)[5].move_stack], True)
    assert restore(*args).rules.claimed_shooters_block
    with pytest.raises(IllegalMoveError, match="c3-b2/d2"):
        restore(PLAY_FEN, "spacing", False, ["c3-b2/d2", "c3-b2/d2"])
    with pytest.raises(InvalidMoveError, match="k1"):
        restore(PLAY_FEN, "spacing", False, ["k1"])
    with pytest.raises(InvalidFenError):
        restore("7/7 b setup 3", "perimeter", False, [])


def test_moves_round_trip(backend: ModuleType) -> None:
    for text in ("swap", "*e5", "e5", "a1", "j10", "d4-d7/f9", "a10-j1/e5"):
        move = backend.Move.parse(text)
        for protocol in PROTOCOLS:
            restored = round_trip(move, protocol)
            assert type(restored) is type(move)
            assert restored == move
            assert hash(restored) == hash(move)


def test_legal_moves_pickle_as_a_view_of_the_board(backend: ModuleType) -> None:
    board = boards(backend)[1]
    restored = round_trip(board.legal_moves)
    assert type(restored) is type(board.legal_moves)
    assert list(restored) == list(board.legal_moves)
    assert len(restored) == len(board.legal_moves)


def test_decision_states_round_trip(backend: ModuleType) -> None:
    # Each stage of a turn: the start, a shooter chosen, a destination
    # chosen, and PASS chosen.
    board = boards(backend)[1]
    start = backend.DecisionState(board)
    assert start.swapped
    origin = start.copy()
    origin.apply(start.legal_actions()[0])
    destination = origin.copy()
    destination.apply(origin.legal_actions()[-1])
    passed = start.copy()
    passed.apply(start.pass_action)
    stages = [
        (start, "start"),
        (origin, "destination"),
        (destination, "target"),
        (passed, "target"),
    ]
    for state, stage in stages:
        assert state.stage == stage
        for protocol in PROTOCOLS:
            restored = round_trip(state, protocol)
            assert type(restored) is type(state)
            assert restored == state
            assert (restored.stage, restored.origin, restored.destination) == (
                state.stage,
                state.origin,
                state.destination,
            )
            assert restored.swapped
            assert restored.legal_actions() == state.legal_actions()


def test_playouts_and_jobs_of_both_engines_round_trip(backend: ModuleType) -> None:
    name = "python" if backend.__name__ == "veletas.reference" else "rust"
    job = PlayoutJob.make(variant="small", seed=3, threads=1, record=True, backend=name)
    games = job.run(0, 4)
    assert round_trip(job) == job
    restored = round_trip(games)
    assert restored.winner.tolist() == games.winner.tolist()
    assert restored.board(2) == games.board(2)
    assert type(restored.board(2)) is backend.Board


def test_records_round_trip(backend: ModuleType) -> None:
    board = boards(backend)[1]
    record = records.GameRecord.from_board(board, black="Ada", white="Bo", date="2025.01.01")
    restored = round_trip(record)
    assert restored == record
    assert str(restored) == str(record)
    assert restored.moves == board.move_stack
    assert all(type(move) is backend.Move for move in restored.moves)


def test_plain_values_and_errors_round_trip() -> None:
    values: list[Any] = [
        Color.WHITE,
        Phase.PIE,
        Piece.WHITE_CLAIMED,
        Claims(1, 2),
        Outcome(Color.BLACK, Claims(2, 0)),
        Rules.make("small", setup_rule="spacing"),
    ]
    for value in values:
        assert round_trip(value) == value
    error = InvalidRecordError("line 3: bad move", line=3, move="k1")
    restored = round_trip(error)
    assert (type(restored), str(restored), restored.line, restored.move) == (
        InvalidRecordError,
        "line 3: bad move",
        3,
        "k1",
    )


@pytest.mark.skipif(veletas._native is None, reason="the bots need the native core")
def test_bots_pickle_as_their_configuration(backend: ModuleType) -> None:
    board = boards(backend)[1]
    for bot in (veletas.RandomBot(5), veletas.GreedyBot(6)):
        bot.choose(board)
        restored = round_trip(bot)
        assert type(restored) is type(bot)
        assert repr(restored) == repr(bot)
        # It goes on with the same stream: the same next move as the original.
        assert restored.choose(board) == bot.choose(board)
    mcts = veletas.MctsBot(iterations=40, seed=9, exploration=0.5)
    mcts.choose(board)
    restored_mcts = round_trip(mcts)
    assert repr(restored_mcts) == repr(mcts)
    assert restored_mcts.last_search is None
    assert restored_mcts.choose(board) == veletas.MctsBot(
        iterations=40, seed=9, exploration=0.5
    ).choose(board)
    assert copy.deepcopy(mcts).seconds == mcts.seconds
    cut = veletas.MctsBot(iterations=40, seed=9, cutoff=3)
    assert round_trip(cut).cutoff == 3
    assert repr(round_trip(cut)) == repr(cut)
    assert repr(cut) == "MctsBot(iterations=40, threads=1, seed=9, cutoff=3)"
    assert round_trip(cut).choose(board) == cut.choose(board)


VECTOR_ENVS = [
    pytest.param({"variant": "small"}, id="veletas"),
    pytest.param({"variant": "small", "claimed_shooters_block": True}, id="veletas-boardspace"),
    pytest.param({"variant": "small", "auto_reset": False}, id="veletas-no-auto-reset"),
    pytest.param(
        {"variant": "small", "opponent": "greedy", "learner_seat": "alternate"},
        id="veletas-greedy",
    ),
    pytest.param(
        {
            "variant": "small",
            "opponent": "random",
            "learner_seat": 1,
            "start": "7/2x4/7/1s5/7/o1s2s1/7 b play 3",
        },
        id="veletas-random-start",
    ),
    pytest.param({"game": "meridians", "size": "5-6"}, id="meridians"),
    pytest.param(
        {
            "game": "meridians",
            "size": "5-6",
            "pie": True,
            "opponent": "greedy",
            "learner_seat": "alternate",
        },
        id="meridians-greedy",
    ),
]


@pytest.mark.skipif(veletas._native is None, reason="VectorEnv needs the native core")
@pytest.mark.parametrize("options", VECTOR_ENVS)
def test_vector_envs_step_on_alike_once_restored(options: dict[str, Any]) -> None:
    env = veletas.VectorEnv(4, seed=3, **options)
    for _ in range(30):
        env.step(env.random_actions())
    if "start" not in options:
        env.reset(mask=np.array([True, False, False, False]), start=env.state(1).board)
    restored = round_trip(env)
    assert repr(restored) == repr(env)
    assert (restored.opponent, restored.learner_seat) == (env.opponent, env.learner_seat)
    for k in range(4):
        assert restored.state(k) == env.state(k)
        assert (restored.episode(k), restored.seat(k)) == (env.episode(k), env.seat(k))
    for _ in range(120):
        actions = env.random_actions()
        np.testing.assert_array_equal(restored.random_actions(), actions)
        outputs = env.step(actions)
        for mine, theirs in zip(restored.step(actions), outputs, strict=True):
            np.testing.assert_array_equal(mine, theirs)
        ended = outputs[3]
        np.testing.assert_array_equal(
            restored.final_observations[ended], env.final_observations[ended]
        )
    assert [restored.episode(k) for k in range(4)] == [env.episode(k) for k in range(4)]
    if options.get("auto_reset", True):  # games ended and restarted on the way
        assert all(env.episode(k) >= 1 for k in range(4))


@pytest.mark.skipif(veletas._native is None, reason="VectorEnv needs the native core")
def test_vector_env_restore_refuses_what_no_env_gave() -> None:
    env = veletas.VectorEnv(2, variant="small", seed=3)
    restore, (num_envs, kwargs, (starts, states, numbers)) = env.__reduce__()
    wrong = [(episode, rng, 99, seat, opponent) for episode, rng, _, seat, opponent in numbers]
    with pytest.raises(ValueError, match="an env state that no env gave"):
        restore(num_envs, kwargs, (starts, states, wrong))
    with pytest.raises(ValueError, match="one start, state and stream per env"):
        restore(num_envs, kwargs, (starts, states[:1], numbers))
    with pytest.raises(veletas.errors.InvalidRulesError, match="other rules"):
        restore(num_envs, {**kwargs, "size": 9}, (starts, states, numbers))


# ----------------------------------------------------------------------
# Through a real process pool


def play_in_child(job: tuple[Any, Any, Any]) -> tuple[Any, Any, Any, Any]:
    """Run in a spawned process: push the move on the board, step the
    state's first legal action, and let the bot (if any) choose."""
    board, move, state = job
    board.push(move)
    state.apply(state.legal_actions()[0])
    choice = None
    if veletas._native is not None and board.legal_moves:
        choice = veletas.RandomBot(1).choose(board)
    return board, state, choice, type(board).__module__


def test_spawn_pool_round_trip(backend: ModuleType) -> None:
    jobs = []
    for board in boards(backend):
        move = next(iter(board.legal_moves))
        jobs.append((board, move, backend.DecisionState(board)))
    context = multiprocessing.get_context("spawn")
    with context.Pool(2) as pool:
        results = pool.map(play_in_child, jobs)
    for (board, move, state), (child_board, child_state, choice, module) in zip(
        jobs, results, strict=True
    ):
        assert module == type(board).__module__
        expected = board.copy()
        expected.push(move)
        assert_same_board(child_board, expected)
        state.apply(state.legal_actions()[0])
        assert child_state == state
        if choice is not None:
            assert choice == veletas.RandomBot(1).choose(expected)


def step_env_in_child(env: Any) -> tuple[Any, Any]:
    """Run in a spawned process: step the env with its random actions."""
    return env, env.step(env.random_actions())


@pytest.mark.skipif(veletas._native is None, reason="VectorEnv needs the native core")
def test_spawn_pool_steps_a_vector_env() -> None:
    env = veletas.VectorEnv(3, variant="small", seed=8, opponent="random", learner_seat=1)
    env.step(env.random_actions())
    with multiprocessing.get_context("spawn").Pool(1) as pool:
        child_env, child_outputs = pool.apply(step_env_in_child, (env,))
    outputs = env.step(env.random_actions())
    for mine, theirs in zip(child_outputs, outputs, strict=True):
        np.testing.assert_array_equal(mine, theirs)
    np.testing.assert_array_equal(child_env.random_actions(), env.random_actions())
