"""The bots: the choose(board) protocol on both backends, budgets, errors, strength."""

from __future__ import annotations

from types import ModuleType

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import MctsBot, games

# Black, with one claim, wins by shooting onto a7 (which traps the shooter
# on a6 next to a black group of three).
WIN_IN_ONE = "1o5/sx5/xx5/7/3s3/7/1o3oX b play 3"
FINISHED = "1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3"
MIDGAME = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"


def fast_bots() -> list[object]:
    return [veletas.RandomBot(1), veletas.GreedyBot(1), MctsBot(iterations=200, seed=1)]


@pytest.mark.parametrize("bot", fast_bots(), ids=repr)
def test_bots_play_legal_moves_of_the_boards_own_type(backend: ModuleType, bot: object) -> None:
    board = backend.Board(variant="small")
    for _ in range(12):
        before = board.fen()
        move = bot.choose(board)
        assert isinstance(move, backend.Move)
        assert board.fen() == before, "choose leaves the board unchanged"
        assert move in board.legal_moves
        board.push(move)


@pytest.mark.parametrize("bot", fast_bots(), ids=repr)
def test_a_finished_game_is_refused(backend: ModuleType, bot: object) -> None:
    board = backend.Board(FINISHED)
    with pytest.raises(ValueError, match="the game is over") as info:
        bot.choose(board)
    assert FINISHED in str(info.value)


