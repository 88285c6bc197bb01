"""A second game for the server's tests, made only of Meridians's boards: a
move is one click on a point, the pie rule is two buttons (``swap`` and
``keep``), the colours are light and dark and the score counts stones. It
shows that nothing in the server or the page is Veletas's: a game plugs in
with a :class:`veletas.serve.protocol.WebGame` named by the registry.

Its picture is a plain grid of the points (the real game has a hexagon),
its bot a random mover, and its record a line of moves: enough for tests.
"""

from __future__ import annotations

import random
from collections.abc import Mapping
from typing import Any

from veletas import meridians
from veletas.errors import InvalidRecordError, InvalidRulesError
from veletas.games.meridians.reference.geometry import geometry
from veletas.games.meridians.types import SIZES, point_name


class RandomPlacer:
    """Plays a random legal move; its analysis ranks random moves."""

    def __init__(self, seed: int) -> None:
        self.rng = random.Random(seed)

    def choose(self, board: Any, *, stop: Any = None) -> Any:
        return self.rng.choice(list(board.legal_moves))

    def analyse(self, board: Any, *, top: int = 5, stop: Any = None) -> Any:
        from veletas.bots import Analysis, MoveStats

        moves = list(board.legal_moves)[:top]
        stats = [MoveStats(m, 1, 1 / len(moves), 0.5) for m in moves]
        return Analysis(stats, len(moves), len(moves), 0.0)

    def reset(self) -> None:
        pass


class PointsGame:
    name = "points"
    title = "Points"
    colours = ("light", "dark")
    move_example = "f7"
    position_example = "7/8/9/10/11/12/12/11/10/9/8/7 l open"

    def fields(self) -> list[Any]:
        return [
            {
                "name": "size",
                "label": "Size",
                "type": "choice",
                "choices": list(SIZES),
                "default": "5-6",
            },
            {"name": "pie", "label": "Pie rule", "type": "bool", "default": False},
        ]

    def new_board(self, options: Mapping[str, str], position: str | None) -> tuple[Any, Any]:
        for name in options:
            if name not in ("size", "pie"):
                raise InvalidRulesError(f"unknown option {name!r} for points")
        pie = str(options.get("pie", "false")).lower() in ("1", "true", "on")
        board = meridians.Board(position, size=options.get("size") or None, pie=pie)
        return board, {"size": board.size, "pie": board.pie}

    def read_record(self, text: str) -> tuple[Any, Any, Any]:
        head, _, moves = text.partition("\n")
        try:
            size, pie = head.split()
        except ValueError:
            raise InvalidRecordError("line 1: expected the size and the pie flag") from None
        start, options = self.new_board({"size": size, "pie": pie}, None)
        board = start.copy()
        for text in moves.split():
            board.push_str(text)
        return start, board, options

    def write_record(
        self, start: Any, board: Any, players: Any, winner: Any, termination: Any
    ) -> str:
        moves = " ".join(str(m) for m in board.move_stack)
        return f"{board.size} {str(board.pie).lower()}\n{moves}\n"

    def _swapped(self, board: Any) -> bool:
        return any(m.is_swap for m in board.move_stack)

    def seat_to_act(self, board: Any) -> int:
        return int(board.turn) ^ self._swapped(board)

    def colour_of(self, board: Any, seat: int) -> str:
        return self.colours[seat ^ self._swapped(board)]

    def status(self, board: Any) -> Any:
        over = board.is_game_over()
        stones = board.stones
        return {
            "turn": None if over else str(board.turn),
            "phase": str(board.phase),
            "detail": f"{board.turn} places a stone",
            "score": {"light": stones.light, "dark": stones.dark},
            "score_name": "stones",
            "winner": None if board.winner is None else str(board.winner),
        }

    def clicks(self, board: Any) -> Any:
        return {"prompt": "click a point", "next": {str(m): str(m) for m in board.legal_moves}}

    def explain(self, board: Any, clicks: list[str]) -> str:
        try:
            board.copy().push_str(clicks[-1])
        except ValueError as error:
            return str(error)
        return "not now"

    def squares(self, board: Any, move: Any) -> list[str]:
        return [] if move.is_swap or move.is_keep else [str(move)]

    def draw(self, board: Any, *, lastmove: Any, flipped: bool) -> str:
        out = [
            '<svg xmlns="http://www.w3.org/2000/svg" width="420" height="420" '
            'viewBox="0 0 420 420">'
        ]
        for point in sorted(geometry(board.size).points):
            file, rank = point % 14, point // 14
            x, y = 20 + file * 30, 400 - rank * 30
            if flipped:
                x, y = 420 - x, 420 - y
            colour = board.piece_at(point)
            fill = {None: "#ddd", 0: "#eee8d5", 1: "#333"}[None if colour is None else int(colour)]
            out.append(
                f'<circle data-square="{point_name(point)}" cx="{x}" cy="{y}" r="12" '
                f'fill="{fill}"/>'
            )
        out.append("</svg>")
        return "\n".join(out)

    def parse_move(self, board: Any, text: str) -> Any:
        return meridians.Move.parse(text)

    def make_bot(self, seconds: Any, iterations: Any, seed: int, max_nodes: int) -> Any:
        return RandomPlacer(seed)


GAME = PointsGame()
