"""The hard bot: Monte Carlo search over the rules core (`monte_carlo`), on a game rebuilt from the seat's view
(`determinize`). Unlike the other bots these modules use the core's pure functions (`play`, `legal_moves`,
`player_view`) to look ahead, but they are still handed only the view and the legal moves.
"""

from app.bots.search.monte_carlo import Budget, search_bot

hard_bot = search_bot(Budget())

__all__ = ["Budget", "hard_bot", "search_bot"]
