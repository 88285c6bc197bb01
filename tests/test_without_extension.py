"""Where the compiled extension is not built, ``veletas`` still imports (the
reference serves), and the test files of the native core skip instead of
failing to import."""

from __future__ import annotations

import importlib.metadata
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "python" / "veletas"
NATIVE_TEST_FILES = [
    "tests/games/veletas/test_differential.py",
    "tests/games/veletas/test_rust_core.py",
]


def package_without_extension(into: Path) -> Path:
    """A copy of the package without ``veletas._veletas``; returns the
    directory to put on ``sys.path``."""
    shutil.copytree(
        PACKAGE,
        into / "veletas",
        ignore=shutil.ignore_patterns("*.so", "*.pyd", "__pycache__"),
    )
    return into


def run_without_extension(path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(path)}
    env.pop("VELETAS_IMPLEMENTATION", None)
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, check=False
    )


def test_veletas_imports_and_runs_on_the_reference(tmp_path: Path) -> None:
    path = package_without_extension(tmp_path)
    code = (
        "import veletas; print(veletas.__file__, veletas.IMPLEMENTATION, "
        "veletas.Board(variant='small').perft(1), veletas.__version__)"
    )
    result = run_without_extension(path, "-c", code)
    assert result.returncode == 0, result.stderr
    location, implementation, moves, version = result.stdout.split()
    assert Path(location).is_relative_to(path)
    assert implementation == "python"
    assert int(moves) == 25
    assert version == importlib.metadata.version("veletas")  # from the package metadata


def test_the_native_core_tests_skip(tmp_path: Path) -> None:
    path = package_without_extension(tmp_path)
    result = run_without_extension(
        path, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs", *NATIVE_TEST_FILES
    )
    output = result.stdout + result.stderr
    # Both files skip whole, at import: no test is collected, and none fails.
    assert result.returncode == pytest.ExitCode.NO_TESTS_COLLECTED, output
    assert f"{len(NATIVE_TEST_FILES)} skipped" in output, output
    for name in NATIVE_TEST_FILES:
        assert f"SKIPPED [1] {name}" in output, output
    assert "the extension is not built" in output


def test_the_whole_suite_collects(tmp_path: Path) -> None:
    path = package_without_extension(tmp_path)
    result = run_without_extension(
        path, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-rs", "tests"
    )
    output = result.stdout + result.stderr
    assert result.returncode == 0, output
    assert not re.search(r"^ERROR", output, re.MULTILINE), output
    # The modules that need the extension skip whole, each saying why.
    assert "SKIPPED [1] tests/test_bots.py" in output, output
    assert "SKIPPED [1] tests/serve/conftest.py" in output, output


@pytest.mark.parametrize(
    ("arguments", "status"),
    [
        (["--help"], 0),
        (["playout", "--games", "20", "--variant", "small"], 0),
        (["playout", "--games", "20", "--game", "meridians"], 0),
        (["perft", "1", "--variant", "small"], 0),
        (["show", "7/7/7/7/7/7/7 b setup 3"], 0),
        (["analyse", "7/7/7/7/7/7/7 b setup 3", "--iterations", "10"], 2),
        (["solve", "7/7/7/7/7/7/7 b setup 3", "--max-nodes", "10"], 2),
        (["match", "random", "greedy", "--games", "2"], 2),
    ],
)
def test_the_command_line_runs_on_the_reference(
    tmp_path: Path, arguments: list[str], status: int
) -> None:
    path = package_without_extension(tmp_path)
    result = run_without_extension(path, "-m", "veletas.cli", *arguments)
    assert result.returncode == status, result.stderr
    assert "Traceback" not in result.stderr
    if status:
        # What needs the extension says so, in one line.
        assert result.stderr.count("\n") == 1, result.stderr
        assert "needs the compiled extension" in result.stderr


def test_missing_names_what_cannot_be_imported(tmp_path: Path) -> None:
    path = package_without_extension(tmp_path)
    code = "from veletas import games; print(games.missing(games.get('meridians')))"
    result = run_without_extension(path, "-c", code)
    assert result.returncode == 0, result.stderr
    assert "bots (the bots of Meridians needs the compiled extension" in result.stdout
