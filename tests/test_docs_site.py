"""The documentation site (``make docs``): Sphinx builds it with warnings as
errors, and its API reference holds every name of the ``__all__`` of each
public module of the installed package.

The site is the one in ``VELETAS_DOCS_HTML`` where that is set (CI points it
at the build of ``make docs``), or else built here. The build needs the
``docs`` extra; without it the test skips, except under
``VELETAS_REQUIRE_DOCS=1`` (set by ``.ci/run``), where it fails.
"""

from __future__ import annotations

import importlib
import importlib.util
import os
import re
import subprocess
import sys
import zlib
from pathlib import Path
from types import ModuleType

import pytest

DOCS = Path(__file__).resolve().parent.parent / "docs"


def api_pages() -> ModuleType:
    """docs/api_pages.py, which finds the public modules for the site."""
    spec = importlib.util.spec_from_file_location("api_pages", DOCS / "api_pages.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def inventory(site: Path) -> dict[str, str]:
    """The objects of the site's ``objects.inv``: each name with its role."""
    header, _, body = site.joinpath("objects.inv").read_bytes().partition(b"zlib.\n")
    assert header.startswith(b"# Sphinx inventory version 2"), header[:40]
    objects = {}
    for line in zlib.decompress(body).decode().splitlines():
        name, role, *_ = line.split(" ")
        objects[name] = role
    return objects


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    given = os.environ.get("VELETAS_DOCS_HTML")
    if given:
        return Path(given)
    for package in ("sphinx", "myst_parser", "furo"):
        if importlib.util.find_spec(package) is None:
            reason = f"{package} is not installed (pip install 'veletas[docs]', Python >= 3.11)"
            if os.environ.get("VELETAS_REQUIRE_DOCS") == "1":
                pytest.fail(f"{reason}; VELETAS_REQUIRE_DOCS=1 requires the site to be built")
            pytest.skip(reason)
    out = tmp_path_factory.mktemp("site")
    command = [sys.executable, "-m", "sphinx", "-E", "-W", "--keep-going", "-q", "-b", "html"]
    command += ["-d", str(out / "doctrees"), str(DOCS), str(out / "html")]
    result = subprocess.run(command, capture_output=True, text=True, check=False)
    assert result.returncode == 0, f"the site does not build cleanly:\n{result.stderr}"
    return out / "html"


def test_every_public_name_is_in_the_reference(site: Path) -> None:
    pages = api_pages()
    modules = pages.public_modules()
    assert {"veletas", "veletas.meridians", "veletas.errors", "veletas.serve"} <= set(modules)
    objects = inventory(site)
    missing = []
    for name in modules:
        assert objects.get(name) == "py:module", f"{name} has no page"
        for attribute in getattr(importlib.import_module(name), "__all__", ()):
            if pages.reference_name(name, attribute, modules) not in objects:
                missing.append(f"{name}.{attribute}")
    assert not missing, f"not in the API reference: {', '.join(missing)}"


def test_the_games_main_names_have_their_docstrings(site: Path) -> None:
    # The native classes' methods and properties, read from the extension,
    # and the reference's, on the pages of the games' entry points.
    for module, members in {
        "veletas": ["Board.push", "Board.pop", "Board.legal_moves", "Move.parse", "VectorEnv"],
        "veletas.meridians": ["Board.push", "Board.legal_moves", "Move", "LegalMoves"],
        "veletas.reference": ["Board.push", "Board.legal_moves"],
    }.items():
        page = (site / "api" / f"{module}.html").read_text()
        for member in members:
            assert f'id="{module}.{member}"' in page, f"{module}.{member}"


def test_the_front_page_is_the_readme_with_its_links_made_for_the_site(site: Path) -> None:
    front = (site / "index.html").read_text()
    assert "Quick start" in front
    assert 'href="RULES.html"' in front
    assert 'href="api/index.html"' in front


def test_every_picture_and_local_link_of_the_site_leads_to_a_file(site: Path) -> None:
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    broken = []
    for page in pages:
        for target in re.findall(r'(?:src|href)="([^"#?]+)', page.read_text()):
            if re.match(r"[a-z][a-z0-9+.-]*:", target):
                continue
            if not (page.parent / target).is_file() and not (page.parent / target).is_dir():
                broken.append(f"{page.relative_to(site)}: {target}")
    assert not broken, "\n".join(broken)
