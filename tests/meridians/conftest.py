"""The Meridians engines under test.

Every test of the engine API takes the ``engine`` fixture: the module that
provides ``Board`` and ``Move``. Today that is the pure-Python reference; the
native core joins the list when it is built.
"""

from __future__ import annotations

import importlib
from types import ModuleType

import pytest

ENGINE_MODULES = {"reference": "veletas.meridians.reference"}


@pytest.fixture(scope="session", params=list(ENGINE_MODULES))
def engine(request: pytest.FixtureRequest) -> ModuleType:
    """The module providing ``Board`` and ``Move`` (session-scoped so that
    Hypothesis tests may use it)."""
    return importlib.import_module(ENGINE_MODULES[request.param])
