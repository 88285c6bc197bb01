"""The Meridians engines under test.

Every test of the engine API takes the ``engine`` fixture: a namespace that
provides ``Board``, ``Move`` and ``LegalMoves``, once for the pure-Python
reference and once for the native core.
"""

from __future__ import annotations

import importlib
from types import ModuleType, SimpleNamespace

import pytest


def _native() -> SimpleNamespace:
    native = importlib.import_module("veletas._veletas")
    return SimpleNamespace(
        __name__="veletas._veletas (meridians)",
        Board=native.MeridiansBoard,
        Move=native.MeridiansMove,
        LegalMoves=native.MeridiansLegalMoves,
    )


ENGINES = {
    "reference": lambda: importlib.import_module("veletas.meridians.reference"),
    "rust": _native,
}


@pytest.fixture(scope="session", params=list(ENGINES))
def engine(request: pytest.FixtureRequest) -> ModuleType | SimpleNamespace:
    """The engine providing ``Board`` and ``Move`` (session-scoped so that
    Hypothesis tests may use it). The native one is skipped where the
    extension is not built."""
    if request.param == "rust":
        pytest.importorskip("veletas._veletas", reason="the extension is not built")
    return ENGINES[request.param]()
