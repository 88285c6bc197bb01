"""The tools around the code: ``make lint`` is the one list of lint
commands, CI runs it, and the Python tools it runs are pinned in the ``dev``
extra."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent


def make_target(name: str) -> list[str]:
    """The commands of a target of the Makefile."""
    makefile = (ROOT / "Makefile").read_text()
    match = re.search(rf"^{name}:.*\n((?:\t.*\n)+)", makefile, re.MULTILINE)
    assert match is not None, f"the Makefile has no target {name!r}"
    return [line.strip() for line in match.group(1).splitlines()]


def extra(name: str) -> list[str]:
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    requirements: list[str] = project["optional-dependencies"][name]
    return requirements


def test_ci_lints_with_make_lint() -> None:
    ci = (ROOT / ".ci" / "run").read_text()
    assert re.search(r"^make lint\b", ci, re.MULTILINE), "CI runs make lint"
    for command in make_target("lint"):
        bare = command.removeprefix("$(PYTHON) -m ")
        assert bare not in ci, f"CI runs {bare!r} itself; make lint is the one list of them"


def test_the_python_tools_of_lint_are_pinned_in_the_dev_extra() -> None:
    pins = dict(requirement.split("==") for requirement in extra("dev") if "==" in requirement)
    modules = {
        command.split()[2].split(".")[0]
        for command in make_target("lint")
        if command.startswith("$(PYTHON) -m ")
    }
    assert modules == {"ruff", "mypy"}
    for module in modules:
        assert re.fullmatch(r"\d+(\.\d+)+", pins.get(module, "")), f"{module} is not pinned"
    assert "veletas[test]" in extra("dev"), "the dev extra holds the test extra"
    assert not any(requirement.startswith(tuple(modules)) for requirement in extra("test"))
