"""The play, replay and show commands; a whole game typed through a pseudo-terminal."""

from __future__ import annotations

import re
import sys

import pexpect
import pytest
import veletas
from terminal_play import play_to_the_end
from veletas import records
from veletas.cli import main
from veletas.cli.draw import board_text
from veletas.games.veletas.terminal import moves_text

PROMPT = r"\((black|white)\)> "
POSITION = re.compile(r"position: (\S+ [bw] \w+ \d+)")


def last_position(text: str) -> str:
    return POSITION.findall(text)[-1]


def test_a_whole_game_against_a_bot_through_a_terminal(tmp_path) -> None:
    """Second seat against the random bot: a typo, the pie decision (swap),
    an illegal move, `moves`, an `undo`, then greedy moves to the end; the
    saved record replays to the final position."""
    save = tmp_path / "game.txt"
    child = pexpect.spawn(
        sys.executable,
        [
            "-m",
            "veletas.cli",
            "play",
            "--variant",
            "small",
            "--bot",
            "random",
            "--seed",
            "5",
            "--as",
            "second",
            "--save",
            str(save),
            "--no-color",
        ],
        encoding="utf-8",
        timeout=60,
        dimensions=(50, 200),
    )
    chooser = veletas.GreedyBot(9)

    # The bot sets up Black; then the pie decision is offered.
    child.expect("Pie rule: you may swap")
    child.expect(PROMPT)
    child.sendline("swapp")
    child.expect("'swapp' is not a move or a command")
    child.expect(PROMPT)
    child.sendline("yes")

    # The bot, now White, sets up; then it is our turn as Black.
    child.expect(PROMPT)
    fen = last_position(child.before)
    assert fen.endswith("b play 3"), fen
    child.sendline("swap")
    child.expect("\r?\nillegal move 'swap'")
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect("legal moves")
    child.expect(PROMPT)

    final = play_to_the_end(
        child, fen, lambda fen: chooser.choose(veletas.Board(fen)), PROMPT, last_position
    )
    child.expect("saved the record")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    [record] = records.read(save)
    assert record.board().fen() == final
    assert record.tags["Swapped"] == "true"
    assert record.tags["Black"] == "human"
    assert record.tags["White"] == "random"
    winner = record.board().winner
    assert record.result == ("1-0" if winner == veletas.BLACK else "0-1")


