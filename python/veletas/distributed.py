"""Playouts on a Ray cluster, with the same games as on one machine.

:func:`playouts` takes the arguments of :func:`veletas.playouts` and returns
the same :class:`~veletas.Playouts`, array for array: the run is cut into
ranges of game indices (chunks), each played by a Ray task with the native
runner (:meth:`~veletas.playouts.PlayoutJob.run`), and the ranges are put
back together in order. Game ``i`` draws only from the random stream of
``(seed, i)``, so where and when a chunk runs, how the run is cut, and how
often a chunk is retried after a failure change nothing in the result.

Ray is an extra (``pip install "veletas[ray]"``) imported only when a run
starts: importing this module, or ``veletas``, does not import it.

>>> import veletas.distributed
>>> games = veletas.distributed.playouts(10_000, seed=3)  # doctest: +SKIP
>>> (games.plies == veletas.playouts(10_000, seed=3).plies).all()  # doctest: +SKIP
True

Bad arguments raise before Ray is touched:

>>> veletas.distributed.playouts(100, chunk_size=0)
Traceback (most recent call last):
...
ValueError: chunk_size must be at least 1 (or None to choose one), not 0

``docs/distributed.md`` has the cluster recipe and how the chunk size is chosen.
"""

from __future__ import annotations

import contextlib
import dataclasses
import importlib
import inspect
import math
import os
import re
import socket
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from veletas import games as registry
from veletas._checks import count, integer
from veletas.errors import ChunkFailedError
from veletas.extras import install_hint
from veletas.playouts import PlayoutJob, Playouts
from veletas.rules_options import refuse_foreign

__all__ = [
    "CHUNKS_PER_CPU",
    "CHUNK_SECONDS",
    "MIN_CHUNK_SECONDS",
    "chunk_size_for",
    "connect",
    "play_chunks",
    "playouts",
    "require_ray",
]

CHUNK_SECONDS = 2.0
"""The longest a chunk should take on one CPU: long enough that Ray's cost of
a task (about a millisecond) is lost in it, short enough that a lost worker
costs little, the progress bar moves and the tasks spread evenly."""

MIN_CHUNK_SECONDS = 0.05
"""The shortest a chunk should take, so that a small run is not cut into
tasks that cost Ray more than their games."""

CHUNKS_PER_CPU = 4
"""Runs too short for chunks of :data:`CHUNK_SECONDS` are cut into at least
this many chunks per CPU of the cluster, so that no CPU waits long for the
last one."""

PROBE_SECONDS = 10.0
"""How long to wait for the head of a cluster to answer before giving up."""

MAX_RETRIES = 3
"""How often Ray plays a chunk again after its worker or node died."""

# Tasks handed to Ray at a time for each task slot: enough that no slot waits
# for the next task while this process collects a result (which matters for
# short chunks), few enough that Ctrl-C has little to cancel.
_IN_FLIGHT_PER_SLOT = 8
_REFRESH_SECONDS = 10.0  # how often a run looks again at the size of the cluster
_TASK_NAME = "veletas playouts"  # the tasks' name in Ray, and their workers' process title


def require_ray() -> Any:
    """The ``ray`` module, imported now.

    :raises ModuleNotFoundError: if Ray is not installed, saying how to get it.
    """
    try:
        import ray
    except ImportError as error:
        raise ModuleNotFoundError(
            f"veletas.distributed needs Ray: {install_hint('ray')}", name="ray"
        ) from error
    return ray


