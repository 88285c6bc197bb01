"""Batch random playouts of Veletas: what the generic
:class:`~veletas.playouts.Playouts` needs to know of the game (its job's
arguments, its column of final claims, its record format).

Two policies: ``"micro"`` is uniform at every decision of the micro-decision
encoding, ``"uniform"`` is uniform over the legal moves of each position
(``docs/playouts.md``). A recorded move is four int8 of :data:`MOVE_DTYPE`.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any

import numpy as np

from veletas.errors import InvalidRulesError
from veletas.games.veletas.types import SETUP_RULES, VARIANTS, Rules

if TYPE_CHECKING:
    from veletas.playouts import PlayoutJob, Playouts
    from veletas.records import GameRecord

__all__ = [
    "COLUMNS",
    "KIND_SHOOTER",
    "KIND_STONE",
    "KIND_SWAP",
    "MOVE_DTYPE",
    "POLICIES",
    "claim_counts",
    "make_job",
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
KIND_STONE, KIND_SHOOTER, KIND_SWAP = 0, 1, 2
"""The kinds of a recorded move: a stone or shot, a shooter placement, the swap."""
COLORS = ("black", "white")
"""The colours by index, as the summary names them."""


def engine(backend: str) -> Any:
    """The module of the engine ``backend`` names: ``Board`` and ``Move``."""
    if backend == "rust":
        from veletas import _veletas

        return _veletas
    import veletas.reference

    return veletas.reference


def make_job(
    *,
    variant: str = "standard",
    size: int | None = None,
    shooters: int | None = None,
    setup_rule: str = "perimeter",
    shooters_block: bool = False,
    start: Any = None,
    seed: object = 0,
    threads: object = None,
    policy: object = "micro",
    record: object = False,
    backend: str = "rust",
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
    from veletas.playouts import PlayoutJob, check_run

    if not isinstance(policy, str) or policy not in POLICIES:
        raise ValueError(f"unknown policy {policy!r}; expected 'micro' or 'uniform'")
    seed, threads, record = check_run(seed, threads, record, backend)
    board_type = engine(backend).Board
    options = {
        "variant": variant,
        "size": size,
        "shooters": shooters,
        "setup_rule": setup_rule,
        "shooters_block": shooters_block,
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
    if problems:
        raise InvalidRulesError(f"{', '.join(problems)} disagree(s) with the start board's {rules}")


def run(job: PlayoutJob, first_game: int, n_games: int) -> dict[str, np.ndarray]:
    """Games ``first_game .. first_game + n_games - 1`` of ``job`` as arrays."""
    arguments: dict[str, Any] = {
        "setup_rule": job.rules.setup_rule,
        "shooters_block": job.rules.shooters_block,
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
    from veletas.games.veletas.reference.playouts import run_games

    return run_games(job.start, **arguments)


def moves_of(games: Playouts, rows: np.ndarray) -> list[Any]:
    """The moves of recorded ``rows`` as ``Move`` values of the games' engine."""
    move = engine(games.backend).Move
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
    return engine(games.backend).Board(
        games.start,
        setup_rule=games.rules.setup_rule,
        shooters_block=games.rules.shooters_block,
    )


def start_of_game(rules: Rules, backend: str) -> str:
    """The position string of the empty board of ``rules``."""
    return str(engine(backend).Board(size=rules.size, shooters=rules.shooters).fen())


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
    }


def claim_counts(games: Playouts) -> dict[tuple[int, int], int]:
    """How many games ended with each final score ``(black, white)``, by
    descending count."""
    claims = games.claims
    counts = Counter(zip(claims[:, 0].tolist(), claims[:, 1].tolist(), strict=True))
    return dict(counts.most_common())


def columns_summary(games: Playouts) -> dict[str, Any]:
    """The game's own columns summarised: the final scores."""
    return {
        "claims": [
            {"black": black, "white": white, "games": count}
            for (black, white), count in sorted(claim_counts(games).items())
        ]
    }


def record(games: Playouts, i: int, moves: list[Any]) -> GameRecord:
    """Game ``i`` as a game record; its tags name the run's seed and game index."""
    from veletas.records import GameRecord

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
