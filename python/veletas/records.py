"""Game records: a plain-text format in the spirit of PGN (``docs/records.md``).

A record is a block of tag pairs, then the numbered moves in the notation of
the rules, ending with the result; a file holds any number of records.

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> for text in ["*c3", "g7", "swap", "*e5", "*d4", "a1"]:
...     _ = board.push_str(text)
>>> record = GameRecord.from_board(board, black="Ada", white="Bo", date="2024.05.01")
>>> print(record)
[Variant "small"]
[Size "7"]
[Shooters "3"]
[SetupRule "perimeter"]
[ShootersBlock "false"]
[Black "Ada"]
[White "Bo"]
[Swapped "true"]
[Result "*"]
[Date "2024.05.01"]
<BLANKLINE>
1. *c3 2. g7 3. swap 4. *e5 5. *d4 6. a1 *
>>> [again] = read(write([record]))
>>> again.board().fen() == board.fen()
True

``[Black]`` and ``[White]`` name the players who held each colour in play,
after the pie rule: with ``[Swapped "true"]`` the second player (who swapped)
is ``[Black]``. ``[Result]`` is ``1-0`` when Black won, ``0-1`` when White
won, ``*`` for an unfinished game (Black's score first, as Black moves first
and is listed first).
"""

from __future__ import annotations

import dataclasses
import datetime
import io
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from veletas.base import SETUP_RULES, VARIANTS, Color, Rules
from veletas.errors import InvalidRecordError, VeletasError

__all__ = ["RESULTS", "GameRecord", "read", "write"]

RESULTS = ("1-0", "0-1", "*")
"""The results: Black won, White won, unfinished."""

_ROSTER = (
    "Variant",
    "Size",
    "Shooters",
    "SetupRule",
    "ShootersBlock",
    "Black",
    "White",
    "Swapped",
    "Result",
    "Date",
)
"""The tags every written record has, in this order; ``FEN`` follows them
for a game that starts from a position, then any other tags."""

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
_NUMBER = re.compile(r"^(\d+)\.$")
_NUMBER_DIGITS = 20
"""More digits than a move number can have (and than ``int()`` may read)."""
_LINE_WIDTH = 79


def _result_of(winner: Color | None) -> str:
    return {Color.BLACK: "1-0", Color.WHITE: "0-1", None: "*"}[winner]


def _tag(name: str, value: object) -> str:
    """A tag pair as written, for messages."""
    return f'[{name} "{value}"]'


def _quote(value: str) -> str:
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _unquote(value: str) -> str:
    return re.sub(r"\\(.)", r"\1", value)