def playouts(
    n_games: int,
    *,
    address: str | None = None,
    chunk_size: int | None = None,
    max_retries: int = MAX_RETRIES,
    progress: bool | None = None,
    game: str = "veletas",
    ship: bool = True,
    start: Any = None,
    seed: int = 0,
    threads: int | None = None,
    policy: str | None = None,
    record: bool = False,
    **rules: Any,
) -> Playouts:
    """Play ``n_games`` random games on a Ray cluster: the games, arrays and
    summary of :func:`veletas.playouts` with the same arguments.

    ``address`` is where the cluster is: None starts a local Ray runtime for
    the run (and stops it after); ``"HOST:PORT"`` joins the cluster whose head
    was started there with ``ray start --head``; any other address
    ``ray.init`` takes works too (``"auto"``: the ``RAY_ADDRESS`` environment
    variable or the cluster last started on this machine; ``"ray://HOST:10001"``:
    Ray Client). If this process has already called ``ray.init``, the run
    uses that connection and leaves it open; ``address`` must then be None or
    that cluster's address.

    ``chunk_size`` is the number of games of one Ray task; None chooses it
    (:func:`chunk_size_for`). ``threads`` is the threads of one task, and the
    CPUs it asks Ray for (default 1: Ray runs one task on each CPU of the
    cluster). ``max_retries`` is how often Ray plays a chunk again after its
    worker process or node died (``-1``: without limit). ``progress`` shows a
    progress bar of the finished games on stderr (None: when stderr is a
    terminal). ``game`` names the game (``"veletas"`` or ``"meridians"``);
    ``start``, ``seed``, ``threads``, ``policy`` and ``record`` are those of
    :func:`veletas.playouts`, and ``rules`` the game's rules options, by the
    names of its ``playouts`` (for Veletas those of :func:`veletas.playouts`,
    for Meridians those of :func:`veletas.meridians.playouts`); an option of
    another game is refused unless it is left at its default. ``ship`` sends this veletas to
    the workers of a cluster joined by address (:func:`connect`), so that they
    need only Ray; with ``ship=False`` every node needs the same version of
    veletas installed.

    Ctrl-C (``KeyboardInterrupt``) cancels the chunks not yet played and
    stops the workers playing them before it propagates.

    :raises ValueError: for a ``chunk_size`` below 1, ``max_retries`` below
        -1, ``threads`` beyond the CPUs of every node, an ``address`` that is
        not the cluster this process is connected to, or any argument that
        :func:`veletas.playouts` refuses (with its error types).
    :raises TypeError: for arguments of the wrong type.
    :raises ConnectionError: if nothing answers at a ``HOST:PORT`` address.
    :raises ModuleNotFoundError: if Ray is not installed.
    """
    n_games = count(n_games)
    common = {"start": start, "seed": seed, "threads": threads, "record": record}
    played = registry.get(game)
    owners: dict[str, list[str]] = {}
    defaults: dict[str, list[Any]] = {}
    for known in registry.every():
        for option in known.options.RULES:
            owners.setdefault(option.name, []).append(known.title)
            defaults.setdefault(option.name, []).append(option.default)
    # Another game's option at its default is left out, as if not given.
    given = {
        name: value
        for name, value in rules.items()
        if played.title in owners.get(name, ()) or value not in defaults.get(name, [])
    }
    refuse_foreign(played.name, played.title, given, owners)
    job = PlayoutJob.make(
        game=game, **given, policy=policy or played.playouts.POLICIES[0], **common
    )
    chunk_size = _check_chunk_size(chunk_size)
    max_retries = _check_max_retries(max_retries)
    _check_address(address)
    if progress is not None and not isinstance(progress, bool):
        raise TypeError(f"progress must be a bool or None, not {progress!r}")
    require_ray()

    from tqdm import tqdm

    parts = [job.run(0, 0)]  # the empty range: so that a run of no games concatenates
    disable = None if progress is None else not progress
    with (
        connect(address, ship=ship),
        tqdm(
            total=n_games,
            unit=" games",
            unit_scale=True,
            file=sys.stderr,
            disable=disable,
            leave=False,
        ) as bar,
    ):
        parts.extend(
            play_chunks(
                job,
                n_games,
                chunk_size=chunk_size,
                max_retries=max_retries,
                progress=bar.update,
            )
        )
    return Playouts.concatenate(parts)