@pytest.mark.parametrize("bot", fast_bots(), ids=repr)
def test_not_a_board_is_a_type_error(bot: object) -> None:
    with pytest.raises(TypeError, match="expected a veletas Board"):
        bot.choose("7/7/7/7/7/7/7 b setup 3")


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"seconds": 0}, r"seconds must be a number of 1e-06 to 1e\+06, not 0.0"),
        ({"seconds": -1.5}, r"seconds must be a number of 1e-06 to 1e\+06, not -1.5"),
        ({"seconds": float("nan")}, r"seconds must be a number of 1e-06 to 1e\+06, not nan"),
        ({"iterations": 0}, "iterations must be 1 to 1,000,000,000,000, not 0"),
        ({"threads": 0}, "threads must be 1 or more, got 0"),
        ({"seed": -1}, "seed must be in 0 .. 2\\*\\*64 - 1, got -1"),
        ({"seed": 1 << 64}, "seed must be in"),
        ({"exploration": -0.1}, "exploration must be 0 or more"),
        ({"max_nodes": 0}, "max_nodes must be 1 to 2,147,483,648, not 0"),
        ({"solve_share": -0.1}, "solve_share must be a number of 0 to 1, got -0.1"),
        ({"solve_share": 1.5}, "solve_share must be a number of 0 to 1, got 1.5"),
        ({"solve_share": float("nan")}, "solve_share must be a number of 0 to 1, got nan"),
        ({"cutoff": -1}, "cutoff must be 0 to 1,000,000, not -1"),
        ({"cutoff": 1 << 40}, "cutoff must be 0 to 1,000,000, not 1099511627776"),
        ({"cutoff": 8, "algorithm": "uct"}, "cutoff is for mcts: uct, the fixed baseline"),
    ],
)
def test_bad_mcts_arguments_are_refused(kwargs: dict, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        MctsBot(**kwargs)


@pytest.mark.parametrize("game", list(games.every()), ids=lambda game: game.name)
def test_the_search_defaults_are_the_ones_the_room_names(game: games.Game) -> None:
    player = game.bots.mcts_player
    assert player.DEFAULT_CUTOFF > 0
    assert player.DEFAULT_EXPLORATION > 0
    named = MctsBot(
        iterations=400,
        seed=3,
        cutoff=player.DEFAULT_CUTOFF,
        exploration=player.DEFAULT_EXPLORATION,
    )
    default, board = MctsBot(iterations=400, seed=3), game.api().Board()
    # Playouts to the end take the other constant.
    uct = MctsBot(iterations=400, seed=3, algorithm="uct")
    uct_named = MctsBot(iterations=400, seed=3, algorithm="uct", exploration=player.UCT_EXPLORATION)
    uncut = MctsBot(iterations=400, seed=3, cutoff=0)
    uncut_named = MctsBot(iterations=400, seed=3, cutoff=0, exploration=player.UCT_EXPLORATION)
    for _ in range(6):
        move = default.choose(board)
        assert named.choose(board) == move
        assert uct.choose(board) == uct_named.choose(board)
        assert uncut.choose(board) == uncut_named.choose(board)
        board.push(move)


def test_wrong_argument_types_are_type_errors() -> None:
    with pytest.raises(TypeError):
        MctsBot(seconds="1")
    with pytest.raises(TypeError):
        MctsBot(iterations=1.5)
    with pytest.raises(TypeError):
        veletas.RandomBot("7")
    with pytest.raises(TypeError):
        veletas.GreedyBot(True)


def test_without_a_budget_the_bot_thinks_for_the_default_time() -> None:
    bot = MctsBot()
    assert bot.seconds == veletas.bots.DEFAULT_SECONDS
    assert bot.iterations is None


def test_mcts_is_deterministic_for_a_seed_with_an_iteration_budget() -> None:
    def game(seed: int) -> list[str]:
        board = veletas.Board(variant="small")
        bot = MctsBot(iterations=300, seed=seed)
        for _ in range(10):
            board.push(bot.choose(board))
        return [str(move) for move in board.move_stack]

    assert game(5) == game(5)
    assert game(5) != game(6)


@pytest.mark.parametrize("bot", [veletas.GreedyBot(4), MctsBot(iterations=3000, seed=4)], ids=repr)
def test_bots_take_the_winning_claim(backend: ModuleType, bot: object) -> None:
    board = backend.Board(WIN_IN_ONE)
    board.push(bot.choose(board))
    assert board.winner == veletas.BLACK


# White, to act with 17 empty squares left, has a win that the exact solver
# proves in 284 positions.
WON_BY_WHITE = "2osxo1/1xox1xo/1x1xo1x/oxx1ooo/3oos1/1xxxxo1/xxXoo2 w play 3"


def test_mcts_plays_the_win_that_the_exact_solver_proves_first() -> None:
    # Within a tenth of 5,000 playouts (the default share) the solver proves
    # the win and no playout is run; within a twentieth it does not, and the
    # tree search plays as without it.
    for share, proven in [(None, True), (0.1, True), (0.05, False), (0, False)]:
        board = veletas.Board(WON_BY_WHITE)
        bot = MctsBot(iterations=5000, seed=4, solve_share=share)
        board.push(bot.choose(board))
        assert bot.last_search is not None
        assert (bot.last_search.iterations == 0) == proven, share
        if proven:
            assert bot.last_search.value == 1.0
            assert veletas.solve(board).value == "loss", "the move played wins"
        # The analysis lists the move choose plays, proven.
        analysis = MctsBot(iterations=5000, seed=4, solve_share=share).analyse(
            veletas.Board(WON_BY_WHITE)
        )
        assert analysis.moves[0].move == board.peek()
        assert analysis.moves[0].proven == "win" or not proven
    # Far from the end the solver is not asked: the whole budget is the tree's.
    bot = MctsBot(iterations=5000, seed=4, solve_share=0.5)
    bot.choose(veletas.Board(MIDGAME))
    assert bot.last_search is not None
    assert bot.last_search.iterations >= 5000 * 3 // 4


def test_mcts_reports_its_search_and_reuses_its_tree() -> None:
    board = veletas.Board(MIDGAME)
    bot = MctsBot(iterations=2000, seed=2)
    assert bot.last_search is None
    board.push(bot.choose(board))
    first = bot.last_search
    assert first is not None
    assert first.iterations >= 2000 * 3 // 4
    assert 0 <= first.value <= 1
    assert not first.reused
    assert first.nodes > 0
    # The opponent replies with a move the tree explored: its statistics stay.
    board.push(bot.choose(board))
    assert bot.last_search is not None
    assert bot.last_search.reused


def test_two_threads_search_twice_the_iterations() -> None:
    board = veletas.Board(MIDGAME)
    one = MctsBot(iterations=500, seed=1)
    two = MctsBot(iterations=500, threads=2, seed=1)
    one.choose(board)
    two.choose(board)
    assert one.last_search is not None
    assert two.last_search is not None
    assert two.last_search.iterations == 2 * one.last_search.iterations


def test_a_time_budget_is_kept_roughly() -> None:
    """A bot thinks about as long as its budget, as the bot itself measures
    it, and a budget four times longer buys about four times the playouts.
    Fresh bots on the same position (no tree to reuse); the bounds are
    generous for a busy machine, and of three tries each the one with the
    most playouts counts, as the least disturbed."""
    short, long = 0.05, 0.2
    iterations: dict[float, int] = {short: 0, long: 0}
    for _ in range(3):
        for budget in (short, long):
            bot = MctsBot(seconds=budget, seed=1)
            bot.choose(veletas.Board(MIDGAME))
            search = bot.last_search
            assert search is not None
            assert 0.9 * budget <= search.seconds <= 2 * budget + 0.1, (budget, search)
            iterations[budget] = max(iterations[budget], search.iterations)
    ratio = iterations[long] / iterations[short]
    assert 2 <= ratio <= 8, iterations


def test_random_and_greedy_bots_follow_their_seed() -> None:
    board = veletas.Board(MIDGAME)
    picks = {str(veletas.RandomBot(seed).choose(board)) for seed in range(8)}
    assert len(picks) > 1
    assert veletas.RandomBot(3).choose(board) == veletas.RandomBot(3).choose(board)
    assert veletas.GreedyBot(3).choose(board) == veletas.GreedyBot(3).choose(board)
    assert repr(veletas.GreedyBot(3)) == "GreedyBot(3)"


def test_a_raised_stop_flag_ends_the_search_with_a_legal_move() -> None:
    board = veletas.Board(MIDGAME)
    stop = veletas.bots.StopFlag()
    assert not stop.is_set()
    stop.set()
    bot = MctsBot(seconds=3600)
    move = bot.choose(board, stop=stop)
    assert move in board.legal_moves
    assert bot.last_search is not None
    assert bot.last_search.iterations == 0
    stop.clear()
    assert not stop.is_set()
    assert repr(stop) == "StopFlag(set=False)"
    with pytest.raises(TypeError, match="StopFlag"):
        bot.choose(board, stop=True)


def test_a_stop_flag_raised_from_another_thread_ends_a_long_search() -> None:
    import threading

    board = veletas.Board(variant="standard")
    stop = veletas.bots.StopFlag()
    timer = threading.Timer(0.2, stop.set)
    timer.start()
    bot = MctsBot(seconds=3600)
    move = bot.choose(board, stop=stop)  # returns (or the test never ends)
    timer.join()
    assert move in board.legal_moves
    assert bot.last_search is not None
    assert bot.last_search.iterations > 0


def test_analysis_lists_the_most_visited_legal_moves(backend: ModuleType) -> None:
    board = backend.Board(MIDGAME)
    bot = MctsBot(iterations=4000, seed=5)
    analysis = bot.analyse(board, top=4)
    assert len(analysis.moves) == 4
    assert analysis.iterations >= 4000
    assert analysis.visits >= analysis.iterations
    visits = [m.visits for m in analysis.moves]
    assert visits == sorted(visits, reverse=True)
    for stats in analysis.moves:
        assert isinstance(stats.move, backend.Move)
        assert stats.move in board.legal_moves
        assert stats.share == pytest.approx(stats.visits / analysis.visits)
        assert 0 <= stats.value <= 1
    assert len({m.move for m in analysis.moves}) == 4
    assert board.fen() == MIDGAME
    # The tree is kept for the move that follows.
    bot.choose(board)
    assert bot.last_search is not None
    assert bot.last_search.reused


def test_analysis_arguments_are_checked() -> None:
    bot = MctsBot(iterations=10)
    with pytest.raises(ValueError, match="top must be 1 or more, got 0"):
        bot.analyse(veletas.Board(MIDGAME), top=0)
    with pytest.raises(TypeError, match="top must be an int"):
        bot.analyse(veletas.Board(MIDGAME), top=2.0)
    with pytest.raises(ValueError, match="the game is over"):
        bot.analyse(veletas.Board(FINISHED))
    with pytest.raises(TypeError, match="StopFlag"):
        bot.analyse(veletas.Board(MIDGAME), stop="now")


def test_a_small_tree_keeps_its_node_cap() -> None:
    bot = MctsBot(iterations=5000, max_nodes=1000, seed=1)
    bot.choose(veletas.Board(MIDGAME))
    assert bot.last_search is not None
    assert bot.last_search.nodes <= 1000
