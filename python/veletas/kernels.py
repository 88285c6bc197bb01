"""The kernel of the native core: the code of its bit work, for measurement
and tests.

Every kernel plays the same games for the same seed and gives the same
results; only the speed differs. The default is the faster one on the CPU
at hand (docs/architecture.md, "The bit kernels"), so normal use never needs
this module. To measure or test another, set ``VELETAS_KERNEL`` before
``veletas`` is imported (it is read once)::

    VELETAS_KERNEL=portable python -m pytest benches

or switch at run time with :func:`use`. The kernels:

- ``portable``: plain 64-bit code, on every CPU (Meridians's sets, on
  x86-64, in the SSE2 registers every x86-64 CPU has);
- ``x86-64-v3``: BMI2's ``pext`` and ``pdep``, AVX2 and LZCNT, on x86-64
  CPUs that have them (the default where ``pext`` is fast: Intel from
  Haswell on, AMD from Zen 3 on).

A name that is unknown, or that the CPU cannot run, is refused with
:class:`~veletas.errors.KernelError`. Without the compiled extension there
are no kernels: :func:`current` is ``None`` and :func:`supported` is empty.
"""

from __future__ import annotations

from veletas._implementation import native
from veletas.errors import KernelError

__all__ = ["KernelError", "current", "supported", "use"]


def current() -> str | None:
    """The name of the kernel that runs, ``None`` without the
    compiled extension."""
    if native is None:
        return None
    name: str = native.current_kernel()
    return name


def supported() -> list[str]:
    """The names of the kernels this CPU can run, ``portable`` first."""
    if native is None:
        return []
    names: list[str] = native.supported_kernels()
    return names


def use(name: str | None) -> None:
    """Runs the kernel ``name`` in every game from now on;
    ``None`` goes back to the CPU's default.

    :raises KernelError: for a name that is unknown or that this CPU cannot
        run (the kernel in use stays), or without the compiled extension.
    """
    if native is None:
        raise KernelError(f"no kernel {name!r}: the compiled extension is not built")
    native.set_kernel(name)
