"""Tag values of game records: every string a record is given is written so
that it reads back the same (the escapes of docs/records.md), for both
games; and numbers are written in ASCII digits, anything else refused."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
import veletas
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from veletas import meridians, records
from veletas.errors import InvalidRecordError
from veletas.records import GameRecord

# Every code point, lone surrogates included: a Python str may hold them.
ANY_TEXT = st.text(st.characters(codec=None, exclude_categories=()), max_size=40)
SPECIAL = ';"\\]\n\r\t[{}\x00\x0b\x0c\x1c\x85\u2028\u2029\ud800 '


def veletas_game() -> Any:
    board = veletas.Board(variant="small")
    for text in ["*c3", "g7", "swap", "*e5"]:
        board.push_str(text)
    return board


def meridians_game() -> Any:
    board = meridians.Board(size="5-6")
    for text in ["e5", "f6", "e8"]:
        board.push_str(text)
    return board


GAMES = {"veletas": veletas_game, "meridians": meridians_game}


def records_players(game: str) -> tuple[str, str]:
    """The tags naming the players of ``game``."""
    return ("Black", "White") if game == "veletas" else ("Light", "Dark")


def read_back(record: GameRecord, tmp_path: Path | None = None) -> GameRecord:
    """``record`` written and read again, through a text, and through a file
    where ``tmp_path`` is given (files split lines at ``\\r`` too)."""
    [again] = records.read(records.write(record))
    if tmp_path is not None:
        path = tmp_path / "game.txt"
        records.write(record, path)
        [from_file] = records.read(path)
        assert from_file.tags == again.tags
    return again


@pytest.mark.parametrize("game", GAMES)
@settings(suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(black=ANY_TEXT, white=ANY_TEXT, event=ANY_TEXT)
def test_every_tag_value_round_trips(
    game: str, black: str, white: str, event: str, tmp_path: Path
) -> None:
    board = GAMES[game]()
    record = GameRecord.from_board(board, black=black, white=white, date="2025.01.01", Event=event)
    again = read_back(record, tmp_path)
    assert again.tags == record.tags
    assert [str(m) for m in again.moves] == [str(m) for m in board.move_stack]
    assert again.board().fen() == board.fen()


@pytest.mark.parametrize("game", GAMES)
@pytest.mark.parametrize("char", list(SPECIAL), ids=repr)
def test_each_special_character_round_trips(game: str, char: str, tmp_path: Path) -> None:
    name = f"a{char}b{char}"
    record = GameRecord.from_board(GAMES[game](), black=name, white=char, date="2025.01.01")
    text = str(record)
    # Each tag stays on its line, whatever the value holds.
    assert len(text.split("\n\n")[0].splitlines()) == len(record.tags)
    again = read_back(record, tmp_path)
    assert (again.tags[records_players(game)[0]], again.tags[records_players(game)[1]]) == (
        name,
        char,
    )
    assert again.tags == record.tags


def test_values_are_escaped_as_the_format_says() -> None:
    record = GameRecord.from_board(
        veletas_game(), black='say "hi";\\', white="two\nlines\r\t\u2028", date="2025.01.01"
    )
    text = str(record)
    assert '[Black "say \\"hi\\";\\\\"]' in text
    assert '[White "two\\nlines\\r\\t\\u2028"]' in text
    assert records.tag_line("Event", "a;b") == '[Event "a;b"]'


def test_a_semicolon_in_a_value_starts_no_comment() -> None:
    text = str(GameRecord.from_board(meridians_game(), black="Ada", date="2025.01.01"))
    text = text.replace('[Light "Ada"]', '[Light "Ada; and Bo"] ; a comment "with quotes"')
    [again] = records.read(text)
    assert again.tags["Light"] == "Ada; and Bo"
    # A comment still ends a move line, and a tag line after its value.
    text = text.replace("3. e8 *", "3. e8 * ; 4. e9 5. e10")
    assert len(records.read(text)[0].moves) == 3


def test_records_of_the_older_writer_still_read() -> None:
    # It escaped only the backslash and the quote; a backslash before any
    # other character stood for that character.
    text = str(GameRecord.from_board(veletas_game(), date="2025.01.01"))
    text = text.replace('[Black "?"]', '[Black "a \\"b\\" c\\\\d \\x"]')
    [again] = records.read(io.StringIO(text))
    assert again.tags["Black"] == 'a "b" c\\d x'


# -- numbers in ASCII digits only ----------------------------------------------

ARABIC_INDIC_SEVEN = "\u0667"
FULLWIDTH_SEVEN = "\uff17"
SUPERSCRIPT_TWO = "\u00b2"


@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
@pytest.mark.parametrize("tag", ["Size", "Shooters"])
def test_rule_numbers_of_other_scripts_are_refused(
    tag: str, digit: str, backend: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(veletas, "Board", backend.Board)
    board = veletas.Board(variant="small")
    text = str(GameRecord.from_board(board, date="2025.01.01"))
    value = {"Size": "7", "Shooters": "3"}[tag]
    bad = text.replace(f'[{tag} "{value}"]', f'[{tag} "{digit}"]')
    with pytest.raises(InvalidRecordError) as error:
        records.read(bad)
    assert f'bad tag [{tag} "{digit}"]: expected a number of digits 0-9' in str(error.value)
    record = GameRecord({**records.read(text)[0].tags, tag: digit}, [])
    with pytest.raises(InvalidRecordError, match=digit):
        _ = record.rules


@pytest.mark.parametrize("game", GAMES)
def test_move_numbers_of_other_scripts_are_refused(game: str) -> None:
    text = str(GameRecord.from_board(GAMES[game](), date="2025.01.01"))
    bad = text.replace("\n1. ", "\n\u0661. ")
    with pytest.raises(InvalidRecordError, match=re.escape("move 1 '\u0661.' is not a move")):
        records.read(bad)


@pytest.mark.parametrize("size", ["\u0665-6", "5-\uff16"])
def test_meridians_sizes_of_other_scripts_are_refused(size: str) -> None:
    text = str(GameRecord.from_board(meridians_game(), date="2025.01.01"))
    with pytest.raises(InvalidRecordError, match=f'bad tag \\[Size "{size}"\\]'):
        records.read(text.replace('[Size "5-6"]', f'[Size "{size}"]'))


@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
def test_veletas_position_strings_of_other_scripts_are_refused(digit: str, backend: Any) -> None:
    from veletas.errors import InvalidFenError

    for fen in [f"{digit}/7/7/7/7/7/7 w setup 3", f"7/7/7/7/7/7/7 w setup {digit}"]:
        with pytest.raises(InvalidFenError, match=digit):
            backend.Board(fen)


@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
@pytest.mark.parametrize("engine", [meridians.reference.Board, "native"])
def test_meridians_position_strings_of_other_scripts_are_refused(digit: str, engine: Any) -> None:
    from veletas._veletas import MeridiansBoard
    from veletas.errors import InvalidFenError, InvalidMoveError

    board_class = MeridiansBoard if engine == "native" else engine
    with pytest.raises(InvalidFenError, match=digit):
        board_class(f"6/{digit}/8/9/10/10/9/8/7/6 l open")
    with pytest.raises(InvalidMoveError, match="f" + digit):
        board_class().push_str("f" + digit)


# -- numbers of the command line and the other texts read -----------------------


@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
@pytest.mark.parametrize(
    "arguments",
    [
        ["perft", "{}"],
        ["playout", "--games", "{}"],
        ["playout", "--seed", "{}"],
        ["playout", "--threads", "{}"],
        ["perft", "1", "--size", "{}"],
        ["perft", "1", "--size", "7", "--shooters", "{}"],
        ["match", "random", "random", "--games", "{}"],
        ["serve", "--port", "{}"],
        ["play", "--seconds", "{}"],
        ["replay", "x.txt", "--game", "{}"],
    ],
    ids=" ".join,
)
def test_command_line_numbers_of_other_scripts_are_refused(
    arguments: list[str], digit: str, capsys: pytest.CaptureFixture[str]
) -> None:
    from veletas.cli import main

    argv = [argument.format(digit) for argument in arguments]
    try:
        code = main(argv)
    except SystemExit as exit_info:
        code = exit_info.code
    assert code == 2
    assert digit in capsys.readouterr().err


@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
def test_player_options_of_other_scripts_are_refused(digit: str) -> None:
    from veletas.errors import InvalidPlayerError
    from veletas.match import BotSpec

    for spec in [f"mcts:iterations={digit}", f"mcts:seconds={digit}"]:
        with pytest.raises(InvalidPlayerError, match=digit):
            BotSpec.parse(spec)


def test_ascii_numbers() -> None:
    from veletas._checks import ascii_float, ascii_int

    assert (ascii_int(" 12 "), ascii_int("-3"), ascii_float("2.5e1")) == (12, -3, 25.0)
    for text in [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO, "1" + ARABIC_INDIC_SEVEN]:
        with pytest.raises(ValueError, match=text):
            ascii_int(text)
        with pytest.raises(ValueError, match=text):
            ascii_float(text)


@pytest.mark.parametrize("port", [ARABIC_INDIC_SEVEN * 4, SUPERSCRIPT_TWO])
def test_cluster_addresses_of_other_scripts_are_refused(port: str) -> None:
    from veletas import distributed

    with pytest.raises(ValueError, match=port):
        distributed.playouts(10, address=f"127.0.0.1:{port}")


@pytest.mark.native
@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
def test_board_numbers_of_other_scripts_are_refused(digit: str, backend: Any) -> None:
    from veletas._veletas import MeridiansBoard
    from veletas.errors import InvalidRulesError

    for kwargs in [{"size": digit}, {"shooters": digit}]:
        with pytest.raises(InvalidRulesError, match=digit):
            backend.Board(**kwargs)
    for board_class in [MeridiansBoard, meridians.reference.Board]:
        with pytest.raises(InvalidRulesError, match=digit):
            board_class(size=f"{digit}-7")


@pytest.mark.parametrize("digit", [ARABIC_INDIC_SEVEN, FULLWIDTH_SEVEN, SUPERSCRIPT_TWO])
def test_web_numbers_of_other_scripts_are_refused(digit: str) -> None:
    pytest.importorskip("starlette", reason="the serve extra is not installed")
    from veletas.errors import InvalidRulesError
    from veletas.games.veletas import web
    from veletas.serve import app
    from veletas.serve.sessions import ApiError

    with pytest.raises(InvalidRulesError, match=digit):
        web.GAME.new_board({"variant": "custom", "size": digit, "shooters": "3"}, None)
    with pytest.raises(ApiError, match=digit):
        app._ply(digit)


def test_the_players_are_named_by_the_colours_of_the_records_game() -> None:
    record = GameRecord.from_board(meridians_game(), light="me", dark="bot", date="2025.01.01")
    assert (record.tags["Light"], record.tags["Dark"]) == ("me", "bot")
    assert "light" not in record.tags
    assert "dark" not in record.tags
    veletas_record = GameRecord.from_board(veletas_game(), black="Ada", white="Bo")
    assert (veletas_record.tags["Black"], veletas_record.tags["White"]) == ("Ada", "Bo")


@pytest.mark.parametrize(
    ("game", "names", "said"),
    [
        ("meridians", {"lite": "x"}, "'lite' is not a colour of Meridians (light=, dark=)"),
        ("veletas", {"light": "x"}, "'light' is not a colour of Veletas (black=, white=)"),
        ("meridians", {"light": "a", "black": "b"}, "the light player is named twice"),
        ("veletas", {"event": "x"}, "a tag's name starts with a capital"),
    ],
)
def test_unknown_names_are_refused(game: str, names: dict[str, str], said: str) -> None:
    with pytest.raises(InvalidRecordError, match=re.escape(said)):
        GameRecord.from_board(GAMES[game](), **names)


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_every_record_names_its_game_and_older_records_still_read(game: str) -> None:
    record = GameRecord.from_board(GAMES[game](), date="2025.01.01")
    text = str(record)
    assert text.startswith(f'[Game "{record.game}"]\n'), text
    older = text.split("\n", 1)[1]  # as written before every record named its game
    if game == "veletas":
        [again] = records.read(older)
        assert again.board().fen() == record.board().fen()
