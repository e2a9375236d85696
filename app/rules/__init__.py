"""The rules of Carson City as a pure, deterministic, event-sourced core.

No I/O, no clock, no global random: randomness comes from the game's seed and is recorded in the events.
"""

from app.rules.config import GameConfig
from app.rules.decide import decide, play
from app.rules.defaults import default_move
from app.rules.errors import ConfigError, IllegalMove
from app.rules.events import Event, private_to
from app.rules.evolve import UndoBeyondState, evolve, replay
from app.rules.flow import to_act
from app.rules.legal import is_legal, legal_moves, legal_moves_read_only
from app.rules.model import GameState
from app.rules.setup import new_game, start_game
from app.rules.view import player_view, redact_event, visible_seq

__all__ = [
    "ConfigError",
    "Event",
    "GameConfig",
    "GameState",
    "IllegalMove",
    "UndoBeyondState",
    "decide",
    "default_move",
    "evolve",
    "is_legal",
    "legal_moves",
    "legal_moves_read_only",
    "new_game",
    "play",
    "player_view",
    "private_to",
    "redact_event",
    "replay",
    "start_game",
    "to_act",
    "visible_seq",
]
