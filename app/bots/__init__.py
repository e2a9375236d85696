"""Pure players: a bot is a function of its seat's view (`player_view(state, seat)`), that seat's legal moves and a
random generator of its own, and returns one of those moves. It never sees the game state itself, so it can know
no more than a person in that seat.
"""

from app.bots.base import Bot
from app.bots.heuristic import heuristic_bot
from app.bots.random_bot import random_bot

BOTS: dict[str, Bot] = {"random": random_bot, "heuristic": heuristic_bot}

__all__ = ["BOTS", "Bot", "heuristic_bot", "random_bot"]