@dataclasses.dataclass
class GameRecord:
    """One game: its tags (an ordered ``dict`` of str) and its moves.

    Build one with :meth:`from_board` or :meth:`from_moves`; :func:`read`
    gives checked ones. ``str(record)`` is its text.
    """

    tags: dict[str, str]
    """The tag pairs, in the order they are written."""
    moves: list[Any]
    """The moves (``veletas.Move``) from the start position."""

    @classmethod
    def from_moves(
        cls,
        rules: Rules,
        moves: Iterable[Any],
        *,
        start: str | None = None,
        black: str = "?",
        white: str = "?",
        result: str | None = None,
        date: str | None = None,
        swapped: bool | None = None,
        **extra: str,
    ) -> GameRecord:
        """The record of ``moves`` (``Move`` values or their text) played
        from ``start`` (a position string; default the start of the game)
        under ``rules``. The result is the winner of the final position
        unless given (say ``"1-0"`` after White resigned); ``extra`` adds
        tags such as ``Termination="resignation"``.

        :raises IllegalMoveError: if a move is not legal.
        :raises InvalidRecordError: for a result that is not one of
            :data:`RESULTS` or that contradicts a finished game.
        """
        board = _new_board(rules, start)
        for move in moves:
            if isinstance(move, str):
                board.push_str(move)
            else:
                board.push(move)
        return cls.from_board(
            board,
            start=start,
            black=black,
            white=white,
            result=result,
            date=date,
            swapped=swapped,
            **extra,
        )

    @classmethod
    def from_board(
        cls,
        board: Any,
        *,
        start: str | None = None,
        black: str = "?",
        white: str = "?",
        result: str | None = None,
        date: str | None = None,
        swapped: bool | None = None,
        **extra: str,
    ) -> GameRecord:
        """The record of the moves on ``board``'s move stack, played from
        ``start`` (default: the start of the game). ``date`` defaults to
        today, as ``YYYY.MM.DD``; ``swapped`` to whether a move is a swap
        (give it for a game from a position after the pie).

        :raises InvalidRecordError: for a result that is not one of
            :data:`RESULTS` or that contradicts a finished game.
        """
        rules = board.rules
        moves = board.move_stack
        final = _result_of(board.winner)
        if result is None:
            result = final
        if result not in RESULTS:
            raise InvalidRecordError(f"result {result!r} is not one of {', '.join(RESULTS)}")
        if final != "*" and result != final:
            raise InvalidRecordError(f"result {result!r} contradicts the final position ({final})")
        if swapped is None:
            swapped = any(move.is_swap for move in moves)
        tags = {
            "Variant": rules.variant,
            "Size": str(rules.size),
            "Shooters": str(rules.shooters),
            "SetupRule": rules.setup_rule,
            "ShootersBlock": "true" if rules.shooters_block else "false",
            "Black": black,
            "White": white,
            "Swapped": "true" if swapped else "false",
            "Result": result,
            "Date": date if date is not None else datetime.date.today().strftime("%Y.%m.%d"),
        }
        if start is not None:
            tags["FEN"] = start
        for name, value in extra.items():
            if not re.fullmatch(r"[A-Za-z][A-Za-z0-9_]*", name) or name in tags:
                raise InvalidRecordError(f"tag name {name!r} is not allowed here")
            tags[name] = str(value)
        return cls(tags, list(moves))

    @property
    def rules(self) -> Rules:
        """The rules of the game, from the tags (the variant's size and
        shooter count where those tags are left out)."""
        size, shooters = VARIANTS.get(self.tags.get("Variant", ""), (0, 0))
        return Rules(
            size=int(self.tags.get("Size", size)),
            shooters=int(self.tags.get("Shooters", shooters)),
            setup_rule=self.tags.get("SetupRule", "perimeter"),
            shooters_block=self.tags.get("ShootersBlock", "false") == "true",
        )

    @property
    def result(self) -> str:
        """``1-0`` (Black won), ``0-1`` (White won) or ``*``."""
        return self.tags["Result"]

    @property
    def winner(self) -> Color | None:
        """The colour that won, by the result tag (a resignation counts)."""
        return {"1-0": Color.BLACK, "0-1": Color.WHITE}.get(self.result)

    @property
    def start(self) -> str | None:
        """The position string the game starts from, or None for the start
        of the game."""
        return self.tags.get("FEN")

    def board(self, ply: int | None = None) -> Any:
        """The board after the first ``ply`` moves (default: all of them),
        with those moves on its stack.

        :raises IndexError: for a ``ply`` outside 0 .. len(moves).
        """
        if ply is None:
            ply = len(self.moves)
        if not 0 <= ply <= len(self.moves):
            raise IndexError(f"ply {ply} is outside 0..{len(self.moves)}")
        board = self._start_board()
        for move in self.moves[:ply]:
            board.push(move)
        return board

    def boards(self) -> Iterator[Any]:
        """The positions of the game, from the start to the final one (each
        a fresh board with the moves so far on its stack)."""
        board = self._start_board()
        yield board.copy()
        for move in self.moves:
            board.push(move)
            yield board.copy()

    def _start_board(self) -> Any:
        return _new_board(self.rules, self.start)

    def movetext(self) -> str:
        """The numbered moves and the result, wrapped at 79 characters."""
        tokens = [f"{ply}. {move}" for ply, move in enumerate(self.moves, start=1)]
        tokens.append(self.result)
        lines: list[str] = []
        line = ""
        for token in tokens:
            if line and len(line) + 1 + len(token) > _LINE_WIDTH:
                lines.append(line)
                line = token
            else:
                line = f"{line} {token}" if line else token
        lines.append(line)
        return "\n".join(lines)

    def __str__(self) -> str:
        tag_lines = [f'[{name} "{_quote(value)}"]' for name, value in self.tags.items()]
        return "\n".join(tag_lines) + "\n\n" + self.movetext()


