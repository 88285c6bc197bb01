"""The players of a match (:mod:`veletas.match`): a :class:`Player` makes a
fresh bot for every game; :class:`BotSpec` is the player a spec such as
``mcts:iterations=2000`` or ``uct:seconds=0.25`` names; :func:`game_seeds` gives each game's bots
their seeds."""

from __future__ import annotations

import abc
import dataclasses
import math
from typing import TYPE_CHECKING, Any

from veletas._checks import ascii_float, ascii_int
from veletas.errors import InvalidPlayerError
from veletas.limits import MAX_CUTOFF, MAX_ITERATIONS, MAX_SECONDS, MAX_THREADS, MIN_SECONDS
from veletas.rng import Rng

if TYPE_CHECKING:
    from veletas.bots import Bot

__all__ = ["KINDS", "MCTS_OPTIONS", "SEARCHES", "BotSpec", "Player", "game_seeds", "parse_player"]

KINDS = ("random", "greedy", "mcts", "uct")
"""The bots a spec names: ``mcts`` is the default search (UCT with an MCTS
solver), ``uct`` plain UCT, the fixed baseline."""

SEARCHES = ("mcts", "uct")
"""The kinds that are a :class:`veletas.MctsBot` and take options."""

MCTS_OPTIONS = ("iterations", "seconds", "exploration", "threads", "solve_share", "cutoff")
"""The options of ``mcts:`` and ``uct:``, in the order a spec is written."""

SEED_LIMIT = 1 << 64
"""Seeds are below this."""


# ----------------------------------------------------------------------
# Players


class Player(abc.ABC):
    """A contestant of a match: it makes a fresh bot for every game.

    :class:`BotSpec` is the player of a spec; subclass this for a bot of
    your own (it must pickle, to travel to a Ray cluster).
    """

    @property
    @abc.abstractmethod
    def name(self) -> str:
        """The player's name in tables, records and summaries."""

    @property
    def reproducible(self) -> bool:
        """Whether the player's bots move the same way for the same seed
        and boards (not so under a time budget)."""
        return True

    @abc.abstractmethod
    def make(self, seed: int) -> Bot:
        """A new bot for one game, seeded with ``seed`` (0 .. 2**64 - 1)."""

    def check(self, board: Any) -> None:
        """Raise if the player cannot play ``board``'s game; called on the
        start position before any game of a match."""
        self.make(0).choose(board)


@dataclasses.dataclass(frozen=True)
class BotSpec(Player):
    """The player a spec names: one of the bots of :mod:`veletas.bots`.

    >>> BotSpec.parse("mcts:exploration=1,iterations=500")
    BotSpec.parse('mcts:iterations=500,exploration=1.0')
    >>> str(BotSpec.parse("greedy")), BotSpec.parse("mcts:seconds=0.5").reproducible
    ('greedy', False)
    """

    kind: str
    """``random``, ``greedy``, ``mcts`` or ``uct``."""
    iterations: int | None = None
    """MCTS playouts a move."""
    seconds: float | None = None
    """MCTS thinking time a move (with ``iterations`` too: whichever runs out first)."""
    exploration: float | None = None
    """The MCTS exploration constant; None for the bot's default."""
    threads: int | None = None
    """The MCTS search threads; None for one."""
    solve_share: float | None = None
    """``mcts`` only: the share of each move's budget for the exact solver;
    None for the bot's default."""
    cutoff: int | None = None
    """``mcts`` only: the random decisions of a playout before the game's
    estimate scores it (0: to the end); None for the game's default."""

    @classmethod
    def parse(cls, spec: str) -> BotSpec:
        """The player of ``spec``: ``random``, ``greedy``, ``mcts``, ``uct``,
        or ``mcts:OPTION=VALUE,...`` (``uct:`` alike) with the options
        ``iterations`` (a whole number of 1 to
        :data:`~veletas.limits.MAX_ITERATIONS`), ``seconds`` (within
        :data:`~veletas.limits.MIN_SECONDS` .. :data:`~veletas.limits.MAX_SECONDS`),
        ``exploration`` (0 or more), ``threads`` (1 or more) and, for
        ``mcts``, ``solve_share`` (0 to 1) and ``cutoff`` (a whole number of
        0 to :data:`~veletas.limits.MAX_CUTOFF`). ``mcts`` alone thinks one
        second a move.

        :raises InvalidPlayerError: naming the spec and what is wrong with it.
        :raises TypeError: if ``spec`` is not a str.
        """
        if not isinstance(spec, str):
            raise TypeError(f"a player is a spec (str) or a Player, not {spec!r}")
        kind, colon, rest = spec.strip().partition(":")
        if kind not in KINDS:
            raise InvalidPlayerError(
                f"unknown player {spec!r}: expected random, greedy, mcts, uct "
                f"or mcts:OPTION=VALUE,... or uct:OPTION=VALUE,... "
                f"(options {', '.join(MCTS_OPTIONS)})"
            )
        if not colon:
            return cls(kind)
        if kind not in SEARCHES:
            raise InvalidPlayerError(f"player {spec!r}: {kind} takes no options")
        options: dict[str, Any] = {}
        for item in rest.split(","):
            key, equals, value = (part.strip() for part in item.partition("="))
            if not (key and equals and value):
                raise InvalidPlayerError(f"player {spec!r}: {item!r} is not OPTION=VALUE")
            if key not in MCTS_OPTIONS:
                raise InvalidPlayerError(
                    f"player {spec!r}: unknown option {key!r}; "
                    f"expected one of {', '.join(MCTS_OPTIONS)}"
                )
            if key in options:
                raise InvalidPlayerError(f"player {spec!r}: {key} is given twice")
            if key in ("solve_share", "cutoff") and kind == "uct":
                raise InvalidPlayerError(
                    f"player {spec!r}: uct, the fixed baseline, takes no {key}"
                )
            options[key] = _option(spec, key, value)
        return cls(kind, **options)

    @property
    def name(self) -> str:
        return str(self)

    @property
    def reproducible(self) -> bool:
        return self.kind not in SEARCHES or (
            self.seconds is None and self.iterations is not None and (self.threads or 1) == 1
        )

    def make(self, seed: int) -> Bot:
        from veletas import bots

        if self.kind == "random":
            return bots.RandomBot(seed)
        if self.kind == "greedy":
            return bots.GreedyBot(seed)
        return bots.MctsBot(
            seconds=self.seconds,
            iterations=self.iterations,
            seed=seed,
            exploration=self.exploration,
            threads=self.threads or 1,
            algorithm=self.kind,
            solve_share=self.solve_share,
            cutoff=self.cutoff,
        )

    def check(self, board: Any) -> None:
        # The same bot on the smallest budget: as telling, and no waiting.
        dataclasses.replace(self, iterations=1, seconds=None, threads=None).make(0).choose(board)

    def __str__(self) -> str:
        options = [
            f"{key}={getattr(self, key)!r}"
            for key in MCTS_OPTIONS
            if getattr(self, key) is not None
        ]
        return f"{self.kind}:{','.join(options)}" if options else self.kind

    def __repr__(self) -> str:
        return f"BotSpec.parse({str(self)!r})"


