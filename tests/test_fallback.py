"""The pure-Python fallback: the package imports and plays both games with
no compiled module at all, and ``VELETAS_IMPLEMENTATION=python`` switches the
whole public API, the adapters included, to the reference engines."""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# Makes `import veletas._veletas` fail, as where the extension is not built.
BLOCK_EXTENSION = """
import importlib.abc, sys

class NoExtension(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name == "veletas._veletas":
            raise ImportError("no compiled extension here")
        return None

sys.meta_path.insert(0, NoExtension())
"""


def run_python(code: str, **env: str) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if k != "VELETAS_IMPLEMENTATION"}
    environment.update(env)
    return subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code)],
        env=environment,
        capture_output=True,
        text=True,
        check=False,
    )


def test_both_games_import_and_play_without_the_extension() -> None:
    result = run_python(
        BLOCK_EXTENSION
        + """
import random
import veletas, veletas.reference
from veletas import meridians
import veletas.meridians.reference

assert veletas.IMPLEMENTATION == "python", veletas.IMPLEMENTATION
assert veletas.Board is veletas.reference.Board
assert meridians.Board is meridians.reference.Board
rng = random.Random(1)
for board in (veletas.Board(variant="small"), meridians.Board(size="5-6")):
    while not board.is_game_over():
        board.push(rng.choice(list(board.legal_moves)))
    print(type(board).__module__, board.outcome().winner)
print(veletas.playouts(20, variant="small", seed=3).winner.size)
try:
    veletas.MctsBot
except ImportError as error:
    print("ImportError:", error)
"""
    )
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0].startswith("veletas.games.veletas.reference")
    assert lines[1].startswith("veletas.games.meridians.reference")
    assert lines[2] == "20"
    assert lines[3].startswith("ImportError: veletas.MctsBot needs the compiled extension")


def test_asking_for_rust_without_the_extension_says_what_is_missing() -> None:
    result = run_python(BLOCK_EXTENSION + "import veletas", VELETAS_IMPLEMENTATION="rust")
    assert result.returncode != 0
    assert "VELETAS_IMPLEMENTATION=rust, but the compiled extension" in result.stderr


@pytest.mark.parametrize("game", ["veletas", "meridians"])
def test_the_switch_selects_the_reference_for_every_engine_type(game: str) -> None:
    pytest.importorskip("veletas._veletas", reason="the extension is not built")
    package = "veletas" if game == "veletas" else "veletas.meridians"
    code = f"import {package} as api; print(api.Board.__module__, api.Move.__module__)"
    for implementation, expected in (("python", "veletas.games."), ("rust", "veletas")):
        result = run_python(code, VELETAS_IMPLEMENTATION=implementation)
        assert result.returncode == 0, result.stderr
        modules = result.stdout.split()
        assert all(module.startswith(expected) for module in modules), modules
        if implementation == "rust":
            assert not any(module.startswith("veletas.games.") for module in modules)


def test_the_adapters_pass_their_tests_on_the_reference() -> None:
    pytest.importorskip("pyspiel", reason="the openspiel extra is not installed")
    pytest.importorskip("pettingzoo", reason="the pettingzoo extra is not installed")
    result = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:randomly",
            # One process: xdist, where it is installed, would spread the
            # files over workers (and `-n` is unknown where it is not).
            "-p",
            "no:xdist",
            str(ROOT / "tests" / "test_pettingzoo.py"),
            str(ROOT / "tests" / "test_openspiel.py"),
        ],
        env={**os.environ, "VELETAS_IMPLEMENTATION": "python"},
        capture_output=True,
        text=True,
        check=False,
        cwd=ROOT,
    )
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-3000:]
    assert " passed" in result.stdout
    assert " failed" not in result.stdout
