"""The front door presents both games: the command's help, the package's
docstring and the README's first paragraph; the README says what the test
suite costs; ``make dist`` names the tools it lacks and the extra that brings
them."""

from __future__ import annotations

import shutil
import subprocess
import venv
from pathlib import Path

import pytest
import veletas
from veletas.cli import main

ROOT = Path(__file__).resolve().parent.parent


def test_the_command_names_both_games(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["--help"])
    assert "the board games Veletas and Meridians" in capsys.readouterr().out


def test_the_package_docstring_names_both_games() -> None:
    assert veletas.__doc__ is not None
    first = veletas.__doc__.split("\n\n")[0]
    assert "Veletas and\nMeridians" in first or "Veletas and Meridians" in first, first
    assert ":mod:`veletas.meridians`" in veletas.__doc__


def test_the_readme_names_both_games_and_the_cost_of_the_suite() -> None:
    readme = (ROOT / "README.md").read_text()
    first = readme.split("\n\n")[1]
    assert "**Veletas**" in first, first
    assert "**Meridians**" in first, first
    quick_start = readme.split("<!-- test-command -->")[0].rsplit("## Quick start", 1)[1]
    assert "about 1.6 GB" in quick_start
    assert "minutes on two cores" in quick_start


@pytest.mark.skipif(shutil.which("make") is None, reason="make is not installed")
def test_make_dist_names_the_missing_tools_and_their_extra(tmp_path: Path) -> None:
    venv.create(tmp_path / "bare", with_pip=False)
    python = tmp_path / "bare" / "bin" / "python"
    result = subprocess.run(
        ["make", "-s", "dist", f"PYTHON={python}", f"DIST={tmp_path / 'dist'}"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    assert result.returncode != 0
    assert "make dist needs maturin and ziglang, which the dev extra brings" in result.stderr
    assert "pip install -e '.[dev]'" in result.stderr
    assert not (tmp_path / "dist").exists()
