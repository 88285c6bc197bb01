"""Game review (``veletas.review``, ``veletas review``) and position analysis
(``veletas analyse``), for both games and for the records that ``veletas
play``, ``veletas match --save`` and the page write; bad input is a typed
error, on the command line one line and no traceback."""

from __future__ import annotations

import io
import os
import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import games, meridians, records
from veletas.cli import main
from veletas.cli.play import Game
from veletas.errors import InvalidRecordError, OutputFileError
from veletas.review import Review, evaluate, review
from veletas.review_page import GENERATOR, curve

WON = "1o5/sx5/xx5/7/3s3/7/1o3oX b play 3"
"""A Veletas position where Black wins at once with one claim."""
BUDGET: dict[str, Any] = {"iterations": 1500, "seconds": None, "seed": 1}
"""A reproducible budget: playouts, no clock."""


def bot_game(board: Any, plies: int, seed: int = 0) -> Any:
    """``board`` after up to ``plies`` moves of a quick bot."""
    bot = veletas.MctsBot(iterations=200, seed=seed)
    for _ in range(plies):
        if board.is_game_over():
            break
        board.push(bot.choose(board))
    return board


def check_consistent(result: Review, record: records.GameRecord) -> None:
    """Every move's chances are the curve's, seen by the mover; mistakes
    follow the rule; seats follow the pie swap."""
    assert len(result.chances) == len(record.moves) + 1
    assert [row.move for row in result.moves] == record.moves
    swapped = False
    for row, board in zip(result.moves, record.boards(), strict=False):
        seat = games.game_of(board).match.seat_to_act(board, swapped)
        assert row.seat == seat
        own = (lambda p: p) if seat == 0 else (lambda p: 1.0 - p)
        assert row.before == pytest.approx(own(result.chances[row.ply - 1]))
        assert row.after == pytest.approx(own(result.chances[row.ply]))
        preferred = row.best is not None and str(row.best) == str(row.move)
        assert row.mistake == (row.drop > result.threshold and not preferred)
        assert 0.0 <= row.before <= 1.0
        assert 0.0 <= row.after <= 1.0
        swapped = swapped or row.move.is_swap


def test_a_veletas_game_with_a_swap() -> None:
    record = records.GameRecord.from_moves(
        veletas.Rules(size=7, shooters=3), ["*c3", "g7", "swap", "*e5", "*d4", "a1"]
    )
    result = review(record, **BUDGET)
    check_consistent(result, record)
    # The swap is the second player's; after it, the first player holds White.
    assert [row.seat for row in result.moves[:4]] == [0, 0, 1, 0]
    assert result.moves[3].colour == "White"
    assert result.game == "Veletas"


def test_a_finished_meridians_game_under_the_pie_rule() -> None:
    board = bot_game(meridians.Board(size="5-6", pie=True), 400, seed=2)
    assert board.is_game_over()
    record = records.GameRecord.from_board(board, black="Ada", white="Bo")
    result = review(record, **BUDGET)
    check_consistent(result, record)
    # The last position is the result itself.
    winner_seat = int(board.winner) ^ any(m.is_swap for m in board.move_stack)
    assert result.chances[-1] == (1.0 if winner_seat == 0 else 0.0)
    assert result.game == "Meridians"
    assert result.moves[0].colour in ("Light", "Dark")


def test_a_move_that_throws_a_win_away_is_a_mistake_and_the_win_is_not() -> None:
    board = veletas.Board(WON)
    winning = veletas.GreedyBot(0).choose(board)
    other = next(m for m in board.legal_moves if m != winning)
    good = review(records.GameRecord.from_moves(board.rules, [winning], start=WON), **BUDGET)
    bad = review(records.GameRecord.from_moves(board.rules, [other], start=WON), **BUDGET)
    # The bot's preferred move wins at once, as the move played does.
    best = board.copy()
    best.push(good.moves[0].best)
    assert best.is_game_over()
    assert best.winner == board.turn
    assert not good.moves[0].mistake
    assert good.moves[0].after == 1.0
    assert bad.moves[0].mistake
    assert bad.moves[0].drop > 0.15
    assert bad.mistakes == [bad.moves[0]]
    table = bad.table()
    assert f"1. {other}" in table
    assert "mistake" in table
    assert f"preferred {bad.moves[0].best}" in table


