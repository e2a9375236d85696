"""A table against the site's bot, opened in one step from the home page, the sign-up form or the lobby: two
seats, one of them the bot's, the base game with the yellow sides, started at once. It is unrated (a first game
to learn the rules should cost no one rating points) and private (it is full anyway). Opening one counts against
the player's hosting limits like any other table (app.play.hosting_limits)."""

from __future__ import annotations

from app.i18n import gettext
from app.play.accounts import Account
from app.play.lobby import Lobby
from app.play.positions import GameSummary


async def open_against_the_bot(lobby: Lobby, account: Account, address: str) -> GameSummary:
    """Open and start a two-seat table of `account` against the site's bot; raises what `Lobby.create_game`
    raises (a site where only admins open tables, too many tables)."""
    return await lobby.create_game(
        account, name=gettext("{name} against the bot").format(name=account.username), seat_count=2,
        variants={"sides": "yellow"}, bots=1, public=False, rated=False, start_when_full=True, address=address,
    )
