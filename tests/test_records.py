"""Game records: round trips for every variant and rule option, and corrupted records."""

from __future__ import annotations

import io
import itertools

import pytest
import veletas
from veletas import InvalidRecordError, records
from veletas.records import GameRecord

RULE_OPTIONS = list(
    itertools.product(["small", "medium", "standard"], ["perimeter", "spacing"], [False, True])
)


def random_game(variant: str, setup_rule: str, shooters_block: bool, seed: int) -> veletas.Board:
    board = veletas.Board(variant=variant, setup_rule=setup_rule, shooters_block=shooters_block)
    bot = veletas.RandomBot(seed)
    while not board.is_game_over():
        board.push(bot.choose(board))
    return board


@pytest.mark.parametrize(("variant", "setup_rule", "shooters_block"), RULE_OPTIONS)
def test_random_games_round_trip(variant: str, setup_rule: str, shooters_block: bool) -> None:
    boards = [random_game(variant, setup_rule, shooters_block, seed) for seed in range(3)]
    games = [
        GameRecord.from_board(board, black=f"b{k}", white=f"w{k}", date="2025.01.02")
        for k, board in enumerate(boards)
    ]
    text = records.write(games)
    again = records.read(text)
    assert len(again) == len(boards)
    for board, game, record in zip(boards, games, again, strict=True):
        assert record.board().fen() == board.fen()
        assert record.result == game.result
        assert record.result == ("1-0" if board.winner == veletas.BLACK else "0-1")
        assert record.winner == board.winner
        assert record.tags == game.tags
        assert record.rules == board.rules
        assert record.tags["Swapped"] == str(any(m.is_swap for m in board.move_stack)).lower()
        assert [str(m) for m in record.moves] == [str(m) for m in board.move_stack]
    assert records.write(again) == text


def test_files_paths_and_open_files(tmp_path) -> None:
    board = random_game("small", "perimeter", False, 7)
    game = GameRecord.from_board(board, black="Ada", white="Bo")
    path = tmp_path / "games.txt"
    text = records.write([game, game], path)
    assert path.read_text() == text
    assert [r.board().fen() for r in records.read(path)] == [board.fen()] * 2
    assert len(records.read(str(path))) == 2
    buffer = io.StringIO()
    records.write(game, buffer)
    buffer.seek(0)
    assert records.read(buffer)[0].tags == game.tags


def test_replay_walks_through_the_positions() -> None:
    board = random_game("small", "spacing", False, 2)
    record = GameRecord.from_board(board)
    boards = list(record.boards())
    assert len(boards) == len(board.move_stack) + 1
    assert boards[0].fen() == "7/7/7/7/7/7/7 b setup 3"
    assert boards[-1].fen() == board.fen()
    assert record.board(3).fen() == boards[3].fen()
    with pytest.raises(IndexError):
        record.board(len(board.move_stack) + 1)


def test_from_moves_takes_rules_and_move_texts() -> None:
    """The conversion of (rules, moves) pairs, such as batch playout records."""
    board = random_game("medium", "perimeter", True, 4)
    moves = [str(m) for m in board.move_stack]
    record = GameRecord.from_moves(board.rules, moves, black="p", white="q")
    assert record.board().fen() == board.fen()
    assert records.read(records.write(record))[0].board().fen() == board.fen()


def test_a_game_from_a_position_carries_its_fen() -> None:
    start = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    board = veletas.Board(start)
    board.push_str("c2-c3/c2")
    record = GameRecord.from_board(board, start=start, swapped=True)
    assert record.tags["FEN"] == start
    assert 'FEN "7/2x4' in str(record)
    [again] = records.read(str(record))
    assert again.start == start
    assert again.board().fen() == board.fen()
    assert again.tags["Swapped"] == "true"