def test_a_higher_threshold_marks_fewer_mistakes() -> None:
    board = veletas.Board(WON)
    other = next(m for m in board.legal_moves if m != veletas.GreedyBot(0).choose(board))
    record = records.GameRecord.from_moves(board.rules, [other], start=WON)
    drop = review(record, **BUDGET).moves[0].drop
    assert review(record, threshold=min(0.99, drop + 0.01), **BUDGET).mistakes == []


@pytest.mark.parametrize("threshold", [0, 1, -0.1, float("nan"), 1.5])
def test_a_bad_threshold_is_refused(threshold: float) -> None:
    record = records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), [])
    with pytest.raises(ValueError, match="threshold"):
        review(record, threshold=threshold, **BUDGET)


def test_a_budget_is_needed() -> None:
    record = records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), [])
    with pytest.raises(ValueError, match="seconds or iterations"):
        review(record, seconds=None)


def test_progress_counts_the_positions() -> None:
    record = records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), ["*c3", "g7"])
    seen: list[tuple[int, int]] = []
    review(record, progress=lambda done, total: seen.append((done, total)), **BUDGET)
    assert seen == [(1, 3), (2, 3), (3, 3)]


# -- the records of the commands and the page ----------------------------


def play_record(board: Any) -> str:
    """The record ``veletas play`` saves of a game on ``board``, resigned."""
    game = Game(board, [None, None], ["human", "mcts (1 s)"], False)
    game.result = records.result_of(1 - int(board.turn))
    game.termination = "resignation"
    return records.write([game.record()])


def match_record(game: str, tmp_path: Path) -> str:
    path = tmp_path / "match.txt"
    args = ["match", "mcts:iterations=50", "random", "--games", "2", "--game", game]
    args += ["--threads", "1", "--save", str(path)]
    if game == "veletas":
        args += ["--variant", "small"]
    assert main(args) == 0
    return path.read_text()


def page_record(game: str) -> str:
    from starlette.testclient import TestClient
    from veletas.serve import Settings, create_app

    options = {"variant": "small"} if game == "veletas" else {"size": "5-6"}
    settings = Settings(max_games=2, eval_seconds=0.01)
    with TestClient(create_app(settings), base_url="http://127.0.0.1") as client:
        body = {"game": game, "seat": "watch", "iterations": 30, **options}
        made = client.post("/api/games", json=body).json()
        wanted = 6
        for _ in range(2000):
            state = client.get(f"/api/games/{made['id']}").json()
            if len(state["moves"]) >= wanted or state["over"]:
                break
        text: str = client.get(f"/api/games/{made['id']}/record").text
    return text


@pytest.mark.parametrize("game", ["veletas", "meridians"])
@pytest.mark.parametrize("kind", ["play", "match", "page"])
def test_the_records_of_play_match_and_the_page(
    game: str, kind: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if kind == "play":
        start = veletas.Board(variant="small") if game == "veletas" else meridians.Board()
        text = play_record(bot_game(start, 8))
    elif kind == "match":
        text = match_record(game, tmp_path)
    else:
        text = page_record(game)
    capsys.readouterr()
    path = tmp_path / "games.txt"
    path.write_text(text)
    record = records.read(str(path))[0]
    assert record.game == games.get(game).title
    result = review(path, iterations=100, seconds=None)
    check_consistent(result, record)
    assert main(["review", str(path), "--iterations", "100"]) == 0
    out = capsys.readouterr().out
    assert f"{len(record.moves)}  " in out
    assert "mistake(s)" in out


# -- bad records ----------------------------------------------------------


def test_a_corrupted_record_names_the_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    record = records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), ["*c3", "g7"])
    text = str(record).replace("2. g7", "2. z99")
    line = text.splitlines().index(next(ln for ln in text.splitlines() if "z99" in ln)) + 1
    path = tmp_path / "bad.txt"
    path.write_text(text)
    with pytest.raises(InvalidRecordError) as error:
        review(path, **BUDGET)
    assert error.value.line == line
    assert main(["review", str(path), "--iterations", "10"]) == 2
    err = capsys.readouterr().err
    assert f"line {line}" in err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1


