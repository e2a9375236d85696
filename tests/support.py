"""Assertions shared by the platform tests."""

from __future__ import annotations

import re

import httpx


def assert_error(response: httpx.Response, status: int, code: str | None = None) -> dict[str, str]:
    """The response is an error of the documented shape `{"detail": {"code", "message"}}`."""
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert set(detail) == {"code", "message"}, detail
    assert isinstance(detail["message"], str) and detail["message"]
    if code is not None:
        assert detail["code"] == code, detail
    return detail  # type: ignore[no-any-return]


# Common English words that French and Spanish sentences never use: one of them in a translated page or mail is
# English left behind (issue 17: "no English left in the French and Spanish ones, except names").
ENGLISH_WORDS = frozenset({
    "the", "you", "your", "is", "are", "was", "have", "of", "and", "with", "for", "this", "that", "it", "its",
    "will", "from", "to", "at", "in", "by", "or", "not", "game", "games", "turn", "player", "players", "sign",
    "settings", "mail", "password", "lobby", "wins", "seat", "seats", "waiting",
})


def english_left(text: str, names: tuple[str, ...] = ()) -> list[str]:
    """The English words of `text` (HTML tags, addresses and the given names taken out first)."""
    text = re.sub(r"<(script|style)\b.*?</\1>|<[^>]*>|https?://\S+|/api/v1/\S*|&\w+;|&#\d+;", " ", text, flags=re.S)
    for name in ("Carson City Online", "Carson City", "English", *names):
        text = text.replace(name, " ")
    # Words of letters in any script: "désignée" is one French word, not "d" and an English "sign".
    return [word for word in re.findall(r"[^\W\d_]+", text) if word.lower() in ENGLISH_WORDS]
