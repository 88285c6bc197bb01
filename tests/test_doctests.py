"""The ``>>>`` examples in the docstrings of the shared types and the reference engine."""

from __future__ import annotations

import doctest
import importlib

import pytest

MODULES = [
    "veletas",
    "veletas.games.veletas.types",
    "veletas.games.veletas.encoding",
    pytest.param("veletas.vector_env", marks=pytest.mark.native),
    pytest.param("veletas.gymnasium", marks=pytest.mark.native),
    "veletas.bots",
    "veletas.records",
    "veletas.playouts",
    "veletas.datasets",
    "veletas.report",
    "veletas.review",
    "veletas.review_page",
    "veletas.distributed",
    pytest.param("veletas.match", marks=pytest.mark.native),
    "veletas.players",
    "veletas.ratings",
    "veletas.games",
    "veletas.games.veletas.playouts",
    "veletas.games.veletas.match",
    "veletas.games.meridians.match",
    "veletas.reference",
    "veletas.games.veletas.reference.board",
    "veletas.games.veletas.reference.claims",
    "veletas.games.veletas.reference.decision",
    "veletas.games.veletas.reference.fen",
    "veletas.games.veletas.reference.geometry",
    "veletas.games.veletas.reference.move",
    "veletas.svg",
    "veletas.games.veletas.svg",
    "veletas.games.veletas.web",
    "veletas.games.meridians.web",
    "veletas.serve.newgame",
    "veletas.serve.app",
    "veletas.games.veletas.reference.playouts",
    pytest.param("veletas.meridians", marks=pytest.mark.native),
    "veletas.limits",
    "veletas.solving",
    pytest.param("veletas.openings", marks=pytest.mark.native),
    "veletas.sprt",
]


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str) -> None:
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0, f"{name} has no examples"
    assert result.failed == 0, f"{result.failed} example(s) of {name} failed (output above)"