@contextmanager
def connect(address: str | None = None, *, ship: bool = True) -> Iterator[str]:
    """Connect to Ray for the ``with`` block; yields a description of where
    the games run (for summaries).

    Without a connection yet, ``address=None`` starts a local Ray runtime
    and any other address joins that cluster; on leaving, the runtime is
    stopped or the cluster left. With a connection made before (``ray.init``
    called by the program), the block uses it and leaves it open.

    Joining a cluster, the driver sends its own ``veletas`` package (with
    its compiled core) to the workers through Ray's ``runtime_env``
    (``py_modules``), so that the nodes need only Ray and numpy, and play
    with exactly the driver's code; ``ship=False`` uses what the nodes have
    installed instead.

    A cluster started with token authentication (``ray start`` turns it on
    where a token exists, as in ``~/.ray/auth_token``) is joined with this
    machine's token: found where Ray looks for it (``RAY_AUTH_TOKEN``,
    ``RAY_AUTH_TOKEN_PATH``, ``~/.ray/auth_token``) even when
    ``RAY_AUTH_MODE`` is not set, which Ray itself requires for an address.

    :raises ValueError: if this process is connected to another cluster
        than ``address``.
    :raises ConnectionError: if nothing answers at a ``HOST:PORT`` address
        (where Ray itself would wait for ever), or if the cluster refuses
        this machine's authentication token or its lack of one (where Ray
        would try for 20 s), saying what to do.
    :raises ModuleNotFoundError: if Ray is not installed.
    """
    _check_address(address)
    ray = require_ray()
    if ray.is_initialized():
        connected = ray.get_runtime_context().gcs_address
        if address is not None and address not in (connected, "auto"):
            raise ValueError(
                f"ray is already connected to the cluster at {connected!r}, not {address!r}: "
                "pass address=None to play on it, or call ray.shutdown() first"
            )
        yield f"the Ray cluster at {connected} ({_size_of_cluster(ray)})"
        return
    runtime_env = None
    if address is not None:
        _probe(address)
        _authenticate(address)
        if ship:
            runtime_env = {"py_modules": [_package_dir()], "excludes": ["__pycache__", "*.pyc"]}
    ray.init(address="local" if address is None else address, runtime_env=runtime_env)
    try:
        if address is None:
            yield f"a local Ray runtime ({_size_of_cluster(ray)})"
        else:
            if address == "auto":
                address = ray.get_runtime_context().gcs_address
            yield f"the Ray cluster at {address} ({_size_of_cluster(ray)})"
    finally:
        _shut_down(ray)


def _shut_down(ray: Any) -> None:
    """``ray.shutdown()``, waiting for the processes of a local runtime to
    exit where this Ray can (its ``wait_for_processes``): otherwise a run
    can return while they are still exiting, and their handles are
    collected with them running (a ``ResourceWarning``)."""
    if "wait_for_processes" in inspect.signature(ray.shutdown).parameters:
        ray.shutdown(wait_for_processes=True)
    else:
        ray.shutdown()


