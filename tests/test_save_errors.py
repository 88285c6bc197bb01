"""``veletas playout --save`` when the file cannot be written (a full disk,
a file size limit): one line naming the file, what is kept and ``--resume``;
no traceback; and ``--resume`` then completes the same file."""

from __future__ import annotations

import errno
import os
import re
import resource
import signal
import subprocess
import sys
from pathlib import Path

import pytest
from veletas.cli import main

pytestmark = pytest.mark.skipif(not Path("/proc/self/fd").is_dir(), reason="needs /proc")

GAMES = "150000"


def command(path: Path, games: str = GAMES) -> list[str]:
    return ["playout", "--games", games, "--variant", "small", "--seed", "6", "--save", str(path)]


def failure_line(err: str) -> str:
    assert "Traceback" not in err, err
    lines = [line for line in err.splitlines() if line.startswith("veletas:")]
    assert len(lines) == 1, err
    return lines[0]


def expected_line(path: Path, reason: str) -> str:
    return (
        rf"veletas: error: cannot write {re.escape(str(path))}: {reason}; (the ([\d,]+) games "
        r"saved so far are kept|no game was saved yet), and once there is room the same "
        r"command with --resume completes the run"
    )


@pytest.mark.parametrize("suffix", [".parquet", ".txt"])
@pytest.mark.parametrize("stage", ["part", "merge"])
def test_a_full_disk_names_the_file_and_resume(
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    suffix: str,
    stage: str,
) -> None:
    path = tmp_path / f"games{suffix}"
    whole = tmp_path / f"whole{suffix}"
    assert main(command(whole)) == 0
    capsys.readouterr()
    real = os.fsync
    parts: set[str] = set()

    def fsync(fd: int) -> None:
        # The disk fills up as the second part, or the merged file, is written.
        name = Path(os.readlink(f"/proc/self/fd/{fd}")).name
        if stage == "part" and name.startswith(".part-"):
            parts.add(name.split(".")[1])
            if len(parts) == 2:
                raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        if stage == "merge" and name.startswith(".merged."):
            raise OSError(errno.ENOSPC, os.strerror(errno.ENOSPC))
        real(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    assert main(command(path)) == 2
    line = failure_line(capsys.readouterr().err)
    match = re.fullmatch(expected_line(path, "No space left on device"), line)
    assert match, line
    kept = int((match[2] or "0").replace(",", ""))
    if stage == "merge":
        assert kept == int(GAMES)
    else:
        assert 0 < kept < int(GAMES)
    assert not path.exists()
    assert not [entry for entry in tmp_path.iterdir() if entry.name.endswith(".tmp")]
    monkeypatch.undo()
    assert main([*command(path), "--resume"]) == 0
    err = capsys.readouterr().err
    assert f"{kept:,} games already saved" in err
    assert path.read_bytes() == whole.read_bytes()


@pytest.mark.parametrize(
    ("stage", "games"), [("part", GAMES), pytest.param("merge", "400000", marks=pytest.mark.slow)]
)
def test_a_file_size_limit_in_a_real_process(tmp_path: Path, stage: str, games: str) -> None:
    # The kernel refuses the write past RLIMIT_FSIZE (EFBIG), whichever writer it is.
    whole = tmp_path / "whole.parquet"
    args = [sys.executable, "-m", "veletas.cli", *command(whole, games)]
    subprocess.run(args, check=True, capture_output=True, timeout=300)
    size = whole.stat().st_size
    # A part holds one or two row groups of the games, each written 1.8 times
    # as large as in the final file: under half of it in 400,000 games.
    limit = size // 10 if stage == "part" else size - 1

    def limited() -> None:
        signal.signal(signal.SIGXFSZ, signal.SIG_IGN)
        resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))

    path = tmp_path / "games.parquet"
    args = [sys.executable, "-m", "veletas.cli", *command(path, games)]
    failed = subprocess.run(
        args, capture_output=True, text=True, timeout=300, preexec_fn=limited, check=False
    )
    assert failed.returncode == 2, failed.stderr
    line = failure_line(failed.stderr)
    assert re.fullmatch(expected_line(path, ".+"), line), line
    kept = "no game was saved yet" if stage == "part" else f"the {int(games):,} games saved"
    assert kept in line, line
    subprocess.run([*args, "--resume"], check=True, capture_output=True, timeout=300)
    assert path.read_bytes() == whole.read_bytes()
