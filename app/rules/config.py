"""A game's configuration: the number of players and the variant settings chosen by the admin.

The names match the API's `variants` object. Settings this core does not play yet are refused by name, so that
no table is ever opened with a rule that would be silently ignored. An expansion the core plays only in part is in
preview: refused to players, accepted where the caller asks for it (tests, and the replay of a log the core
wrote itself).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from app.rules.errors import ConfigError

SIDES = ("yellow", "red", "random", "vote")
KNOWN_EXPANSIONS = ("gold_and_guns", "outlaws", "big_box")
# Gold & Guns' buildings and townhouses are played; its characters, dynamite, chips and auctions are not yet, so
# no player may open a table with it. The Outlaws are played whole but not yet shown by the pages.
PREVIEW_EXPANSIONS = ("gold_and_guns", "outlaws")
MIN_PLAYERS = 2
MAX_PLAYERS = 5
_KNOWN_KEYS = ("sides", "might_is_right", "river", "new_beginning", "expansions", "characters")


@dataclass(frozen=True, slots=True)
class GameConfig:
    players: int
    sides: str = "yellow"
    might_is_right: bool = False
    river: bool = False
    new_beginning: bool = False
    expansions: tuple[str, ...] = ()

    @classmethod
    def from_variants(
        cls, players: int, variants: dict[str, Any] | None = None, *, preview: bool = False
    ) -> GameConfig:
        """Validate the admin's settings; raise ConfigError naming the first setting that cannot be played.
        With `preview`, the expansions in PREVIEW_EXPANSIONS are accepted (never for a player's request)."""
        variants = dict(variants or {})
        for key in variants:
            if key not in _KNOWN_KEYS:
                raise ConfigError(key, f"'{key}' is not a variant setting.")
        if not isinstance(players, int) or not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise ConfigError("seats", f"A game has {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        sides = variants.get("sides", "yellow")
        if sides not in SIDES:
            raise ConfigError("sides", f"'sides' must be one of {', '.join(SIDES)}.")
        for flag in ("might_is_right", "river", "new_beginning"):
            if not isinstance(variants.get(flag, False), bool):
                raise ConfigError(flag, f"'{flag}' must be true or false.")
        expansions = variants.get("expansions", [])
        if not isinstance(expansions, list) or any(e not in KNOWN_EXPANSIONS for e in expansions):
            raise ConfigError("expansions", f"'expansions' must be a list drawn from {', '.join(KNOWN_EXPANSIONS)}.")
        if any(e not in PREVIEW_EXPANSIONS for e in expansions) or (expansions and not preview):
            raise ConfigError("expansions", "The expansions are not playable yet.")
        if variants.get("characters") is not None:
            raise ConfigError("characters", "Choosing the characters needs an expansion, which is not playable yet.")
        return cls(
            players=players,
            sides=sides,
            might_is_right=variants.get("might_is_right", False),
            river=variants.get("river", False),
            new_beginning=variants.get("new_beginning", False),
            expansions=tuple(expansions),
        )

    @property
    def gold_and_guns(self) -> bool:
        return "gold_and_guns" in self.expansions

    @property
    def outlaws(self) -> bool:
        return "outlaws" in self.expansions

    def to_json(self) -> dict[str, Any]:
        return {
            "sides": self.sides,
            "might_is_right": self.might_is_right,
            "river": self.river,
            "new_beginning": self.new_beginning,
            "expansions": list(self.expansions),
        }

    @classmethod
    def from_json(cls, players: int, data: dict[str, Any]) -> GameConfig:
        """The configuration stored in a game's log: written by the core itself, so a preview is accepted."""
        return cls.from_variants(players, data, preview=True)
