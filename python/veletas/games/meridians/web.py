"""Meridians on the page of ``veletas serve``: its options, status line, click
tree and records (the :class:`veletas.serve.protocol.WebGame` of Meridians).

A move is one click: a point places a stone there; at the pie decision,
``swap`` and ``keep`` are buttons.

>>> from veletas import meridians
>>> board = meridians.Board(size="5-6", pie=True)
>>> tree = GAME.clicks(board)
>>> len(tree["next"]), tree["next"]["e5"]
(80, 'e5')
>>> for text in ["e5", "f6"]:
...     _ = board.push_str(text)
>>> GAME.clicks(board)["next"]
{'swap': 'swap', 'keep': 'keep'}
>>> GAME.explain(board, ["a1"])
"Dark must 'swap' or 'keep' now"
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from veletas.errors import IllegalMoveError, InvalidMoveError
from veletas.games.meridians import match
from veletas.games.meridians import records as room_records
from veletas.games.meridians.engine import ENGINES
from veletas.games.meridians.types import SIZES, Phase, Rules, parse_point, point_name
from veletas.serve.newgame import defaults, first_record, read_options
from veletas.serve.protocol import WebGame

if TYPE_CHECKING:
    from veletas.serve.protocol import ClickNode, Field, Status

__all__ = ["GAME", "MeridiansWeb"]

_FIELDS: tuple[Field, ...] = (
    {
        "name": "size",
        "label": "Board",
        "type": "choice",
        "choices": list(SIZES),
        "default": "6-7",
        "help": "sides of A and B points: 5-6 has 80 points, 6-7 114, 7-8 154",
    },
    {
        "name": "pie",
        "label": "Pie rule",
        "type": "bool",
        "default": False,
        "help": "the first player places a light and a dark stone; the second may swap colours",
    },
)
"""The options: each is named as ``Board``'s keyword and ``Rules``'s field,
so that a new option of the rules is one more entry here."""


def _reason(error: Exception, board: Any) -> str:
    """The reason of an engine error, without the move and the position it
    quotes (the page shows both already)."""
    text = str(error)
    head = f" in {board.fen()!r}: "
    return text.split(head, 1)[1] if head in text else text


def _swapped(board: Any) -> bool:
    return any(move.is_swap for move in board.move_stack)


def _places_for_dark(board: Any) -> bool:
    """Whether the first player is to place Dark's first stone (the pie rule)."""
    swapped = _swapped(board)
    return match.seat_to_act(board, swapped) != int(board.turn) ^ swapped


def _rules(board: Any) -> Rules:
    return Rules(board.size, board.pie)


class MeridiansWeb(WebGame):
    """Meridians for ``veletas serve``."""

    name = "meridians"
    title = "Meridians"
    colours = ("light", "dark")
    move_example = "f7"
    position_example = "6/7/8/9/5o4/4x5/9/8/7/6 l open"

    def fields(self) -> list[Field]:
        return list(_FIELDS)

    def new_board(
        self, options: Mapping[str, str], position: str | None
    ) -> tuple[Any, dict[str, Any]]:
        meridians = ENGINES.selected()

        given = read_options(self.name, _FIELDS, options)
        kwargs = {**defaults(_FIELDS), **given}
        if position is not None and "size" not in given:
            del kwargs["size"]  # the position string fixes the size
        board = meridians.Board(position, **kwargs)
        return board, self._options(_rules(board))

    def _options(self, rules: Rules) -> dict[str, Any]:
        return {field["name"]: getattr(rules, field["name"]) for field in _FIELDS}

    def read_record(self, text: str) -> tuple[Any, Any, dict[str, Any]]:
        record = first_record(text, room_records.GAME)
        return record.board(0), record.board(), self._options(record.rules)

    def write_record(
        self,
        start: Any,
        board: Any,
        players: Mapping[str, str],
        winner: str | None,
        termination: str | None,
    ) -> str:
        from veletas import records

        fresh = room_records.new_board(_rules(board), None)
        light, dark = self.colours
        result = {light: "1-0", dark: "0-1", None: "*"}[winner]
        record = records.GameRecord.from_board(
            board,
            start=None if start == fresh else start.fen(),
            black=players[light],
            white=players[dark],
            result=result,
        )
        if termination:
            record.tags["Termination"] = termination
        return records.write([record])

    def seat_to_act(self, board: Any) -> int:
        return match.seat_to_act(board, _swapped(board))

    def colour_of(self, board: Any, seat: int) -> str:
        return self.colours[seat ^ _swapped(board)]

    def status(self, board: Any) -> Status:
        over = board.is_game_over()
        winner = board.winner
        turn = str(board.turn)
        phase = Phase(board.phase)
        if over:
            detail = "the game is over"
        elif phase is Phase.PIE:
            detail = "dark may swap colours, or keep them"
        elif _places_for_dark(board):
            detail = "the first player places dark's first stone too (pie rule)"
        elif phase is Phase.OPEN and board.stones[int(board.turn)] == 1:
            detail = f"{turn} places its second stone in line with its first, empty points between"
        elif phase is Phase.OPEN:
            detail = f"{turn} places its first stone anywhere"
        else:
            detail = f"{turn} places a stone where a line's nearest stone is {turn}'s"
        stones = board.stones
        light, dark = self.colours
        return {
            "turn": None if over else turn,
            "phase": str(phase),
            "detail": detail,
            "score": {light: stones.light, dark: stones.dark},
            "score_name": "stones",
            "winner": None if winner is None else str(winner),
        }

    def clicks(self, board: Any) -> ClickNode:
        moves = [str(move) for move in board.legal_moves]
        phase = Phase(board.phase)
        if not moves:
            prompt = "the game is over"
        elif phase is Phase.PIE:
            prompt = "swap, to take Light and move next, or keep Dark"
        elif _places_for_dark(board):
            prompt = "click where to place Dark's first stone"
        else:
            prompt = f"click where to place your {board.turn} stone"
        return {"prompt": prompt, "next": {text: text for text in moves}}

    def explain(self, board: Any, clicks: list[str]) -> str:
        if board.is_game_over():
            return "the game is over"
        last = clicks[-1]
        try:
            parse_point(last)
        except InvalidMoveError:
            return f"{last!r} is not a point or a choice here"
        try:
            board.copy(stack=False).push_str(last)
        except (IllegalMoveError, InvalidMoveError) as error:
            return _reason(error, board)
        return f"{last} is open here"  # pragma: no cover - a legal placement

    def squares(self, board: Any, move: Any) -> list[str]:
        if move.is_swap or move.is_keep:
            return []
        return [point_name(move.point)]

    def parse_move(self, board: Any, text: str) -> Any:
        return ENGINES.of_board(board).Move.parse(text)


GAME = MeridiansWeb()
"""Meridians, as ``veletas serve`` plays it."""
