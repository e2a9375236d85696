"""Domain errors with a stable code and a sentence a player understands; `app.web.app` maps them to HTTP."""

from __future__ import annotations


class PlayError(Exception):
    """Base of every refusal; `code` is for programs, `message` for people."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


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

    def __init__(self, code: str, message: str, *, retry_after: int) -> None:
        super().__init__(code, message)
        self.retry_after = retry_after


class TooManyAttempts(TooMany):
    """Too many failed sign-ins for an account or from an address; `retry_after` seconds until the next try."""

    def __init__(self, retry_after: int) -> None:
        minutes = max(1, round(retry_after / 60))
        super().__init__(
            "too_many_attempts",
            f"Too many failed sign-ins; please wait {minutes} minute{'s' if minutes != 1 else ''} and try again.",
            retry_after=retry_after,
        )