def test_results_resignations_and_extra_tags() -> None:
    board = veletas.Board(variant="small")
    board.push_str("*c3")
    record = GameRecord.from_board(board, result="0-1", Termination="resignation")
    [again] = records.read(str(record))
    assert again.result == "0-1"
    assert again.winner == veletas.WHITE
    assert again.tags["Termination"] == "resignation"
    unfinished = GameRecord.from_board(board)
    assert unfinished.result == "*"
    assert unfinished.winner is None
    with pytest.raises(InvalidRecordError, match="result 'draw'"):
        GameRecord.from_board(board, result="draw")
    won = random_game("small", "perimeter", False, 1)
    wrong = "0-1" if won.winner == veletas.BLACK else "1-0"
    with pytest.raises(InvalidRecordError, match="contradicts"):
        GameRecord.from_board(won, result=wrong)


def test_tag_values_with_quotes_survive() -> None:
    board = veletas.Board(variant="small")
    record = GameRecord.from_board(board, black='Ann "the Vane" Lee', white="B\\C")
    [again] = records.read(str(record))
    assert again.tags["Black"] == 'Ann "the Vane" Lee'
    assert again.tags["White"] == "B\\C"


def sample() -> tuple[str, veletas.Board]:
    """A record of two games whose second game has at least 17 moves."""
    first = random_game("small", "perimeter", False, 11)
    second = random_game("standard", "perimeter", False, 12)
    assert len(second.move_stack) >= 17
    games = [GameRecord.from_board(b, date="2025.01.01") for b in (first, second)]
    return records.write(games), second


def line_of(text: str, needle: str, after: int = 0) -> int:
    lines = text.splitlines()
    for number, line in enumerate(lines[after:], start=after + 1):
        if needle in line:
            return number
    raise AssertionError(needle)


def test_an_illegal_move_at_move_17_names_the_line_and_the_move() -> None:
    text, board = sample()
    second_start = line_of(text, '[Variant "standard"]')
    move_17 = board.move_stack[16]
    # A stone onto the square of an earlier stone: well formed, never legal.
    occupied = next(m for m in board.move_stack[:16] if not m.is_shooter and not m.is_swap)
    bad = str(occupied.target and veletas.square_name(occupied.target))
    token = f"17. {move_17} "
    line = line_of(text, token, after=second_start)
    corrupted = text.replace(token, f"17. {bad} ", 1) if text.count(token) == 1 else None
    if corrupted is None:  # the same text in the first game: replace in the second only
        lines = text.splitlines()
        lines[line - 1] = lines[line - 1].replace(token, f"17. {bad} ", 1)
        corrupted = "\n".join(lines)
    with pytest.raises(InvalidRecordError) as info:
        records.read(corrupted)
    error = info.value
    assert error.line == line
    assert error.move == bad
    assert f"line {line}" in str(error)
    assert f"move 17 {bad!r} is illegal" in str(error)


@pytest.mark.parametrize(
    ("old", "new", "message"),
    [
        ('[Size "10"]', '[Size "12"]', 'bad tag [Size "12"]: expected 5 to 10'),
        ('[Size "10"]', '[Size "ten"]', 'bad tag [Size "ten"]: expected a number'),
        ('[Shooters "7"]', '[Shooters "8"]', "bad tag [Shooters]"),
        ('[Variant "standard"]', '[Variant "huge"]', 'bad tag [Variant "huge"]'),
        ('[Variant "standard"]', '[Variant "small"]', 'bad tag [Variant "small"]: it has N = 7'),
        ('[SetupRule "perimeter"]', '[SetupRule "edges"]', 'bad tag [SetupRule "edges"]'),
        ('[ShootersBlock "false"]', '[ShootersBlock "no"]', 'bad tag [ShootersBlock "no"]'),
        ('[Swapped "', '[Swapped "maybe" ', "bad tag"),
        ('[Date "2025.01.01"]', "[Date 2025.01.01]", "bad tag '[Date 2025.01.01]'"),
        ('[Date "2025.01.01"]', '[Black "again"]', "tag 'Black' appears twice"),
    ],
)
def test_a_bad_tag_names_its_line(old: str, new: str, message: str) -> None:
    text, _ = sample()
    second_start = line_of(text, '[Variant "standard"]')
    lines = text.splitlines()
    line = line_of(text, old, after=second_start - 1)
    lines[line - 1] = lines[line - 1].replace(old, new)
    with pytest.raises(InvalidRecordError) as info:
        records.read("\n".join(lines))
    assert message in str(info.value)
    assert info.value.line == line
    assert str(info.value).startswith(f"line {line}: ")


