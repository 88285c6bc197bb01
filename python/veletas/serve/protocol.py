"""What ``veletas serve`` needs of a game: one object per game, found through
the registry (:attr:`veletas.games.Game.web`).

The server and the page are generic: the server keeps the moves of a game
and runs its bot, the page draws the SVG the game makes and turns clicks into
moves with the game's *click tree*. A game plugs in by providing a
:class:`WebGame` in its own room (Veletas's is
:mod:`veletas.games.veletas.web`) and naming that module in its
:data:`veletas.games.GAMES` entry.

The click tree of a position maps each click (a square's name, as the
``data-square`` attributes of the picture give them, or the label of a
button such as ``swap``) to what follows it: a move's text when the click
completes a move, or another node ``{"prompt": ..., "next": {...}}``. A
game where a click places a stone has a tree of one level.

This module imports no web framework, so games can implement it without
the ``serve`` extra.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol, TypedDict

__all__ = ["ClickNode", "Field", "Status", "WebGame"]


class Field(TypedDict, total=False):
    """One field of the New game form: a query parameter of the page."""

    name: str
    """The parameter's name."""
    label: str
    """What the form shows."""
    type: str
    """``"choice"``, ``"int"`` or ``"bool"``."""
    choices: list[str]
    """The values of a choice."""
    default: Any
    """The value when the parameter is left out."""
    help: str
    """One line on what it does."""
    only_with: dict[str, str]
    """Shown only when other fields have these values (``{"variant": "custom"}``)."""


class ClickNode(TypedDict):
    """An inner node of a click tree."""

    prompt: str
    """What to click next, for the player."""
    next: dict[str, Any]
    """Each possible click: a move's text, or the next node."""


class Status(TypedDict):
    """The state of a position, as the page's status line shows it."""

    turn: str | None
    """The colour to act, or None when the game is over."""
    phase: str
    """The phase of the game, as its position strings name it."""
    detail: str
    """What the player to act does now, in words."""
    score: dict[str, int]
    """What each colour counts towards winning (claims, stones ...)."""
    score_name: str
    """What the score counts."""
    winner: str | None
    """The colour that won on the board, or None."""


class WebGame(Protocol):
    """A game as ``veletas serve`` plays it. Colours are named by their
    lowercase names (``"black"``), moves by their text in the game's
    notation, squares by their names. Errors are ``veletas.errors``
    exceptions, whose messages the page shows."""

    name: str
    """The game's name in the registry and in the ``game`` parameter."""
    title: str
    """The game's name as the page shows it."""
    colours: tuple[str, str]
    """The colours, the first player's at the start first."""
    move_example: str
    """A move in the game's notation, for the page's Move box."""
    position_example: str
    """A position string, for the New game form's box."""

    def fields(self) -> list[Field]:
        """The options of a new game, for the New game form: its board and
        its rules, one field each (:mod:`veletas.serve.newgame` reads them)."""

    def new_board(
        self, options: Mapping[str, str], position: str | None
    ) -> tuple[Any, dict[str, Any]]:
        """The board of a new game with these options (query parameters as
        text; a missing one takes its default) from ``position`` (a position
        string; None for the start), and the options in full.

        :raises VeletasError: for an unknown option or a bad value.
        """

    def read_record(self, text: str) -> tuple[Any, Any, dict[str, Any]]:
        """The start board, the final board (the moves on its stack) and the
        options of the first game of a record text.

        :raises VeletasError: for a record that cannot be read.
        """

    def write_record(
        self,
        start: Any,
        board: Any,
        players: Mapping[str, str],
        winner: str | None,
        termination: str | None,
    ) -> str:
        """The record text of the game on ``board`` (moves on its stack) from
        ``start``; ``players`` names each colour's player, ``winner`` is the
        result (which can differ from the board's after a resignation)."""

    def seat_to_act(self, board: Any) -> int:
        """The seat to act, 0 for the player who moved first."""

    def colour_of(self, board: Any, seat: int) -> str:
        """The colour ``seat`` holds now (after any swap)."""

    def status(self, board: Any) -> Status:
        """Whose turn, the phase, the score and the winner."""

    def clicks(self, board: Any) -> ClickNode:
        """The click tree of the legal moves (empty ``next`` at the end)."""

    def explain(self, board: Any, clicks: list[str]) -> str:
        """Why the last of ``clicks`` cannot continue the ones before it."""

    def squares(self, board: Any, move: Any) -> list[str]:
        """The squares a move goes through, to draw it (a hint): its clicks
        without the buttons."""

    def draw(self, board: Any, *, lastmove: Any, flipped: bool) -> str:
        """The SVG picture, every square an element with ``data-square``: by
        default the game's picture (:attr:`veletas.games.Game.draw`), 560
        pixels wide."""
        from veletas import games as registry

        return registry.get(self.name).draw(board, lastmove=lastmove, flipped=flipped, size=560)

    def parse_move(self, board: Any, text: str) -> Any:
        """The move ``text`` on ``board``.

        :raises VeletasError: for text that is not a move.
        """

    def make_bot(
        self, seconds: float | None, iterations: int | None, seed: int, max_nodes: int
    ) -> Any:
        """A bot with ``choose(board, stop=flag)``, ``analyse(board, top=n,
        stop=flag)`` and ``reset()`` (:class:`veletas.MctsBot`'s methods)
        whose search trees hold at most ``max_nodes`` nodes: by default the
        :class:`veletas.MctsBot` of every game."""
        from veletas.bots import MctsBot

        return MctsBot(seconds=seconds, iterations=iterations, seed=seed, max_nodes=max_nodes)
