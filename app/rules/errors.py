"""The rules core's two error types: each carries a stable code for programs and a sentence for people."""

from __future__ import annotations


class IllegalMove(Exception):
    """A move that the rules do not allow now. Deciding it changed nothing."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message


class ConfigError(ValueError):
    """A game configuration the rules core cannot play; `setting` names the offending variant setting."""

    def __init__(self, setting: str, message: str) -> None:
        super().__init__(f"{setting}: {message}")
        self.setting = setting
        self.message = message
