"""The games veletas plays, by name: what the generic machinery (pictures,
the command line, playouts) needs to know of each.

>>> from veletas import games
>>> sorted(games.GAMES)
['meridians', 'veletas']
>>> import veletas
>>> games.game_of(veletas.Board()).name
'veletas'

Each game has its own package here (``veletas.games.<name>``) with its plain
types, its pure-Python ``reference`` engine and its drawing; the compiled
engine of each lives in the extension. A third game adds a package and an
entry in :data:`GAMES`.
"""

from __future__ import annotations

import dataclasses
import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

__all__ = ["GAMES", "Game", "game_of", "get"]


@dataclasses.dataclass(frozen=True)
class Game:
    """A game of the family, as the generic machinery sees it."""

    name: str
    """The name ``--game`` and ``game=`` take."""
    package: str
    """The public package of its API (``Board``, ``Move``, ``reference``)."""
    drawing: str
    """The module whose ``board(board, **options)`` draws a position as SVG."""
    web: str | None = None
    """The module whose ``GAME`` is the game for ``veletas serve``
    (:class:`veletas.serve.protocol.WebGame`); None for a game the page
    does not offer yet."""

    def api(self) -> Any:
        """The public package: ``Board``, ``Move``, ``reference`` and the rest."""
        return importlib.import_module(self.package)

    def board_types(self) -> tuple[type, ...]:
        """The board classes of both engines (one where the extension is not built)."""
        api = self.api()
        reference = importlib.import_module(f"{self.package}.reference")
        return tuple({api.Board, reference.Board})

    def encoding(self) -> Any:
        """The module of its action encoding for the learning adapters
        (``veletas.games.<name>.encoding``): ``DecisionState``,
        ``observation_for``, ``OBSERVATION_PLANES``, ``describe``,
        ``action_to_string``, ``new_state``, ``rules_of``,
        ``OPENSPIEL_PARAMETERS``, ``openspiel_start``, ``max_game_length`` and
        ``vector_env_type``."""
        return importlib.import_module(f"veletas.games.{self.name}.encoding")

    def web_game(self) -> Any:
        """The game for ``veletas serve``, or None where it has none."""
        if self.web is None:
            return None
        return importlib.import_module(self.web).GAME

    def room(self, module: str) -> ModuleType:
        """A module of the game's own room, ``veletas.games.<name>.<module>``:
        ``room("match")`` is what a match between players needs of the game."""
        return importlib.import_module(f"veletas.games.{self.name}.{module}")

    @property
    def draw(self) -> Callable[..., str]:
        """``draw(board, **options)``: the SVG picture of a position."""
        drawing: Callable[..., str] = importlib.import_module(self.drawing).board
        return drawing


GAMES: dict[str, Game] = {
    "veletas": Game(
        "veletas", "veletas", "veletas.games.veletas.svg", web="veletas.games.veletas.web"
    ),
    "meridians": Game(
        "meridians",
        "veletas.meridians",
        "veletas.games.meridians.svg",
        web="veletas.games.meridians.web",
    ),
}
"""Every game, by name. Veletas is the default everywhere."""


def get(name: str) -> Game:
    """The game called ``name``.

    :raises ValueError: for an unknown name, listing the known ones.
    """
    try:
        return GAMES[name]
    except (KeyError, TypeError):
        known = ", ".join(repr(game) for game in GAMES)
        raise ValueError(f"unknown game {name!r}; expected one of {known}") from None


def game_of(board: object) -> Game:
    """The game a board (of either engine) plays.

    :raises TypeError: if ``board`` is no game's board.
    """
    for game in GAMES.values():
        if isinstance(board, game.board_types()):
            return game
    raise TypeError(f"expected a board of a game of veletas, not {type(board).__name__}")