def _new_board(rules: Rules, start: str | None) -> Any:
    """A board of ``rules`` at ``start`` (default: the start of the game)."""
    import veletas

    return veletas.Board(
        start,
        size=rules.size,
        shooters=rules.shooters,
        setup_rule=rules.setup_rule,
        shooters_block=rules.shooters_block,
    )


def write(games: GameRecord | Iterable[GameRecord], path_or_file: Any = None) -> str:
    """The text of ``games`` (a record or several), separated by blank lines;
    also written to ``path_or_file`` (a path, or an open text file) if given.

    Records built from ``(rules, moves)`` pairs, say those of a batch of
    playouts, go through :meth:`GameRecord.from_moves` first::

        write(GameRecord.from_moves(rules, moves) for rules, moves in games)
    """
    if isinstance(games, GameRecord):
        games = [games]
    text = "\n\n".join(str(game) for game in games) + "\n"
    if path_or_file is None:
        return text
    if isinstance(path_or_file, str | os.PathLike):
        with open(path_or_file, "w", encoding="utf-8") as file:
            file.write(text)
    else:
        path_or_file.write(text)
    return text


def read(path_or_text: Any) -> list[GameRecord]:
    """The records of a file (a path or an open text file) or of a text.

    A ``str`` is a record text when it contains a newline or starts with
    ``[``, else a path. Every record is checked: its tags, its moves (each
    is replayed) and its result.

    :raises InvalidRecordError: naming the line, and the move where a move
        is at fault.
    """
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str)
        and "\n" not in path_or_text
        and not path_or_text.lstrip().startswith("[")
    ):
        with open(path_or_text, encoding="utf-8") as file:
            text = file.read()
    elif isinstance(path_or_text, str):
        text = path_or_text
    elif isinstance(path_or_text, io.TextIOBase) or hasattr(path_or_text, "read"):
        text = path_or_text.read()
    else:
        raise TypeError(f"expected a path, a text or a file, not {type(path_or_text).__name__}")
    return list(_parse(text))


@dataclasses.dataclass
class _Block:
    """The lines of one record, with their line numbers."""

    tags: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    moves: list[tuple[int, str]] = dataclasses.field(default_factory=list)


def _blocks(text: str) -> Iterator[_Block]:
    block = _Block()
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.split(";", 1)[0].strip()
        if not line:
            continue
        if line.startswith("["):
            if block.moves:
                yield block
                block = _Block()
            block.tags.append((number, line))
        else:
            if not block.tags:
                raise InvalidRecordError(
                    f"line {number}: moves before any tag: {raw.strip()!r}", line=number
                )
            block.moves.append((number, line))
    if block.tags:
        yield block


def _parse(text: str) -> Iterator[GameRecord]:
    for block in _blocks(text):
        tags = _read_tags(block.tags)
        yield _read_moves(tags, block)


def _fail(line: int, message: str, move: str | None = None) -> InvalidRecordError:
    return InvalidRecordError(f"line {line}: {message}", line=line, move=move)


def _read_tags(lines: Sequence[tuple[int, str]]) -> dict[str, tuple[int, str]]:
    tags: dict[str, tuple[int, str]] = {}
    for number, line in lines:
        match = _TAG.match(line)
        if match is None:
            raise _fail(number, f'bad tag {line!r}: expected [Name "value"]')
        name, value = match.group(1), _unquote(match.group(2))
        if name in tags:
            raise _fail(number, f"tag {name!r} appears twice")
        tags[name] = (number, value)
    first = lines[0][0]
    for name in ("Size", "Shooters", "Result"):
        if name not in tags and not (name != "Result" and "Variant" in tags):
            raise _fail(first, f"the record has no [{name}] tag")
    return tags


