"""The ``veletas`` command line: help, perft, and errors that name the bad input
(one line each, never a traceback)."""

from __future__ import annotations

import importlib
import importlib.metadata
import inspect
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import veletas
from veletas.cli import BROKEN_PIPE, COMMANDS, main
from veletas.cli.play import Game
from veletas.playouts import PlayoutJob


def test_help_lists_the_commands(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["--help"])
    assert exit_info.value.code == 0
    assert "perft" in capsys.readouterr().out


@pytest.mark.parametrize(
    "position", [["{fen}"], ["--fen", "{fen}"], ["{fen}", "--fen", "{fen}"]], ids=str
)
def test_perft_counts_like_the_board(
    capsys: pytest.CaptureFixture[str], position: list[str]
) -> None:
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    assert main(["perft", "2", *(arg.format(fen=fen) for arg in position)]) == 0
    out = capsys.readouterr().out
    assert f"perft(2) = {veletas.Board(fen).perft(2)}" in out


def test_perft_refuses_two_different_positions(capsys: pytest.CaptureFixture[str]) -> None:
    args = ["perft", "1", "7/7/7/7/7/7/7 b setup 3", "--fen", "7/2x4/7/1s5/7/o1s2s1/7 b play 3"]
    assert main(args) == 2
    assert "two positions given" in capsys.readouterr().err


def test_perft_divide_sums_to_the_total(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "2", "--variant", "small", "--divide"]) == 0
    lines = capsys.readouterr().out.splitlines()
    per_move = {line.split()[0]: int(line.split()[1]) for line in lines[:-1]}
    board = veletas.Board(variant="small")
    assert list(per_move) == [str(move) for move in board.legal_moves]
    assert f"perft(2) = {sum(per_move.values())}" in lines[-1]
    assert sum(per_move.values()) == board.perft(2)


def test_a_bad_fen_is_an_error_that_quotes_it(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "1", "--fen", "7/7 b setup 3"]) == 2
    assert "'7/7 b setup 3'" in capsys.readouterr().err


def test_bad_rules_are_an_error(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["perft", "1", "--size", "11"]) == 2
    assert "11" in capsys.readouterr().err


def test_a_negative_depth_is_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exit_info:
        main(["perft", "-1"])
    assert exit_info.value.code == 2
    assert "must be 0 or more, not -1" in capsys.readouterr().err


def run_into_a_closed_pipe(*args: str) -> subprocess.CompletedProcess[str]:
    """``veletas ARGS | head`` once head has gone: stdout is a pipe whose
    reading end is closed, so that the first write fails."""
    read, write = os.pipe()
    os.close(read)
    try:
        return subprocess.run(
            [sys.executable, "-m", "veletas.cli", *args],
            stdout=write,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            timeout=120,
        )
    finally:
        os.close(write)


@pytest.mark.parametrize(
    "args",
    [
        ["show", "7/2x4/7/1s5/7/o1s2s1/7 b play 3", "--svg", "-"],
        ["playout", "--games", "300", "--variant", "small"],
    ],
    ids=["show --svg -", "playout"],
)
def test_a_closed_pipe_stops_quietly(args: list[str]) -> None:
    result = run_into_a_closed_pipe(*args)
    # No traceback, not even at exit: at most the progress line of a run without a terminal.
    assert all(line.startswith("played: ") for line in result.stderr.splitlines()), result.stderr
    assert result.returncode == BROKEN_PIPE


def test_a_missing_file_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "missing.txt"
    assert main(["replay", str(missing)]) == 2
    assert capsys.readouterr().err == f"veletas: error: {missing}: No such file or directory\n"


def no_work(*args: object, **kwargs: object) -> None:
    raise AssertionError("the work started before the output path was checked")


@pytest.mark.parametrize(
    ("args", "work"),
    [
        (["playout", "--games", "1000", "--save", "{path}"], (PlayoutJob, "run")),
        (["play", "--bot", "random", "--bot2", "random", "--save", "{path}"], (Game, "play")),
        (["show", "7/7/7/7/7/7/7 b setup 3", "--svg", "{path}"], (veletas.svg, "board")),
    ],
    ids=["playout --save", "play --save", "show --svg"],
)
@pytest.mark.parametrize("where", ["missing folder", "a folder"])
def test_an_output_path_is_checked_before_any_work(
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: list[str],
    work: tuple[object, str],
    where: str,
) -> None:
    monkeypatch.setattr(*work, no_work)
    path = tmp_path / "missing" / "x.txt" if where == "missing folder" else tmp_path
    with pytest.raises(SystemExit) as exit_info:
        main([arg.format(path=path) for arg in args])
    assert exit_info.value.code == 2
    err = capsys.readouterr().err
    expected = f"no folder {path.parent}" if where == "missing folder" else "it is a directory"
    assert f"cannot write {path}: {expected}" in err
    assert "Traceback" not in err


def test_the_readme_shows_every_command() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text()
    for name in COMMANDS:
        assert f"`veletas {name}" in readme, name


def run_cli(*args: str, implementation: str) -> str:
    env = {**os.environ, "VELETAS_IMPLEMENTATION": implementation}
    result = subprocess.run(
        [sys.executable, "-m", "veletas.cli", *args],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=120,
    )
    assert result.returncode == 0, result.stderr
    return result.stdout


@pytest.mark.native
@pytest.mark.parametrize("implementation", ["python", "rust"])
def test_every_command_runs_on_the_backend_asked_for_and_says_so(implementation: str) -> None:
    fen = "7/2x4/7/1s5/7/o1s2s1/7 b play 3"
    perft = run_cli("perft", "1", fen, implementation=implementation)
    assert f"perft(1) = {veletas.Board(fen).perft(1)}" in perft
    assert f"{implementation} backend" in perft
    playout = run_cli(
        "playout", "--games", "40", "--variant", "small", "--json", implementation=implementation
    )
    report = json.loads(playout)
    assert report["backend"] == implementation
    same = veletas.playouts(40, variant="small").summary()
    assert report["black_wins"] == same["black_wins"]
    assert report["claims"] == json.loads(json.dumps(same["claims"]))
    table = run_cli("playout", "--games", "40", "--variant", "small", implementation=implementation)
    assert f"{implementation} backend:" in table


def test_the_version_is_the_package_version(capsys: pytest.CaptureFixture[str]) -> None:
    installed = importlib.metadata.version("veletas")
    assert veletas.__version__ == installed
    if veletas._native is not None:
        assert veletas._native.__version__ == installed
    with pytest.raises(SystemExit) as exit_info:
        main(["--version"])
    assert exit_info.value.code == 0
    expected = f"veletas {installed} ({veletas.IMPLEMENTATION} backend)\n"
    assert capsys.readouterr().out == expected


def test_every_command_has_its_help_and_description_in_its_docstring() -> None:
    for name in COMMANDS:
        module = importlib.import_module(f"veletas.cli.{name}")
        summary, _, description = inspect.cleandoc(module.__doc__ or "").partition("\n\n")
        assert summary, f"veletas.cli.{name}: its docstring's first paragraph is its help"
        assert description, f"veletas.cli.{name}: the rest of its docstring is its description"
        assert callable(module.add_arguments), name
        assert callable(module.run), name
