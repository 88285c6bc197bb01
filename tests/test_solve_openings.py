"""The openings' long solve from the command line (scripts/solve_openings.py):
a bad option is refused by the parser, naming its value, before any file is
opened or locked."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

SCRIPT = Path(__file__).resolve().parent.parent / "scripts" / "solve_openings.py"


@pytest.mark.parametrize(
    ("option", "value", "message"),
    [
        ("--leaf-nodes", "0", "--leaf-nodes must be 1 to .*, not 0"),
        ("--leaf-nodes", "-5", "--leaf-nodes must be 1 to .*, not -5"),
        ("--memory", "0", "--memory must be 1 to .* MiB, not 0"),
        ("--memory", "-1", "--memory must be 1 to .* MiB, not -1"),
        ("--memory", str(1 << 40), f"--memory must be 1 to .* MiB, not {1 << 40}"),
        ("--workers", "0", "--workers must be 1 to 256, not 0"),
        ("--solve-from", "-1", "--solve-from must be 0 or more, not -1"),
    ],
)
def test_a_bad_option_is_refused_by_name(option: str, value: str, message: str) -> None:
    run = subprocess.run(
        [sys.executable, str(SCRIPT), "--size", "5", "--seconds", "1", option, value],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 2, run.stderr
    assert "Traceback" not in run.stderr
    assert re.search(f"error: {message}$", run.stderr, re.MULTILINE), run.stderr
