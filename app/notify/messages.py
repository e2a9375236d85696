"""The mails: pure functions from (kind, recipient, the recipient's view, details) to subject, text and HTML.

Everything a mail says comes from `player_view` for the recipient's own seat, plus details that are the
recipient's own business (their deadline, the move made for them). A mail never carries anything the
recipient could not see on the game's page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

from app.rules.decisions import Decision
from app.rules.phrases import DECISION_PHRASES

TEMPLATES = Path(__file__).resolve().parents[2] / "templates" / "email"

# The kinds a user can set a preference for, in the order a settings page shows them.
KINDS: tuple[str, ...] = (
    "your_turn",
    "permission",
    "game_started",
    "game_finished",
    "reminder",
    "timed_out",
    "admin_alert",
    "seat_replaced",
    "invitation",
    "chat",
)
KIND_LABELS: Mapping[str, str] = {
    "your_turn": "It is your turn",
    "permission": "Someone asks to build a house on your parcel",
    "game_started": "A game you play in has started",
    "game_finished": "A game you play in is over",
    "reminder": "Your move clock is running out",
    "timed_out": "Your clock ran out and a move was made for you",
    "admin_alert": "A player keeps running out of time (admins)",
    "seat_replaced": "Another player takes over a seat in your game",
    "invitation": "A player invites you to a table",
    "chat": "Another player writes in the chat of your game",
}
# The mode of a kind for a user who never chose one; "immediately" for every kind not named here. Chat is quiet
# unless asked for: a lively table would otherwise fill the other players' inboxes.
DEFAULT_MODES: Mapping[str, str] = {"chat": "off"}
MODES: tuple[str, ...] = ("immediately", "digest", "off")
# Mails about a decision that is still awaited from the recipient; once the game moved on they are stale.
ABOUT_AN_AWAITED_DECISION = frozenset({"your_turn", "permission", "reminder"})
# Mails about a table rather than a position of its game (which may not have started): they show no state.
ABOUT_THE_TABLE = frozenset({"invitation", "chat"})
# Mails about the account itself, asked for by its owner: sent whatever the mail settings, with no unsubscribe
# link (they are not in KINDS, so no setting can name them).
ALWAYS_SENT = frozenset({"password_reset"})


def default_mode(kind: str) -> str:
    return DEFAULT_MODES.get(kind, "immediately")


@dataclass(frozen=True, slots=True)
class Recipient:
    user_id: int
    username: str
    email: str


@dataclass(frozen=True, slots=True)
class Message:
    """What to say: `view` is `player_view` for the recipient's seat (None for mails about no game state)."""

    kind: str
    recipient: Recipient
    game_id: int | None = None
    game_name: str = ""
    view: Mapping[str, Any] | None = None
    details: Mapping[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class Composed:
    subject: str
    text: str
    html: str


def awaited_phrase(kind: str | None) -> str:
    """What the recipient is asked to do, in words ("place a cowboy or pass"), as the game page says it."""
    return "make a decision" if kind is None else DECISION_PHRASES[Decision(kind)]


def game_link(base_url: str, game_id: int) -> str:
    return f"{base_url.rstrip('/')}/games/{game_id}"


def days_and_hours(hours: float) -> str:
    """A duration for people: "2 days", "1 day 6 hours", "5 hours", "less than an hour"."""
    whole = int(hours)
    if whole < 1:
        return "less than an hour"
    days, rest = divmod(whole, 24)
    parts = [f"{days} day{'s' if days != 1 else ''}"] if days else []
    if rest:
        parts.append(f"{rest} hour{'s' if rest != 1 else ''}")
    return " ".join(parts)


def when(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%a %d %b %Y, %H:%M UTC")


def describe_move(move: Mapping[str, Any]) -> str:
    """A move as the log shows it: its type in words, then its fields ("pass"; "give up money: amount 3")."""
    kind = str(move.get("type", "move")).replace("_", " ")
    fields = ", ".join(f"{k} {v}" for k, v in move.items() if k != "type")
    return f"{kind}: {fields}" if fields else kind


def _players(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    players: list[Mapping[str, Any]] = view.get("players", [])
    return players


def _name(view: Mapping[str, Any] | None, seat: int | None) -> str:
    if view is None or seat is None:
        return "a player"
    for player in _players(view):
        if player["seat"] == seat:
            return str(player["username"])
    return f"Player {seat + 1}"


def _scores(view: Mapping[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for player in _players(view):
        score = player.get("score") or {}
        rows.append(
            {
                "username": player["username"],
                "total": score.get("total", player.get("vp")),
                "money": player.get("money"),
                "winner": player["seat"] == view.get("winner"),
            }
        )
    return sorted(rows, key=lambda row: (-(row["total"] or 0), -(row["money"] or 0)))


def _subject_and_context(message: Message) -> tuple[str, dict[str, Any]]:
    view, details, game = message.view, message.details, message.game_name
    kind = message.kind
    awaiting = view.get("awaiting") if view else None
    you_act = bool(view) and view is not None and view.get("viewer") in view.get("to_act", [])
    context: dict[str, Any] = {"awaited": awaited_phrase(awaiting) if you_act else None}
    if kind == "your_turn":
        return f"Your turn in {game}: {context['awaited']}", context
    if kind == "permission":
        work = (view or {}).get("construction_work") or {}
        request = work.get("request") or {}
        builder = _name(view, work.get("seat"))
        context.update(
            builder=builder,
            building=str(work.get("building") or "a building").replace("_", " "),
            parcels=[f"({x}, {y})" for x, y in request.get("parcels", [])],
        )
        return f"{builder} asks to build a house on your parcel in {game}", context
    if kind == "game_started":
        players = [p["username"] for p in sorted(_players(view or {}), key=lambda p: p["seat"])]
        context.update(players=players, first=you_act)
        suffix = ": you play first" if you_act else ""
        return f"{game} has started{suffix}", context
    if kind == "game_finished":
        scores = _scores(view or {})
        winner = _name(view, (view or {}).get("winner"))
        context.update(scores=scores, winner=winner, you_won=(view or {}).get("winner") == (view or {}).get("viewer"))
        return f"{game} is over: {winner} wins", context
    if kind == "reminder":
        deadline = _datetime(details["deadline"])
        left = days_and_hours(details.get("hours_left", 0))
        context.update(deadline=when(deadline), left=left)
        return f"Reminder: {left} left for your move in {game}", context
    if kind == "timed_out":
        context.update(move=describe_move(details.get("move") or {}), count=details.get("count", 1),
                       by_bot=bool(details.get("by_bot")))
        return f"Your time ran out in {game}: a move was made for you", context
    if kind == "admin_alert":
        player = str(details.get("player", "a player"))
        context.update(player=player, seat=details.get("seat"), count=details.get("count", 3))
        return f"{player} ran out of time {context['count']} times in a row in {game}", context
    if kind == "seat_replaced":
        newcomer, previous = str(details.get("username")), str(details.get("previous"))
        context.update(newcomer=newcomer, previous=previous, you=newcomer == message.recipient.username)
        taker = "You take" if context["you"] else f"{newcomer} takes"
        return f"{taker} over {previous}'s seat in {game}", context
    if kind == "invitation":
        by = str(details.get("by") or "A player")
        context.update(by=by)
        return f"{by} invites you to {game}", context
    if kind == "chat":
        author = str(details.get("from") or "A player")
        context.update(author=author, text=str(details.get("text", "")))
        return f"{author} wrote in the chat of {game}", context
    if kind == "password_reset":
        context.update(link=str(details["link"]), lifetime=days_and_hours(float(details.get("hours", 1))))
        return "Set a new password for Carson City Online", context
    if kind == "digest":
        games: Sequence[Mapping[str, Any]] = details.get("games", [])
        waiting = sum(1 for g in games if g.get("awaiting"))
        context.update(games=games, waiting=waiting)
        count = len(games)
        return f"Your Carson City digest: {count} game{'s' if count != 1 else ''}, {waiting} waiting for you", context
    raise ValueError(f"unknown message kind {kind!r}")


def subject_of(message: Message) -> str:
    """The subject line of `message` (digests list their items by it)."""
    return _subject_and_context(message)[0]


def _datetime(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


@cache
def _environments() -> tuple[Environment, Environment]:
    loader = FileSystemLoader(TEMPLATES)
    text = Environment(loader=loader, autoescape=False, undefined=StrictUndefined, keep_trailing_newline=True)
    html = Environment(loader=loader, autoescape=select_autoescape(["html"]), undefined=StrictUndefined)
    return text, html


def compose(message: Message, *, base_url: str, unsubscribe_url: str | None, preferences_url: str) -> Composed:
    """Subject, plain text and HTML of `message` (raises ValueError for an unknown kind)."""
    subject, context = _subject_and_context(message)
    context.update(
        subject=subject,
        username=message.recipient.username,
        game_name=message.game_name,
        game_id=message.game_id,
        link=context.get("link") or (game_link(base_url, message.game_id) if message.game_id is not None else base_url),
        unsubscribe_url=unsubscribe_url,
        preferences_url=preferences_url,
        kind_label=KIND_LABELS.get(message.kind, "Daily digest"),
    )
    text_env, html_env = _environments()
    text = text_env.get_template(f"{message.kind}.txt").render(context)
    html = html_env.get_template(f"{message.kind}.html").render(context)
    return Composed(subject, text, html)
