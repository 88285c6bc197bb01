"""Static typing: the hand-written stubs of the native core match the module
(``mypy.stubtest``), and the package type-checks under ``mypy --strict``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWLIST = ROOT / ".mypy-stubtest-allowlist"


def run_module(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_every_allowlist_entry_gives_a_reason() -> None:
    lines = ALLOWLIST.read_text().splitlines()
    assert lines, "the allowlist explains its format even when empty"
    for line in lines:
        entry, _, reason = line.partition("#")
        if entry.strip():
            assert reason.strip(), f"allowlist entry {entry.strip()!r} gives no reason"


def test_stubs_match_the_native_module() -> None:
    result = run_module("mypy.stubtest", "veletas._veletas", "--allowlist", str(ALLOWLIST))
    assert result.returncode == 0, result.stdout + result.stderr


def test_the_package_type_checks_strictly(tmp_path: Path) -> None:
    result = run_module("mypy", "--strict", "--cache-dir", str(tmp_path), "python/veletas")
    assert result.returncode == 0, result.stdout + result.stderr
