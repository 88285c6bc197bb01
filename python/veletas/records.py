"""Game records: a plain-text format in the spirit of PGN (``docs/records.md``).

A record is a block of tag pairs, then the numbered moves in the notation of
the rules, ending with the result; a file holds any number of records.

>>> import veletas
>>> board = veletas.Board(variant="small")
>>> for text in ["*c3", "g7", "swap", "*e5", "*d4", "a1"]:
...     _ = board.push_str(text)
>>> record = GameRecord.from_board(board, black="Ada", white="Bo", date="2024.05.01")
>>> print(record)
[Game "Veletas"]
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

Every record starts with its ``[Game]`` tag. A Meridians record, ``[Game
"Meridians"]``, has the rule tags ``[Size]`` and ``[Pie]``, and names its
players ``[Light]`` and ``[Dark]`` (``1-0`` when Light won). A record
without a ``[Game]`` tag, as written before the tag was on every record, is
Veletas.

>>> from veletas import meridians
>>> board = meridians.Board(size="5-6")
>>> for text in ["e5", "f6", "e8"]:
...     _ = board.push_str(text)
>>> print(GameRecord.from_board(board, light="Ada", dark="Bo", date="2024.05.01"))
[Game "Meridians"]
[Size "5-6"]
[Pie "false"]
[Light "Ada"]
[Dark "Bo"]
[Swapped "false"]
[Result "*"]
[Date "2024.05.01"]
<BLANKLINE>
1. e5 2. f6 3. e8 *
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import io
import os
import re
from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from veletas import games as registry
from veletas._checks import shown
from veletas.errors import IllegalMoveError, InvalidMoveError, InvalidRecordError, VeletasError

__all__ = [
    "RESULTS",
    "GameRecord",
    "iter_blocks",
    "iter_read",
    "iter_read_boards",
    "read",
    "read_game",
    "result_of",
    "tag_line",
    "write",
]

RESULTS = ("1-0", "0-1", "*")
"""The results: Black won, White won, unfinished."""

_DEFAULT_TITLE = registry.get(registry.DEFAULT).title


def _players(
    colours: tuple[str, str], black: str, white: str, extra: dict[str, str]
) -> tuple[str, str]:
    """The players of the first and second colour: named by the game's
    colours (``light=``, taken out of ``extra``) or by ``black`` and ``white``.

    :raises InvalidRecordError: for a colour named both ways.
    """
    names = [black, white]
    for index, colour in enumerate(name.lower() for name in colours):
        if colour in extra and colour not in ("black", "white"):
            if names[index] != "?":
                generic = ("black", "white")[index]
                raise InvalidRecordError(
                    f"the {colour} player is named twice: {colour}= and {generic}="
                )
            names[index] = str(extra.pop(colour))
    return names[0], names[1]


"""The ``[Game]`` of a record without that tag."""

_TAG = re.compile(r'^\[([A-Za-z][A-Za-z0-9_]*)\s+"((?:[^"\\]|\\.)*)"\]$')
MAX_LINE_CHARS = 65_536
"""The longest line a record may have, in characters (a written record wraps
its moves at 79): a longer one is refused before it is held in memory."""
_NUMBER_DIGITS = 20
"""More digits than a move number can have (and than ``int()`` may read)."""
_LINE_WIDTH = 79


def result_of(winner: int | None) -> str:
    """The result tag of a game whose winner is colour 0, colour 1 or None.

    >>> result_of(0), result_of(1), result_of(None)
    ('1-0', '0-1', '*')
    """
    return {0: "1-0", 1: "0-1", None: "*"}[None if winner is None else int(winner)]


def _game_of_rules(rules: Any) -> str:
    """The ``[Game]`` value of a game's ``Rules``."""
    for game in registry.every():
        if isinstance(rules, game.records.Rules):
            return game.title
    return _DEFAULT_TITLE


def _tag(name: str, value: object) -> str:
    """A tag pair as written, for messages."""
    return f'[{name} "{value}"]'


