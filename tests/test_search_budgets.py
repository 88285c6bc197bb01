"""Search budgets (seconds, iterations) are checked once, against the stated
limits of ``veletas.limits``, at every entry point: the bot, its native
core, the player specs, the commands and the server's settings. A search too
short to try a move still answers, and says so."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import _veletas, limits
from veletas.bots import MctsBot
from veletas.cli import main
from veletas.errors import InvalidPlayerError, LimitError
from veletas.review import evaluate, review
from veletas.review_page import page

PLAY = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
"""A 7x7 position in play: a whole move there is three decisions, so that a
search of a few iterations ends before it completes one."""


@pytest.mark.parametrize(
    "budget",
    [
        {"seconds": 1e308},
        {"seconds": limits.MAX_SECONDS * 1.5},
        {"seconds": 1e-320},
        {"seconds": 0},
        {"seconds": -1.0},
        {"seconds": math.inf},
        {"seconds": math.nan},
        {"iterations": 2**64},
        {"iterations": limits.MAX_ITERATIONS + 1},
        {"iterations": 0},
    ],
    ids=repr,
)
def test_a_budget_past_the_limits_is_a_limit_error(budget: dict[str, Any]) -> None:
    with pytest.raises(LimitError, match=next(iter(budget))):
        MctsBot(**budget)


@pytest.mark.parametrize("max_nodes", [0, limits.MAX_TREE_NODES + 1, 10**30])
def test_a_tree_past_the_limits_is_a_limit_error(max_nodes: int) -> None:
    with pytest.raises(LimitError, match="max_nodes must be 1 to 2,147,483,648"):
        MctsBot(iterations=10, max_nodes=max_nodes)
    with pytest.raises(LimitError, match="max_nodes must be 1 to 2147483648"):
        _veletas.MctsPlayer(max_nodes=min(max_nodes, 2**64 - 1))


def test_a_budget_of_the_wrong_type_is_a_type_error() -> None:
    with pytest.raises(TypeError, match="seconds"):
        MctsBot(seconds="1")  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="iterations"):
        MctsBot(iterations=1.5)  # type: ignore[arg-type]


def test_the_limits_themselves_are_allowed() -> None:
    assert MctsBot(seconds=limits.MAX_SECONDS).seconds == limits.MAX_SECONDS
    assert MctsBot(seconds=limits.MIN_SECONDS).seconds == limits.MIN_SECONDS
    assert MctsBot(iterations=limits.MAX_ITERATIONS).iterations == limits.MAX_ITERATIONS
    assert MctsBot(iterations=1, max_nodes=limits.MAX_TREE_NODES).choose(veletas.Board(PLAY))


@pytest.mark.parametrize("native", [_veletas.MctsPlayer, _veletas.MeridiansMctsPlayer])
@pytest.mark.parametrize(
    "budget", [{"seconds": 1e308}, {"seconds": 1e-320}, {"iterations": 10**13}], ids=repr
)
def test_the_native_core_refuses_the_same_budgets(native: Any, budget: dict[str, Any]) -> None:
    board = veletas.Board(variant="small") if native is _veletas.MctsPlayer else None
    if board is None:
        board = veletas.meridians.Board()
    position = veletas.bots._position(board)
    with pytest.raises(LimitError, match=next(iter(budget))):
        native().choose(position.fen, *position.options, position.swapped, **budget)


@pytest.mark.parametrize(
    "spec", ["mcts:seconds=1e308", "uct:seconds=1e-320", "mcts:iterations=18446744073709551616"]
)
def test_a_player_spec_past_the_limits_is_refused(spec: str) -> None:
    with pytest.raises(InvalidPlayerError, match="to 1"):
        veletas.players.parse_player(spec)


@pytest.mark.parametrize(
    "argv",
    [
        ["analyse", PLAY, "--seconds", "1e30"],
        ["analyse", PLAY, "--iterations", "1e13"],
        ["review", "game.txt", "--seconds", "1e308"],
        ["match", "mcts:seconds=1e308", "random", "--variant", "small"],
        ["play", "--seconds", "1e308"],
        ["serve", "--max-seconds", "1e308"],
        ["serve", "--eval-seconds", "1e-320"],
        ["serve", "--max-iterations", "1e13"],
    ],
    ids=" ".join,
)
def test_a_command_with_a_budget_past_the_limits_says_so(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    try:
        code = main(argv)
    except SystemExit as raised:  # argparse's refusal
        code = raised.code
    assert code == 2
    err = capsys.readouterr().err
    assert "Traceback" not in err
    assert "to 1e+06" in err or "to 1,000,000,000,000" in err, err


def raised() -> veletas.bots.StopFlag:
    """A stop flag raised before the search: it runs no iteration, as a
    search whose clock ran out at once."""
    stop = veletas.bots.StopFlag()
    stop.set()
    return stop


@pytest.fixture
def stopped_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every analysis ends before its first iteration."""
    analyse = MctsBot.analyse

    def at_once(self: MctsBot, board: Any, *, top: int = 5, stop: Any = None) -> Any:
        return analyse(self, board, top=top, stop=raised())

    monkeypatch.setattr(MctsBot, "analyse", at_once)


def test_a_search_too_short_to_try_a_move_still_answers() -> None:
    board = veletas.Board(PLAY)
    analysis = MctsBot(iterations=5, seed=1).analyse(board, stop=raised())
    assert (analysis.moves, analysis.principal_variation) == ([], [])
    evaluation = evaluate(MctsBot(iterations=5, seed=1), board, stop=raised())
    assert (evaluation.chance, evaluation.best, evaluation.known) == (0.5, None, False)
    assert MctsBot(iterations=1, seed=1).choose(board) in board.legal_moves


def test_the_smallest_budget_still_names_the_move_played() -> None:
    board = veletas.Board(PLAY)
    for iterations in (1, 2, 5):
        analysis = MctsBot(iterations=iterations, seed=1).analyse(board)
        assert analysis.moves[0].move == MctsBot(iterations=iterations, seed=1).choose(board)


@pytest.mark.usefixtures("stopped_at_once")
def test_analyse_says_when_the_search_tried_no_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", PLAY, "--iterations", "5"]) == 0
    out = capsys.readouterr().out
    assert "the search ended before it tried a whole move" in out, out


@pytest.mark.usefixtures("stopped_at_once")
def test_a_review_too_short_to_try_a_move_marks_no_mistake(tmp_path: Path) -> None:
    record = veletas.records.GameRecord.from_moves(
        veletas.Rules(size=7, shooters=3), ["*c3", "g7", "swap", "*e5", "*d4", "a1", "c3-c4/c5"]
    )
    result = review(record, iterations=2, seconds=None)
    unknown = [row for row in result.moves if row.best is None]
    assert unknown, "no position went unsearched: the budget is not small enough"
    assert not any(row.mistake for row in unknown)
    assert "no move tried in time" in result.table()
    assert "no move tried in time" in page(result)
    path = tmp_path / "game.txt"
    path.write_text(str(record))
    assert main(["review", str(path), "--iterations", "2"]) == 0
