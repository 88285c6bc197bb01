"""The examples of the documents run as written, and their pictures are there."""

from __future__ import annotations

import doctest
from pathlib import Path

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


@pytest.mark.parametrize(
    "name", ["bots.md", "play.md", "records.md", "datasets.md", "reports.md", "distributed.md"]
)
def test_document_examples(name: str) -> None:
    result = doctest.testfile(str(DOCS / name), module_relative=False, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"


def test_the_pictured_reports_are_kept() -> None:
    for name, page in [("report.png", "reports.md"), ("report-openings.png", "reports.md")]:
        assert (DOCS / "images" / name).read_bytes().startswith(b"\x89PNG")
        assert f"images/{name}" in (DOCS / page).read_text()


def test_the_pictured_position_is_kept() -> None:
    assert (DOCS / "images" / "position.png").read_bytes().startswith(b"\x89PNG")
    assert "images/position.png" in (DOCS / "play.md").read_text()
