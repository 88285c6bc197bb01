"""Which engine serves: the compiled extension or the pure-Python reference
(``VELETAS_IMPLEMENTATION=rust|python``), read once for every game; and
which kernel (the code of its bit work) the extension runs (``VELETAS_KERNEL``, see
:mod:`veletas.kernels`), read once too."""

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


def _refuse(error: Exception) -> None:
    """Refuses a bad variable: on the command line with its one-line error,
    not a traceback of the import; else by raising ``error``."""
    package = __name__.partition(".")[0]  # the command has the package's name
    command = sys.orig_argv[1:3] == ["-m", f"{package}.cli"]
    if command or os.path.basename(sys.argv[0]) == package:
        print(f"veletas: error: {error}", file=sys.stderr)
        raise SystemExit(2)
    raise error


if IMPLEMENTATION not in ("rust", "python"):
    _refuse(
        ImportError(
            f"unknown VELETAS_IMPLEMENTATION {IMPLEMENTATION!r}: expected 'rust' or 'python'"
        )
    )

KERNEL = os.environ.get("VELETAS_KERNEL") or None
"""The kernel that ``VELETAS_KERNEL`` chose, or ``None``
for the default of the CPU."""

if KERNEL is not None and native is not None:
    try:
        native.set_kernel(KERNEL)
    except ValueError as error:  # KernelError: unknown, or not for this CPU
        _refuse(error)


def require_native(user: str) -> ModuleType:
    """The compiled extension, for ``user`` (a module that cannot work
    without it).

    :raises ImportError: naming ``user``, where the extension is not built.
    """
    if native is None:
        raise ImportError(
            f"{user} needs the compiled extension veletas._veletas, which is not built "
            "here; the pure-Python reference has no bots, solver or VectorEnv"
        )
    return native


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
