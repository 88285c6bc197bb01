"""The ``>>>`` examples in the docstrings of the shared types and the reference engine."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "veletas",
    "veletas.base",
    "veletas.encoding",
    "veletas.bots",
    "veletas.records",
    "veletas.playouts",
    "veletas.distributed",
    "veletas.reference",
    "veletas.reference.board",
    "veletas.reference.claims",
    "veletas.reference.decision",
    "veletas.reference.fen",
    "veletas.reference.geometry",
    "veletas.reference.move",
    "veletas.svg",
    "veletas.reference.playouts",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"
