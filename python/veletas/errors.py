"""The exceptions veletas raises, defined once and shared by both backends.

All of them are :class:`ValueError` subclasses, so ``except ValueError`` keeps
working for callers that do not care which input was wrong.
"""

from __future__ import annotations

__all__ = [
    "DatasetError",
    "IllegalMoveError",
    "InvalidFenError",
    "InvalidMoveError",
    "InvalidPlayerError",
    "InvalidRecordError",
    "InvalidRulesError",
    "KernelError",
    "LimitError",
    "OutputFileError",
    "ProgressFileError",
    "ProofError",
    "VeletasError",
]


class VeletasError(ValueError):
    """Base class of every error veletas raises for bad input."""


class InvalidMoveError(VeletasError):
    """Text that is not a move (or a square) in the notation of the rules."""


class IllegalMoveError(VeletasError):
    """A well-formed move that is not legal in the position."""


class InvalidFenError(VeletasError):
    """A position string that is refused; the message names the field and the reason."""


class InvalidRulesError(VeletasError):
    """A bad variant, board size, shooter count or rule option."""


class InvalidPlayerError(VeletasError):
    """A player of a match that cannot be read (``mcts:iterations=0``, an
    unknown bot or option), or that cannot play the game asked for."""


class InvalidRecordError(VeletasError):
    """A game record that cannot be read: a bad tag, bad move text, an illegal
    move or a result that contradicts the moves. The message names the line
    and, where there is one, the move."""

    def __init__(self, message: str, *, line: int | None = None, move: str | None = None) -> None:
        super().__init__(message)
        self.line = line
        """The line of the record (from 1) where the problem is, if known."""
        self.move = move
        """The move text at fault, if the problem is a move."""


class KernelError(VeletasError):
    """A kernel (``VELETAS_KERNEL``) that is unknown or
    that this CPU cannot run; the message names it and the ones it can."""


class LimitError(VeletasError):
    """A request above one of the stated limits of :mod:`veletas.limits`
    (threads, games of one call, envs of a vector env), refused before
    anything is allocated or started. The message names the limit."""


class ChunkFailedError(VeletasError):
    """A chunk of a run on a Ray cluster that failed: its workers or nodes
    lost more often than ``max_retries`` allows, or an error of its own (a
    node without veletas, say). The message names its games, the cause and
    the games finished before it; the attributes say the same."""

    def __init__(self, message: str, *, first_game: int, n_games: int, finished: int) -> None:
        super().__init__(message)
        self.first_game = first_game
        """The first game of the chunk that failed."""
        self.n_games = n_games
        """The games of that chunk."""
        self.finished = finished
        """The games of the run finished, in order, before it."""


class DatasetError(VeletasError):
    """A playout dataset that cannot be read or written as asked: a file that
    is not one, a file or the parts of a stopped run in the way, or parts of
    another run than the one resumed. The message names the file."""


class OutputFileError(VeletasError):
    """A file in the way of one that a command writes (a review page): it
    exists, so it is kept unless the caller says to replace it, or its name
    says another kind of file. The message names the file."""


class ProgressFileError(VeletasError):
    """A long solve's progress file (:class:`veletas.long_solve.ProgressFile`)
    with a line that is not a settled position: the message names the file
    and the line."""


class ProofError(VeletasError):
    """A proof of a win (:class:`veletas.solving.Proof`) that does not hold
    on the board it is checked on, or that is not a proof's shape: the
    message names the line of moves where it first fails."""
