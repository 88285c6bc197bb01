"""Batch random playouts of Meridians: what the generic
:class:`~veletas.playouts.Playouts` needs to know of the game.

The policy is uniform over the legal moves: at each turn, with ``k``
legal moves listed in ascending point number (``rank * 14 + file``), then
``swap``, then ``keep``, the game's stream draws ``below(k)`` and plays that
move (``docs/playouts.md``). The native core and the reference follow it
alike, so a seed gives the same games on both.

A recorded move is an int16: the point number of a placement, -1 for
``swap``, -2 for ``keep``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from veletas._checks import count
from veletas._implementation import IMPLEMENTATION
from veletas.errors import DatasetError, InvalidRulesError
from veletas.games.meridians.engine import ENGINES
from veletas.games.meridians.reference.playouts import KEEP, SWAP, run_games
from veletas.games.meridians.types import Rules, point_name
from veletas.playouts import PlayoutJob, Playouts, Tally, check_run
from veletas.records import GameRecord

__all__ = [
    "COLUMNS",
    "KEEP",
    "MOVE_DTYPE",
    "POLICIES",
    "SWAP",
    "code_of",
    "code_text",
    "decode_moves",
    "encode_moves",
    "final_columns",
    "make_job",
    "move_text",
    "playouts",
    "reference_playouts",
    "run",
]

GAME = "meridians"
POLICIES = ("uniform",)
"""The one policy: a turn is one decision, uniform over the legal moves."""
COLUMNS = {"stones": "int8, shape (n, 2): Light's and Dark's stones at the end"}
"""The columns of this game's :class:`~veletas.playouts.Playouts` beyond winner, swapped, plies."""
MOVE_DTYPE = np.dtype(np.int16)
"""One recorded move: a point number, or :data:`SWAP` or :data:`KEEP`."""
COLORS = ("light", "dark")
"""The colours by index, as the summary names them."""
MOVE_CODES = "int16: point rank * 14 + file, -1 swap, -2 keep"
"""How a dataset writes a move (:func:`encode_moves`), in its metadata."""


def make_job(
    *,
    size: object = "6-7",
    pie: object = False,
    start: Any = None,
    seed: object = 0,
    threads: object = None,
    policy: object = "uniform",
    record: object = False,
    backend: str = IMPLEMENTATION,
) -> PlayoutJob:
    """The checked job of :func:`veletas.meridians.playouts`.

    :raises InvalidRulesError: for an unknown size, a non-bool ``pie``, or a
        ``start`` board of other rules.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises ValueError: for an unknown policy, a seed out of range, or ``threads`` below 1.
    :raises TypeError: for arguments of the wrong type.
    """
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; Meridians playouts are 'uniform'")
    seed, threads, record = check_run(seed, threads, record, backend)
    board_type = ENGINES.of(backend).Board
    swapped = False
    if start is None:
        board = board_type(size=size, pie=pie)
    elif isinstance(start, str):
        board = board_type(start, size=None if size == "6-7" else size, pie=pie)
    elif isinstance(start, ENGINES.board_types()):
        given: Any = start
        rules = Rules.make(size, pie)
        if (rules.size != "6-7" and rules.size != given.size) or (rules.pie and not given.pie):
            raise _disagree(rules, given)
        board = board_type(given.fen(), pie=given.pie)
        swapped = any(move.is_swap for move in given.move_stack)
    else:
        raise TypeError(
            f"start must be a Board, a position string or None, not {type(start).__name__}"
        )
    return PlayoutJob(
        start=board.fen(),
        rules=Rules(board.size, board.pie),
        swapped=swapped,
        policy=policy,
        seed=seed,
        threads=threads,
        record=record,
        backend=backend,
        game=GAME,
    )


def _disagree(rules: Rules, board: Any) -> Exception:

    return InvalidRulesError(
        f"size {rules.size!r}, pie={rules.pie!r} disagree(s) with the start board's "
        f"size {board.size!r}, pie={board.pie!r}"
    )


