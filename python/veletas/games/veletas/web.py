"""Veletas on the page of ``veletas serve``: its options, status line, click
tree and records (the :class:`veletas.serve.protocol.WebGame` of Veletas).

Clicks follow the notation: in setup and at the pie, a square is a
placement (``swap`` and ``keep`` are buttons); in play, a shooter, then its
destination (the shooter again to shoot from where it stands), then the
target.

>>> import veletas
>>> board = veletas.Board("7/2x4/7/1s5/7/o1s2s1/7 b play 3")
>>> tree = GAME.clicks(board)
>>> sorted(tree["next"])
['b4', 'c2', 'f2']
>>> tree["next"]["b4"]["next"]["b7"]["next"]["a7"]
'b4-b7/a7'
>>> GAME.explain(board, ["b4", "d3"])
'the shooter on b4 does not reach d3: it moves along a line of empty squares'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from veletas.errors import IllegalMoveError, InvalidMoveError, InvalidRulesError
from veletas.games.veletas import records as room_records
from veletas.games.veletas.engine import ENGINES
from veletas.games.veletas.types import (
    SETUP_RULES,
    SQUARE_NAMES,
    VARIANTS,
    Phase,
    Piece,
    Rules,
    parse_square,
    square_name,
)
from veletas.serve.newgame import defaults, first_record, read_options
from veletas.serve.protocol import WebGame

if TYPE_CHECKING:
    from veletas.serve.protocol import ClickNode, Field, Status

__all__ = ["GAME", "VeletasWeb"]

_SIZE_FIELDS: tuple[Field, ...] = (
    {
        "name": "variant",
        "label": "Variant",
        "type": "choice",
        "choices": [*VARIANTS, "custom"],
        "default": "standard",
        "help": "standard 10x10 with 7 shooters, medium 9x9 with 5, small 7x7 with 3",
    },
    {
        "name": "size",
        "label": "Board size N",
        "type": "int",
        "default": 8,
        "help": "5 to 10",
        "only_with": {"variant": "custom"},
    },
    {
        "name": "shooters",
        "label": "Shooters K",
        "type": "int",
        "default": 5,
        "help": "odd, 3 or more",
        "only_with": {"variant": "custom"},
    },
)
"""The board: a variant, or a custom size and shooter count."""

_RULE_FIELDS: tuple[Field, ...] = (
    {
        "name": "setup_rule",
        "label": "Setup rule",
        "type": "choice",
        "choices": list(SETUP_RULES),
        "default": "perimeter",
        "help": "perimeter: no shooter on the outer ring; spacing: shooters not adjacent",
    },
    {
        "name": "shooters_block",
        "label": "Shooters block lines",
        "type": "bool",
        "default": False,
        "help": "the older rule: shooters end lines as stones do",
    },
    {
        "name": "claimed_shooters_block",
        "label": "Claimed shooters block lines",
        "type": "bool",
        "default": False,
        "help": "Boardspace's rules: claimed shooters end lines, claims repeat",
    },
)
"""The rule options: each is named as ``Board``'s keyword and ``Rules``'s
field, so that a new option of the rules is one more entry here."""


def _reason(error: Exception, board: Any) -> str:
    """The reason of an engine error, without the move and the position it
    quotes (the page shows both already)."""
    text = str(error)
    head = f" in {board.fen()!r}: "
    return text.split(head, 1)[1] if head in text else text


class VeletasWeb(WebGame):
    """Veletas for ``veletas serve``."""

    name = "veletas"
    title = "Veletas"
    colours = ("black", "white")

    move_example = "d4-d7/f9"
    position_example = "7/7/7/3s3/7/7/7 b setup 3"

    def fields(self) -> list[Field]:
        return [*_SIZE_FIELDS, *_RULE_FIELDS]

    def new_board(
        self, options: Mapping[str, str], position: str | None
    ) -> tuple[Any, dict[str, Any]]:
        given = read_options(self.name, self.fields(), options)
        variant = given.get("variant", "standard")
        size, shooters = given.get("size"), given.get("shooters")
        if variant == "custom" and position is None and (size is None or shooters is None):
            raise InvalidRulesError("a custom variant needs both size and shooters")
        if variant != "custom" and (size is not None or shooters is not None):
            raise InvalidRulesError(f"size and shooters go with variant 'custom', not {variant!r}")
        rules = defaults(_RULE_FIELDS)
        rules.update((name, value) for name, value in given.items() if name in rules)
        kwargs: dict[str, Any] = dict(rules)
        if variant != "custom" and not (position is not None and "variant" not in given):
            # Without a variant, a position string fixes N and K.
            kwargs["variant"] = variant
        if size is not None:
            kwargs["size"] = size
        if shooters is not None:
            kwargs["shooters"] = shooters
        board = ENGINES.selected().Board(position, **kwargs)
        return board, self._options(board.rules)

    def _options(self, rules: Rules) -> dict[str, Any]:
        options: dict[str, Any] = {"variant": rules.variant}
        if rules.variant == "custom":
            options.update(size=rules.size, shooters=rules.shooters)
        options.update(_rule_options(rules))
        return options

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

        rules = board.rules
        fresh = type(board)(size=rules.size, shooters=rules.shooters, **_rule_options(rules))
        result = {"black": "1-0", "white": "0-1", None: "*"}[winner]
        record = records.GameRecord.from_board(
            board,
            start=None if start == fresh else start.fen(),
            black=players["black"],
            white=players["white"],
            result=result,
        )
        if termination:
            record.tags["Termination"] = termination
        return records.write([record])

    def seat_to_act(self, board: Any) -> int:
        return int(board.turn) ^ _swapped(board)

    def colour_of(self, board: Any, seat: int) -> str:
        return self.colours[seat ^ _swapped(board)]

    def status(self, board: Any) -> Status:
        claims = board.claims
        over = board.is_game_over()
        winner = board.winner
        turn = str(board.turn)
        phase = Phase(board.phase)
        if over:
            detail = "the game is over"
        elif phase is Phase.PIE:
            detail = "white may swap (take Black and its setup) or keep White and place a shooter"
        elif phase is Phase.SETUP:
            shooter = next(iter(board.legal_moves)).is_shooter
            detail = f"{turn} places a shooter" if shooter else f"{turn} places a stone"
        else:
            detail = f"{turn} moves a shooter (or not) and shoots"
        return {
            "turn": None if over else turn,
            "phase": str(phase),
            "detail": detail,
            "score": {"black": claims.black, "white": claims.white},
            "score_name": f"claims ({board.rules.claims_to_win} to win)",
            "winner": None if winner is None else str(winner),
        }

    def clicks(self, board: Any) -> ClickNode:
        moves = list(board.legal_moves)
        phase = Phase(board.phase)
        if phase is not Phase.PLAY or not moves:
            placements = {square_name(m.target): str(m) for m in moves if not m.is_swap}
            if not moves:
                prompt = "the game is over"
            elif phase is Phase.PIE:
                prompt = "swap, or keep White and click where to place your first shooter"
            elif moves[0].is_shooter:
                prompt = "click where to place a shooter"
            else:
                prompt = "click where to place your stone"
            tree: ClickNode = {"prompt": prompt, "next": dict(placements)}
            if any(m.is_swap for m in moves):
                tree["next"]["swap"] = "swap"
                tree["next"]["keep"] = {
                    "prompt": "click where to place your first shooter",
                    "next": dict(placements),
                }
            return tree
        names = SQUARE_NAMES
        root: dict[str, Any] = {}

        def shooter_next(name: str) -> dict[str, Any]:
            node = root.get(name)
            if node is None:
                node = root[name] = {
                    "prompt": f"click where the shooter on {name} moves, "
                    f"or {name} again to shoot from where it stands",
                    "next": {},
                }
            nexts: dict[str, Any] = node["next"]
            return nexts

        def target_node(name: str) -> dict[str, Any]:
            return {"prompt": f"click the square the shooter on {name} shoots onto", "next": {}}

        stands = {m.target for m in moves if m.origin is None}
        for shooter in board.pieces(Piece.SHOOTER):
            targets = [names[t] for t in board.reach(shooter) if t in stands]
            if targets:
                name = names[shooter]
                node = shooter_next(name)[name] = target_node(name)
                node["next"] = {t: t for t in targets}
        for m in moves:
            origin = m.origin
            if origin is None:
                continue
            after = shooter_next(names[origin])
            destination = names[m.destination]
            shots = after.get(destination)
            if shots is None:
                shots = after[destination] = target_node(destination)
            shots["next"][names[m.target]] = str(m)
        return {"prompt": "click a shooter to move it, or to shoot with it", "next": root}

    def explain(self, board: Any, clicks: list[str]) -> str:
        if board.is_game_over():
            return "the game is over"
        phase = Phase(board.phase)
        if phase is Phase.PIE and clicks[:1] == ["keep"] and len(clicks) > 1:
            clicks = clicks[1:]
        try:
            squares = [parse_square(c) for c in clicks]
        except InvalidMoveError:
            return f"{clicks[-1]!r} is not a square or a choice here"
        if any(square_name(sq) != c for sq, c in zip(squares, clicks, strict=True)) or any(
            not board.rules.size > max(sq % 10, sq // 10) for sq in squares
        ):
            return f"{clicks[-1]} is not a square of this board"
        last = clicks[-1]
        if phase is not Phase.PLAY:
            placement = next(m for m in board.legal_moves if not m.is_swap)
            text = f"*{last}" if placement.is_shooter else last
            try:
                board.copy(stack=False).push_str(text)
            except IllegalMoveError as error:
                return _reason(error, board)
            return f"{last} is not open here"  # pragma: no cover - a legal placement
        origin = squares[0]
        piece = board.piece_at(origin)
        if len(clicks) == 1:
            if piece is None:
                return f"{last} is empty: click a shooter (a red diamond) first"
            if piece in (Piece.BLACK_STONE, Piece.WHITE_STONE):
                return f"{last} holds a stone: click a shooter (a red diamond) first"
            if piece in (Piece.BLACK_CLAIMED, Piece.WHITE_CLAIMED):
                return f"the shooter on {last} is claimed: it no longer moves or shoots"
            return f"the shooter on {last} has no empty square in reach: it can do nothing"
        if len(clicks) == 2:
            if board.piece_at(squares[1]) is not None:
                return f"{last} is taken: the shooter on {clicks[0]} moves to an empty square"
            return (
                f"the shooter on {clicks[0]} does not reach {last}: "
                "it moves along a line of empty squares"
            )
        if squares[0] == squares[1]:
            return (
                f"the shooter on {clicks[0]} does not reach {last}: "
                "it shoots along a line of empty squares onto an empty one"
            )
        try:
            board.copy(stack=False).push_str(f"{clicks[0]}-{clicks[1]}/{last}")
        except IllegalMoveError as error:
            return _reason(error, board)
        return f"{last} cannot be shot onto here"  # pragma: no cover - a legal move

    def squares(self, board: Any, move: Any) -> list[str]:
        if move.is_swap:
            return []
        if move.origin is not None:
            return [square_name(s) for s in (move.origin, move.destination, move.target)]
        target = square_name(move.target)
        if Phase(board.phase) is not Phase.PLAY:
            return [target]
        for shooter in board.pieces(Piece.SHOOTER):
            if move.target in board.reach(shooter):
                return [square_name(shooter), target]
        return [target]  # pragma: no cover - a legal shot has a shooter

    def parse_move(self, board: Any, text: str) -> Any:
        return ENGINES.of_board(board).Move.parse(text)


def _swapped(board: Any) -> bool:
    return any(move.is_swap for move in board.move_stack)


def _rule_options(rules: Rules) -> dict[str, Any]:
    return {field["name"]: getattr(rules, field["name"]) for field in _RULE_FIELDS}


GAME = VeletasWeb()
"""Veletas, as ``veletas serve`` plays it."""
