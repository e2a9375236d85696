"""The rules core's two error types: each carries a stable code for programs and a sentence for people."""

from __future__ import annotations

from enum import StrEnum


class IllegalMoveCode(StrEnum):
    """Every code an IllegalMove carries. The values are part of the API (clients act on them): never rename one;
    a StrEnum member is its string, so the JSON and the comparisons with plain strings stay as they were."""

    GAME_FINISHED = "game_finished"
    NOT_YOUR_TURN = "not_your_turn"
    MALFORMED_MOVE = "malformed_move"
    NO_COWBOYS_LEFT = "no_cowboys_left"
    WRONG_DECISION = "wrong_decision"
    NO_SUCH_PARCEL = "no_such_parcel"
    RIVER_PARCEL = "river_parcel"
    PARCEL_TAKEN = "parcel_taken"
    PARCEL_NOT_OWNED = "parcel_not_owned"
    PARCEL_OCCUPIED = "parcel_occupied"
    CANNOT_BUILD_HERE = "cannot_build_here"
    TILE_NOT_IN_HAND = "tile_not_in_hand"
    CANNOT_BUY_ITEM = "cannot_buy_item"
    AMOUNT_NOT_ALLOWED = "amount_not_allowed"
    ROAD_NOT_ALLOWED = "road_not_allowed"
    ILLEGAL_MOVE = "illegal_move"


def N_(text: str) -> str:
    """Mark a refusal's text for the message catalogs (the extractor knows the name): the core never translates,
    the layers that show a refusal do."""
    return text


class IllegalMove(Exception):
    """A move that the rules do not allow now. Deciding it changed nothing.

    `message` is a template with `{name}` fields: `params` fill them as they are (numbers, coordinates), `phrases`
    with words of the game (what a decision asks) that a translation translates too. `message` is then the English
    sentence; `template`, `params` and `phrases` let the web layer say it in the player's language.
    """

    def __init__(
        self, code: IllegalMoveCode, message: str, *, phrases: dict[str, str] | None = None, **params: object
    ) -> None:
        self.code = code
        self.template = message
        self.params = params
        self.phrases = phrases or {}
        self.message = message.format(**params, **self.phrases) if params or phrases else message
        super().__init__(f"{code}: {self.message}")


class ConfigError(ValueError):
    """A game configuration the rules core cannot play; `setting` names the offending variant setting. Like
    IllegalMove, `message` is a template whose `params` and `phrases` (names of the game) fill its fields."""

    def __init__(
        self, setting: str, message: str, *, phrases: dict[str, str] | None = None, **params: object
    ) -> None:
        self.setting = setting
        self.template = message
        self.params = params
        self.phrases = phrases or {}
        self.message = message.format(**params, **self.phrases) if params or phrases else message
        super().__init__(f"{setting}: {self.message}")
