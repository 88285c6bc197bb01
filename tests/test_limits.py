"""The stated limits of the batch APIs (``veletas.limits``): games of one
call, threads, envs; each refused with a ``LimitError`` naming it, before
anything is allocated or started. And the command line's one-line answers
to a careless user."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

pytest.importorskip("veletas._veletas", reason="the extension is not built")

import veletas
from veletas import _veletas, limits, meridians
from veletas.bots import MctsBot
from veletas.cli import main
from veletas.errors import LimitError, VeletasError

TOO_MANY_THREADS = 10**6


@pytest.mark.parametrize(
    "call",
    [
        lambda: veletas.playouts(10**12),
        lambda: veletas.playouts(limits.MAX_GAMES + 1, variant="small"),
        lambda: veletas.playouts(10**12, record=True),
        lambda: veletas.playouts(limits.MAX_RECORDED_GAMES + 1, record=True),
        lambda: meridians.playouts(10**12),
        lambda: meridians.playouts(10**12, record=True),
        lambda: veletas.playouts(10, threads=TOO_MANY_THREADS),
        lambda: meridians.playouts(10, threads=TOO_MANY_THREADS),
        lambda: MctsBot(iterations=10, threads=TOO_MANY_THREADS),
        lambda: veletas.match("random", "random", 2, variant="small", threads=TOO_MANY_THREADS),
        lambda: veletas.match("random", "random", 10**12, variant="small"),
        lambda: veletas.VectorEnv(10**9),
        lambda: veletas.VectorEnv(limits.MAX_ENVS + 1, variant="small"),
        lambda: veletas.VectorEnv(10**9, game="meridians"),
    ],
    ids=[
        "playouts",
        "playouts past the limit",
        "recorded",
        "recorded past the limit",
        "meridians playouts",
        "meridians recorded",
        "playout threads",
        "meridians playout threads",
        "bot threads",
        "match threads",
        "match games",
        "vector env",
        "vector env past the limit",
        "meridians vector env",
    ],
)
def test_a_request_past_a_limit_is_refused(call: Any) -> None:
    with pytest.raises(LimitError, match=r"\d"):
        call()


def test_the_limits_themselves_are_allowed() -> None:
    assert len(veletas.playouts(3, variant="small", threads=limits.MAX_THREADS)) == 3
    assert limits.check_games(limits.MAX_GAMES) == limits.MAX_GAMES
    assert limits.check_envs(limits.MAX_ENVS) == limits.MAX_ENVS


@pytest.mark.parametrize(
    "call",
    [
        lambda: _veletas.VectorEnv(10**9),
        lambda: _veletas.MeridiansVectorEnv(10**9),
        lambda: _veletas.MctsPlayer(threads=TOO_MANY_THREADS),
        lambda: _veletas.MeridiansMctsPlayer(threads=TOO_MANY_THREADS),
    ],
    ids=["native vector env", "native meridians vector env", "native bot", "native meridians bot"],
)
def test_the_native_core_checks_the_same_limits(call: Any) -> None:
    with pytest.raises(ValueError, match="must be 1 to"):
        call()


def test_a_limit_is_a_one_line_error_on_the_command_line(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert main(["playout", "--games", "100", "--threads", str(TOO_MANY_THREADS)]) == 2
    err = capsys.readouterr().err
    assert err.startswith("veletas: error: threads must be 1 to 256"), err
    assert len(err.strip().splitlines()) == 1


def test_games_past_the_most_of_one_run_are_refused(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["playout", "--games", "1e12"])
    assert f"at most {limits.MAX_GAMES:,}" in capsys.readouterr().err


def test_a_run_without_a_terminal_shows_its_progress_in_lines() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "veletas.cli", "playout", "--games", "2000", "--variant", "small"],
        capture_output=True,
        text=True,
        timeout=120,
        check=True,
    )
    assert "played: 2,000 of 2,000 games (100%)" in done.stderr


@pytest.mark.parametrize(
    ("pie", "shown"), [(False, False), (True, True)], ids=["without pie", "with pie"]
)
def test_the_swaps_line_is_there_only_with_a_pie_rule(
    capsys: pytest.CaptureFixture[str], pie: bool, shown: bool
) -> None:
    args = ["playout", "--game", "meridians", "--size", "5-6", "--games", "200"]
    assert main([*args, *(["--pie"] if pie else [])]) == 0
    assert ("swaps" in capsys.readouterr().out) == shown


def test_a_picture_too_small_is_a_one_line_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "x.svg"
    assert main(["show", "--width", "7", "--svg", str(out), "7/7/7/7/7/7/7 b setup 3"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("veletas: error: --width 7: "), err
    assert len(err.strip().splitlines()) == 1
    assert not out.exists()


def test_a_mistyped_implementation_is_one_line() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "veletas.cli", "perft", "--depth", "1"],
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
        env={**os.environ, "VELETAS_IMPLEMENTATION": "rsut"},
    )
    assert done.returncode == 2
    assert done.stderr.strip() == (
        "veletas: error: unknown VELETAS_IMPLEMENTATION 'rsut': expected 'rust' or 'python'"
    )


@pytest.mark.parametrize(
    ("module", "missing", "extra"),
    [
        ("veletas.openspiel", "pyspiel", "openspiel"),
        ("veletas.pettingzoo", "pettingzoo", "pettingzoo"),
        ("veletas.pettingzoo", "gymnasium", "pettingzoo"),
    ],
)
def test_an_adapter_without_its_extra_names_it(module: str, missing: str, extra: str) -> None:
    code = (
        f"import sys; sys.modules[{missing!r}] = None\n"
        f"try:\n    import {module}\n"
        "except ModuleNotFoundError as error:\n    print(error)\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, check=True
    )
    assert f"needs the extra {extra!r}" in done.stdout, done.stdout + done.stderr
    assert f'pip install ".[{extra}]" in a clone of veletas' in done.stdout


def test_a_round_robin_says_what_its_prior_adds() -> None:
    result = veletas.round_robin(["random", "greedy", "mcts:iterations=5"], 2, variant="small")
    assert "1 drawn game added to each pair" in str(result)


def test_limit_errors_are_veletas_errors() -> None:
    assert issubclass(LimitError, VeletasError)
    assert issubclass(LimitError, ValueError)


def test_progress_lines_say_each_count_once() -> None:
    import io

    from veletas.cli.progress import LineProgress

    out = io.StringIO()
    with LineProgress(100, file=out, seconds=0) as bar:
        bar.update(40)
        bar.update(60)
    lines = out.getvalue().splitlines()
    assert [line.split(",")[0] for line in lines] == [
        "played: 40 of 100 games (40%)",
        "played: 100 of 100 games (100%)",
    ]
