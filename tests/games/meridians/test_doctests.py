"""The ``>>>`` examples in the docstrings of the Meridians types and reference engine."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    pytest.param("veletas.meridians", marks=pytest.mark.native),
    "veletas.games.meridians.playouts",
    "veletas.games.meridians.types",
    "veletas.games.meridians.encoding",
    "veletas.meridians.reference",
    "veletas.games.meridians.reference.board",
    "veletas.games.meridians.reference.fen",
    "veletas.games.meridians.reference.geometry",
    "veletas.games.meridians.reference.move",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"
