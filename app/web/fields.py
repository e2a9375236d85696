"""Input types shared by every request body, form and parameter, so that each rule about input lives once.

`Text` is any name or free text a client sends. It refuses control and format characters: PostgreSQL cannot
store NUL, a line break in a game's name breaks the Subject header of its mails, and invisible or
bidirectional marks let one name pose as another. (Lone surrogates pydantic refuses by itself.)

`Name` is a name in a path: one with control characters cannot exist, so it is refused before any query (the
answer is 404, as for any path that names nothing), and PostgreSQL never sees its NUL.

`Id` and `Offset` are integers that end up compared with PostgreSQL `integer` columns; bounded here, an id
or offset out of range is refused before it reaches the database, which would fail on it.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import Path, Query
from pydantic import AfterValidator, GetJsonSchemaHandler
from pydantic.json_schema import JsonSchemaValue
from pydantic_core import PydanticCustomError, core_schema

# Cc: C0/C1 controls (NUL, tab, CR, LF); Cf: format marks (zero-width, bidi overrides); Zl, Zp: the Unicode
# line and paragraph separators, which mail headers treat as line breaks too.
REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Zl", "Zp"})
CONTROL_CHARACTERS = "control_characters"  # the error type, and the code of the 422 answer
MAX_INTEGER = 2**31 - 1  # PostgreSQL's `integer`: every id, seat and sequence number


def refuse_control_characters(value: str) -> str:
    """`value` unchanged, unless it holds a character of REFUSED_CATEGORIES."""
    if any(unicodedata.category(char) in REFUSED_CATEGORIES for char in value):
        raise PydanticCustomError(
            CONTROL_CHARACTERS, "must not contain control characters such as line breaks, tabs or NUL"
        )
    return value


def refuse_control_characters_but_line_breaks(value: str) -> str:
    """`value` unchanged, unless it holds a character of REFUSED_CATEGORIES other than a line break or a tab
    (free text written over several lines: a player's notes)."""
    refuse_control_characters(value.replace("\r\n", "").replace("\n", "").replace("\t", ""))
    return value


def _refused_ranges(allowed: str = "") -> Iterator[tuple[int, int]]:
    """The runs of code points up to U+FFFF in REFUSED_CATEGORIES, but those of `allowed`."""
    start = None
    for point in range(0x10000 + 1):
        refused = (point <= 0xFFFF and unicodedata.category(chr(point)) in REFUSED_CATEGORIES
                   and chr(point) not in allowed)
        if refused and start is None:
            start = point
        elif not refused and start is not None:
            yield start, point - 1
            start = None


def _pattern(allowed: str = "", pairs: str = "") -> str:
    """A JSON Schema `pattern` (ECMA-262 and Python alike: `\\uXXXX` escapes) of strings without the refused
    characters up to U+FFFF but `allowed` (and the sequence `pairs`); the few format characters beyond U+FFFF
    (U+E0001...) only the description names."""
    runs = "".join(f"\\u{a:04x}" if a == b else f"\\u{a:04x}-\\u{b:04x}" for a, b in _refused_ranges(allowed))
    pair = "".join(f"\\u{ord(c):04x}" for c in pairs)
    return f"^(?:[^{runs}]|{pair})*$" if pairs else f"^[^{runs}]*$"


NO_CONTROL_CHARACTERS = _pattern()
NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS = _pattern("\n\t", pairs="\r\n")
NO_CONTROL_CHARACTERS_SAID = "No control or format characters (line breaks, tabs, NUL, invisible marks)."
NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS_SAID = "No control or format characters but line breaks and tabs."


@dataclass(frozen=True, slots=True)
class InSchema:
    """Say in a field's JSON schema what its validator enforces, so that clients and checkers read the rule
    there; a `pattern` the field has already (a stricter one: usernames) is kept."""

    extra: Mapping[str, Any]

    def __get_pydantic_json_schema__(
        self, schema: core_schema.CoreSchema, handler: GetJsonSchemaHandler
    ) -> JsonSchemaValue:
        json_schema = handler(schema)
        for key, value in self.extra.items():
            json_schema.setdefault(key, value)
        return json_schema


Text = Annotated[
    str,
    AfterValidator(refuse_control_characters),
    InSchema({"pattern": NO_CONTROL_CHARACTERS, "description": NO_CONTROL_CHARACTERS_SAID}),
]
LongText = Annotated[
    str,
    AfterValidator(refuse_control_characters_but_line_breaks),
    InSchema({"pattern": NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS,
              "description": NO_CONTROL_CHARACTERS_BUT_LINE_BREAKS_SAID}),
]
Name = Annotated[Text, Path(max_length=64)]
Id = Annotated[int, Path(ge=0, le=MAX_INTEGER)]
Offset = Annotated[int, Query(ge=0, le=MAX_INTEGER)]
