"""What a push says: pure functions from a notice (the mail's `Message`) to the JSON the service worker shows.

A push carries the mail's subject, in the recipient's language, and nothing the mail does not say; the service
worker (static/sw.js) shows `title` and `body`, and opens `url` on a click. Notices about a turn share one tag,
so the newest replaces the one shown, and when several games await the player it says so ("Your turn in 3
games") and opens /next (the game whose clock runs out first).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import app.i18n as i18n
from app.i18n import ngettext
from app.notify.messages import KINDS, Message, game_link, subject_of

# RFC 8030 section 5.3: how soon a device should wake for it. A clock about to run out is urgent; a finished game
# or a chat message can wait until the device is awake anyway.
URGENCY: Mapping[str, str] = {
    "your_turn": "normal",
    "permission": "normal",
    "game_started": "normal",
    "game_finished": "low",
    "reminder": "high",
    "timed_out": "normal",
    "admin_alert": "low",
    "seat_replaced": "normal",
    "invitation": "normal",
    "invitation_expired": "low",
    "chat": "low",
}
# Seconds the push service keeps an undelivered notice (RFC 8030 section 5.2), at most 12 hours: a turn notice older
# than that is better replaced by the next one (or the reminder); a chat line an hour old is old news.
TTL: Mapping[str, int] = {kind: 43200 for kind in KINDS} | {"chat": 3600}
# Notices about a decision awaited from the player: one shown at a time, stacked over the player's games.
STACKED = frozenset({"your_turn", "permission", "reminder"})
TURN_TAG = "turn"
MAX_TITLE = 200


def topic(kind: str, game_id: int | None) -> str:
    """The `Topic` (RFC 8030 section 5.4; up to 32 base64url characters) that makes a newer push of a game replace
    an undelivered older one; the chat's have their own, so that a message never replaces a turn notice."""
    return f"{'chat' if kind == 'chat' else 'game'}-{game_id if game_id is not None else 0}"


def notice(message: Message, base_url: str, waiting: int = 1) -> dict[str, Any]:
    """The payload of `message`'s push: `game_id`, `url`, `title`, `body`, `tag`, `kind`, `waiting` (how many of
    the player's games await them, for a turn notice)."""
    title = subject_of(message)
    body = ""
    stacked = message.kind in STACKED and waiting > 1
    if stacked:
        with i18n.speaking(message.recipient.language):
            body = title
            title = ngettext("Your turn in {count} game", "Your turn in {count} games", waiting).format(count=waiting)
    root = base_url.rstrip("/")
    url = f"{root}/next" if stacked else game_link(root, message.game_id) if message.game_id is not None else root
    return {
        "game_id": message.game_id,
        "kind": message.kind,
        "url": url,
        "title": title[:MAX_TITLE],
        "body": body[:MAX_TITLE],
        "tag": TURN_TAG if message.kind in STACKED else f"{message.kind}-{message.game_id}",
        "waiting": waiting if message.kind in STACKED else None,
    }
