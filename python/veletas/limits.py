"""The limits of the batch APIs and the searches, stated once: threads per
call, games per call, envs per vector env, a search's seconds and
iterations (``docs/datasets.md`` and ``docs/serve.md`` list them with the
server's). A request above one is refused with a ``ValueError`` naming it,
before anything is allocated or started, rather than a process killed by an
allocation that cannot succeed, a machine brought to a halt by a million
threads or a clock that cannot count the time asked for: a
:class:`~veletas.errors.LimitError` (a ``ValueError``) names the limit.

The native core checks the same numbers where it takes them (its bots'
threads and budgets, its vector envs' sizes).
"""

from __future__ import annotations

import math
import numbers
import os
from typing import Any

import numpy as np

from veletas._checks import integer, shown
from veletas.errors import LimitError

__all__ = [
    "DEFAULT_SECONDS",
    "MAX_CUTOFF",
    "MAX_ENVS",
    "MAX_GAMES",
    "MAX_ITERATIONS",
    "MAX_PROOF_POSITIONS",
    "MAX_RECORDED_GAMES",
    "MAX_SECONDS",
    "MAX_SOLVE_NODES",
    "MAX_THREADS",
    "MAX_TREE_NODES",
    "MIN_SECONDS",
    "MIN_SOLVER_MEMORY",
    "SOLVER_MEMORY",
    "check_envs",
    "check_games",
    "check_iterations",
    "check_max_proof",
    "check_seconds",
    "check_solve_nodes",
    "check_solver_memory",
    "check_threads",
    "check_tree_nodes",
    "max_solver_memory",
]

MAX_THREADS = 256
"""The most threads one call may ask for (playouts, a bot's search, a match,
a vector env's opponent): more than the cores of any machine veletas runs
on, far fewer than would bring one to a halt."""

MAX_GAMES = 100_000_000
"""The most games one call plays at once (``playouts``, ``veletas playout
--games``, a match): the per-game columns of a call's result take 8 bytes a
game, 800 MB at this limit (``veletas playout`` plays them as ranges and
keeps only their counts, :class:`veletas.playouts.Tally`). Larger runs are
played as ranges (:meth:`PlayoutJob.run`) or saved as they go (``--save``),
in several calls."""

MAX_RECORDED_GAMES = 2_000_000
"""The most games one call plays with ``record=True``: their moves take about
300 bytes a standard game, 600 MB at this limit."""

MAX_ENVS = 100_000
"""The most games of one vector env: its observation buffers take about 8 KB
an env in the standard game, 800 MB at this limit."""


DEFAULT_SECONDS = 1.0
"""The thinking time of a bot per move when no budget is given."""

MIN_SECONDS = 1e-6
"""The shortest search budget in seconds: a microsecond. A search this short
may end before it tries a single move; it still answers (a bot plays its
first move, an analysis says it saw none)."""

MAX_SECONDS = 1_000_000.0
"""The longest search budget in seconds, about 11.6 days: longer than any
search worth waiting for, and well within what the native clock can count."""

MAX_ITERATIONS = 1_000_000_000_000
"""The most iterations (playouts) of one search per move and thread: at a
million a second, about as long as :data:`MAX_SECONDS`."""


MAX_CUTOFF = 1_000_000
"""The most random decisions of a search's playout before the estimate
scores it (``cutoff``): more than any game of the family lasts."""


MAX_TREE_NODES = 1 << 31
"""The most nodes of one search tree (``max_nodes``): 24 bytes each, 48 GiB
at this limit; the tree numbers its nodes in 32 bits."""


SOLVER_MEMORY = 256 << 20
"""The memory of an exact solver's table by default, in bytes (256 MiB)."""

MIN_SOLVER_MEMORY = 1 << 20
"""The least memory of an exact solver's table, in bytes (1 MiB)."""

MAX_SOLVE_NODES = 1 << 62
"""The most nodes one exact solve may be asked to search."""

MAX_PROOF_POSITIONS = 1_000_000
"""The most positions of a proof an exact solve builds; a bigger proof is
not built (its size is then unknown) and the value stands alone."""


def _physical_memory() -> int | None:
    """The machine's memory in bytes, where the system says."""
    try:
        return int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))
    except (AttributeError, OSError, ValueError):
        return None


def max_solver_memory() -> int:
    """The most memory of an exact solver's table, in bytes: half the
    machine's (1 TiB where the system does not say)."""
    physical = _physical_memory()
    return physical // 2 if physical else 1 << 40


