"""What a table's name may hold: no web or mail address, nor anything a mail client would turn into a link.

Why: the name is chosen by whoever opens the table and shows in the mails of everyone at it (and, listed as
text, in an invitation's body), so a name like "Cheap pills at evil.example" made the site's mail carry the
opener's advertising, with the site's good name as its sender. A name keeps every other letter, digit and sign;
what is refused is what reads as an address: a scheme (`https://`), `www.`, an `@`, or a dotted name ending in
letters (`evil.example`, `x.co`), which mail clients link by themselves. "Game 1.5" or "Mr. Smith's" stay fine.
"""

from __future__ import annotations

import re

from app.play.errors import Invalid

ADDRESS_LIKE = re.compile(
    r"[a-z][a-z0-9+.-]*:/{2}|\bwww\.|@|[a-z0-9-]\.[a-z][a-z0-9-]*[a-z]\b",
    re.IGNORECASE,
)


def check_name(name: str) -> None:
    """Invalid `link_in_name` when `name` holds something that reads as a web or mail address."""
    if ADDRESS_LIKE.search(name):
        raise Invalid("link_in_name", "A table's name cannot hold a web or mail address; please choose another.")
