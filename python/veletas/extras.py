"""The optional extras of veletas, and how to install one.

veletas is installed from a clone of its repository or from a wheel built
from it, so an extra is named the way pip takes it there:

>>> print(install_hint("serve"))
pip install ".[serve]" in a clone of veletas, or pip install "veletas-VERSION-...whl[serve]"
"""

from __future__ import annotations

__all__ = ["install_hint", "missing_extra"]


def install_hint(extra: str) -> str:
    """The command that installs ``extra``, from a clone or from a wheel."""
    return (
        f'pip install ".[{extra}]" in a clone of veletas, '
        f'or pip install "veletas-VERSION-...whl[{extra}]"'
    )


def missing_extra(feature: str, extra: str, error: ImportError) -> ModuleNotFoundError:
    """The error of ``feature`` used without ``extra``: it names the module
    that is missing, the extra and how to install it."""
    missing = error.name or "a module"
    return ModuleNotFoundError(
        f"{feature} needs the extra {extra!r} ({missing} is not installed): {install_hint(extra)}",
        name=error.name,
    )