def test_a_game_past_the_file_and_a_missing_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "one.txt"
    path.write_text(str(records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), [])))
    with pytest.raises(InvalidRecordError, match="holds 1 game"):
        review(path, number=2, **BUDGET)
    assert main(["review", str(path), "--number", "2", "--iterations", "10"]) == 2
    assert "holds 1 game(s), not 2" in capsys.readouterr().err
    assert main(["review", str(tmp_path / "none.txt")]) == 2
    assert "no such file" in capsys.readouterr().err
    assert main(["review", str(tmp_path)]) == 2
    assert "a directory" in capsys.readouterr().err
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    for command in ("review", "report"):
        assert main([command, str(fifo)]) == 2
        err = capsys.readouterr().err
        assert f"veletas: error: {fifo}: a FIFO, not a file" in err, err


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--threshold", "0"], "between 0 and 1"),
        (["--threshold", "150%"], "between 0 and 1"),
        (["--threshold", "x"], "not a number"),
        (["--seconds", "-1"], "1e-06 to 1e+06, not -1"),
        (["--iterations", "0"], "1 or more"),
        (["--number", "0"], "1 or more"),
    ],
)
def test_bad_options_are_refused(
    args: list[str], said: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "g.txt"
    path.write_text(str(records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), [])))
    with pytest.raises(SystemExit) as exit_info:
        main(["review", str(path), *args])
    assert exit_info.value.code == 2
    assert said in capsys.readouterr().err


# -- the page ---------------------------------------------------------------


def test_the_page_is_self_contained_and_never_overwrites_a_foreign_file(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    board = veletas.Board(WON)
    other = next(m for m in board.legal_moves if m != veletas.GreedyBot(0).choose(board))
    path = tmp_path / "g.txt"
    path.write_text(str(records.GameRecord.from_moves(board.rules, [other], start=WON)))
    out = tmp_path / "page.html"
    assert main(["review", str(path), "--iterations", "1500", "--out", str(out)]) == 0
    page = out.read_text()
    assert f'<meta name="generator" content="{GENERATOR}">' in page
    assert "<svg" in page
    assert "<polyline" in page
    assert 'class="mistake"' in page
    # The position after each mistake, the move marked, with its board's squares.
    assert page.count("<figure") == page.count('<tr class="mistake"') >= 1
    assert "data-square" in page
    # No script, no stylesheet or picture from elsewhere.
    assert "<script" not in page
    assert not re.search(r'(src|href)="(https?:)?//', page)
    # An existing file is kept unless --force, the review's own page too.
    capsys.readouterr()
    assert main(["review", str(path), "--iterations", "10", "--out", str(out)]) == 2
    assert f"{out} exists: add --force" in capsys.readouterr().err
    assert main(["review", str(path), "--iterations", "10", "--out", str(out), "--force"]) == 0
    foreign = tmp_path / "notes.html"
    foreign.write_text("my notes")
    capsys.readouterr()
    assert main(["review", str(path), "--iterations", "10", "--out", str(foreign)]) == 2
    err = capsys.readouterr().err
    assert "--force" in err
    assert str(foreign) in err
    assert foreign.read_text() == "my notes"
    assert main(["review", str(path), "--iterations", "10", "--out", str(foreign), "--force"]) == 0
    assert GENERATOR in foreign.read_text()


def test_review_out_refuses_a_parquet_name(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.txt"
    path.write_text(str(records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), ["*c3"])))
    out = tmp_path / "review.parquet"
    assert main(["review", str(path), "--iterations", "10", "--out", str(out)]) == 2
    assert "name the file .html" in capsys.readouterr().err
    assert not out.exists()


