"""Shared fixtures: the engine backends under test and the Hypothesis profiles.

Every API test takes the ``backend`` fixture: the module that provides
``Board`` and ``Move``: the pure-Python reference and the native core.

``VELETAS_HYPOTHESIS_PROFILE=slow`` runs the property tests with many more
examples than the default ``fast`` profile.
"""

from __future__ import annotations

import importlib
import os
from types import ModuleType

import pytest
from games.veletas.backends import BACKEND_MODULES
from hypothesis import settings

settings.register_profile("fast", max_examples=25, deadline=None)
settings.register_profile("slow", max_examples=500, deadline=None)
settings.load_profile(os.environ.get("VELETAS_HYPOTHESIS_PROFILE", "fast"))


def pytest_configure(config: pytest.Config) -> None:
    # When a property fails, Hypothesis writes a patch with libcst, whose
    # import warns about mypy_extensions; under `filterwarnings = error` that
    # would turn the failure report into an internal error.
    config.addinivalue_line(
        "filterwarnings", "ignore:mypy_extensions.TypedDict is deprecated:DeprecationWarning"
    )


@pytest.fixture(scope="session", params=list(BACKEND_MODULES))
def backend(request: pytest.FixtureRequest) -> ModuleType:
    """The module providing ``Board`` and ``Move`` (session-scoped so that
    Hypothesis tests may use it)."""
    return importlib.import_module(BACKEND_MODULES[request.param])