def test_two_bots_play_a_saved_game(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    save = tmp_path / "bots.txt"
    args = [
        "play",
        "--variant",
        "small",
        "--bot",
        "greedy",
        "--bot2",
        "random",
        "--save",
        str(save),
    ]
    assert main(args) == 0
    # The file exists: kept unless --append (or --force) says what to do.
    assert main([*args[:-2], "--seed", "3", "--save", str(save)]) == 2
    assert f"{save} exists: add --force to replace it, or --append" in capsys.readouterr().err
    assert main([*args[:-2], "--seed", "3", "--save", str(save), "--append"]) == 0
    out = capsys.readouterr().out
    assert "greedy plays" in out
    assert "random plays" in out
    games = records.read(save)
    assert len(games) == 2
    for game in games:
        assert game.board().is_game_over()
        assert {game.tags["Black"], game.tags["White"]} == {"greedy", "random"}


def test_the_mcts_bot_shows_its_thinking(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "--variant", "small", "--bot", "mcts", "--seconds", "0.01", "--bot2", "random"]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert re.search(
        r"mcts \(0.01 s\) plays \S+.* after \d+\.\d\d s \(\d+ playouts, \d+% to win\)", out
    )


def test_moves_are_listed_summarised_and_filtered() -> None:
    board = veletas.Board(variant="small")
    assert moves_text(board, None).startswith("25 legal moves:")
    play = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    summary = moves_text(play, None)
    assert summary.startswith(f"{len(play.legal_moves)} legal moves.")
    assert "Shooters that can move" in summary
    around = moves_text(play, "c2")
    count = sum(
        1
        for m in play.legal_moves
        if veletas.parse_square("c2") in (m.origin, m.destination, m.target)
    )
    assert around.startswith(f"{count} legal moves involve c2:")
    assert "is not a square" in moves_text(play, "z9")


def test_the_board_is_drawn_in_colour_or_plain() -> None:
    board = veletas.Board("1o5/Xx5/xx5/7/3s3/7/1o3oO w play 3")
    plain = board_text(board, color=False)
    assert plain == str(board)
    coloured = board_text(board, color=True, lastmove=veletas.Move.parse("a7"))
    assert "\x1b[" in coloured
    assert coloured.count("\u25c6") == 1  # one unclaimed shooter
    assert re.sub(r"\x1b\[[0-9;]*m", "", coloured).splitlines()[-1].split() == list("abcdefg")


def test_show_prints_and_draws(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    fen = "1o5/Xx5/xx5/7/3s3/7/1o3oO w play 3"
    assert main(["show", fen, "--no-color"]) == 0
    out = capsys.readouterr().out
    assert str(veletas.Board(fen)) in out
    svg = tmp_path / "p.svg"
    assert main(["show", fen, "--svg", str(svg), "--lastmove", "a7"]) == 0
    assert svg.read_text().startswith("<svg")
    assert main(["show", "7/7 b setup 3"]) == 2
    assert "'7/7 b setup 3'" in capsys.readouterr().err


def test_replay_prints_every_position(tmp_path, capsys: pytest.CaptureFixture[str]) -> None:
    board = veletas.Board(variant="small")
    bot = veletas.RandomBot(1)
    while not board.is_game_over():
        board.push(bot.choose(board))
    path = tmp_path / "g.txt"
    records.write([records.GameRecord.from_board(board)] * 2, path)
    assert main(["replay", str(path), "--game", "2", "--all", "--no-color"]) == 0
    out = capsys.readouterr().out
    positions = POSITION.findall(out)
    assert len(positions) == len(board.move_stack) + 1
    assert positions[-1] == board.fen()
    assert main(["replay", str(path), "--game", "3"]) == 2
    assert "holds 2 game(s)" in capsys.readouterr().err


def test_replay_steps_forward_and_back(tmp_path) -> None:
    board = veletas.Board(variant="small")
    for text in ["*c3", "g7", "*e5"]:
        board.push_str(text)
    path = tmp_path / "g.txt"
    records.write(records.GameRecord.from_board(board), path)
    child = pexpect.spawn(
        sys.executable,
        ["-m", "veletas.cli", "replay", str(path), "--no-color"],
        encoding="utf-8",
        timeout=30,
    )
    child.expect(r"\[0/3\] start")
    child.sendline("")
    child.expect(r"\[1/3\] 1\. \*c3")
    child.sendline("n")
    child.expect(r"\[2/3\] 2\. g7")
    child.sendline("p")
    child.expect(r"\[1/3\]")
    child.sendline("q")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0


def test_a_corrupted_record_is_an_error_of_the_command(tmp_path, capsys) -> None:
    path = tmp_path / "bad.txt"
    path.write_text('[Variant "small"]\n[Result "*"]\n\n1. *a1 *\n')
    assert main(["replay", str(path)]) == 2
    assert "line 4: move 1 '*a1' is illegal" in capsys.readouterr().err


@pytest.mark.parametrize(("command", "variant"), [("play", "small"), ("playout", "standard")])
def test_help_gives_the_variant_played_by_default(
    capsys: pytest.CaptureFixture[str], command: str, variant: str
) -> None:
    with pytest.raises(SystemExit):
        main([command, "--help"])
    help_text = " ".join(capsys.readouterr().out.split())
    played = veletas.cli.build_parser().parse_args([command]).variant
    assert played == variant
    assert f"small (7x7, 3); default {played}" in help_text


def status_lines(out: str) -> list[str]:
    return [line for line in out.splitlines() if "; claims: black " in line]


@pytest.mark.parametrize(
    ("fen", "status"),
    [
        ("7/7/7/7/7/7/7 b setup 3", "Black to act, setup phase; claims: black 0, white 0"),
        ("7/2x4/7/1s5/7/o1s2s1/7 w play 3", "White to act, play phase; claims: black 0, white 0"),
        ("1o5/Xx5/xx5/7/3s3/7/1o3oX w play 3", "Black won; claims: black 2, white 0"),
    ],
)
def test_show_says_who_acts_or_who_won(
    capsys: pytest.CaptureFixture[str], fen: str, status: str
) -> None:
    assert main(["show", fen, "--no-color"]) == 0
    (line,) = status_lines(capsys.readouterr().out)
    assert line == f"{status} (2 to win)"
    board = veletas.Board(fen)
    assert ("won" in line) == board.is_game_over()


def test_after_the_last_move_play_says_who_won(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["play", "--variant", "small", "--bot", "random", "--bot2", "greedy", "--no-color"]
    assert main(args) == 0
    out = capsys.readouterr().out
    *during, final = status_lines(out)
    assert during
    assert all(" to act, " in line for line in during)
    assert re.fullmatch(r"(random|greedy) \((black|white)\) won; claims: .*", final), final
    winner = re.search(r"(\w+) \((black|white)\) wins", out)
    assert winner is not None
    assert final.startswith(f"{winner[1]} ({winner[2]}) won")
