"""Batch random playouts of Veletas: what the generic
:class:`~veletas.playouts.Playouts` needs to know of the game (its job's
arguments, its column of final claims, its record format).

Two policies: ``"micro"`` is uniform at every decision of the micro-decision
encoding, ``"uniform"`` is uniform over the legal moves of each position
(``docs/playouts.md``). A recorded move is four int8 of :data:`MOVE_DTYPE`.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import numpy as np

from veletas import _checks
from veletas._implementation import IMPLEMENTATION
from veletas._signature import signature_of
from veletas.errors import DatasetError, InvalidRulesError
from veletas.games.veletas.engine import ENGINES
from veletas.games.veletas.reference.playouts import (
    KIND_SHOOTER,
    KIND_STONE,
    KIND_SWAP,
    run_games,
)
from veletas.games.veletas.types import (
    SETUP_RULES,
    SQUARE_NAMES,
    VARIANTS,
    Rules,
    check_claimed_shooters_block,
)
from veletas.playouts import PlayoutJob, Playouts, Tally, check_run
from veletas.records import GameRecord

__all__ = [
    "COLUMNS",
    "KIND_SHOOTER",
    "KIND_STONE",
    "KIND_SWAP",
    "MOVE_DTYPE",
    "POLICIES",
    "claim_counts",
    "claim_totals",
    "code_of",
    "code_text",
    "decode_moves",
    "encode_moves",
    "final_columns",
    "make_job",
    "playouts",
    "reference_playouts",
    "run",
]

GAME = "veletas"
POLICIES = ("micro", "uniform")
"""The playout policies: uniform at every micro-decision, or uniform over whole moves."""
COLUMNS = {"claims": "int8, shape (n, 2): the final claims of Black and of White"}
"""The columns of this game's :class:`~veletas.playouts.Playouts` beyond winner, swapped, plies."""
MOVE_DTYPE = np.dtype(
    [("kind", np.int8), ("origin", np.int8), ("destination", np.int8), ("target", np.int8)]
)
"""One recorded move: its kind and public squares (``rank * 10 + file``), -1 where none."""
COLORS = ("black", "white")
"""The colours by index, as the summary names them."""
MOVE_CODES = "int32: kind << 24 | origin << 16 | destination << 8 | target"
"""How a dataset writes a move (:func:`encode_moves`), in its metadata."""
_CODE_DTYPE = np.dtype(">i4")  # a move's four int8 fields, read as one big-endian int32


def make_job(
    *,
    variant: str = "standard",
    size: int | None = None,
    shooters: int | None = None,
    setup_rule: str = "perimeter",
    shooters_block: bool = False,
    claimed_shooters_block: bool = False,
    start: Any = None,
    seed: object = 0,
    threads: object = None,
    policy: object = "micro",
    record: object = False,
    backend: str = IMPLEMENTATION,
) -> PlayoutJob:
    """The checked job of :func:`veletas.playouts` (all but ``n_games``), with
    the start position resolved.

    :raises InvalidRulesError: for an unknown variant or setup rule, a bad
        size or shooter count, or options that disagree with ``start``.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises ValueError: for an unknown policy, a seed out of range, or
        ``threads`` below 1.
    :raises TypeError: for arguments of the wrong type.
    """
    if not isinstance(policy, str) or policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected 'micro' or 'uniform'")
    seed, threads, record = check_run(seed, threads, record, backend)
    board_type = ENGINES.of(backend).Board
    options = {
        "variant": variant,
        "size": size,
        "shooters": shooters,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
        "claimed_shooters_block": claimed_shooters_block,
    }
    swapped = False
    if start is None:
        board = board_type(**options)
    elif isinstance(start, str):
        board = board_type(start, **options)
    elif callable(getattr(start, "fen", None)) and hasattr(start, "rules"):
        check_agreement(start.rules, **options)
        board = start
        swapped = any(move.is_swap for move in start.move_stack)
    else:
        raise TypeError(
            f"start must be a Board, a position string or None, not {type(start).__name__}"
        )
    return PlayoutJob(
        start=board.fen(),
        rules=board.rules,
        swapped=swapped,
        policy=policy,
        seed=seed,
        threads=threads,
        record=record,
        backend=backend,
        game=GAME,
    )


