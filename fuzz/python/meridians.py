"""Meridians through the Python API, on both engines, with atheris.

Two kinds of input, told apart by their first character:

- a game record (the text starts with ``[``): ``veletas.records.read``
  reads it once with the native core's ``meridians.Board`` and once with
  the reference's. Both accept it with the same tags, moves and final
  position, or both refuse it with the same ``InvalidRecordError``; an
  accepted record is written and reads back the same;
- otherwise ``<fen>\\n<move>\\n<move>...``: under each pie option,
  ``Board(fen)`` and ``Board(size=fen)`` of both engines build the same
  board or raise the same error (``InvalidFenError`` or
  ``InvalidRulesError``). Each move then goes through ``Move.parse`` and
  ``Board.push_str`` on both: the same move and position after it, or the
  same ``InvalidMoveError`` or ``IllegalMoveError``, and a refused move
  leaves each board as it was. Popping every move returns to the start, and
  the game's record (``GameRecord.from_board``) reads back to the same
  moves.

Nothing else may be raised. Run from the repository root (``make fuzz``
does)::

    python fuzz/python/meridians.py fuzz/corpus/meridians -max_total_time=60
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator

import atheris

with atheris.instrument_imports():
    from veletas import meridians, records
    from veletas.errors import (
        IllegalMoveError,
        InvalidFenError,
        InvalidMoveError,
        InvalidRecordError,
        InvalidRulesError,
        VeletasError,
    )
    from veletas.meridians import reference

from veletas import _veletas

NATIVE = (_veletas.MeridiansBoard, _veletas.MeridiansMove)
REFERENCE = (reference.Board, reference.Move)
ENGINES = (NATIVE, REFERENCE)
MOST_MOVES = 64
"""Moves tried per input: enough for any opening, and quick."""


def outcome(
    allowed: tuple[type[VeletasError], ...], call: object, *args: object, **kwargs: object
) -> tuple[str, object]:
    """``("ok", result)`` or ``(error class, message)`` of ``call``, whose
    refusals must be of the ``allowed`` classes."""
    try:
        return "ok", call(*args, **kwargs)  # type: ignore[operator]
    except VeletasError as error:
        assert isinstance(error, allowed), (type(error), error)  # noqa: PT017
        return type(error).__name__, str(error)


def shown(result: tuple[str, object]) -> tuple[str, str]:
    kind, value = result
    return kind, (value.fen() if hasattr(value, "fen") else str(value))


@contextlib.contextmanager
def engine(board_class: type) -> Iterator[None]:
    """``veletas.meridians.Board`` is ``board_class`` for the records read within."""
    saved = meridians.Board
    meridians.Board = board_class  # type: ignore[misc]
    try:
        yield
    finally:
        meridians.Board = saved  # type: ignore[misc]


def read_record(text: str, board_class: type) -> tuple[str, object]:
    with engine(board_class):
        result = outcome((InvalidRecordError,), records.read, text)
        if result[0] != "ok":
            return result
        games = result[1]
        assert isinstance(games, list)
        summary = [
            (
                game.tags,
                [str(m) for m in game.moves],
                game.board().fen() if game.game == "Meridians" else None,
            )
            for game in games
        ]
        again = records.read(records.write(games))
        assert [(g.tags, [str(m) for m in g.moves]) for g in again] == [
            (tags, moves) for tags, moves, _ in summary
        ], text
        return "ok", summary


def check_record(text: str) -> None:
    results = [read_record(text, board_class) for board_class, _ in ENGINES]
    assert results[0] == results[1], (text, results)


def check_board(text: str) -> None:
    fen, *move_texts = text.split("\n")
    move_texts = move_texts[:MOST_MOVES]
    for pie in (False, True):
        for args, kwargs in (((fen,), {"pie": pie}), ((None,), {"size": fen, "pie": pie})):
            built = [
                outcome((InvalidFenError, InvalidRulesError), board_class, *args, **kwargs)
                for board_class, _ in ENGINES
            ]
            assert shown(built[0]) == shown(built[1]), (args, kwargs, built)
            if built[0][0] == "ok":
                play([board for _, board in built], move_texts, fen if args[0] else None)


def play(boards: list[object], move_texts: list[str], start: str | None) -> None:
    first = [board.fen() for board in boards]  # type: ignore[attr-defined]
    for move_text in move_texts:
        parsed = [outcome((InvalidMoveError,), move.parse, move_text) for _, move in ENGINES]
        assert shown(parsed[0]) == shown(parsed[1]), (move_text, parsed)
        before = [board.fen() for board in boards]  # type: ignore[attr-defined]
        pushed = [
            outcome((InvalidMoveError, IllegalMoveError), board.push_str, move_text)  # type: ignore[attr-defined]
            for board in boards
        ]
        assert shown(pushed[0]) == shown(pushed[1]), (before, move_text, pushed)
        after = [board.fen() for board in boards]  # type: ignore[attr-defined]
        assert after[0] == after[1], (before, move_text, after)
        if pushed[0][0] != "ok":
            assert after == before, (before, move_text, after)
            continue
        native, ref = boards
        assert native.winner == ref.winner, (after, native.winner, ref.winner)  # type: ignore[attr-defined]
        assert native.last_removed == ref.last_removed, after  # type: ignore[attr-defined]
    native, ref = boards
    # The reference's move generation is slow: the final position only.
    assert [str(m) for m in native.legal_moves] == [str(m) for m in ref.legal_moves]  # type: ignore[attr-defined]
    record = records.GameRecord.from_board(native, start=start, date="2025.01.01")
    [again] = records.read(records.write(record))
    assert [str(m) for m in again.moves] == [str(m) for m in native.move_stack]  # type: ignore[attr-defined]
    assert again.board().fen() == native.fen()  # type: ignore[attr-defined]
    for board, fen in zip(boards, first, strict=True):
        while board.move_stack:  # type: ignore[attr-defined]
            board.pop()  # type: ignore[attr-defined]
        assert board.fen() == fen, (fen, board.fen())  # type: ignore[attr-defined]


def check(data: bytes) -> None:
    text = data.decode("utf-8", errors="surrogateescape")
    if text.startswith("["):
        check_record(text)
    else:
        check_board(text)


def main() -> None:
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
