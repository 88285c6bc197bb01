"""The micro-decision encoding and ``DecisionState`` against ``Board``: masks,
action sequences, observations, and the random agent of the "micro" policy."""

from __future__ import annotations

import copy
import itertools
import pickle
from collections import defaultdict

import numpy as np
import pytest
import veletas
import veletas.reference
from rl_games import RULE_OPTIONS, VARIANTS, new_board, random_decisions, random_turns
from veletas import Board, DecisionState, IllegalMoveError, Move, Phase, Piece
from veletas.games.veletas.encoding import (
    OBSERVATION_PLANES,
    RandomAgent,
    action_to_square,
    actions_to_move,
    describe,
    move_to_actions,
    observation_for,
    pass_action,
    random_game,
    square_to_action,
    swap_action,
)

PLAY_FEN = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"


def prefix_children(board: object) -> dict[tuple[int, ...], set[int]]:
    """For every proper prefix of the action sequences of the legal moves of
    ``board`` (any backend), the set of actions that may follow it."""
    children: dict[tuple[int, ...], set[int]] = defaultdict(set)
    for move in board.legal_moves:  # type: ignore[attr-defined]
        actions = move_to_actions(move, board)  # type: ignore[arg-type]
        for i, action in enumerate(actions):
            children[tuple(actions[:i])].add(action)
    return children


def check_masks(state: DecisionState, children: dict[tuple[int, ...], set[int]]) -> None:
    """At the turn's start and after every prefix, the legal actions (and the
    mask) are exactly the actions that continue some legal move."""
    if not children:
        assert state.is_terminal()
        assert state.legal_actions() == []
        assert not state.action_mask().any()
        return
    for prefix, expected in children.items():
        s = state.copy()
        for action in prefix:
            assert s.apply(action) is None
        assert s.legal_actions() == sorted(expected), (prefix, state.board.fen())
        mask = s.action_mask()
        assert mask.dtype == np.int8
        assert mask.shape == (state.num_actions,)
        assert np.flatnonzero(mask).tolist() == sorted(expected)