def check_agreement(
    rules: Rules,
    *,
    variant: object,
    size: object,
    shooters: object,
    setup_rule: object,
    shooters_block: object,
    claimed_shooters_block: object = False,
) -> None:
    """Refuse rule options, given beside a start board, that are not its rules.

    :raises InvalidRulesError: naming the option and the board's value.
    """
    if not isinstance(variant, str) or variant not in VARIANTS:
        known = ", ".join(repr(name) for name in VARIANTS)
        raise InvalidRulesError(f"unknown variant {variant!r}; expected one of {known}")
    if setup_rule not in SETUP_RULES:
        raise InvalidRulesError(
            f"unknown setup rule {setup_rule!r}; expected 'perimeter' or 'spacing'"
        )
    if not isinstance(shooters_block, bool):
        raise InvalidRulesError(f"shooters_block must be a bool, not {shooters_block!r}")
    check_claimed_shooters_block(claimed_shooters_block)
    problems = []
    if variant != "standard" and VARIANTS[variant] != (rules.size, rules.shooters):
        problems.append(f"variant {variant!r}")
    if size is not None and size != rules.size:
        problems.append(f"size {size!r}")
    if shooters is not None and shooters != rules.shooters:
        problems.append(f"shooters {shooters!r}")
    if setup_rule != "perimeter" and setup_rule != rules.setup_rule:
        problems.append(f"setup_rule {setup_rule!r}")
    if shooters_block and not rules.shooters_block:
        problems.append("shooters_block=True")
    if claimed_shooters_block and not rules.claimed_shooters_block:
        problems.append("claimed_shooters_block=True")
    if problems:
        raise InvalidRulesError(f"{', '.join(problems)} disagree(s) with the start board's {rules}")