def test_write_page_refuses_a_foreign_file(tmp_path: Path) -> None:
    from veletas.review_page import write_page

    record = records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), ["*c3"])
    result = review(record, **BUDGET)
    foreign = tmp_path / "x.html"
    foreign.write_text("<html>someone else's</html>")
    with pytest.raises(OutputFileError, match="--force"):
        write_page(result, foreign)
    assert write_page(result, foreign, force=True) == foreign


def test_the_curve_skips_positions_not_evaluated_and_marks_mistakes() -> None:
    svg = curve([0.5, None, 0.7, 0.2, 0.4], marks=[3], current=2)
    assert svg.count("<circle") == 4
    assert svg.count('fill="#c62828"') == 1
    assert svg.count("<polyline") == 1  # the lone first point draws no line
    assert 'class="current"' in svg


# -- veletas analyse ----------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "colour"),
    [
        (["7/2x4/7/1s5/7/o1s2s1/7 b play 3"], "Black"),
        (["6/7/8/9/10/10/9/8/7/6 l open", "--game", "meridians"], "Light"),
    ],
)
def test_analyse_lists_the_best_moves(
    args: list[str], colour: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", *args, "--iterations", "2000", "--top", "3"]) == 0
    captured = capsys.readouterr()
    lines = captured.out.splitlines()
    assert lines[0].startswith(f"{colour} to act")
    assert "chance to win" in lines[0]
    ranked = [line for line in lines if re.match(r"\s*\d\. ", line)]
    assert len(ranked) == 3
    board = games.get("meridians" if "meridians" in args else "veletas").api().Board(args[0])
    legal = {str(move) for move in board.legal_moves}
    assert all(line.split()[1] in legal for line in ranked)
    assert "analysing" in captured.err


def test_analyse_finds_the_winning_move(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["analyse", WON, "--iterations", "3000"]) == 0
    first = next(line for line in capsys.readouterr().out.splitlines() if line.startswith(" 1."))
    # Black has two ways to trap the shooter on a6 at once (a7, and
    # a6-a7/a6): the move listed first is one of them.
    board = veletas.Board(WON)
    board.push_str(first.split()[1])
    assert board.winner == veletas.Color.BLACK


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["xx"], "invalid fen 'xx'"),
        (["6/7/8/9/10/10/9/8/7/6 l open", "--game", "veletas"], "invalid fen"),
        (["7/7/7/7/7/7/7 b setup 3", "--game", "meridians"], "invalid fen"),
    ],
)
def test_analyse_refuses_a_bad_position(
    args: list[str], said: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["analyse", *args]) == 2
    err = capsys.readouterr().err
    assert said in err
    assert "Traceback" not in err


def test_analyse_refuses_a_finished_game(capsys: pytest.CaptureFixture[str]) -> None:
    board = veletas.Board(WON)
    board.push(veletas.GreedyBot(0).choose(board))
    assert board.is_game_over()
    assert main(["analyse", board.fen()]) == 2
    assert "the game is over" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["analyse", "review"])
