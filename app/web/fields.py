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
from typing import Annotated

from fastapi import Path, Query
from pydantic import AfterValidator
from pydantic_core import PydanticCustomError

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


Text = Annotated[str, AfterValidator(refuse_control_characters)]
LongText = Annotated[str, AfterValidator(refuse_control_characters_but_line_breaks)]
Name = Annotated[str, Path(max_length=64), AfterValidator(refuse_control_characters)]
Id = Annotated[int, Path(ge=0, le=MAX_INTEGER)]
Offset = Annotated[int, Query(ge=0, le=MAX_INTEGER)]
