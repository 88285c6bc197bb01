"""The documents: every page with ``>>>`` examples runs them as written, and
every relative link of the README and docs/ leads to a file."""

from __future__ import annotations

import doctest
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
PAGES = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]
"""The README and every page of docs/."""
LINKED_PAGES = [
    *PAGES,
    ROOT / "tests" / "games" / "veletas" / "vectors" / "README.md",
    ROOT / "tests" / "games" / "meridians" / "vectors" / "README.md",
]
"""The pages whose links are checked."""


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


def test_the_pictured_reports_are_kept() -> None:
    pictures = ["report.png", "report-openings.png"]
    pictures += ["report-meridians.png", "report-meridians-openings.png"]
    for name, page in [(picture, "reports.md") for picture in pictures]:
        assert (DOCS / "images" / name).read_bytes().startswith(b"\x89PNG")
        assert f"images/{name}" in (DOCS / page).read_text()


def test_the_pictured_learning_curve_is_kept() -> None:
    assert (DOCS / "images" / "ppo_veletas.png").read_bytes().startswith(b"\x89PNG")
    assert "images/ppo_veletas.png" in (DOCS / "rl.md").read_text()


def test_the_pictured_position_is_kept() -> None:
    assert (DOCS / "images" / "position.png").read_bytes().startswith(b"\x89PNG")
    assert "images/position.png" in (DOCS / "play.md").read_text()


CODE = re.compile(r"^```.*?^```|`[^`\n]*`", re.MULTILINE | re.DOTALL)
LINK = re.compile(r"\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)|\b(?:src|href)=\"([^\"]+)\"")


def relative_links(page: Path) -> list[str]:
    """The targets of the Markdown links and images, and HTML src and href,
    of ``page`` outside code, that are neither URLs nor anchors."""
    text = CODE.sub("", page.read_text())
    targets = [a or b for a, b in LINK.findall(text)]
    return [t for t in targets if not re.match(r"[a-z][a-z0-9+.-]*:|#", t)]


def test_links_are_found() -> None:
    links = relative_links(ROOT / "README.md")
    assert "docs/RULES.md" in links
    assert "docs/images/position.png" in links  # an HTML <img>
    assert not any(link.startswith("http") for link in links)


@pytest.mark.parametrize(
    "page", LINKED_PAGES, ids=[page.relative_to(ROOT).as_posix() for page in LINKED_PAGES]
)
def test_relative_links_lead_to_files(page: Path) -> None:
    for link in relative_links(page):
        target = (page.parent / link.split("#")[0]).resolve()
        assert target.is_file(), f"{page.relative_to(ROOT)}: {link} leads to no file"


def test_the_pictures_of_the_page_are_kept() -> None:
    readme = (DOCS.parent / "README.md").read_text()
    # The page of each game.
    assert "docs/images/serve.png" in readme
    assert "docs/images/serve-meridians.png" in readme
    for name in ("serve.png", "serve-meridians.png", "serve-new-game.png", "serve-hint.png"):
        assert (DOCS / "images" / name).read_bytes().startswith(b"\x89PNG")
        assert f"images/{name}" in (DOCS / "serve.md").read_text()
