"""The hard bot: information-set Monte Carlo tree search over the rules core (`tree`), on a game rebuilt from the
seat's view (`determinize`). Unlike the other bots these modules use the core's pure functions (`play`,
`legal_moves`, `player_view`) to look ahead, but they are still handed only the view and the legal moves.
"""

from app.bots.search.tree import Budget, search_bot

hard_bot = search_bot(Budget())

__all__ = ["Budget", "hard_bot", "search_bot"]