def _option(spec: str, key: str, value: str) -> int | float:
    """The value of option ``key`` of ``spec``, checked."""
    if key == "threads":
        try:
            threads = ascii_int(value)
        except ValueError:
            threads = 0
        if not 1 <= threads <= MAX_THREADS:
            raise InvalidPlayerError(
                f"player {spec!r}: threads must be a whole number of 1 to {MAX_THREADS}, "
                f"not {value!r}"
            )
        return threads
    if key == "cutoff":
        try:
            cutoff = ascii_int(value)
        except ValueError:
            cutoff = -1
        if not 0 <= cutoff <= MAX_CUTOFF:
            raise InvalidPlayerError(
                f"player {spec!r}: cutoff must be a whole number of 0 to {MAX_CUTOFF:,}, "
                f"not {value!r}"
            )
        return cutoff
    if key == "iterations":
        try:
            number = ascii_int(value)
        except ValueError:
            number = 0
        if not 1 <= number <= MAX_ITERATIONS:
            raise InvalidPlayerError(
                f"player {spec!r}: iterations must be a whole number of 1 to "
                f"{MAX_ITERATIONS:,}, not {value!r}"
            )
        return number
    try:
        real = ascii_float(value)
    except ValueError:
        real = math.nan
    if key == "seconds" and not (math.isfinite(real) and MIN_SECONDS <= real <= MAX_SECONDS):
        raise InvalidPlayerError(
            f"player {spec!r}: seconds must be a number of {MIN_SECONDS:g} to "
            f"{MAX_SECONDS:g}, not {value!r}"
        )
    if key == "solve_share" and not 0 <= real <= 1:
        raise InvalidPlayerError(
            f"player {spec!r}: solve_share must be a number of 0 to 1, not {value!r}"
        )
    if key == "exploration" and not (math.isfinite(real) and real >= 0):
        raise InvalidPlayerError(
            f"player {spec!r}: exploration must be a number of 0 or more, not {value!r}"
        )
    return real


def parse_player(player: str | Player) -> Player:
    """``player`` itself, or the :class:`BotSpec` of a spec.

    :raises InvalidPlayerError: for a spec that cannot be read.
    """
    if isinstance(player, Player):
        return player
    return BotSpec.parse(player)


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """The seeds of the bots of player A and player B in game ``index`` of a
    match with ``seed``: the first two draws of the stream ``(seed, index)``
    (:class:`veletas.rng.Rng`). Nothing else seeds a game.

    >>> game_seeds(0, 0) == game_seeds(0, 0) != game_seeds(0, 1)
    True
    """
    rng = Rng.for_game(seed, index)
    return rng.next_u64(), rng.next_u64()
