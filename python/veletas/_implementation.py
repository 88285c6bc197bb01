"""Which engine serves: the compiled extension or the pure-Python reference
(``VELETAS_IMPLEMENTATION=rust|python``), read once for every game."""

from __future__ import annotations

import os
import sys
from types import ModuleType

native: ModuleType | None
try:
    from veletas import _veletas as native
except ImportError:  # no compiled extension: the reference serves
    native = None

IMPLEMENTATION = os.environ.get("VELETAS_IMPLEMENTATION", "rust" if native else "python")
"""The backend in use: ``"rust"`` (the default) or ``"python"`` (the default
where the extension is not built)."""

if IMPLEMENTATION not in ("rust", "python"):
    _message = f"unknown VELETAS_IMPLEMENTATION {IMPLEMENTATION!r}: expected 'rust' or 'python'"
    _package = __name__.partition(".")[0]  # the command has the package's name
    _command = sys.orig_argv[1:3] == ["-m", f"{_package}.cli"]
    if _command or os.path.basename(sys.argv[0]) == _package:
        # The command line: its one-line error, not a traceback of the import.
        print(f"veletas: error: {_message}", file=sys.stderr)
        raise SystemExit(2)
    raise ImportError(_message)


def version() -> str:
    """The version of veletas: the compiled extension's where it is built,
    else the installed package's."""
    if native is not None:
        text: str = native.__version__
        return text
    from importlib.metadata import PackageNotFoundError
    from importlib.metadata import version as installed

    try:
        return installed("veletas")
    except PackageNotFoundError:
        return "unknown"
