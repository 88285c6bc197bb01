"""Game records: ``veletas.records.read`` over any text, with atheris.

Whatever the bytes of a file (UTF-8 or not, lines of any length), ``read``
returns records or raises ``InvalidRecordError`` (never another exception,
never a hang, in time linear in the text), and what it returns is written by
``write`` into a text that reads back to the same records. The records'
boards come from the native core unless ``VELETAS_IMPLEMENTATION=python``,
so its position-string and move parsers run too.

Run from the repository root (``make fuzz`` does)::

    python fuzz/python/records.py fuzz/corpus/records -max_total_time=60

Arguments after the script are libFuzzer's.
"""

from __future__ import annotations

import io
import sys

import atheris

with atheris.instrument_imports():
    from veletas import records
    from veletas.errors import InvalidRecordError


def check(data: bytes) -> None:
    text = io.TextIOWrapper(io.BytesIO(data), encoding="utf-8-sig", newline="\n")
    try:
        games = records.read(text)
    except InvalidRecordError as error:
        message = str(error)
        assert message.startswith("line "), message
        return
    again = records.read(io.StringIO(records.write(games)))
    assert [(g.tags, g.moves) for g in again] == [(g.tags, g.moves) for g in games], data


def main() -> None:
    atheris.Setup(sys.argv, check)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
