"""Shared fixtures: the engine backends under test and the Hypothesis profiles.

Every API test takes the ``backend`` fixture: the module that provides
``Board`` and ``Move``: the pure-Python reference and the native core.

Tests that need the compiled extension are marked ``native`` (or skip at
import); where it is not built they skip, saying so.

``VELETAS_HYPOTHESIS_PROFILE=slow`` runs the property tests with many more
examples than the default ``fast`` profile.
"""

from __future__ import annotations

import importlib
import importlib.util
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


NATIVE_BUILT = importlib.util.find_spec("veletas._veletas") is not None


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("native") and not NATIVE_BUILT:
        pytest.skip("the extension is not built")


@pytest.fixture(scope="session", params=list(BACKEND_MODULES))
def backend(request: pytest.FixtureRequest) -> ModuleType:
    """The module providing ``Board`` and ``Move`` (session-scoped so that
    Hypothesis tests may use it). The native one is skipped where the
    extension is not built."""
    if request.param == "rust":
        pytest.importorskip("veletas._veletas", reason="the extension is not built")
    return importlib.import_module(BACKEND_MODULES[request.param])
