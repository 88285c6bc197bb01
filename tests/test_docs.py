"""The examples of the play, records and bots documents run as written."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize("name", ["bots.md", "play.md", "records.md", "serve.md"])
def test_document_examples(name: str) -> None:
    result = doctest.testfile(str(DOCS / name), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"


def test_the_pictured_position_is_kept() -> None:
    assert (DOCS / "images" / "position.png").read_bytes().startswith(b"\x89PNG")
    assert "images/position.png" in (DOCS / "play.md").read_text()


def test_the_pictures_of_the_page_are_kept() -> None:
    readme = (DOCS.parent / "README.md").read_text()
    assert "docs/images/serve.png" in readme
    for name in ("serve.png", "serve-hint.png"):
        assert (DOCS / "images" / name).read_bytes().startswith(b"\x89PNG")
        assert f"images/{name}" in (DOCS / "serve.md").read_text()
