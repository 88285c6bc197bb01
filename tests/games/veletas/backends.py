"""The engine backends under test: the pure-Python reference and the native core."""

from __future__ import annotations

BACKEND_MODULES = {"reference": "veletas.reference", "rust": "veletas._veletas"}