def check_moves(board: Board, state: DecisionState) -> None:
    """Playing the actions of a legal move completes exactly that move and
    reaches the position ``board.push`` reaches."""
    for move in board.legal_moves:
        actions = move_to_actions(move, board)
        assert state.actions_of(move) == actions
        assert actions_to_move(actions, board) == move
        s = state.copy()
        results = [s.apply(action) for action in actions]
        assert results == [None] * (len(actions) - 1) + [move]
        after = board.copy()
        after.push(move)
        assert s.board == after, move
        assert s.stage == "start"
        assert s.swapped == (state.swapped or move.is_swap)


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_masks_and_actions_match_the_legal_moves(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    board = new_board(variant, setup_rule, shooters_block)
    for seed in range(2):
        for turn_board, state in random_turns(board, seed):
            check_masks(state, prefix_children(turn_board))
            check_moves(turn_board, state)


@pytest.mark.slow
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_masks_and_actions_match_the_legal_moves_long(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    board = new_board(variant, setup_rule, shooters_block)
    for seed in range(2, 12):
        for turn_board, state in random_turns(board, seed):
            check_masks(state, prefix_children(turn_board))
            check_moves(turn_board, state)


@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_masks_match_the_reference_engine(setup_rule: str, shooters_block: bool) -> None:
    # The legal moves come from the pure-Python engine, an independent reading
    # of the rules; the masks from the native DecisionState.
    for seed in range(2):
        for turn_board, state in random_turns(new_board("small", setup_rule, shooters_block), seed):
            reference = veletas.reference.Board(
                turn_board.fen(), setup_rule=setup_rule, shooters_block=shooters_block
            )
            check_masks(state, prefix_children(reference))


def test_every_offered_prefix_completes() -> None:
    """No dead ends: every path of offered actions ends in a legal move."""

    def walk(state: DecisionState, board: Board, depth: int) -> int:
        completed = 0
        assert len(state.legal_actions()) > 0
        assert depth < 3
        for action in state.legal_actions():
            child = state.copy()
            move = child.apply(action)
            if move is None:
                completed += walk(child, board, depth + 1)
            else:
                assert board.is_legal(move)
                completed += 1
        assert completed > 0
        return completed

    for variant in ("small", "medium"):
        for option in (False, True):
            for board, state in itertools.islice(
                random_turns(new_board(variant, shooters_block=option), 5), 0, None, 6
            ):
                if not board.is_game_over():
                    assert walk(state, board, 0) == board.legal_moves.count()


def test_helpers_convert_squares_and_ids() -> None:
    for size in range(5, 11):
        assert pass_action(size) == size * size
        assert swap_action(size) == size * size + 1
        ids = [
            square_to_action(rank * 10 + file, size) for rank in range(size) for file in range(size)
        ]
        assert ids == list(range(size * size))
        assert [action_to_square(a, size) for a in ids] == [
            rank * 10 + file for rank in range(size) for file in range(size)
        ]
    with pytest.raises(ValueError, match="square 7 is not on a 7x7 board"):
        square_to_action(7, 7)
    with pytest.raises(ValueError, match="square 100 is not on"):
        square_to_action(100, 10)
    with pytest.raises(ValueError, match="action 49 is not a square's id"):
        action_to_square(49, 7)
    with pytest.raises(ValueError, match="action -1 is not"):
        action_to_square(-1, 7)


def test_move_to_actions_of_every_kind() -> None:
    board = Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    assert move_to_actions(Move.parse("d4"), board) == [49, 3 * 7 + 3]
    assert move_to_actions(Move.parse("c2-c3/c2"), board) == [9, 16, 9]
    pie = Board("7/7/7/7/2s4/7/x6 w pie 3")
    assert move_to_actions(Move.swap(), pie) == [50]
    assert move_to_actions(Move.shooter(veletas.D4), pie) == [24]
    setup = Board("7/7/7/7/2s4/7/7 b setup 3")
    assert move_to_actions(Move(veletas.A1), setup) == [0]
    for reference in (veletas.reference.Board(board.fen()), board):
        with pytest.raises(IllegalMoveError, match=r"illegal move 'a1' in '7/2x4"):
            move_to_actions(
                Move(veletas.A1) if reference is board else veletas.reference.Move(veletas.A1),
                reference,
            )


@pytest.mark.parametrize(
    ("fen", "actions"),
    [
        (PLAY_FEN, [9, 16]),  # incomplete
        (PLAY_FEN, [9, 16, 9, 9]),  # too long
        (PLAY_FEN, [49]),
        (PLAY_FEN, [49, 0]),  # a1 is out of every shooter's reach
        (PLAY_FEN, [50]),
        (PLAY_FEN, [9, 9, 9]),
        (PLAY_FEN, []),
        ("7/7/7/7/2s4/7/x6 w pie 3", [49]),
        ("7/7/7/7/2s4/7/x6 w pie 3", [0]),  # the ring is closed to shooters
        ("7/7/7/7/2s4/7/x6 w pie 3", [50, 24]),
    ],
)
def test_actions_to_move_refuses_what_is_not_one_turn(fen: str, actions: list[int]) -> None:
    with pytest.raises(IllegalMoveError, match=r"actions \[.*\] are not one legal turn in"):
        actions_to_move(actions, Board(fen))


def test_actions_to_move_on_the_reference_board() -> None:
    board = veletas.reference.Board(PLAY_FEN)
    move = actions_to_move([9, 16, 9], board)
    assert isinstance(move, veletas.reference.Move)
    assert str(move) == "c2-c3/c2"


# --- DecisionState --------------------------------------------------------


def test_decision_state_walks_a_turn() -> None:
    state = DecisionState(Board(PLAY_FEN))
    assert (state.size, state.num_actions, state.pass_action, state.swap_action) == (7, 51, 49, 50)
    assert (state.stage, state.origin, state.destination) == ("start", None, None)
    assert state.legal_actions() == [9, 12, 22, 49]
    assert state.apply(9) is None
    assert (state.stage, state.origin, state.destination) == ("destination", veletas.C2, None)
    assert state.apply(16) is None
    assert (state.stage, state.origin, state.destination) == ("target", veletas.C2, veletas.C3)
    assert state.apply(9) == Move.parse("c2-c3/c2")
    assert state.stage == "start"
    assert state.turn == veletas.WHITE
    assert state.seat_to_act == 1
    assert state.board.fen() == "7/2x4/7/1s5/2s4/o1x2s1/7 w play 3"
    state.apply(49)
    assert (state.stage, state.origin, state.destination) == ("target", None, None)


def test_refused_actions_change_nothing() -> None:
    state = DecisionState(Board(PLAY_FEN))
    state.apply(9)
    before = state.copy()
    for bad in (0, -1, 51, 2**70, 49, np.int64(4)):
        with pytest.raises(IllegalMoveError, match=r"illegal action .* shooter c2 chosen: legal"):
            state.apply(bad)
        assert state == before
    with pytest.raises(TypeError, match="an action is an int, not float"):
        state.apply(16.0)
    with pytest.raises(TypeError, match="not str"):
        DecisionState("7/7/7/7/7/7/7 b setup 3")  # type: ignore[arg-type]
    assert state.apply(np.int64(16)) is None  # numpy ints are ints


def test_actions_of_refuses_an_illegal_move() -> None:
    state = DecisionState(Board(PLAY_FEN))
    with pytest.raises(IllegalMoveError, match="illegal move 'a1'"):
        state.actions_of(Move(veletas.A1))
    with pytest.raises(TypeError, match="expected a Move"):
        state.actions_of("a1")  # type: ignore[arg-type]


def test_copies_are_independent_values() -> None:
    state = DecisionState(Board(PLAY_FEN))
    for twin in (
        state.copy(),
        copy.copy(state),
        copy.deepcopy(state),
        pickle.loads(pickle.dumps(state)),
    ):
        assert twin == state
        assert hash(twin) == hash(state)
        assert twin is not state
        twin.apply(49)
        assert twin != state
        assert state.stage == "start"
    state.apply(9)
    state.apply(16)
    restored = pickle.loads(pickle.dumps(state))
    assert restored == state
    assert restored.origin == veletas.C2
    assert state != "not a state"


def test_swapped_follows_the_move_stack_and_maps_seats() -> None:
    board = Board(variant="small")
    board.push_str("*c3")
    board.push_str("a1")
    assert DecisionState(board).seat_to_act == 1
    board.push_str("swap")
    state = DecisionState(board)
    assert state.swapped
    assert state.turn == veletas.WHITE
    assert state.seat_to_act == 0
    assert not DecisionState(board, swapped=False).swapped
    assert DecisionState(Board(board.fen()), swapped=True) == state
    # The board of a state has no stack: the flag must travel beside it.
    assert not DecisionState(state.board).swapped


def test_winner_and_terminal() -> None:
    for board in (random_game(seed, 0, variant="small") for seed in range(6)):
        swapped = any(m.is_swap for m in board.move_stack)
        state = DecisionState(board)
        assert state.is_terminal()
        assert state.winner == board.winner
        assert state.swapped == swapped
        assert state.legal_actions() == []
        assert not state.action_mask().any()
        with pytest.raises(IllegalMoveError, match=r"legal actions are \[\]"):
            state.apply(0)


# --- observations -----------------------------------------------------------


def expected_planes(state: DecisionState) -> np.ndarray:
    """The planes of docs/rl.md, computed from the board square by square."""
    board, n = state.board, state.size
    own, other = state.turn, state.turn.other
    planes = np.zeros((len(OBSERVATION_PLANES), n, n), np.float32)
    pieces = {
        "own_stones": Piece.BLACK_STONE if own == veletas.BLACK else Piece.WHITE_STONE,
        "opponent_stones": Piece.BLACK_STONE if other == veletas.BLACK else Piece.WHITE_STONE,
        "shooters": Piece.SHOOTER,
        "own_claims": Piece.BLACK_CLAIMED if own == veletas.BLACK else Piece.WHITE_CLAIMED,
        "opponent_claims": Piece.BLACK_CLAIMED if other == veletas.BLACK else Piece.WHITE_CLAIMED,
    }
    for rank, file in itertools.product(range(n), range(n)):
        square = rank * 10 + file
        for index, name in enumerate(OBSERVATION_PLANES):
            if name in pieces:
                on = board.piece_at(square) == pieces[name]
            elif name == "origin":
                on = state.origin == square
            elif name == "destination":
                on = state.destination == square
            elif name == "passed":
                on = state.stage == "target" and state.origin is None
            elif name == "white_to_act":
                on = own == veletas.WHITE
            else:
                on = board.phase == Phase(name)
            planes[index, rank, file] = on
    return planes


@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize("shooters_block", [False, True])
def test_observation_planes_show_the_board(variant: str, shooters_block: bool) -> None:
    for state in itertools.islice(
        random_decisions(new_board(variant, "spacing", shooters_block), 3), 0, None, 3
    ):
        planes = state.observation()
        assert planes.dtype == np.float32
        assert planes.shape == (12, state.size, state.size)
        np.testing.assert_array_equal(planes, expected_planes(state))


def test_partial_turns_are_told_apart() -> None:
    # OpenSpiel's amazons shows the same observation before and after a
    # queen is picked; here each step of the turn shows.
    start = DecisionState(Board(PLAY_FEN))
    states = [start]
    for actions in ([49], [9], [9, 16], [9, 2], [12], [12, 13]):
        state = start.copy()
        for action in actions:
            state.apply(action)
        states.append(state)
    observations = [s.observation().tobytes() for s in states]
    assert len(set(observations)) == len(states)
    assert all(s.board == start.board for s in states)


@pytest.mark.parametrize("variant", ["small", "medium"])
def test_distinct_decisions_have_distinct_observations(variant: str) -> None:
    seen: dict[bytes, tuple[str, str, int | None, int | None]] = {}
    for seed in range(3):
        for state in random_decisions(new_board(variant), seed):
            # Every first action too, to meet many partial turns.
            for child in [state] + [state.copy() for _ in state.legal_actions()]:
                if child is not state:
                    child.apply(child.legal_actions()[len(seen) % len(child.legal_actions())])
                key = (child.board.fen(), child.stage, child.origin, child.destination)
                assert seen.setdefault(child.observation().tobytes(), key) == key


def test_observation_for_the_other_seat_trades_sides() -> None:
    state = DecisionState(Board("7/2x4/7/1s5/7/o1s2O1/7 b play 3"))
    state.apply(9)
    mine, theirs = observation_for(state, 0), observation_for(state, 1)
    np.testing.assert_array_equal(mine, state.observation())
    np.testing.assert_array_equal(theirs[[1, 0, 2, 4, 3]], mine[:5])
    np.testing.assert_array_equal(theirs[5:], mine[5:])
    assert theirs[3].sum() == 1  # the claim of White, the other seat
    with pytest.raises(ValueError, match="seat 2 is not 0 or 1"):
        observation_for(state, 2)


def test_describe_shows_the_partial_turn() -> None:
    state = DecisionState(Board(PLAY_FEN))
    state.apply(49)
    assert describe(state).endswith("black to act (seat 0)\nPASS chosen: a shot without a move")
    state = DecisionState(Board(PLAY_FEN))
    state.apply(9)
    state.apply(16)
    assert describe(state).endswith("shooter c2 chosen\nmoving to c3")
    finished = DecisionState(random_game(1, 0, variant="small"))
    assert " wins (seat " in describe(finished)


# --- the random agent of the "micro" policy ---------------------------------


def vector_env_games(env: veletas.VectorEnv) -> list[list[int]]:
    """The actions of the first episode of every env of ``env`` stepped by its
    own ``random_actions`` (the Rust core's micro-policy draws)."""
    env.reset()
    games: list[list[int]] = [[] for _ in range(env.num_envs)]
    done = [False] * env.num_envs
    while not all(done):
        actions = env.random_actions()
        for k, action in enumerate(actions):
            if not done[k]:
                games[k].append(int(action))
        terminated = env.step(actions)[3]
        done = [d or bool(t) for d, t in zip(done, terminated, strict=True)]
    return games


@pytest.mark.native
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_random_agent_plays_the_micro_games(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    seed, n = 2024, 3
    rules = {"variant": variant, "setup_rule": setup_rule, "shooters_block": shooters_block}
    oracle = vector_env_games(veletas.VectorEnv(n, seed=seed, **rules))
    for index in range(n):
        board = random_game(seed, index, **rules)
        replay = DecisionState(new_board(variant, setup_rule, shooters_block))
        actions: list[int] = []
        for move in board.move_stack:
            actions += replay.actions_of(move)
            for action in replay.actions_of(move):
                replay.apply(action)
        assert actions == oracle[index], index
        assert board.is_game_over()


def test_random_agent_over_masks_and_lists() -> None:
    state = DecisionState(Board(PLAY_FEN))
    a, b = RandomAgent(seed=5, index=1), RandomAgent(seed=5, index=1)
    for _ in range(20):
        assert a(state.action_mask()) == b.choose(state.legal_actions())
    with pytest.raises(ValueError, match="no legal action"):
        a.choose([])


def test_random_game_from_a_start() -> None:
    start = Board(variant="small")
    start.push_str("*c3")
    start.push_str("a1")
    start.push_str("swap")
    board = random_game(7, 3, start=start)
    assert board.move_stack[:3] == start.move_stack
    assert board.is_game_over()
    assert len(start.move_stack) == 3


@pytest.mark.native
@pytest.mark.parametrize("variant", VARIANTS)
@pytest.mark.parametrize(("setup_rule", "shooters_block"), RULE_OPTIONS)
def test_random_agent_and_vector_env_play_the_playout_games(
    variant: str, setup_rule: str, shooters_block: bool
) -> None:
    """The comparable drivers of docs/rl.md give exactly the games of
    ``veletas.playouts(policy="micro")`` with the same seed."""
    seed, n = 77, 4
    rules = {"variant": variant, "setup_rule": setup_rule, "shooters_block": shooters_block}
    games = veletas.playouts(2 * n, seed=seed, policy="micro", record=True, **rules)
    # VectorEnv env k, episode e is playout game e * n + k.
    env = veletas.VectorEnv(n, seed=seed, **rules)
    env.reset()
    episodes: dict[int, list[list[int]]] = {k: [[]] for k in range(n)}
    while any(len(episodes[k]) <= 2 for k in range(n)):
        actions = env.random_actions()
        for k, action in enumerate(actions):
            episodes[k][-1].append(int(action))
        terminated = env.step(actions)[3]
        for k in np.flatnonzero(terminated):
            episodes[int(k)].append([])
    for index in range(2 * n):
        played = games.board(index)
        replay = DecisionState(new_board(variant, setup_rule, shooters_block))
        actions = []
        for move in played.move_stack:
            for action in replay.actions_of(move):
                actions.append(action)
                replay.apply(action)
        episode, k = divmod(index, n)
        assert episodes[k][episode] == actions, f"game {index}"
        agent_board = random_game(seed, index, **rules)
        assert agent_board.move_stack == played.move_stack, f"game {index}"
        assert int(agent_board.winner) == games.winner[index]


def test_random_agent_continues_playout_games_from_a_start() -> None:
    start = Board(variant="small")
    for text in ["*c3", "a1", "swap", "*e5"]:
        start.push_str(text)
    games = veletas.playouts(5, start=start, seed=9, record=True)
    for index in range(5):
        board = random_game(9, index, start=start)
        assert board.move_stack[len(start.move_stack) :] == games.board(index).move_stack