def test_bad_move_text_names_the_line_and_the_move() -> None:
    text = '[Variant "small"]\n[Result "*"]\n\n1. *c3 2. a1\n3. e4-e5 *\n'
    with pytest.raises(InvalidRecordError) as info:
        records.read(text)
    assert info.value.line == 5
    assert info.value.move == "e4-e5"
    assert "move 3 'e4-e5' is not a move" in str(info.value)


@pytest.mark.parametrize(
    ("text", "line", "message"),
    [
        ('[Variant "small"]\n[Result "*"]\n\n1. *c3 3. a1 *', 4, "move number '3.', expected 2."),
        # More digits than int() reads (a fuzzing finding: it raised ValueError).
        ('[Variant "small"]\n[Result "*"]\n\n1. *c3 ' + "2" * 5000 + ". a1 *", 4, "expected 2."),
        ('[Variant "small"]\n[Result "*"]\n\n' + "0" * 5000 + "1. *c3 *", 4, "expected 1."),
        ('[Variant "small"]\n[Result "*"]\n\n1. *c3 2. a1', 4, "do not end with a result"),
        ('[Variant "small"]\n[Result "*"]\n\n1. *c3 1-0', 4, "end with '1-0' but"),
        ('[Variant "small"]\n[Result "*"]\n\n1. *c3 * 2. a1', 4, "after the result"),
        ('[Variant "small"]\n[Result "won"]\n\n*', 2, 'bad tag [Result "won"]'),
        ('[Variant "small"]\n\n1. *c3 *', 1, "no [Result] tag"),
        ('[Result "*"]\n\n*', 1, "no [Size] tag"),
        ('1. *c3 *\n[Variant "small"]', 1, "moves before any tag"),
        (
            '[Variant "small"]\n[Swapped "false"]\n[Result "*"]\n\n1. *c3 2. a1 3. swap *',
            2,
            '[Swapped "false"] but the moves include swap',
        ),
        (
            '[Variant "small"]\n[Swapped "true"]\n[Result "*"]\n\n1. *c3 *',
            2,
            '[Swapped "true"] but no move is a swap',
        ),
    ],
)
def test_corrupted_move_text_and_results(text: str, line: int, message: str) -> None:
    with pytest.raises(InvalidRecordError) as info:
        records.read(text)
    assert message in str(info.value)
    assert info.value.line == line


def test_a_result_that_contradicts_the_final_position_is_refused() -> None:
    board = random_game("small", "perimeter", False, 3)
    text = str(GameRecord.from_board(board))
    final = "1-0" if board.winner == veletas.BLACK else "0-1"
    other = "0-1" if final == "1-0" else "1-0"
    corrupted = text.replace(f'[Result "{final}"]', f'[Result "{other}"]').replace(
        f" {final}", f" {other}"
    )
    with pytest.raises(InvalidRecordError, match="the final position is won"):
        records.read(corrupted)


def test_comments_and_blank_lines_are_skipped() -> None:
    text = (
        '; a file of one game\n[Variant "small"]\n[Result "*"]\n\n'
        "1. *c3 {the centre} 2. a1 ; a corner\n\n3. swap *\n"
    )
    [record] = records.read(text)
    assert [str(m) for m in record.moves] == ["*c3", "a1", "swap"]
    assert record.tags == {"Variant": "small", "Result": "*"}
    assert record.rules == veletas.Rules.make("small")
