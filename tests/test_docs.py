"""The documents: every page with ``>>>`` examples runs them as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
"""The README and every page of docs/."""


def has_examples(page: Path) -> bool:
    return any(line.lstrip().startswith(">>> ") for line in page.read_text().splitlines())


PAGES_WITH_EXAMPLES = [page for page in PAGES if has_examples(page)]


def test_the_pages_with_examples_are_found() -> None:
    names = {page.relative_to(ROOT).as_posix() for page in PAGES_WITH_EXAMPLES}
    assert {"README.md", "docs/playouts.md", "docs/rl.md", "docs/bots.md"} <= names


@pytest.mark.parametrize(
    "page",
    PAGES_WITH_EXAMPLES,
    ids=[page.relative_to(ROOT).as_posix() for page in PAGES_WITH_EXAMPLES],
)
def test_page_examples(page: Path) -> None:
    result = doctest.testfile(str(page), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{page.name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {page.name} failed (output above)"


def test_the_pictured_position_is_kept() -> None:
    assert (DOCS / "images" / "position.png").read_bytes().startswith(b"\x89PNG")
    assert "images/position.png" in (DOCS / "play.md").read_text()
