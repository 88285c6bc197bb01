"""Static typing: the allowlist of ``mypy.stubtest`` explains itself.

``make lint`` runs the type checks themselves, with the versions pinned in
the ``dev`` extra: ``mypy.stubtest`` (the hand-written stubs of the native
core against the module) and ``mypy --strict`` on the package.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
ALLOWLIST = ROOT / ".mypy-stubtest-allowlist"


def test_every_allowlist_entry_gives_a_reason() -> None:
    lines = ALLOWLIST.read_text().splitlines()
    assert lines, "the allowlist explains its format even when empty"
    for line in lines:
        entry, _, reason = line.partition("#")
        if entry.strip():
            assert reason.strip(), f"allowlist entry {entry.strip()!r} gives no reason"


def test_lint_runs_the_type_checks_with_the_allowlist() -> None:
    lint = re.search(r"^lint:.*\n((?:\t.*\n)+)", (ROOT / "Makefile").read_text(), re.MULTILINE)
    assert lint is not None, "the Makefile has a lint target"
    commands = lint.group(1)
    assert "-m mypy --strict python/veletas" in commands
    assert f"-m mypy.stubtest veletas._veletas --allowlist {ALLOWLIST.name}" in commands
