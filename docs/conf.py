"""The documentation site: the Markdown pages of docs/ (MyST) and an API
reference that autodoc generates from the docstrings of the installed
package, one page per public module (docs/api_pages.py finds them).

    make docs        # sphinx-build -W: a warning fails the build

The pages open from ``docs/_build/html/index.html``.
"""

from __future__ import annotations

import importlib.metadata
import re
import sys
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from api_pages import write_api_pages  # noqa: E402  (beside this file)

project = "veletas"
author = "The veletas maintainers"
copyright = "2026, The veletas maintainers"
release = importlib.metadata.version("veletas")
version = release

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinx.ext.viewcode"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
# <img> tags become images that the build copies (the README and reports.md
# centre their pictures with HTML).
myst_enable_extensions = ["html_image"]
# An exception is named unqualified in many docstrings (":raises
# InvalidMoveError:"), and it is in the reference twice, as veletas.X and
# veletas.errors.X: the same class. Either target is right; only that
# ambiguity is silenced.
suppress_warnings = ["ref.python"]

autodoc_default_options = {
    "members": True,
    "undoc-members": True,
    "show-inheritance": True,
    "member-order": "bysource",
}
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_preserve_defaults = True

html_theme = "furo"
html_title = f"veletas {release}"
html_static_path: list[str] = []
html_show_sourcelink = False

README_LINK = re.compile(r"(\]\(|src=\")(?![a-z][a-z0-9+.-]*:|#)([^)\"\s]+)")


def root_links_from_docs(_app: Any, relative_path: Path, _parent: str, content: list[str]) -> None:
    """The front page includes the README, and the changelog's page the
    changelog, whose links are relative to the repository's root: make them
    relative to docs/ (``docs/X`` is ``X``, anything else one folder up)."""
    if (HERE / relative_path).resolve().parent != HERE.parent:
        return

    def relink(match: re.Match[str]) -> str:
        target = match.group(2)
        moved = target.removeprefix("docs/") if target.startswith("docs/") else f"../{target}"
        return match.group(1) + moved

    content[0] = README_LINK.sub(relink, content[0])


def setup(app: Any) -> None:
    app.connect("include-read", root_links_from_docs)


write_api_pages(HERE / "api")
