"""The search's algorithms: the solver's proofs and principal variation in
the analysis, and plain UCT, the baseline, kept under ``uct``."""

from __future__ import annotations

import pickle
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import MctsBot
from veletas.errors import InvalidPlayerError
from veletas.match import BotSpec

# Black, with one claim, wins by shooting onto a7.
WIN_IN_ONE = "1o5/sx5/xx5/7/3s3/7/1o3oX b play 3"


def _won_in_one(new_board: Any, seed: int) -> Any:
    """The latest position of a random game with a move that wins at once,
    or None."""
    board = new_board()
    bot = veletas.RandomBot(seed)
    positions = []
    while not board.is_game_over():
        positions.append(board.copy())
        board.push(bot.choose(board))
    for before in reversed(positions[-8:]):
        for move in before.legal_moves:
            after = before.copy()
            after.push(move)
            if after.is_game_over() and after.winner == before.turn:
                return before
    return None


def test_the_analysis_gives_the_proofs_and_the_principal_variation() -> None:
    board = veletas.Board(WIN_IN_ONE)
    analysis = MctsBot(iterations=4000, seed=1).analyse(board, top=3)
    best = analysis.moves[0]
    assert best.proven == "win"
    assert analysis.principal_variation[0] == best.move
    after = board.copy()
    after.push(best.move)
    assert after.winner == veletas.Color.BLACK
    # Plain UCT proves nothing.
    plain = MctsBot(iterations=4000, seed=1, algorithm="uct").analyse(board, top=3)
    assert all(stats.proven is None for stats in plain.moves)


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_the_solver_proves_a_last_move_of_a_random_game(game: str) -> None:
    def new_board() -> Any:
        if game == "veletas":
            return veletas.Board(variant="small")
        return veletas.meridians.Board(size="5-6")

    checked = 0
    for seed in range(20):
        before = _won_in_one(new_board, seed)
        if before is None:
            continue
        checked += 1
        bot = MctsBot(iterations=3000, seed=seed)
        analysis = bot.analyse(before, top=1000)
        won = {stats.move for stats in analysis.moves if stats.proven == "win"}
        assert won, f"no proven win in {before.fen()}"
        for stats in analysis.moves:
            if stats.proven == "loss":
                after = before.copy()
                after.push(stats.move)
                assert not (after.is_game_over() and after.winner == before.turn)
        # The bot plays a proven win (not always the quickest).
        assert bot.choose(before) in won
    assert checked >= (4 if game == "veletas" else 1)


def test_the_principal_variation_is_a_legal_line() -> None:
    board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    analysis = MctsBot(iterations=5000, seed=2).analyse(board)
    assert analysis.principal_variation, "5000 iterations go a whole turn deep"
    line = board.copy()
    for move in analysis.principal_variation:
        assert move in line.legal_moves
        line.push(move)


def test_uct_and_mcts_are_options_of_the_bot_and_the_spec() -> None:
    assert MctsBot().algorithm == "mcts"
    bot = MctsBot(iterations=10, algorithm="uct")
    assert repr(bot) == "MctsBot(iterations=10, threads=1, seed=0, algorithm='uct')"
    copy = pickle.loads(pickle.dumps(bot))
    assert copy.algorithm == "uct"
    assert copy.iterations == 10
    with pytest.raises(ValueError, match="algorithm must be 'mcts' or 'uct', got 'rave'"):
        MctsBot(algorithm="rave")
    spec = BotSpec.parse("uct:iterations=300,threads=2")
    assert str(spec) == "uct:iterations=300,threads=2"
    assert not spec.reproducible
    made = spec.make(5)
    assert isinstance(made, MctsBot)
    assert (made.algorithm, made.iterations, made.threads, made.seed) == ("uct", 300, 2, 5)
    assert BotSpec.parse("uct:iterations=300").reproducible
    timed = BotSpec.parse("uct:seconds=0.5").make(0)
    assert isinstance(timed, MctsBot)
    assert timed.seconds == 0.5
    default = BotSpec.parse("mcts").make(0)
    assert isinstance(default, MctsBot)
    assert default.algorithm == "mcts"
    with pytest.raises(InvalidPlayerError, match="threads must be a whole number of 1 to 256"):
        BotSpec.parse("mcts:threads=0")


def test_uct_and_mcts_play_the_same_until_something_is_proven() -> None:
    # At the start of a game nothing is proven within a few hundred
    # iterations, so the two searches, both playing out to the end, run the
    # same iterations.
    board = veletas.Board()
    for seed in range(3):
        uct = MctsBot(iterations=300, seed=seed, algorithm="uct").analyse(board, top=10)
        mcts = MctsBot(iterations=300, seed=seed, cutoff=0).analyse(board, top=10)
        assert [(m.move, m.visits, m.value) for m in uct.moves] == [
            (m.move, m.visits, m.value) for m in mcts.moves
        ]
        assert all(m.proven is None for m in mcts.moves)