def check_solver_memory(memory: object, name: str = "memory") -> int:
    """``memory`` (bytes) as an int of :data:`MIN_SOLVER_MEMORY` up to
    :func:`max_solver_memory`, so that the table can always be allocated.

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    value = integer(name, memory)
    limit = max_solver_memory()
    if not MIN_SOLVER_MEMORY <= value <= limit:
        raise LimitError(
            f"{name} must be {MIN_SOLVER_MEMORY:,} to {limit:,} bytes (half of this "
            f"machine's memory), not {shown(value)}"
        )
    return value


def check_solve_nodes(max_nodes: object, name: str = "max_nodes") -> int:
    """``max_nodes`` as an int of 1 .. :data:`MAX_SOLVE_NODES`.

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    return _counted(name, max_nodes, MAX_SOLVE_NODES)


def check_seconds(seconds: object, name: str = "seconds") -> float:
    """``seconds`` as a float of :data:`MIN_SECONDS` .. :data:`MAX_SECONDS`:
    every search budget in seconds (a bot's, a command's, the server's) is
    checked here.

    >>> check_seconds(0.5)
    0.5
    >>> check_seconds(1e308)
    Traceback (most recent call last):
    ...
    veletas.errors.LimitError: seconds must be a number of 1e-06 to 1e+06, not 1e+308

    :raises TypeError: for a value that is not a real number.
    :raises LimitError: for one outside that range (NaN and infinities too).
    """
    if isinstance(seconds, bool) or not isinstance(seconds, numbers.Real):
        raise TypeError(f"{name} must be a number, not {type(seconds).__name__}")
    try:
        value = float(seconds)
    except OverflowError:  # an int beyond every float
        value, bad = math.inf, shown(seconds)
    else:
        bad = repr(value)
    if not (math.isfinite(value) and MIN_SECONDS <= value <= MAX_SECONDS):
        raise LimitError(
            f"{name} must be a number of {MIN_SECONDS:g} to {MAX_SECONDS:g}, not {bad}"
        )
    return value


def check_iterations(iterations: object, name: str = "iterations") -> int:
    """``iterations`` as an int of 1 .. :data:`MAX_ITERATIONS`.

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    return _counted(name, iterations, MAX_ITERATIONS)


def check_tree_nodes(max_nodes: object, name: str = "max_nodes") -> int:
    """``max_nodes`` as an int of 1 .. :data:`MAX_TREE_NODES`.

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    return _counted(name, max_nodes, MAX_TREE_NODES)


def check_cutoff(cutoff: object, name: str = "cutoff") -> int:
    """``cutoff`` as an int of 0 .. :data:`MAX_CUTOFF` (0: no cutoff).

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    return _from_zero(name, cutoff, MAX_CUTOFF)


def check_max_proof(max_proof: object, name: str = "max_proof") -> int:
    """``max_proof`` as an int of 0 .. :data:`MAX_PROOF_POSITIONS` (0: no
    proof built).

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    return _from_zero(name, max_proof, MAX_PROOF_POSITIONS)


def check_threads(threads: object, name: str = "threads") -> int:
    """``threads`` as an int of 1 .. :data:`MAX_THREADS`.

    :raises TypeError: for a value that is not an int.
    :raises LimitError: for one outside that range.
    """
    return _counted(name, threads, MAX_THREADS)


def _from_zero(name: str, value: object, limit: int) -> int:
    """``value`` as an int of 0 .. ``limit``, else the error naming ``name``."""
    count = integer(name, value)
    if not 0 <= count <= limit:
        raise LimitError(f"{name} must be 0 to {limit:,}, not {shown(count)}")
    return count


def _counted(name: str, value: object, limit: int) -> int:
    """``value`` as an int of 1 .. ``limit``, else the error naming ``name``."""
    count = integer(name, value)
    if not 1 <= count <= limit:
        raise LimitError(f"{name} must be 1 to {limit:,}, not {shown(count)}")
    return count


def check_games(n_games: int, *, record: bool = False) -> int:
    """``n_games`` (already an int of 0 or more) within the games of one call.

    :raises LimitError: above :data:`MAX_GAMES`, or :data:`MAX_RECORDED_GAMES`
        with ``record``.
    """
    limit = MAX_RECORDED_GAMES if record else MAX_GAMES
    if n_games > limit:
        what = "recorded games" if record else "games"
        raise LimitError(
            f"n_games {shown(n_games)} is above the {limit:,} {what} of one call: play them in "
            "ranges (PlayoutJob.run) or with veletas playout --save"
        )
    return n_games


def check_envs(num_envs: Any) -> Any:
    """``num_envs``, refused above :data:`MAX_ENVS`; any other value is left
    to the vector env's own checks (an int of 1 or more).

    :raises LimitError: for a number above :data:`MAX_ENVS`.
    """
    is_int = isinstance(num_envs, int | np.integer) and not isinstance(num_envs, bool)
    if is_int and num_envs > MAX_ENVS:
        raise LimitError(f"num_envs must be 1 to {MAX_ENVS:,}, not {shown(num_envs)}")
    return num_envs
