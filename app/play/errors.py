"""Domain errors with a stable code and a sentence a player understands; `app.web.app` maps them to HTTP."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from app.rules.errors import N_
from app.store.availability import is_unavailable


class PlayError(Exception):
    """Base of every refusal; `code` is for programs, `message` for people.

    `message` may hold `{name}` fields filled from `params`: the template is what the catalogs translate (each
    class below is an extraction keyword), so the web layer can say the same in the caller's language.
    """

    def __init__(self, code: str, message: str, *, phrases: dict[str, str] | None = None, **params: object) -> None:
        self.code = code
        self.template = message
        self.params = params
        # Fields filled with words of the game (the rules core's refusals: what a decision asks), translated too.
        self.phrases = phrases or {}
        self.message = message.format(**params, **self.phrases) if params or phrases else message
        super().__init__(f"{code}: {self.message}")

    def translated(self, gettext: Callable[[str], str]) -> str:
        """The message in the language `gettext` speaks (English when its catalog lacks the template)."""
        text = gettext(self.template)
        if not self.params and not self.phrases:
            return text
        return text.format(**self.params, **{name: gettext(words) for name, words in self.phrases.items()})


class NotFound(PlayError):
    """The thing asked for does not exist (or the caller may not know it exists)."""


class NotAllowed(PlayError):
    """The caller is known but may not do this (no seat, not awaited, not an admin)."""


class Conflict(PlayError):
    """The request collides with the current state: taken names, stale sequence numbers, a started game."""


class Invalid(PlayError):
    """The request is understood but cannot be accepted: illegal moves, unknown variant settings."""


class NotSignedIn(PlayError):
    """No valid credentials were presented."""


class TooMany(PlayError):
    """The caller did this too often; it may try again after `retry_after` seconds."""

    def __init__(self, code: str, message: str, *, retry_after: int, **params: Any) -> None:
        super().__init__(code, message, **params)
        self.retry_after = retry_after


class TooManyAttempts(TooMany):
    """Too many failed sign-ins for an account or from an address; `retry_after` seconds until the next try."""

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, round(retry_after / 60))
        super().__init__(
            "too_many_attempts",
            N_("Too many failed sign-ins; please try again in {minutes} min."),
            retry_after=retry_after,
            minutes=minutes,
        )


def database_unavailable(exc: BaseException) -> bool:
    """Whether `exc` says the database cannot be reached now (an outage to wait out, which the web layer answers
    503), not that a statement was wrong: the store's own test, for the layer above that never reads the store."""
    return is_unavailable(exc)