def play_chunks(
    job: PlayoutJob,
    n_games: int,
    *,
    chunk_size: int | None = None,
    max_retries: int = MAX_RETRIES,
    progress: Callable[[int], object] | None = None,
    first_game: int = 0,
    max_chunk_size: int | None = None,
    played_on: set[str] | None = None,
) -> Iterator[Playouts]:
    """Games ``first_game .. n_games - 1`` of ``job``, played as Ray tasks on
    the cluster this process is connected to (:func:`connect`), yielded as
    consecutive ranges in order: put together with
    :meth:`Playouts.concatenate` they are ``job.run(first_game, n_games -
    first_game)``. ``max_chunk_size`` caps the chunk size chosen (so that
    chunks waiting for an earlier one hold little memory).

    Each task plays one chunk of ``chunk_size`` games (None: chosen by
    :func:`chunk_size_for`) on ``job.threads`` threads (None: 1) and asks Ray
    for as many CPUs. Tasks are handed to Ray eight per task slot at a time,
    the earliest games first. ``progress(count)`` is called as each chunk
    finishes, in whatever order they finish.

    Closing the iterator before its end (``break``, an exception, Ctrl-C in
    the loop or while it waits) cancels the chunks not yet played and stops
    the workers playing them; the ranges yielded until then stay valid.
    ``played_on`` collects the ids of the nodes that played a chunk.

    :raises ChunkFailedError: for a chunk that failed past its retries (or
        at once, of an error of its own), naming it, the cause and the games
        finished before it (the ranges yielded).
    """
    ray = require_ray()
    if n_games <= first_game:
        return
    cpus = job.threads if job.threads is not None else 1
    job = dataclasses.replace(job, threads=cpus)
    slots = _slots(ray, cpus)
    if chunk_size is None:
        chunk_size = chunk_size_for(
            n_games - first_game, slots, _seconds_per_game(job), threads=cpus
        )
        if max_chunk_size is not None:
            chunk_size = min(chunk_size, max_chunk_size)
    task = ray.remote(
        num_cpus=cpus,
        max_retries=max_retries,
        # Worker and node deaths are retried whatever this says. Of the errors
        # the games themselves raise, only a lack of memory may pass on
        # another try: the games are deterministic, anything else recurs.
        retry_exceptions=[MemoryError],
    )(_play_chunk)
    ranges = iter(range(first_game, n_games, chunk_size))
    pending: dict[Any, int] = {}  # object ref -> first game of its chunk
    finished: dict[int, Playouts] = {}  # chunks played but not yet yielded
    next_game = first_game
    refreshed = time.monotonic()
    try:
        while True:
            if time.monotonic() - refreshed > _REFRESH_SECONDS:
                slots, refreshed = _slots(ray, cpus), time.monotonic()
            while len(pending) < _IN_FLIGHT_PER_SLOT * slots:
                first = next(ranges, None)
                if first is None:
                    break
                size = min(chunk_size, n_games - first)
                name = f"{_TASK_NAME} {first}..{first + size - 1}"
                pending[task.options(name=name).remote(job, first, size)] = first
            if not pending:
                break
            (ready,), _ = ray.wait(list(pending), num_returns=1)
            # Out of `pending` before its result is read: a chunk that failed
            # is done, and force-cancelling a finished task (below) can make
            # Ray's driver abort on its own check ("Tried to complete task
            # that was not pending") before the error is shown.
            first = pending.pop(ready)
            try:
                node, part = ray.get(ready)
            except ray.exceptions.RayError as error:
                size = min(chunk_size, n_games - first)
                done = (
                    f"games {first_game:,} .. {next_game - 1:,} were finished before it"
                    if next_game > first_game
                    else "no game was finished before it"
                )
                raise ChunkFailedError(
                    f"the chunk of games {first:,} .. {first + size - 1:,} failed "
                    f"({_cause(error)}); {done}",
                    first_game=first,
                    n_games=size,
                    finished=next_game - first_game,
                ) from None
            if played_on is not None:
                played_on.add(node)
            finished[first] = part
            if progress is not None:
                progress(len(part))
            while next_game in finished:
                part = finished.pop(next_game)
                next_game += len(part)
                yield part
    finally:
        for ref in pending:
            ray.cancel(ref, force=True)  # the native runner cannot be interrupted otherwise


_ESCAPES = re.compile(r"\x1b\[[0-9;]*m")


def _cause(error: BaseException) -> str:
    """What made a chunk fail, in one line: the last line of Ray's error,
    which names the exception at the root of a task's traceback (such as a
    worker's ``ModuleNotFoundError``) or the loss of its worker."""
    lines = [line.strip() for line in _ESCAPES.sub("", str(error)).splitlines() if line.strip()]
    cause = lines[-1] if lines else type(error).__name__
    return cause if len(cause) <= 300 else f"{cause[:300]}..."


def chunk_size_for(n_games: int, slots: int, seconds_per_game: float, *, threads: int = 1) -> int:
    """The default chunk size: games of :data:`CHUNK_SECONDS` on ``threads``
    threads at most, and of :data:`MIN_CHUNK_SECONDS` at least; in between, a
    run that short is cut into :data:`CHUNKS_PER_CPU` chunks per task slot
    (``slots``: the tasks the cluster runs at once).

    >>> chunk_size_for(10**8, slots=2, seconds_per_game=1e-5)  # long run: 2 s chunks
    200000
    >>> chunk_size_for(10**6, slots=2, seconds_per_game=1e-5)  # 4 chunks per slot
    125000
    >>> chunk_size_for(100, slots=2, seconds_per_game=1e-5)  # no chunk under 0.05 s
    100
    """
    rate = threads / max(seconds_per_game, 1e-9)
    longest = max(1, round(CHUNK_SECONDS * rate))
    shortest = max(1, round(MIN_CHUNK_SECONDS * rate))
    balanced = math.ceil(n_games / (CHUNKS_PER_CPU * max(slots, 1)))
    return max(1, min(n_games, max(shortest, min(longest, balanced))))


