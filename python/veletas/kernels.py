"""The back end of the native bit kernels, for measurement and tests.

Every back end plays the same games for the same seed and gives the same
results; only the speed differs. The default is the faster one on the CPU
at hand (docs/architecture.md, "The bit kernels"), so normal use never needs
this module. To measure or test another, set ``VELETAS_KERNEL`` before
``veletas`` is imported (it is read once)::

    VELETAS_KERNEL=portable python -m pytest benches

or switch at run time with :func:`use`. The back ends:

- ``portable``: plain 64-bit code, on every CPU;
- ``x86-64-v3``: BMI2's ``pext`` and ``pdep``, AVX2 and LZCNT, on x86-64
  CPUs that have them (the default where ``pext`` is fast: Intel from
  Haswell on, AMD from Zen 3 on).

A name that is unknown, or that the CPU cannot run, is refused with
:class:`~veletas.errors.KernelError`. Without the compiled extension there
are no kernels: :func:`backend` is ``None`` and :func:`backends` is empty.
"""

from __future__ import annotations

from veletas._implementation import native
from veletas.errors import KernelError

__all__ = ["KernelError", "backend", "backends", "use"]


def backend() -> str | None:
    """The name of the back end the kernels run, ``None`` without the
    compiled extension."""
    if native is None:
        return None
    name: str = native.kernel_backend()
    return name


def backends() -> list[str]:
    """The names of the back ends this CPU can run, ``portable`` first."""
    if native is None:
        return []
    names: list[str] = native.kernel_backends()
    return names


def use(name: str | None) -> None:
    """Runs the kernels of every game on the back end ``name`` from now on;
    ``None`` goes back to the CPU's default.

    :raises KernelError: for a name that is unknown or that this CPU cannot
        run (the back end in use stays), or without the compiled extension.
    """
    if native is None:
        raise KernelError(f"no kernel back end {name!r}: the compiled extension is not built")
    native.set_kernel_backend(name)
