"""A chunk of a run on Ray that fails past its retries: one line naming it, the
games finished before it and how to complete the run, never a traceback;
the summary of the finished games, and with ``--save`` the games themselves,
are kept. Played against a stand-in for Ray, so that no cluster is needed."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
import veletas
from veletas import distributed
from veletas.cli import main
from veletas.cli import playout as playout_cli
from veletas.errors import ChunkFailedError
from veletas.playouts import PlayoutJob, Playouts

JOB = PlayoutJob.make(variant="small", seed=4, threads=1)


class RayError(Exception):
    """Ray's base of the errors that ``ray.get`` raises."""


class FakeRay:
    """What :func:`distributed.play_chunks` asks of Ray, playing each chunk
    at once; the chunk of ``failing`` games fails as one whose retries ran out."""

    exceptions = SimpleNamespace(RayError=RayError)

    def __init__(self, failing: int) -> None:
        self.failing = failing
        self.cancelled: list[Any] = []

    def nodes(self) -> list[dict[str, Any]]:
        return [{"Alive": True, "NodeID": "n1", "Resources": {"CPU": 2.0}}]

    def remote(self, **_: Any) -> Any:
        fake = self

        class Task:
            def options(self, **_: Any) -> Task:
                return self

            def remote(self, job: PlayoutJob, first: int, size: int) -> Any:
                return (job, first, size)

        del fake
        return lambda _function: Task()

    def wait(self, refs: list[Any], num_returns: int) -> tuple[list[Any], list[Any]]:
        return refs[:num_returns], refs[num_returns:]

    def get(self, ref: Any) -> tuple[str, Playouts]:
        job, first, size = ref
        if first <= self.failing < first + size:
            raise RayError(
                "\x1b[36mray::veletas playouts 2000..2999()\x1b[39m (pid=7, ip=10.0.0.2)\n"
                '  File "<string>", line 1, in <module>\n'
                "ModuleNotFoundError: No module named 'veletas'"
            )
        return "n1", job.run(first, size)

    def cancel(self, ref: Any, force: bool) -> None:
        self.cancelled.append(ref)


def test_a_chunk_that_fails_every_try_is_named(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(distributed, "require_ray", lambda: FakeRay(failing=2_500))
    played_on: set[str] = set()
    chunks = distributed.play_chunks(JOB, 5_000, chunk_size=1_000, played_on=played_on)
    parts = []
    with pytest.raises(ChunkFailedError) as failed:
        parts.extend(chunks)
    assert sum(len(part) for part in parts) == 2_000
    error = failed.value
    assert (error.first_game, error.n_games, error.finished) == (2_000, 1_000, 2_000)
    assert str(error) == (
        "the chunk of games 2,000 .. 2,999 failed (ModuleNotFoundError: No module named "
        "'veletas'); games 0 .. 1,999 were finished before it"
    )
    assert played_on == {"n1"}


def test_a_first_chunk_that_fails_says_no_game_was_finished(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(distributed, "require_ray", lambda: FakeRay(failing=2_500))
    with pytest.raises(ChunkFailedError, match="no game was finished before it") as failed:
        list(distributed.play_chunks(JOB, 5_000, chunk_size=5_000))
    assert failed.value.finished == 0


class FailingRunner:
    """A runner of the command line that plays on until game ``failing``,
    then fails as a chunk of Ray whose retries ran out."""

    def __init__(self, failing: int) -> None:
        self.failing = failing

    def describe(self, job: PlayoutJob) -> str:
        return "the Ray cluster at 127.0.0.1:6379 (1 node, 2 CPUs)"

    def play(
        self, job: PlayoutJob, n_games: int, progress: Any, first_game: int = 0
    ) -> Iterator[Playouts]:
        for first in range(first_game, n_games, 1_000):
            if first >= self.failing:
                raise ChunkFailedError(
                    f"the chunk of games {first:,} .. {first + 999:,} failed (the worker died)",
                    first_game=first,
                    n_games=1_000,
                    finished=first - first_game,
                )
            part = job.run(first, 1_000)
            progress(len(part))
            yield part


RUN = ["playout", "--games", "5000", "--variant", "small", "--seed", "4", "--threads", "1"]


def test_the_command_line_says_it_in_one_line_with_the_summary(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr(playout_cli, "make_runner", lambda args: FailingRunner(3_000))
    assert main([*RUN, "--json"]) == 1
    captured = capsys.readouterr()
    report = json.loads(captured.out)
    assert report["games"] == 3_000
    assert report["failed"].startswith("the chunk of games 3,000 .. 3,999 failed")
    [line] = [line for line in captured.err.splitlines() if line.startswith("veletas:")]
    assert line.startswith("veletas: error: the chunk of games 3,000 .. 3,999 failed"), line
    assert "3,000 of 5,000 games finished" in line
    assert "--save FILE" in line
    assert "Traceback" not in captured.err


def test_a_saved_run_resumes_after_the_failure(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    path = tmp_path / "games.parquet"
    monkeypatch.setattr(playout_cli, "make_runner", lambda args: FailingRunner(3_000))
    assert main([*RUN, "--save", str(path)]) == 1
    err = capsys.readouterr().err
    assert "they are saved: run the same command with --resume" in err, err
    monkeypatch.setattr(playout_cli, "make_runner", lambda args: FailingRunner(10**9))
    assert main([*RUN, "--save", str(path), "--resume"]) == 0
    assert "3,000 games already saved" in capsys.readouterr().err
    games = veletas.read_playouts(path)
    whole = JOB.run(0, 5_000)
    assert (games.plies == whole.plies).all()