_SPECIAL = re.compile('[\\\\"\x00-\x1f\x7f-\x9f\u2028\u2029\ud800-\udfff]')
"""What a tag value cannot hold as it is: the backslash, the quote, control
characters (line breaks among them) and the other line separators, and lone
surrogates, which UTF-8 cannot encode."""
_ESCAPES = {"\\": "\\\\", '"': '\\"', "\n": "\\n", "\r": "\\r", "\t": "\\t"}
_ESCAPED = re.compile(r"\\(u[0-9a-fA-F]{4}|.)", re.DOTALL)
_UNESCAPES = {"n": "\n", "r": "\r", "t": "\t"}


def _escape(match: re.Match[str]) -> str:
    char = match[0]
    return _ESCAPES.get(char) or f"\\u{ord(char):04x}"


def _unescape(match: re.Match[str]) -> str:
    code = match[1]
    if len(code) == 5:
        return chr(int(code[1:], 16))
    return _UNESCAPES.get(code, code)


def _quote(value: str) -> str:
    r"""``value`` as a tag writes it: ``\\`` and ``\"`` for the backslash and
    the quote, ``\n``, ``\r`` and ``\t``, and ``\uXXXX`` for the other
    characters of :data:`_SPECIAL`, so that every string fits on its line.

    >>> print(_quote('say "hi";\nbye \\o/'))
    say \"hi\";\nbye \\o/
    >>> _unquote(_quote("a\u2028b\x00")) == "a\u2028b\x00"
    True
    """
    return _SPECIAL.sub(_escape, value) if _SPECIAL.search(value) else value


def _unquote(value: str) -> str:
    """The string a quoted tag value stands for (the inverse of :func:`_quote`;
    a backslash before any other character stands for that character)."""
    return _ESCAPED.sub(_unescape, value) if "\\" in value else value


def tag_line(name: str, value: str) -> str:
    """The line of a tag pair, its value escaped.

    >>> print(tag_line("Event", 'the "open"; round 1'))
    [Event "the \\"open\\"; round 1"]
    """
    return f'[{name} "{_quote(value)}"]'