def _play_chunk(job: PlayoutJob, first_game: int, n_games: int) -> tuple[str, Playouts]:
    """The body of a Ray task: one chunk, with the worker's native core, and
    the id of the node that played it."""
    ray = require_ray()
    return ray.get_runtime_context().get_node_id(), job.run(first_game, n_games)


def _seconds_per_game(job: PlayoutJob) -> float:
    """Time a sample of the run's own games on one thread of this machine:
    whatever the rules, start or policy, the chunks then last about as long
    as meant (on nodes about as fast as this one)."""
    sample = dataclasses.replace(job, threads=1)
    games = 64
    while True:
        clock = time.perf_counter()
        sample.run(0, games)
        elapsed = time.perf_counter() - clock
        if elapsed >= 0.02 or games >= 65_536:
            return elapsed / games
        games *= 4


def _slots(ray: Any, cpus: int) -> int:
    """The tasks of ``cpus`` CPUs the cluster runs at once.

    :raises ValueError: if no node has ``cpus`` CPUs (the tasks would wait
        for ever).
    """
    nodes = [node for node in ray.nodes() if node.get("Alive")]
    sizes = [int(node.get("Resources", {}).get("CPU", 0)) for node in nodes]
    if sizes and max(sizes) < cpus:
        raise ValueError(
            f"threads={cpus} asks each task for {cpus} CPUs, but the largest node "
            f"of the cluster has {max(sizes)}"
        )
    return max(1, sum(size // cpus for size in sizes))


def _probe(address: str, timeout: float = PROBE_SECONDS) -> None:
    """Refuse a ``HOST:PORT`` address where nothing listens (Ray would retry
    for ever); other forms (``auto``, ``ray://...``) are left to Ray.

    :raises ConnectionError: naming the address and the reason.
    """
    host, colon, port = address.rpartition(":")
    if not colon or not _is_port(port) or "/" in host or not host:
        return
    try:
        with socket.create_connection((host.strip("[]"), int(port)), timeout=timeout):
            pass
    except OSError as error:
        raise ConnectionError(
            f"no Ray cluster answers at {address!r} ({error}); "
            "start one there with 'ray start --head'"
        ) from error


_AUTH_HELP = (
    "copy the head's token (the file ~/.ray/auth_token there, or what 'ray get-auth-token' "
    "prints there) to ~/.ray/auth_token on this machine, or set RAY_AUTH_TOKEN to it"
)


def _authenticate(address: str) -> None:
    """Ask the cluster at ``HOST:PORT`` whether it takes this machine's
    token (or its lack of one), in one quick request; switch Ray's token
    mode on where a token is found here (and ``RAY_AUTH_MODE`` is not set).

    :raises ConnectionError: if the cluster refuses, saying what to do.
    """
    host, colon, port = address.rpartition(":")
    if not colon or not _is_port(port) or "/" in host or not host:
        return  # "auto", "ray://...": Ray's own handling
    try:
        # Ray's own client of the head, without the retries of ray.init.
        GcsClient = importlib.import_module("ray._raylet").GcsClient
        from ray.exceptions import AuthenticationError
    except (ImportError, AttributeError):  # a Ray without token authentication
        return
    mode = os.environ.get("RAY_AUTH_MODE")
    if mode is None and _token_found():
        # The token goes with the first request: a cluster without
        # authentication ignores it, and one that wants it does not refuse
        # a request without it, which Ray would log on every run ("Failed to
        # get cluster ID ... InvalidAuthToken").
        _enable_token_mode()
        if _gcs_answer(GcsClient, AuthenticationError, address) == "refused":
            raise ConnectionError(
                f"the Ray cluster at {address!r} refused this machine's authentication "
                f"token ({_token_source()}): {_AUTH_HELP}"
            )
        return
    if _gcs_answer(GcsClient, AuthenticationError, address) != "refused":
        return  # taken, or anything else: ray.init's to report, as it would
    if mode is not None and mode.lower() != "token":
        raise ConnectionError(
            f"the Ray cluster at {address!r} uses token authentication, and RAY_AUTH_MODE "
            f"is {mode!r} here: unset it (or set it to 'token') and {_AUTH_HELP}"
        )
    if mode is not None:
        raise ConnectionError(
            f"the Ray cluster at {address!r} refused this machine's authentication token "
            f"({_token_source()}): {_AUTH_HELP}"
        )
    raise ConnectionError(
        f"the Ray cluster at {address!r} uses token authentication and this machine has "
        f"no token: {_AUTH_HELP}"
    )


PROBE_TRIES = 3
"""Tries of the authentication probe before its answer is left to ray.init."""


def _gcs_answer(gcs_client: Any, authentication_error: type[BaseException], address: str) -> str:
    """``"taken"``, ``"refused"`` (an authentication error) or ``"unknown"``:
    what the cluster's GCS answers a client of this process.

    An answer that is neither (a deadline passed on a busy machine, the GCS
    still starting) is asked again: taken for an open door, it would leave
    the token mode off where the cluster wants it, and ray.init would then
    fail with a bare "Unauthenticated".
    """
    for attempt in range(PROBE_TRIES):
        try:
            gcs_client(address=address)
            return "taken"
        except authentication_error:
            return "refused"
        except Exception as error:
            # Some paths give the gRPC status rather than Ray's exception.
            if "unauthenticated" in str(error).lower():
                return "refused"
            if attempt + 1 < PROBE_TRIES:
                time.sleep(0.5 * (attempt + 1))
    return "unknown"


def _token_found() -> bool:
    return _token_source() != "none"


def _token_source() -> str:
    if os.environ.get("RAY_AUTH_TOKEN"):
        return "RAY_AUTH_TOKEN"
    path = os.environ.get("RAY_AUTH_TOKEN_PATH")
    if path:
        return path
    default = Path.home() / ".ray" / "auth_token"
    return str(default) if default.is_file() else "none"


def _enable_token_mode() -> None:
    """Ray's token mode for this process (and the workers it starts), as
    ``RAY_AUTH_MODE=token`` would have set it."""
    os.environ["RAY_AUTH_MODE"] = "token"
    with contextlib.suppress(ImportError, AttributeError):
        # Ray reads its configuration once: again, with the mode.
        importlib.import_module("ray._raylet").Config.initialize("")


def _package_dir() -> str:
    """The folder of this ``veletas`` package, with its compiled core."""
    return str(Path(__file__).resolve().parent)


def _size_of_cluster(ray: Any) -> str:
    nodes = sum(1 for node in ray.nodes() if node.get("Alive"))
    cpus = int(ray.cluster_resources().get("CPU", 0))
    return _size(nodes, cpus)


def _size(nodes: int, cpus: int) -> str:
    return f"{nodes} node{'s' if nodes != 1 else ''}, {cpus} CPU{'s' if cpus != 1 else ''}"


def where_played(where: str, played_on: set[str]) -> str:
    """``where`` (as :func:`connect` yields it) with the nodes that played
    (ids from :func:`play_chunks`) in place of the cluster's size when the
    run started: a node lost or added on the way counts as it played."""
    ray = require_ray()
    cpus = sum(
        int(node.get("Resources", {}).get("CPU", 0))
        for node in ray.nodes()
        if node.get("NodeID") in played_on
    )
    place, _, _ = where.rpartition(" (")
    return f"{place or where} ({_size(len(played_on), cpus)})"


def _check_chunk_size(chunk_size: object) -> int | None:
    if chunk_size is None:
        return None
    value = integer("chunk_size", chunk_size)
    if value < 1:
        raise ValueError(f"chunk_size must be at least 1 (or None to choose one), not {value!r}")
    return value


def _check_max_retries(max_retries: object) -> int:
    value = integer("max_retries", max_retries)
    if value < -1:
        raise ValueError(f"max_retries must be -1 (no limit) or more, not {value!r}")
    return value


def _is_port(text: str) -> bool:
    """Whether ``text`` is a port number in digits 0-9 (``isdigit`` alone
    takes other scripts' digits, and superscripts that ``int()`` refuses)."""
    return text.isascii() and text.isdigit()


def _check_address(address: object) -> None:
    if address is not None and not isinstance(address, str):
        raise TypeError(f"address must be a str or None, not {address!r}")
    if isinstance(address, str) and not address.strip():
        raise ValueError(
            f"address must name a cluster (or be None for a local one), not {address!r}"
        )
    if isinstance(address, str) and not address.isascii():
        raise ValueError(f"address must be written in ASCII (digits 0-9), not {address!r}")
