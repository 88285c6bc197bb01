"""The ``>>>`` examples in the docstrings of the Meridians types and reference engine."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "veletas.meridians",
    "veletas.meridians.types",
    "veletas.meridians.reference",
    "veletas.meridians.reference.board",
    "veletas.meridians.reference.fen",
    "veletas.meridians.reference.geometry",
    "veletas.meridians.reference.move",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"