def _tag_rules(tags: dict[str, tuple[int, str]]) -> Rules:
    """The rules the tags give, each bad value named with its line."""

    def value(name: str, default: str) -> tuple[int, str]:
        return tags.get(name, (tags.get("Variant", (0, ""))[0], default))

    variant_line, variant = tags.get("Variant", (0, "custom"))
    if variant != "custom" and variant not in VARIANTS:
        raise _fail(
            variant_line,
            f"bad tag {_tag('Variant', variant)}: expected one of {', '.join(VARIANTS)}, custom",
        )
    default_size, default_shooters = VARIANTS.get(variant, (0, 0))
    numbers = {}
    for name, default in (("Size", default_size), ("Shooters", default_shooters)):
        line, text = value(name, str(default))
        if not re.fullmatch(r"\d{1,3}", text):
            raise _fail(line, f"bad tag {_tag(name, text)}: expected a number")
        numbers[name] = int(text)
    block_line, block = value("ShootersBlock", "false")
    if block not in ("true", "false"):
        raise _fail(block_line, f"bad tag {_tag('ShootersBlock', block)}: expected true or false")
    setup_line, setup_rule = value("SetupRule", "perimeter")
    if setup_rule not in SETUP_RULES:
        raise _fail(
            setup_line,
            f"bad tag {_tag('SetupRule', setup_rule)}: expected {' or '.join(SETUP_RULES)}",
        )
    if not 5 <= numbers["Size"] <= 10:
        raise _fail(
            value("Size", "")[0], f"bad tag {_tag('Size', numbers['Size'])}: expected 5 to 10"
        )
    try:
        rules = Rules.make(
            size=numbers["Size"],
            shooters=numbers["Shooters"],
            setup_rule=setup_rule,
            shooters_block=block == "true",
        )
    except VeletasError as error:
        raise _fail(value("Shooters", "")[0], f"bad tag [Shooters]: {error}") from None
    if variant != "custom" and VARIANTS[variant] != (rules.size, rules.shooters):
        raise _fail(
            variant_line,
            f"bad tag {_tag('Variant', variant)}: it has N = {VARIANTS[variant][0]} and "
            f"K = {VARIANTS[variant][1]}, the tags say {rules.size} and {rules.shooters}",
        )
    return rules


def _read_moves(tags: dict[str, tuple[int, str]], block: _Block) -> GameRecord:
    import veletas

    rules = _tag_rules(tags)
    result_line, result = tags["Result"]
    if result not in RESULTS:
        raise _fail(
            result_line, f"bad tag {_tag('Result', result)}: expected one of {', '.join(RESULTS)}"
        )
    # Without the tag, the moves alone say whether there was a swap.
    swapped_line, swapped = tags.get("Swapped", (result_line, ""))
    if swapped not in ("true", "false", ""):
        raise _fail(swapped_line, f"bad tag {_tag('Swapped', swapped)}: expected true or false")
    start = tags.get("FEN")
    try:
        board = _new_board(rules, None if start is None else start[1])
    except VeletasError as error:
        raise _fail(start[0] if start else result_line, f"bad tag [FEN]: {error}") from None

    expected = 1
    end: tuple[int, str] | None = None
    for number, line in block.moves:
        line = re.sub(r"\{[^}]*\}", " ", line)
        for token in line.split():
            if end is not None:
                raise _fail(number, f"text {token!r} after the result {end[1]!r}")
            if token in RESULTS:
                end = (number, token)
                continue
            numbered = _NUMBER.match(token)
            if numbered:
                digits = numbered.group(1)
                # int() refuses thousands of digits; no move number has 20.
                if len(digits) > _NUMBER_DIGITS or int(digits) != expected:
                    raise _fail(number, f"move number {token!r}, expected {expected}.")
                continue
            try:
                board.push_str(token)
            except veletas.InvalidMoveError:
                raise _fail(
                    number, f"move {expected} {token!r} is not a move in the notation", token
                ) from None
            except veletas.IllegalMoveError:
                raise _fail(
                    number, f"move {expected} {token!r} is illegal in {board.fen()!r}", token
                ) from None
            expected += 1
    last_line = block.moves[-1][0] if block.moves else result_line
    if end is None:
        raise _fail(last_line, "the moves do not end with a result (1-0, 0-1 or *)")
    if end[1] != result:
        raise _fail(end[0], f"the moves end with {end[1]!r} but {_tag('Result', result)}")
    final = _result_of(board.winner)
    if final != "*" and result != final:
        raise _fail(result_line, f"{_tag('Result', result)} but the final position is won: {final}")
    has_swap = any(move.is_swap for move in board.move_stack)
    if has_swap and swapped == "false":
        raise _fail(swapped_line, '[Swapped "false"] but the moves include swap')
    if not has_swap and start is None and swapped == "true":
        raise _fail(swapped_line, '[Swapped "true"] but no move is a swap')
    ordered = {name: value for name, (_, value) in tags.items()}
    return GameRecord(ordered, board.move_stack)
