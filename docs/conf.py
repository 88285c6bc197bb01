"""The documentation site: the Markdown pages of docs/ (MyST) and an API
reference that autodoc generates from the docstrings of the installed
package, one page per public module (docs/api_pages.py finds them).

    make docs        # sphinx-build -W: a warning fails the build

The pages open from ``docs/_build/html/index.html``.
"""

from __future__ import annotations

import importlib.metadata
import inspect
import re
import shutil
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

extensions = ["myst_parser", "sphinx.ext.autodoc"]
source_suffix = {".rst": "restructuredtext", ".md": "markdown"}
root_doc = "index"
exclude_patterns = ["_build"]
myst_heading_anchors = 3
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
    relative to docs/ (``docs/X`` is ``X``, the changelog is its page,
    anything else one folder up)."""
    if (HERE / relative_path).resolve().parent != HERE.parent:
        return

    def relink(match: re.Match[str]) -> str:
        target = match.group(2)
        if target.startswith("docs/"):
            moved = target.removeprefix("docs/")
        elif target == "CHANGELOG.md":
            moved = "changelog.md"
        else:
            moved = f"../{target}"
        return match.group(1) + moved

    content[0] = README_LINK.sub(relink, content[0])


def copy_pictures(app: Any, exception: BaseException | None) -> None:
    """The README and some pages centre their pictures with HTML ``<img>``
    tags, which Sphinx leaves as they are: the pictures go beside the pages,
    where those tags look for them."""
    if exception is None and app.builder.format == "html":
        shutil.copytree(HERE / "images", Path(app.outdir) / "images", dirs_exist_ok=True)


def no_docstrings_of_types(
    _app: Any, what: str, _name: str, value: Any, _options: Any, lines: list[str]
) -> None:
    """A value without a docstring of its own (``veletas.A1 = 0``) would show
    the docstring of its type (``int([x]) -> integer``): it shows none."""
    if what in ("data", "attribute") and not inspect.isclass(value):
        own = "\n".join(lines).strip()
        if own and own == (inspect.getdoc(type(value)) or "").strip():
            lines.clear()


def setup(app: Any) -> None:
    app.connect("autodoc-process-docstring", no_docstrings_of_types)
    app.connect("include-read", root_links_from_docs)
    app.connect("build-finished", copy_pictures)


write_api_pages(HERE / "api")
