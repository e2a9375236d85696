"""A game's configuration: the number of players and the variant settings chosen by the admin.

The names match the API's `variants` object. Settings this core does not play yet are refused by name, so that
no table is ever opened with a rule that would be silently ignored. An expansion the core plays only in part is in
preview: refused to players, accepted where the caller asks for it (tests, and the replay of a log the core
wrote itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.catalog import CHARACTERS_IN_PLAY, EXTRA_CARD, PERSONALITIES, card_pool
from app.rules.errors import ConfigError

SIDES = ("yellow", "red", "random", "vote")
KNOWN_EXPANSIONS = ("gold_and_guns", "outlaws", "big_box")
# The expansions players may open, alone, together and with every base variant. An expansion the core plays only
# in part would be in preview (refused to players, accepted where the caller asks for it); none is now.
PLAYABLE_EXPANSIONS = ("gold_and_guns", "outlaws", "big_box")
PREVIEW_EXPANSIONS: tuple[str, ...] = ()
EXPANSION_NAMES = {"gold_and_guns": "Gold & Guns", "outlaws": "The Outlaws", "big_box": "Big Box"}
MIN_PLAYERS = 2
MAX_PLAYERS = 6  # Big Box's board takes a sixth player (RULING X1)
BASE_MAX_PLAYERS = 5
_KNOWN_KEYS = (
    "sides", "might_is_right", "river", "new_beginning", "expansions", "characters", "horses", "kit_carson",
)
# Options of an expansion, refused without it (API.md: "`horses` and `kit_carson` need `big_box`").
_EXPANSION_OPTIONS = {"horses": "big_box", "kit_carson": "big_box"}


@dataclass(frozen=True, slots=True)
class GameConfig:
    players: int
    sides: str = "yellow"
    might_is_right: bool = False
    river: bool = False
    new_beginning: bool = False
    expansions: tuple[str, ...] = ()
    # Gold & Guns: the numbers of the 7 cards the admin chose (RULING G1); None: drawn at random at setup.
    characters: tuple[int, ...] | None = None
    horses: bool = False  # Big Box: horses bought at Wages, 1 VP each at the end (RULING X6)
    kit_carson: bool = False  # Big Box: 1 VP per player behind one on the turn-order track at the end (RULING X4)

    @classmethod
    def from_variants(
        cls, players: int, variants: dict[str, Any] | None = None, *, preview: bool = False,
    ) -> GameConfig:
        """Validate the admin's settings; raise ConfigError naming the first setting that cannot be played.
        With `preview`, the expansions in PREVIEW_EXPANSIONS are accepted too (never for a player's request); with"""
        variants = dict(variants or {})
        for key in variants:
            if key not in _KNOWN_KEYS:
                raise ConfigError(key, "'{key}' is not a variant setting.", key=key)
        sides = variants.get("sides", "yellow")
        if sides not in SIDES:
            raise ConfigError("sides", "'sides' must be one of {choices}.", choices=", ".join(SIDES))
        for flag in ("might_is_right", "river", "new_beginning", *_EXPANSION_OPTIONS):
            if not isinstance(variants.get(flag, False), bool):
                raise ConfigError(flag, "'{flag}' must be true or false.", flag=flag)
        expansions = variants.get("expansions", [])
        if not isinstance(expansions, list) or any(e not in KNOWN_EXPANSIONS for e in expansions):
            raise ConfigError("expansions", "'expansions' must be a list drawn from {choices}.",
                              choices=", ".join(KNOWN_EXPANSIONS))
        if len(set(expansions)) < len(expansions):
            raise ConfigError("expansions", "'expansions' names an expansion twice.")
        for expansion in expansions:
            if expansion not in PLAYABLE_EXPANSIONS and not (preview and expansion in PREVIEW_EXPANSIONS):
                raise ConfigError("expansions", "{expansion} is not playable yet.",
                                  phrases={"expansion": EXPANSION_NAMES[expansion]})
        most = MAX_PLAYERS if "big_box" in expansions else BASE_MAX_PLAYERS
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= most:
            if most < MAX_PLAYERS and players == MAX_PLAYERS:
                raise ConfigError("seats", "A game has {least} to {most} players. Six players need the Big Box "
                                  "expansion.", least=MIN_PLAYERS, most=most)
            raise ConfigError("seats", "A game has {least} to {most} players.", least=MIN_PLAYERS, most=most)
        for option, expansion in _EXPANSION_OPTIONS.items():
            if variants.get(option, False) and expansion not in expansions:
                raise ConfigError(option, "'{option}' needs the {expansion} expansion.", option=option,
                                  phrases={"expansion": EXPANSION_NAMES[expansion]})
        pool = card_pool(tuple(expansions), variants.get("horses", False))
        characters = _characters(variants.get("characters"), tuple(expansions), pool)
        return cls(
            players=players,
            sides=sides,
            might_is_right=variants.get("might_is_right", False),
            river=variants.get("river", False),
            new_beginning=variants.get("new_beginning", False),
            expansions=tuple(expansions),
            characters=characters,
            horses=variants.get("horses", False),
            kit_carson=variants.get("kit_carson", False),
        )

    @property
    def gold_and_guns(self) -> bool:
        return "gold_and_guns" in self.expansions

    @property
    def outlaws(self) -> bool:
        return "outlaws" in self.expansions

    @property
    def big_box(self) -> bool:
        return "big_box" in self.expansions

    @property
    def card_pool(self) -> tuple[str, ...]:
        """The cards this game may use, by number (RULINGS G1, X5; decision D90)."""
        return card_pool(self.expansions, self.horses)

    def to_json(self) -> dict[str, Any]:
        """The settings as the API writes them; `characters` only when the admin chose them."""
        settings: dict[str, Any] = {
            "sides": self.sides,
            "might_is_right": self.might_is_right,
            "river": self.river,
            "new_beginning": self.new_beginning,
            "expansions": list(self.expansions),
        }
        if self.characters is not None:
            settings["characters"] = list(self.characters)
        for option in _EXPANSION_OPTIONS:  # written only when chosen, so base games' logs keep their shape
            if getattr(self, option):
                settings[option] = True
        return settings

    @classmethod
    def from_json(cls, players: int, data: dict[str, Any]) -> GameConfig:
        """The configuration stored in a game's log: written by the core itself, so a preview is accepted."""
        return cls.from_variants(players, data, preview=True)


def _characters(value: object, expansions: tuple[str, ...], pool: tuple[str, ...]) -> tuple[int, ...] | None:
    """The admin's choice of cards (RULING G1, decision D90): 7 distinct card numbers of the game's pool, 8 when
    one of them is the Newspaper Boy (0); refused without Gold & Guns or Big Box, which bring cards to choose."""
    if value is None:
        return None
    if not {"gold_and_guns", "big_box"} & set(expansions):
        raise ConfigError("characters", "Choosing the characters needs the Gold & Guns or the Big Box expansion.")
    numbers = {PERSONALITIES[card].number for card in pool}
    extra = PERSONALITIES[EXTRA_CARD].number
    if (
        not isinstance(value, list)
        or any(type(n) is not int or n not in numbers for n in value)
        or len(set(value)) != len(value)
        or len(value) != CHARACTERS_IN_PLAY + (extra in value)
    ):
        listed = ", ".join(str(n) for n in sorted(numbers))
        if extra in numbers:
            raise ConfigError(
                "characters", "'characters' must list {count} different card numbers among {listed} (and the "
                "Newspaper Boy, {extra}, as an eighth).", count=CHARACTERS_IN_PLAY, listed=listed, extra=extra,
            )
        raise ConfigError("characters", "'characters' must list {count} different card numbers among {listed}.",
                          count=CHARACTERS_IN_PLAY, listed=listed)
    return tuple(sorted(value))
