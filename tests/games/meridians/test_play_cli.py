"""``veletas play --game meridians``: a whole 5-6 game typed through a
pseudo-terminal, and the saved record replays to the final position."""

from __future__ import annotations

import re
import sys

import pexpect
import pytest
from terminal_play import play_to_the_end
from veletas import meridians, records
from veletas.cli import main
from veletas.games.meridians.terminal import board_text

PROMPT = r"\((light|dark)\)> "
POSITION = re.compile(r"position: (\S+ [ld] \w+)")


def last_position(text: str) -> str:
    return POSITION.findall(text)[-1]


@pytest.mark.native
@pytest.mark.parametrize("pie", [False, True])
def test_a_whole_game_against_a_bot_through_a_terminal(tmp_path, pie: bool) -> None:
    """Second seat against the random bot: a typo, (with the pie rule, the
    decision: swap), an illegal move, `moves`, an `undo`, then greedy moves
    to the end; the saved record replays to the final position."""
    save = tmp_path / "game.txt"
    arguments = ["-m", "veletas.cli", "play", "--game", "meridians", "--size", "5-6"]
    arguments += ["--bot", "random", "--seed", "5", "--as", "second", "--save", str(save)]
    arguments += ["--no-color", *(["--pie"] if pie else [])]
    child = pexpect.spawn(
        sys.executable, arguments, encoding="utf-8", timeout=60, dimensions=(50, 200)
    )
    chooser = meridians.reference.Board  # the position is read back from the screen
    greedy = __import__("veletas").GreedyBot(9)

    if pie:
        # The first player places Light's stone and Dark's (MERIDIANS.md
        # section 5); then the pie decision is the second player's: ours.
        child.expect("Pie rule: you may swap")
        fen = last_position(child.before)
        child.expect(PROMPT)
    else:
        child.expect(PROMPT)
        fen = last_position(child.before)
    if pie:
        assert chooser(fen, pie=True).stones == (1, 1), fen
    child.sendline("f77")
    child.expect("'f77' is not a move or a command")
    child.expect(PROMPT)
    if pie:
        child.sendline("yes")
        child.expect(PROMPT)
        fen = last_position(child.before)
    child.sendline("a1" if chooser(fen, pie=pie).piece_at("a1") is not None else "swap")
    child.expect("\r?\nillegal move")
    child.expect(PROMPT)
    child.sendline("moves")
    child.expect("legal moves")
    child.expect(PROMPT)

    final = play_to_the_end(
        child, fen, lambda fen: greedy.choose(chooser(fen, pie=pie)), PROMPT, last_position
    )
    child.expect("saved the record")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0

    [record] = records.read(save)
    assert record.game == "Meridians"
    assert record.board().fen() == final
    assert record.tags["Size"] == "5-6"
    assert record.tags["Pie"] == ("true" if pie else "false")
    assert record.tags["Swapped"] == ("true" if pie else "false")
    human = "Light" if pie else "Dark"
    assert record.tags[human] == "human"
    winner = record.board().winner
    assert record.result == ("1-0" if winner == meridians.Color.LIGHT else "0-1")


@pytest.mark.native
def test_two_bots_play_and_the_record_replays(tmp_path, capsys) -> None:
    save = tmp_path / "bots.txt"
    args = ["play", "--game", "meridians", "--size", "5-6", "--bot", "greedy"]
    args += ["--bot2", "random", "--save", str(save)]
    assert main(args) == 0
    out = capsys.readouterr().out
    assert "greedy plays" in out
    [record] = records.read(save)
    assert record.board().is_game_over()
    assert main(["replay", str(save), "--all", "--no-color"]) == 0
    shown = capsys.readouterr().out
    assert "Meridians 5-6" in shown
    assert record.board().fen() in shown


def test_show_and_perft_take_the_game(tmp_path, capsys) -> None:
    fen = "6/7/8/9/10/10/9/8/7/x1x2o l play"
    assert main(["show", "--game", "meridians", fen]) == 0
    assert "Light to act, play phase; stones: light 2, dark 1" in capsys.readouterr().out
    picture = tmp_path / "board.svg"
    assert main(["show", "--game", "meridians", fen, "--svg", str(picture)]) == 0
    assert picture.read_text().count('class="point"') == 80
    assert main(["perft", "--game", "meridians", "2"]) == 0
    assert "perft(2) = 12882" in capsys.readouterr().out


@pytest.mark.parametrize("size", ["5-6", "6-7", "7-8"])
@pytest.mark.parametrize("color", [False, True])
def test_every_rank_names_its_files(size: str, color: bool) -> None:
    # A point's name is read off the board: its rank, and its file counted
    # from the first of the rank's files, which shift from rank to rank.
    board = meridians.Board(size=size)
    names = {str(move) for move in board.legal_moves}
    text = re.sub(r"\x1b\[[0-9;]*m", "", board_text(board, color=color))
    lines = text.splitlines()
    assert len({len(line) for line in lines}) == 1  # the files in one column
    for line in lines:
        rank, *points, files = line.split()
        first, last = files.split("-")
        spanned = [chr(code) + rank for code in range(ord(first), ord(last) + 1)]
        assert len(spanned) == len(points), line
        assert set(spanned) <= names, line
        before, after = chr(ord(first) - 1) + rank, chr(ord(last) + 1) + rank
        assert before not in names, line
        assert after not in names, line
