"""Position strings and moves through the Python API, on both engines, with atheris.

The input is a position string, optionally followed by a newline and a move
(``<fen>\\n<move>``). Under each rule option, ``Board(fen)`` of the native
core and of the reference must agree: both build a board with the same
position string, or both raise the same ``VeletasError`` with the same
message. The move then goes through ``Move.parse`` and ``Board.push_str`` on
both: same move or same error, and a refused move leaves each board as it
was. Nothing else may be raised. This reaches the bindings' conversion of
Python text (lone surrogates included) and their error messages, which the
Rust targets do not.

Run from the repository root (``make fuzz`` does)::

    python fuzz/python/board.py fuzz/corpus/board -max_total_time=60
"""

from __future__ import annotations

import sys

import atheris

with atheris.instrument_imports():
    from veletas import _veletas, reference
    from veletas.errors import VeletasError

OPTIONS = [
    {"setup_rule": setup_rule, "shooters_block": shooters_block}
    for setup_rule in ("perimeter", "spacing")
    for shooters_block in (False, True)
]
ENGINES = (_veletas, reference)


def outcome(call: object, *args: object, **kwargs: object) -> tuple[str, object]:
    """``("ok", result)`` or ``(error class, message)`` of ``call(*args, **kwargs)``."""
    try:
        return "ok", call(*args, **kwargs)  # type: ignore[operator]
    except VeletasError as error:
        return type(error).__name__, str(error)


def check(data: bytes) -> None:
    text = data.decode("utf-8", errors="surrogateescape")
    fen, newline, move_text = text.rpartition("\n")
    if not newline:
        fen, move_text = text, ""
    parsed = [outcome(engine.Move.parse, move_text) for engine in ENGINES]
    shown = [(kind, str(value)) for kind, value in parsed]
    assert shown[0] == shown[1], (move_text, shown)
    for options in OPTIONS:
        built = [outcome(engine.Board, fen, **options) for engine in ENGINES]
        if built[0][0] != "ok" or built[1][0] != "ok":
            assert built[0] == built[1], (fen, options, built)
            continue
        boards = [board for _, board in built]
        before = boards[0].fen()
        assert boards[1].fen() == before, (fen, options)
        pushed = [outcome(board.push_str, move_text) for board in boards]
        shown = [(kind, str(value)) for kind, value in pushed]
        assert shown[0] == shown[1], (fen, options, move_text, shown)
        after = [board.fen() for board in boards]
        assert after[0] == after[1], (fen, options, move_text)
        if pushed[0][0] != "ok":
            assert after[0] == before, (fen, options, move_text)


def main() -> None:
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
