"""One option name, one meaning, in every command: ``--size`` is the board's
size, ``--game`` names the game; the options of one game are refused for
another alike (the rules options come from each game's table)."""

from __future__ import annotations

import pytest
import veletas
from veletas import games, records
from veletas.cli import main

SMALL = "7/7/7/7/7/7/7 b setup 3"
MERIDIANS = "6/7/8/9/10/10/9/8/7/6 l open"


def test_show_takes_the_pictures_width_as_width(tmp_path) -> None:
    picture = tmp_path / "p.svg"
    assert main(["show", SMALL, "--svg", str(picture), "--width", "321"]) == 0
    assert 'width="321"' in picture.read_text()


def test_size_is_the_boards_in_show_and_analyse_too(
    tmp_path, capsys: pytest.CaptureFixture[str]
) -> None:
    meridians = veletas.meridians.Board(size="5-6")
    picture = tmp_path / "p.svg"
    assert main(["show", meridians.fen(), "--game", "meridians", "--size", "5-6"]) == 0
    capsys.readouterr()
    assert main(["show", SMALL, "--size", "7", "--svg", str(picture), "--width", "321"]) == 0
    assert 'width="321"' in picture.read_text()
    assert main(["show", SMALL, "--size", "321"]) == 2
    assert "size 321" in capsys.readouterr().err
    assert main(["analyse", meridians.fen(), "--size", "5-6", "--iterations", "50"]) == 0


def test_a_position_names_its_game_and_options_may_follow_it(
    capsys: pytest.CaptureFixture[str],
) -> None:
    meridians = veletas.meridians.Board(size="5-6").fen()
    assert main(["show", meridians]) == 0
    assert main(["perft", "1", meridians]) == 0
    assert main(["perft", "1", "--game", "meridians", meridians]) == 0
    assert main(["perft", "1", "--size", "5-6", meridians, "--divide"]) == 0
    out = capsys.readouterr().out
    assert out.count("perft(1) = ") == 3, out
    assert main(["show", "7/7/7 b"]) == 2
    err = capsys.readouterr().err
    assert "is a position of no game: as a Veletas position" in err, err
    assert "as a Meridians position" in err, err


def _two_games(tmp_path) -> str:
    board = veletas.Board(variant="small")
    bot = veletas.RandomBot(3)
    while not board.is_game_over():
        board.push(bot.choose(board))
    path = tmp_path / "g.txt"
    records.write(
        [records.GameRecord.from_board(veletas.Board(variant="small"))] * 1
        + [records.GameRecord.from_board(board)],
        path,
    )
    return str(path)


def test_replay_takes_the_games_number_as_number(tmp_path, capsys) -> None:
    path = _two_games(tmp_path)
    assert main(["replay", path, "--number", "2", "--all", "--no-color"]) == 0
    captured = capsys.readouterr()
    assert "deprecated" not in captured.err
    assert "[0/0]" not in captured.out  # game 2 has moves; game 1 has none
    assert main(["replay", path, "--number", "3"]) == 2
    assert "--number 3: " in capsys.readouterr().err


def test_replay_game_still_gives_the_number_and_says_it_is_deprecated(tmp_path, capsys) -> None:
    path = _two_games(tmp_path)
    assert main(["replay", path, "--game", "2", "--all", "--no-color"]) == 0
    captured = capsys.readouterr()
    assert "--game is deprecated here; use --number" in captured.err
    assert "[0/0]" not in captured.out


COMMANDS = {
    "perft": ["perft", "1"],
    "playout": ["playout", "--games", "3"],
    "match": ["match", "random", "random", "--games", "2"],
    "play": ["play", "--bot", "random"],
    "show": ["show", MERIDIANS],
}
"""A command line of each command that takes the game's rules options."""


def _foreign_options() -> list[tuple[str, str, list[str]]]:
    """For each game, each option of another game it lacks, as a flag with a value."""
    cases = []
    for game in games.GAMES.values():
        own = {option.name for option in game.options.RULES}
        for other in games.GAMES.values():
            for option in other.options.RULES:
                if option.name in own:
                    continue
                value = [] if option.switch else [(option.choices or ("5",))[-1]]
                cases.append((game.name, option.flag, [option.flag, *value]))
    return cases


FOREIGN = _foreign_options()


def test_every_game_lacks_some_option_of_another() -> None:
    assert {game for game, _, _ in FOREIGN} == set(games.GAMES)


@pytest.mark.parametrize("command", list(COMMANDS))
@pytest.mark.parametrize(("game", "flag", "given"), FOREIGN)
def test_every_command_refuses_the_options_of_another_game_alike(
    command: str, game: str, flag: str, given: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    args = [*COMMANDS[command], "--game", game, *given]
    if command == "show" and game != "meridians":
        args[1] = SMALL
    assert main(args) == 2
    err = capsys.readouterr().err
    assert f"{flag}: " in err
    assert f"not for --game {game}" in err


def test_play_refuses_a_veletas_variant_for_meridians(capsys) -> None:
    assert main(["play", "--game", "meridians", "--variant", "small"]) == 2
    assert "--variant: Veletas options, not for --game meridians" in capsys.readouterr().err
