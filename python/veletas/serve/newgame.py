"""A new game as the page asks for it, read for a game's room: its options,
text (query parameters, or JSON values made text) read into values by the
fields of the game's New game form (:class:`veletas.serve.protocol.Field`),
and the record it starts from.

>>> fields = [
...     {"name": "size", "label": "Size", "type": "choice", "choices": ["5-6", "6-7"],
...      "default": "6-7"},
...     {"name": "pie", "label": "Pie rule", "type": "bool", "default": False},
... ]
>>> read_options("points", fields, {"pie": "true"})
{'pie': True}
>>> read_options("points", fields, {"size": "9-10"})
Traceback (most recent call last):
...
veletas.errors.InvalidRulesError: unknown size '9-10'; expected one of '5-6', '6-7'

A game whose rules gain an option adds one field to its list: the form
shows it, the page's address carries it, and this reads it.
"""

from __future__ import annotations

import io
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from veletas._checks import ascii_int
from veletas.errors import InvalidRecordError, InvalidRulesError

if TYPE_CHECKING:
    from veletas.serve.protocol import Field

__all__ = ["FALSE", "TRUE", "defaults", "first_record", "read_options"]

TRUE = ("1", "true", "on", "yes")
"""The texts of a true ``bool`` field (any case)."""
FALSE = ("0", "false", "off", "no")
"""The texts of a false one."""


def defaults(fields: Sequence[Field]) -> dict[str, Any]:
    """The value of every field when the page leaves it out."""
    return {field["name"]: field.get("default") for field in fields}


def read_options(game: str, fields: Sequence[Field], options: Mapping[str, str]) -> dict[str, Any]:
    """The values of the options given (an empty text counts as not given),
    each read by its field's type: ``int`` a whole number, ``bool`` one of
    :data:`TRUE` or :data:`FALSE`, ``choice`` one of its choices.

    :raises InvalidRulesError: for an option that is no field of ``game``
        (naming the known ones), or a value its field does not take.
    """
    by_name = {field["name"]: field for field in fields}
    values: dict[str, Any] = {}
    for name, raw in options.items():
        field = by_name.get(name)
        if field is None:
            raise InvalidRulesError(
                f"unknown option {name!r} for {game}; expected one of "
                + ", ".join(repr(known) for known in sorted(by_name))
            )
        text = str(raw).strip()
        if not text:
            continue
        values[name] = _value(field, text)
    return values


def _value(field: Field, text: str) -> Any:
    name = field["name"]
    kind = field.get("type")
    if kind == "int":
        try:
            return ascii_int(text)
        except ValueError:
            raise InvalidRulesError(f"{name} must be a whole number, not {text!r}") from None
    if kind == "bool":
        if text.lower() in TRUE:
            return True
        if text.lower() in FALSE:
            return False
        raise InvalidRulesError(f"{name} must be true or false, not {text!r}")
    choices = field.get("choices", [])
    if text not in choices:
        what = name.replace("_", " ")
        raise InvalidRulesError(
            f"unknown {what} {text!r}; expected one of " + ", ".join(repr(c) for c in choices)
        )
    return text


def first_record(text: str, game: str) -> Any:
    """The first game (a :class:`veletas.records.GameRecord`) of a record
    text, which must be a game of ``game`` (its ``[Game]`` tag's value).

    :raises InvalidRecordError: for a text that is no record, holds no game,
        or whose first game is of another game.
    """
    from veletas import records

    # A file object: records.read takes a one-line str for a path.
    games = records.read(io.StringIO(text))
    if not games:
        raise InvalidRecordError("the record holds no game")
    record = games[0]
    if record.game != game:
        raise InvalidRecordError(
            f"the record is a game of {record.game}, not of {game}: "
            f"choose {record.game} as the game"
        )
    return record