def run(job: PlayoutJob, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + n_games - 1`` of ``job`` as arrays."""
    arguments: dict[str, Any] = {
        "pie": job.rules.pie,
        "swapped": job.swapped,
        "seed": job.seed,
        "first_game": first_game,
        "n_games": n_games,
        "record": job.record,
    }
    if job.backend == "rust":
        from veletas import _veletas

        result: dict[str, np.ndarray] = _veletas.meridians_playouts(
            job.start, threads=job.threads, **arguments
        )
        return result

    return run_games(job.start, **arguments)


def move_text(code: int) -> str:
    """The notation of a recorded move.

    >>> move_text(3), move_text(SWAP), move_text(KEEP)
    ('d1', 'swap', 'keep')
    """
    if code == SWAP:
        return "swap"
    if code == KEEP:
        return "keep"
    return point_name(code)


def moves_of(games: Playouts, rows: np.ndarray) -> list[Any]:
    """The moves of recorded ``rows`` as ``Move`` values of the games' engine."""
    move = ENGINES.of(games.backend).Move
    return [move.parse(move_text(code)) for code in rows.tolist()]


def start_board(games: Playouts) -> Any:
    """The start of the games as a ``Board`` of their engine."""
    return ENGINES.of(games.backend).Board(games.start, pie=games.rules.pie)


def start_of_game(rules: Rules, backend: str) -> str:
    """The position string of the empty board of ``rules``."""
    return str(ENGINES.of(backend).Board(size=rules.size, pie=rules.pie).fen())


def describe(rules: Rules) -> str:
    """The rules in a few words, for reprs and summaries."""
    return f"{rules.size}{', pie' if rules.pie else ''}"


def rules_summary(rules: Rules) -> dict[str, Any]:
    """The rules as plain data."""
    return {"game": GAME, "size": rules.size, "pie": rules.pie}


def columns_summary(tally: Tally) -> dict[str, Any]:
    """The game's own columns summarised: the final stones of each colour
    (nan for no games)."""
    return {
        "stones": {
            f"{color}_stones_mean": tally.mean(tally.stones[:, index])
            for index, color in enumerate(COLORS)
        }
    }


def record(games: Playouts, i: int, moves: list[Any]) -> GameRecord:
    """Game ``i`` as a game record."""

    player = f"{games.policy} playout"
    start = None if games.start == start_of_game(games.rules, games.backend) else games.start
    return GameRecord.from_moves(
        games.rules,
        moves,
        start=start,
        black=player,
        white=player,
        swapped=bool(games.swapped[i]),
        PlayoutSeed=str(games.seed),
        PlayoutGame=str(games.first_game + i),
    )


# ----------------------------------------------------------------------
# Move codes of datasets


def encode_moves(moves: np.ndarray) -> np.ndarray:
    """Recorded moves as the codes of a dataset: the records themselves,
    int16: a placement's point ``rank * 14 + file`` (``d1`` is 3, ``a2``
    is 14), :data:`SWAP` (-1) or :data:`KEEP` (-2).

    >>> encode_moves(np.array([3, -1, 14], np.int16)).tolist()
    [3, -1, 14]
    """
    return np.asarray(moves, dtype=MOVE_DTYPE)


def decode_moves(codes: Any) -> np.ndarray:
    """The recorded moves of a dataset's codes (:func:`encode_moves`);
    :func:`code_text` names each. In SQL, a code ``c >= 0`` is the point of
    file ``c % 14`` (``a`` is 0) and rank ``c // 14 + 1``.

    :raises DatasetError: for a code that is no point, swap or keep.
    """

    values = np.asarray(codes, dtype=np.int64)
    if values.size and (values.min() < KEEP or values.max() >= 14 * 14):
        raise DatasetError(f"Meridians move codes must be in {KEEP} .. {14 * 14 - 1}")
    return values.astype(MOVE_DTYPE)


def code_of(move: Any) -> int:
    """The dataset code of a ``Move`` (of either engine)."""
    if move.is_swap:
        return SWAP
    if move.is_keep:
        return KEEP
    return int(move.point)


def code_text(code: int) -> str:
    """The notation of a dataset code (:func:`move_text`)."""
    return move_text(code)


def final_columns(board: Any) -> dict[str, tuple[int, int]]:
    """The game's own columns of one finished game, from its final board."""
    return {"stones": tuple(board.stones)}


def rules_text(rules: Rules) -> str:
    """The rules in words, for the summary table of ``veletas playout``."""
    return f"Meridians {rules.size}{', pie rule' if rules.pie else ''}"


def summary_lines(tally: Tally) -> list[str]:
    """The game's rows of the summary table: the stones at the end."""
    return [
        f"{color + ' stones':<14}mean {tally.mean(tally.stones[:, index]):.1f} at the end"
        for index, color in enumerate(COLORS)
    ]


SUMMARY_METHODS: dict[str, Any] = {}
"""The game's own summaries, read as methods of its Playouts (none)."""


def _play(
    backend: str,
    n_games: int,
    *,
    size: str = "6-7",
    pie: bool = False,
    start: object = None,
    seed: int = 0,
    threads: int | None = None,
    record: bool = False,
) -> Playouts:
    n_games = count(n_games)
    job = make_job(
        size=size, pie=pie, start=start, seed=seed, threads=threads, record=record, backend=backend
    )
    return job.run(0, n_games)


def playouts(
    n_games: int,
    *,
    size: str = "6-7",
    pie: bool = False,
    start: object = None,
    seed: int = 0,
    threads: int | None = None,
    record: bool = False,
) -> Playouts:
    """Play ``n_games`` random Meridians games and return them as numpy
    arrays: the same :class:`~veletas.playouts.Playouts` as Veletas's, with
    ``stones`` (Light's and Dark's at the end) in place of ``claims``.

    Every turn is a uniform choice among the legal moves. Game ``i`` uses the
    random stream of ``(seed, i)``, so the result is the same for any
    ``threads`` (None: every core) and on the reference
    (:func:`veletas.meridians.reference.playouts`). Games start at the start
    of ``size`` (with ``pie``), or from ``start`` (a ``Board`` or a position
    string). The games are played in the native core with the GIL released.

    >>> from veletas import meridians
    >>> games = meridians.playouts(1000, size="5-6", seed=3)
    >>> games.stones.shape, games.first_player_win_rate().rate > 0
    ((1000, 2), True)
    >>> again = meridians.playouts(1000, size="5-6", seed=3, threads=1)
    >>> bool((again.winner == games.winner).all())
    True

    :raises InvalidRulesError: for an unknown size, a non-bool ``pie``, or a
        ``start`` board of other rules.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises ValueError: for a negative ``n_games``, a seed outside 0 .. 2**64 - 1,
        or ``threads`` below 1.
    :raises TypeError: for arguments of the wrong type.
    """
    backend = "rust" if IMPLEMENTATION == "rust" else "python"
    return _play(
        backend, n_games, size=size, pie=pie, start=start, seed=seed, threads=threads, record=record
    )


def reference_playouts(
    n_games: int,
    *,
    size: str = "6-7",
    pie: bool = False,
    start: Any = None,
    seed: int = 0,
    record: bool = False,
) -> Playouts:
    """:func:`veletas.meridians.playouts` on the reference, one game after
    another on one thread: the same games for the same seed.

    :raises InvalidRulesError: for an unknown size or a non-bool ``pie``.
    :raises ValueError: for a negative ``n_games`` or a seed out of range.
    """
    return _play("python", n_games, size=size, pie=pie, start=start, seed=seed, record=record)
