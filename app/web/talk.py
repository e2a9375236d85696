"""What the table's chat box and notes box show one viewer: the chat's latest messages for everyone who may look
at the table, a field to write in for seated players, and the viewer's own notes (seated players only)."""

from __future__ import annotations

from typing import Any

from fastapi import Request

from app.play.accounts import Account
from app.play.chat import Chat
from app.play.positions import GameSummary, Talk

CHAT_SHOWN = 100  # the newest messages a table shows; the API reads further back


def is_seated(account: Account, game: GameSummary) -> bool:
    """A seat at the table, taken by joining it (before the start) or drawn at the start."""
    return any(s.user_id == account.id for s in game.seats)


async def chat_context(request: Request, game: GameSummary) -> dict[str, Any]:
    """The chat box's newest messages at `game`'s table (its summary just read: the game exists)."""
    chat: Chat = request.app.state.chat
    return {"chat": await chat.newest(game.id, CHAT_SHOWN)}


def talk_context(account: Account, game: GameSummary, talk: Talk) -> dict[str, Any]:
    """The chat box's and the notes box's context for `account` at `game`'s table, from the table's one read
    (`Positions.table` with `chat=CHAT_SHOWN`)."""
    return {"chat": talk.chat, "seated": is_seated(account, game), "notes": talk.notes}