def test_help(command: str, capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main([command, "--help"])
    assert exit_info.value.code == 0
    out = capsys.readouterr().out
    assert "--seconds" in out
    assert "examples:" in out


def test_the_analysis_shows_proven_results_and_the_line_when_the_search_gives_them(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """``MoveStats.proven`` and ``Analysis.principal_variation`` are shown
    when the bot's analysis has them (read by name, so older bots work)."""
    import dataclasses

    from veletas.bots import MctsBot

    original: Callable[..., Any] = MctsBot.analyse

    @dataclasses.dataclass(frozen=True)
    class Proven:
        move: Any
        visits: int
        share: float
        value: float
        proven: str | None

    @dataclasses.dataclass(frozen=True)
    class WithLine:
        moves: list[Any]
        visits: int
        iterations: int
        seconds: float
        principal_variation: list[Any]

    def analyse(self: Any, board: Any, **kwargs: Any) -> Any:
        found = original(self, board, **kwargs)
        moves = [
            Proven(m.move, m.visits, m.share, m.value, "win" if i == 0 else None)
            for i, m in enumerate(found.moves)
        ]
        line = [found.moves[0].move]
        return WithLine(moves, found.visits, found.iterations, found.seconds, line)

    monkeypatch.setattr(MctsBot, "analyse", analyse)
    assert main(["analyse", WON, "--iterations", "500"]) == 0
    out = capsys.readouterr().out
    assert "(proven win)" in out
    assert "line: " in out
    board = veletas.Board(WON)
    other = next(m for m in board.legal_moves if m != veletas.GreedyBot(0).choose(board))
    result = review(records.GameRecord.from_moves(board.rules, [other], start=WON), **BUDGET)
    assert result.moves[0].mistake  # from a proven win to a position that is not
    assert f"(line {result.moves[0].line[0]})" in result.table()
    assert result.moves[0].proven == "win"
    assert result.moves[0].before == 1.0
    assert result.moves[0].line


def test_the_command_line_table_reads_a_record_from_a_text(tmp_path: Path) -> None:
    text = str(records.GameRecord.from_moves(veletas.Rules(size=7, shooters=3), ["*c3"]))
    record = records.read(io.StringIO(text))[0]
    assert "1  first Black  *c3" in review(record, **BUDGET).table()


def test_proven_results_decide_the_chance_and_the_rest_is_the_weighted_mean() -> None:
    import dataclasses

    from veletas.bots import Analysis, MoveStats
    from veletas.review import chance_of

    @dataclasses.dataclass(frozen=True)
    class Proven(MoveStats):
        proven: str | None = None

    board = veletas.Board(WON)
    # The baseline proves nothing, so every move keeps its statistics.
    found = veletas.MctsBot(iterations=2000, seed=1, algorithm="uct").analyse(board, top=1 << 16)
    assert len(found.moves) >= 2
    mean = sum(m.visits * m.value for m in found.moves) / sum(m.visits for m in found.moves)
    assert chance_of(found) == pytest.approx(mean)

    def marked(results: list[str | None]) -> Analysis:
        moves = [
            Proven(m.move, m.visits, m.share, m.value, result)
            for m, result in zip(found.moves, results, strict=False)
        ]
        return Analysis(moves, found.visits, found.iterations, found.seconds)

    many = len(found.moves)
    assert chance_of(marked([None, "win", *[None] * (many - 2)])) == 1.0
    assert chance_of(marked(["loss"] * many)) == 0.0
    assert chance_of(marked(["loss", *[None] * (many - 1)])) == pytest.approx(mean)


@pytest.mark.parametrize(
    ("game", "position", "seed"),
    [
        ("veletas", "7/2x4/7/1s5/7/o1s2s1/7 b play 3", 1),
        ("veletas", "7/2x4/7/1s5/7/o1s2s1/7 b play 3", 2),
        ("meridians", "x6/8/9/10/11/12/12/11/3o6/9/5x2/o6 l play", 1),
    ],
)
def test_the_analysis_and_the_review_name_the_move_the_bot_plays(
    game: str, position: str, seed: int, capsys: pytest.CaptureFixture[str]
) -> None:
    board = games.get(game).api().Board(position)
    played = veletas.MctsBot(iterations=3000, seed=seed).choose(board)
    assert main(["analyse", position, "--iterations", "3000", "--seed", str(seed)]) == 0
    out = capsys.readouterr().out
    assert re.search(rf"^ 1\. {re.escape(str(played))} ", out, re.M), out
    assert re.search(rf"^line: {re.escape(str(played))}\b", out, re.M), out
    evaluation = evaluate(veletas.MctsBot(iterations=3000, seed=seed), board)
    assert evaluation.best == played
    assert evaluation.line[0] == played