@dataclasses.dataclass
class GameRecord:
    """One game: its tags (an ordered ``dict`` of str) and its moves.

    Build one with :meth:`from_board` or :meth:`from_moves`; :func:`read`
    gives checked ones. ``str(record)`` is its text.
    """

    tags: dict[str, str]
    """The tag pairs, in the order they are written."""
    moves: list[Any]
    """The moves (``Move`` values of the game) from the start position."""

    @property
    def game(self) -> str:
        """The game: the ``[Game]`` tag, ``"Veletas"`` when there is none."""
        return self.tags.get("Game", _DEFAULT_TITLE)

    @classmethod
    def from_moves(
        cls,
        rules: Any,
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
        under ``rules`` (a game's ``Rules``: Veletas or Meridians). The
        result is the winner of the final position unless given (say
        ``"1-0"`` after White resigned); ``extra`` adds tags such as
        ``Termination="resignation"``.

        :raises IllegalMoveError: if a move is not legal.
        :raises InvalidRecordError: for a result that is not one of
            :data:`RESULTS` or that contradicts a finished game.
        """
        board = registry.by_title(_game_of_rules(rules)).records.new_board(rules, start)
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
        (give it for a game from a position after the pie). The players are
        named by the colours of the board's game (``black=``, ``white=`` in
        Veletas; ``light=``, ``dark=`` in Meridians), or in any game by
        ``black`` and ``white`` for the first and second colour. The other
        keywords are tags, whose names start with a capital (``Event=``).

        >>> from veletas import meridians
        >>> record = GameRecord.from_board(meridians.Board(size="5-6"), light="Ada", dark="Bo")
        >>> record.tags["Light"], record.tags["Dark"]
        ('Ada', 'Bo')

        :raises InvalidRecordError: for a result that is not one of
            :data:`RESULTS` or that contradicts a finished game, a colour
            named twice, or a keyword that is neither a colour of the game
            nor a tag.
        """
        played = registry.game_of(board)
        room = played.records
        rules = room.board_rules(board)
        game = played.title
        moves = board.move_stack
        final = result_of(board.winner)
        if result is None:
            result = final
        if result not in RESULTS:
            raise InvalidRecordError(f"result {result!r} is not one of {', '.join(RESULTS)}")
        if final != "*" and result != final:
            raise InvalidRecordError(f"result {result!r} contradicts the final position ({final})")
        if swapped is None:
            swapped = any(move.is_swap for move in moves)
        first, second = room.PLAYERS
        black, white = _players(room.PLAYERS, black, white, extra)
        tags = {
            "Game": game,
            **room.rule_tags(rules),
            first: black,
            second: white,
            "Swapped": "true" if swapped else "false",
            "Result": result,
            "Date": date if date is not None else datetime.date.today().strftime("%Y.%m.%d"),
        }
        if start is not None:
            tags["FEN"] = start
        colours = ", ".join(f"{name.lower()}=" for name in room.PLAYERS)
        for name, value in extra.items():
            if not re.fullmatch(r"[A-Z][A-Za-z0-9_]*", name) or name in tags:
                raise InvalidRecordError(
                    f"{name!r} is not a colour of {game} ({colours}) nor a tag that may be "
                    "added here (a tag's name starts with a capital)"
                )
            tags[name] = str(value)
        return cls(tags, list(moves))

    @property
    def rules(self) -> Any:
        """The rules of the game (the game's ``Rules``), from the tags (for
        Veletas, the variant's size and shooter count where those tags are
        left out)."""
        return registry.by_title(self.game).records.rules_of(self.tags)

    @property
    def result(self) -> str:
        """``1-0`` (the first colour won: Black, or Light), ``0-1`` or ``*``."""
        return self.tags["Result"]

    @property
    def winner(self) -> Any:
        """The colour that won, by the result tag (a resignation counts)."""
        index = {"1-0": 0, "0-1": 1}.get(self.result)
        return None if index is None else registry.by_title(self.game).records.color(index)

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
            raise IndexError(f"ply {shown(ply)} is outside 0..{len(self.moves)}")
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
        return registry.by_title(self.game).records.new_board(self.rules, self.start)

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
        tag_lines = [tag_line(name, value) for name, value in self.tags.items()]
        return "\n".join(tag_lines) + "\n\n" + self.movetext()


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
    is replayed) and its result. :func:`iter_read` gives them one at a time.

    :raises InvalidRecordError: naming the line, and the move where a move
        is at fault.
    """
    return list(iter_read(path_or_text))


def iter_read(path_or_text: Any) -> Iterator[GameRecord]:
    """The records of :func:`read`, one at a time as the file is read: a
    file of any size in the memory of one record.

    >>> import veletas
    >>> text = write([GameRecord.from_moves(veletas.Rules.make("small"), ["*c3", "g7"])] * 3)
    >>> [len(record.moves) for record in iter_read(text)]
    [2, 2, 2]

    :raises InvalidRecordError: naming the line, and the move where a move
        is at fault (when the iterator reaches that record).
    """
    for record, _ in iter_read_boards(path_or_text):
        yield record


def iter_read_boards(path_or_text: Any) -> Iterator[tuple[GameRecord, Any]]:
    """The records of :func:`iter_read`, each with its final board (which
    reading a record replays anyway)."""
    with _lines_of(path_or_text) as lines:
        for block in _blocks(lines):
            yield _read_moves(_read_tags(block.tags), block)


def read_game(path_or_text: Any, index: int) -> GameRecord:
    """Record ``index`` (from 0) of a file or text, reading only up to it and
    checking only that one: the records before it are skipped unread.

    :raises IndexError: if the file holds ``index`` records or fewer, saying
        how many.
    :raises InvalidRecordError: if that record cannot be read.
    """
    if index < 0:
        raise IndexError(f"record {shown(index)} is not in the file: records count from 0")
    count = 0
    with _lines_of(path_or_text) as lines:
        for block in _blocks(lines):
            if count == index:
                return _read_moves(_read_tags(block.tags), block)[0]
            count += 1
    raise IndexError(f"record {shown(index)} is not in the file: it holds {count} record(s)")


def iter_blocks(path_or_text: Any) -> Iterator[str]:
    """The text of each record of a file or text, one at a time, unchecked
    (to count records, or to hand them out to be read elsewhere)."""
    with _lines_of(path_or_text) as lines:
        for block in _blocks(lines, raw=True):
            yield "\n".join(line for _, line in block.tags + block.moves)


@contextlib.contextmanager
def _lines_of(path_or_text: Any) -> Iterator[Iterable[str]]:
    """The lines of a path, an open text file or a text, read lazily (a
    UTF-8 byte-order mark before the first is dropped).

    :raises InvalidRecordError: for a line over :data:`MAX_LINE_CHARS`, or a
        file that is not UTF-8 text.
    """
    if isinstance(path_or_text, os.PathLike) or (
        isinstance(path_or_text, str)
        and "\n" not in path_or_text
        and not path_or_text.lstrip("\ufeff").lstrip().startswith("[")
    ):
        with open(path_or_text, encoding="utf-8-sig") as file:
            yield _bounded_lines(file)
    elif isinstance(path_or_text, str):
        yield _bounded_lines(io.StringIO(path_or_text))
    elif isinstance(path_or_text, io.TextIOBase) or hasattr(path_or_text, "read"):
        yield _bounded_lines(path_or_text)
    else:
        raise TypeError(f"expected a path, a text or a file, not {type(path_or_text).__name__}")


def _bounded_lines(file: Any) -> Iterator[str]:
    """The lines of a text file, none held past :data:`MAX_LINE_CHARS`."""
    readline = getattr(file, "readline", None)
    if readline is None:  # an iterable of lines: held as it gives them
        readline = iter(file).__next__
    number = 0
    while True:
        number += 1
        try:
            line = readline(MAX_LINE_CHARS + 1) if hasattr(file, "readline") else readline()
        except StopIteration:
            return
        except UnicodeDecodeError as error:
            raise InvalidRecordError(
                f"line {number} or a later one: byte {error.object[error.start]:#04x} is "
                "not UTF-8 text (a record file is UTF-8 text, not a binary file)",
                line=number,
            ) from None
        if not line:
            return
        if len(line) > MAX_LINE_CHARS and not line.endswith("\n"):
            raise InvalidRecordError(
                f"line {number}: longer than {MAX_LINE_CHARS:,} characters, the most a "
                "line of a record may have",
                line=number,
            )
        if number == 1:
            line = line.removeprefix("\ufeff")
        yield line


@dataclasses.dataclass
class _Block:
    """The lines of one record, with their line numbers."""

    tags: list[tuple[int, str]] = dataclasses.field(default_factory=list)
    moves: list[tuple[int, str]] = dataclasses.field(default_factory=list)


def _blocks(lines: Iterable[str], *, raw: bool = False) -> Iterator[_Block]:
    """The records' lines, each record's tags and moves with their line
    numbers (stripped of comments, or ``raw`` as they are)."""
    block = _Block()
    for number, text in enumerate(lines, start=1):
        line = _strip_comment(text)
        if not line:
            continue
        kept = text.rstrip("\n") if raw else line
        if line.startswith("["):
            if block.moves:
                yield block
                block = _Block()
            block.tags.append((number, kept))
        else:
            if not block.tags:
                raise InvalidRecordError(
                    f"line {number}: moves before any tag: {text.strip()!r}", line=number
                )
            block.moves.append((number, kept))
    if block.tags:
        yield block


_TAG_HEAD = re.compile(r'\s*\[[^"]*"(?:[^"\\]|\\.)*"')
"""A tag line up to the quote that ends its value: a ``;`` within the value
starts no comment."""


def _strip_comment(text: str) -> str:
    """``text`` without its ``;`` comment and the spaces around it.

    >>> _strip_comment('[Event "a; b"] ; the final')
    '[Event "a; b"]'
    """
    if ";" not in text:
        return text.strip()
    head = _TAG_HEAD.match(text)
    cut = text.find(";", head.end() if head else 0)
    return (text if cut < 0 else text[:cut]).strip()


def _without_braces(line: str) -> str:
    """``line`` with each ``{...}`` comment replaced by a space, in one pass
    (linear in the line: an unclosed ``{`` and what follows it stay).

    >>> _without_braces("1. *c3 {a fine move} 2. g7 {{{")
    '1. *c3   2. g7 {{{'
    """
    kept: list[str] = []
    start = 0
    while True:
        opening = line.find("{", start)
        closing = line.find("}", opening + 1) if opening >= 0 else -1
        if closing < 0:
            kept.append(line[start:])
            return "".join(kept)
        kept.append(line[start:opening])
        kept.append(" ")
        start = closing + 1


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
    game_line, game = tags.get("Game", (first, _DEFAULT_TITLE))
    try:
        room = registry.by_title(game).records
    except ValueError:
        titles = " or ".join(known.title for known in registry.every())
        raise _fail(game_line, f"bad tag {_tag('Game', game)}: expected {titles}") from None
    for name in [*room.required_tags(tags), "Result"]:
        if name not in tags:
            raise _fail(first, f"the record has no [{name}] tag")
    return tags


def _read_moves(tags: dict[str, tuple[int, str]], block: _Block) -> tuple[GameRecord, Any]:
    room = registry.by_title(tags.get("Game", (0, _DEFAULT_TITLE))[1]).records
    rules = room.tag_rules(tags, _fail)
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
        board = room.new_board(rules, None if start is None else start[1])
    except VeletasError as error:
        raise _fail(start[0] if start else result_line, f"bad tag [FEN]: {error}") from None

    expected = 1
    end: tuple[int, str] | None = None
    for number, line in block.moves:
        if "{" in line:
            line = _without_braces(line)
        for token in line.split():
            if end is not None:
                raise _fail(number, f"text {token!r} after the result {end[1]!r}")
            if token in RESULTS:
                end = (number, token)
                continue
            # A move number ("12."), told apart without a regex: this loop
            # is most of the time of reading a file. int() refuses thousands
            # of digits; no move number has 20.
            if token[-1] == "." and token[:-1].isdecimal() and token.isascii():
                if len(token) - 1 > _NUMBER_DIGITS or int(token[:-1]) != expected:
                    raise _fail(number, f"move number {token!r}, expected {expected}.")
                continue
            try:
                board.push_str(token)
            except InvalidMoveError:
                raise _fail(
                    number, f"move {expected} {token!r} is not a move in the notation", token
                ) from None
            except IllegalMoveError:
                raise _fail(
                    number, f"move {expected} {token!r} is illegal in {board.fen()!r}", token
                ) from None
            expected += 1
    last_line = block.moves[-1][0] if block.moves else result_line
    if end is None:
        raise _fail(last_line, "the moves do not end with a result (1-0, 0-1 or *)")
    if end[1] != result:
        raise _fail(end[0], f"the moves end with {end[1]!r} but {_tag('Result', result)}")
    final = result_of(board.winner)
    if final != "*" and result != final:
        raise _fail(result_line, f"{_tag('Result', result)} but the final position is won: {final}")
    has_swap = any(move.is_swap for move in board.move_stack)
    if has_swap and swapped == "false":
        raise _fail(swapped_line, '[Swapped "false"] but the moves include swap')
    if not has_swap and start is None and swapped == "true":
        raise _fail(swapped_line, '[Swapped "true"] but no move is a swap')
    ordered = {name: value for name, (_, value) in tags.items()}
    return GameRecord(ordered, board.move_stack), board