def run(job: PlayoutJob, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + n_games - 1`` of ``job`` as arrays."""
    arguments: dict[str, Any] = {
        "setup_rule": job.rules.setup_rule,
        "shooters_block": job.rules.shooters_block,
        "claimed_shooters_block": job.rules.claimed_shooters_block,
        "swapped": job.swapped,
        "policy": job.policy,
        "seed": job.seed,
        "first_game": first_game,
        "n_games": n_games,
        "record": job.record,
    }
    if job.backend == "rust":
        from veletas import _veletas

        result: dict[str, np.ndarray] = _veletas.run_playouts(
            job.start, threads=job.threads, **arguments
        )
        return result
    return run_games(job.start, **arguments)


def moves_of(games: Playouts, rows: np.ndarray) -> list[Any]:
    """The moves of recorded ``rows`` as ``Move`` values of the games' engine."""
    move = ENGINES.of(games.backend).Move
    moves = []
    for kind, origin, destination, target in rows.view(np.int8).reshape(-1, 4).tolist():
        if kind == KIND_SWAP:
            moves.append(move.swap())
        elif kind == KIND_SHOOTER:
            moves.append(move.shooter(target))
        elif origin < 0:
            moves.append(move(target))
        else:
            moves.append(move(target, origin, destination))
    return moves


def start_board(games: Playouts) -> Any:
    """The start of the games as a ``Board`` of their engine."""
    return ENGINES.of(games.backend).Board(
        games.start,
        setup_rule=games.rules.setup_rule,
        shooters_block=games.rules.shooters_block,
        claimed_shooters_block=games.rules.claimed_shooters_block,
    )


def start_of_game(rules: Rules, backend: str) -> str:
    """The position string of the empty board of ``rules``."""
    return str(ENGINES.of(backend).Board(size=rules.size, shooters=rules.shooters).fen())


def describe(rules: Rules) -> str:
    """The rules in a few words, for reprs and summaries."""
    return rules.variant


def rules_summary(rules: Rules) -> dict[str, Any]:
    """The rules as plain data."""
    return {
        "variant": rules.variant,
        "size": rules.size,
        "shooters": rules.shooters,
        "setup_rule": rules.setup_rule,
        "shooters_block": rules.shooters_block,
        "claimed_shooters_block": rules.claimed_shooters_block,
    }


def claim_counts(games: Playouts) -> dict[tuple[int, int], int]:
    """How many games ended with each final score ``(black, white)``, by
    descending count."""
    claims = games.claims
    counts = Counter(zip(claims[:, 0].tolist(), claims[:, 1].tolist(), strict=True))
    return dict(counts.most_common())


def claim_totals(tally: Tally) -> dict[tuple[int, int], int]:
    """How many games of a :class:`~veletas.playouts.Tally` ended with each
    final score ``(black, white)``, by score."""
    totals: Counter[tuple[int, int]] = Counter()
    claims = tally.claims
    for black, white, count in zip(
        claims[:, 0].tolist(), claims[:, 1].tolist(), tally.counts.tolist(), strict=True
    ):
        totals[black, white] += count
    return dict(sorted(totals.items()))


def columns_summary(tally: Tally) -> dict[str, Any]:
    """The game's own columns summarised: the final scores."""
    return {
        "claims": [
            {"black": black, "white": white, "games": count}
            for (black, white), count in claim_totals(tally).items()
        ]
    }


def record(games: Playouts, i: int, moves: list[Any]) -> GameRecord:
    """Game ``i`` as a game record; its tags name the run's seed and game index."""

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
    """Recorded moves (:data:`MOVE_DTYPE`) as the int32 codes of a dataset:
    ``kind << 24 | origin << 16 | destination << 8 | target``, each field one
    byte, 255 for a square that is not there (-1 in the array).

    >>> moves = np.array([(1, -1, -1, 34), (0, 34, 37, 77), (2, -1, -1, -1)], MOVE_DTYPE)
    >>> codes = encode_moves(moves)
    >>> [hex(code) for code in codes]
    ['0x1ffff22', '0x22254d', '0x2ffffff']
    >>> bool((decode_moves(codes) == moves).all())
    True
    """
    rows = np.ascontiguousarray(moves).view(np.int8).reshape(-1, 4)
    return rows.reshape(-1).view(_CODE_DTYPE).astype(np.int32)


def decode_moves(codes: Any) -> np.ndarray:
    """The moves of :func:`encode_moves`' codes, as a structured array of
    :data:`MOVE_DTYPE` (kind, origin, destination, target).

    In SQL: ``code >> 24`` is the kind (0 a stone or shot, 1 a shooter
    placement, 2 the swap), ``(code >> 16) & 255`` the origin, ``(code >> 8)
    & 255`` the destination and ``code & 255`` the target, each a square
    ``rank * 10 + file`` or 255 for none.

    :raises DatasetError: for a code out of range.
    """

    values = np.asarray(codes, dtype=np.int64)
    if values.size and (values.min() < 0 or values.max() >= 2**31):
        raise DatasetError("move codes must be in 0 .. 2**31 - 1")
    return values.astype(_CODE_DTYPE).view(MOVE_DTYPE).reshape(-1)


def code_of(move: Any) -> int:
    """The dataset code of a ``Move`` (of either engine)."""
    if move.is_swap:
        return KIND_SWAP << 24 | 0xFFFFFF
    kind = KIND_SHOOTER if move.is_shooter else 0
    origin = 255 if move.origin is None else move.origin
    destination = 255 if move.destination is None else move.destination
    return int(kind << 24 | origin << 16 | destination << 8 | move.target)


def code_text(code: int) -> str:
    """The notation of a move code (RULES.md section 5): ``*e5``, ``e5``,
    ``d4-d7/f9`` or ``swap``.

    >>> code_text(0x22254D), code_text(0x1FFFF22)
    ('e4-h4/h8', '*e4')
    """

    kind, origin, destination, target = (
        code >> 24,
        (code >> 16) & 255,
        (code >> 8) & 255,
        code & 255,
    )
    if kind == KIND_SWAP:
        return "swap"
    if kind == KIND_SHOOTER:
        return "*" + SQUARE_NAMES[target]
    if origin == 255:
        return SQUARE_NAMES[target]
    return f"{SQUARE_NAMES[origin]}-{SQUARE_NAMES[destination]}/{SQUARE_NAMES[target]}"


def final_columns(board: Any) -> dict[str, tuple[int, int]]:
    """The game's own columns of one finished game, from its final board."""
    score = board.claims
    return {"claims": (score.black, score.white)}


def rules_text(rules: Rules) -> str:
    """The rules in words, for the summary table of ``veletas playout``."""
    block = ", shooters block" if rules.shooters_block else ""
    claimed = ", claimed shooters block" if rules.claimed_shooters_block else ""
    return (
        f"{rules.variant} ({rules.size}x{rules.size}, {rules.shooters} shooters, "
        f"{rules.setup_rule}{block}{claimed})"
    )


def summary_lines(tally: Tally) -> list[str]:
    """The game's rows of the summary table: the final claims."""
    n = len(tally)
    lines = ["final claims  black-white  games"]
    counts = list(claim_totals(tally).items())
    most = max((count for _, count in counts), default=1)
    for (black, white), count in counts:
        bar = "#" * max(1, round(30 * count / most))
        lines.append(f"              {black}-{white}  {count:>12,}  {count / n:6.1%}  {bar}")
    return lines


SUMMARY_METHODS = {"claim_counts": claim_counts}
"""The game's own summaries, read as methods of its Playouts."""


def _play(backend: str, n_games: int, **options: Any) -> Playouts:
    n_games = _checks.count(n_games)
    return make_job(**options, backend=backend).run(0, n_games)


def playouts(
    n_games: int,
    *,
    variant: str = "standard",
    size: int | None = None,
    shooters: int | None = None,
    setup_rule: str = "perimeter",
    shooters_block: bool = False,
    start: Any = None,
    seed: int = 0,
    threads: int | None = None,
    policy: str = "micro",
    record: bool = False,
    claimed_shooters_block: bool = False,
) -> Playouts:
    """Play ``n_games`` random games and return them as numpy arrays.

    Without ``start``, every game begins at the start of ``variant`` (with
    ``size`` and ``shooters`` overriding it, and the two rule options). With
    ``start`` (a ``Board``, or a position string read under the given rule
    options), every game begins from that position; the rule options must
    then be left at their defaults or agree with it. A board's move stack
    tells whether the pie swap was played; a position string has no history,
    so its games count a swap only when they play one. A finished position
    gives finished games at once, with its winner and no plies.

    Game ``i`` uses the random stream of ``(seed, i)``, so the result is the
    same for any ``threads`` (None: every core). ``policy="micro"`` is
    uniform at every decision of the micro-decision encoding;
    ``policy="uniform"`` is uniform over the legal moves of each position.
    With ``record=True`` every game's moves are kept too (:attr:`Playouts.moves`).

    The games are played in the native core with the GIL released.

    >>> import veletas
    >>> board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
    >>> games = veletas.playouts(50, start=board, policy="uniform")
    >>> bool((games.claims.max(axis=1) >= 2).all())  # every game ends with a winner
    True

    :raises ValueError: for a negative ``n_games``, an unknown policy, a seed
        outside 0 .. 2**64 - 1, or ``threads`` below 1.
    :raises InvalidRulesError: for an unknown variant or bad rules, or rule
        options that disagree with ``start``.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises TypeError: for arguments of the wrong type.
    """
    return _play(
        "rust" if IMPLEMENTATION == "rust" else "python",
        n_games,
        variant=variant,
        size=size,
        shooters=shooters,
        setup_rule=setup_rule,
        shooters_block=shooters_block,
        start=start,
        seed=seed,
        threads=threads,
        policy=policy,
        record=record,
        claimed_shooters_block=claimed_shooters_block,
    )


@signature_of(playouts)
def reference_playouts(n_games: int, **options: Any) -> Playouts:
    """Play ``n_games`` random games in pure Python; see :func:`veletas.playouts`.

    :raises ValueError: for a negative ``n_games``, an unknown policy, a seed
        outside 0 .. 2**64 - 1, or ``threads`` below 1.
    :raises InvalidRulesError: for an unknown variant or bad rules, or rule
        options that disagree with ``start``.
    :raises InvalidFenError: for a ``start`` position string that is refused.
    :raises TypeError: for arguments of the wrong type.
    """
    return _play("python", n_games, **options)
