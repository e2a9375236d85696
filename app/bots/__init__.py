"""Pure players: a bot is a function of its seat's view (`player_view(state, seat)`), that seat's legal moves and a
random generator of its own, and returns one of those moves. It never sees the game state itself, so it can know
no more than a person in that seat. The hard bot (`app.bots.search`) rebuilds a game from the view to search it.

The site's levels (API.md "Bot levels"): `easy`, `normal` (the heuristic bot) and `hard` (the search).
"""

from app.bots.base import Bot
from app.bots.easy import easy_bot
from app.bots.heuristic import heuristic_bot
from app.bots.random_bot import random_bot
from app.bots.search import hard_bot

LEVELS: dict[str, Bot] = {"easy": easy_bot, "normal": heuristic_bot, "hard": hard_bot}
BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot, **LEVELS}

__all__ = ["BOTS", "LEVELS", "Bot", "easy_bot", "hard_bot", "heuristic_bot", "random_bot"]
