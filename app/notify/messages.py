"""The mails: pure functions from (kind, recipient, the recipient's view, details) to subject, text and HTML.

Everything a mail says comes from `player_view` for the recipient's own seat, plus details that are the
recipient's own business (their deadline, the move made for them). A mail never carries anything the
recipient could not see on the game's page.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from functools import cache
from pathlib import Path
from typing import Any

from jinja2 import Environment, FileSystemLoader, StrictUndefined, select_autoescape

import app.i18n as i18n
from app.i18n import N_, gettext, ngettext
from app.notify.gamelog import Describer, game_log
from app.rules.catalog import BUILDINGS
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
    "invitation_expired",
    "chat",
)
# In English; translated where they are shown (`gettext(KIND_LABELS[kind])`), in the reader's language.
KIND_LABELS: Mapping[str, str] = {
    "your_turn": N_("It is your turn"),
    "permission": N_("Someone asks to build a house on your parcel"),
    "game_started": N_("A game you play in has started"),
    "game_finished": N_("A game you play in is over"),
    "reminder": N_("Your move clock is running out"),
    "timed_out": N_("Your clock ran out and a move was made for you"),
    "admin_alert": N_("A player keeps running out of time (admins)"),
    "seat_replaced": N_("Another player takes over a seat in your game"),
    "invitation": N_("A player invites you to a table"),
    "invitation_expired": N_("An invitation you made expired unanswered"),
    "chat": N_("Another player writes in the chat of your game"),
}
DIGEST_LABEL = N_("Daily digest")
# The moves a run-out clock makes (app.rules.defaults: the safe ones, the preferred options, the smallest amount),
# as the timed-out mail names them; any other move is named by its type.
CLOCK_MOVES: Mapping[str, str] = {
    "pass": N_("pass"),
    "bid_pass": N_("pass in the auction"),
    "decline": N_("decline"),
    "decline_parcel": N_("decline the parcel"),
    "keep_building": N_("keep the building"),
    "place_house": N_("place the free house"),
    "place_townhouse": N_("place the free townhouse"),
    "deny_remaining": N_("deny the remaining requests"),
    "finish_roads": N_("stop placing roads"),
    "shop_done": N_("finish shopping"),
    "keep_dynamite": N_("keep the dynamite chips"),
    "keep_roll": N_("keep the roll"),
    "grocer_choice": N_("take the Grocer's money"),
    "card_option": N_("take the money"),
    "outlaw_reward": N_("take the victory points"),
    "pay_undertaker": N_("pay the Undertaker in money"),
    "give_up_money": N_("give up money"),
    "play_tile": N_("play a duel tile"),
    "buy_vp": N_("buy victory points"),
    "banker_vp": N_("buy victory points"),
    "hire_cowboys": N_("hire cowboys"),
}
# The mode of a kind for a user who never chose one; "immediately" for every kind not named here. Chat is quiet
# unless asked for: a lively table would otherwise fill the other players' inboxes.
DEFAULT_MODES: Mapping[str, str] = {"chat": "off"}
MODES: tuple[str, ...] = ("immediately", "digest", "off")
# Mails about a decision that is still awaited from the recipient; once the game moved on they are stale.
ABOUT_AN_AWAITED_DECISION = frozenset({"your_turn", "permission", "reminder"})
# Mails about a table rather than a position of its game (which may not have started): they show no state.
ABOUT_THE_TABLE = frozenset({"invitation", "invitation_expired", "chat"})
# Mails about the account itself, asked for by its owner: sent whatever the mail settings, with no unsubscribe
# link (they are not in KINDS, so no setting can name them).
ALWAYS_SENT = frozenset({"password_reset", "email_changed", "email_confirm", "account_suspended"})


def default_mode(kind: str) -> str:
    return DEFAULT_MODES.get(kind, "immediately")


def default_push(kind: str) -> bool:
    """Whether a kind is pushed to a user's devices before they choose: as its mail is sent by default."""
    return default_mode(kind) != "off"


@dataclass(frozen=True, slots=True)
class Recipient:
    user_id: int
    username: str
    email: str
    language: str | None = None  # the account's setting; None: English


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
    return gettext("make a decision" if kind is None else DECISION_PHRASES[Decision(kind)])


def game_link(base_url: str, game_id: int) -> str:
    return f"{base_url.rstrip('/')}/games/{game_id}"


def days_and_hours(hours: float) -> str:
    """A duration for people: "2 days", "1 day 6 hours", "5 hours", "less than an hour"."""
    whole = int(hours)
    if whole < 1:
        return gettext("less than an hour")
    days, rest = divmod(whole, 24)
    parts = [ngettext("{n} day", "{n} days", days).format(n=days)] if days else []
    if rest:
        parts.append(ngettext("{n} hour", "{n} hours", rest).format(n=rest))
    return " ".join(parts)


def when(moment: datetime) -> str:
    return i18n.format_moment(moment)


def describe_move(move: Mapping[str, Any]) -> str:
    """A move a clock made, in words, then its numbers ("pass"; "give up money: 3"); a move no clock makes is
    named by its type and fields."""
    kind = str(move.get("type", "move"))
    if kind in CLOCK_MOVES:
        numbers = ", ".join(str(v) for k, v in move.items() if k != "type" and isinstance(v, int))
        return f"{gettext(CLOCK_MOVES[kind])}: {numbers}" if numbers else gettext(CLOCK_MOVES[kind])
    fields = ", ".join(f"{k} {v}" for k, v in move.items() if k != "type")
    return f"{kind.replace('_', ' ')}: {fields}" if fields else kind.replace("_", " ")


SINCE_LINES = 8  # the most lines of the log a turn mail lists


def since_last_move(view: Mapping[str, Any] | None, events: Sequence[Sequence[Any]]) -> dict[str, Any]:
    """What happened since the recipient's last move, as the table's log says it (`game_log`, in the language
    spoken now), oldest first: the newest SINCE_LINES lines (`since`) and how many earlier ones are left out
    (`earlier`). `events` are (seq, event) already redacted for the recipient (`Notifier._since_last_move`)."""
    names = [str(p["username"]) for p in sorted(_players(view or {}), key=lambda p: p["seat"])]
    lines = [line.text for line in game_log(Describer(names), [(seq, event) for seq, event in events])
             if not line.heading][::-1]
    shown = lines[-SINCE_LINES:]
    return {"since": shown, "earlier": len(lines) - len(shown)}


def _players(view: Mapping[str, Any]) -> list[Mapping[str, Any]]:
    players: list[Mapping[str, Any]] = view.get("players", [])
    return players


def _name(view: Mapping[str, Any] | None, seat: int | None) -> str:
    if view is None or seat is None:
        return gettext("a player")
    for player in _players(view):
        if player["seat"] == seat:
            return str(player["username"])
    return gettext("Player {number}").format(number=seat + 1)


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
        context.update(since_last_move(view, details.get("since") or ()))
        return gettext("Your turn in {game}: {awaited}").format(game=game, awaited=context["awaited"]), context
    if kind == "permission":
        work = (view or {}).get("construction_work") or {}
        request = work.get("request") or {}
        builder = _name(view, work.get("seat"))
        building = BUILDINGS.get(str(work.get("building")))
        context.update(
            builder=builder,
            building=gettext(building.name) if building else gettext("a building"),
            parcels=[f"({x}, {y})" for x, y in request.get("parcels", [])],
        )
        return gettext("{builder} asks to build a house on your parcel in {game}").format(
            builder=builder, game=game), context
    if kind == "game_started":
        players = [p["username"] for p in sorted(_players(view or {}), key=lambda p: p["seat"])]
        context.update(players=players, first=you_act)
        if you_act:
            return gettext("{game} has started: you play first").format(game=game), context
        return gettext("{game} has started").format(game=game), context
    if kind == "game_finished":
        scores = _scores(view or {})
        winner = _name(view, (view or {}).get("winner"))
        context.update(scores=scores, winner=winner, you_won=(view or {}).get("winner") == (view or {}).get("viewer"))
        return gettext("{game} is over: {winner} wins").format(game=game, winner=winner), context
    if kind == "reminder":
        deadline = _datetime(details["deadline"])
        left = days_and_hours(details.get("hours_left", 0))
        context.update(deadline=when(deadline), left=left)
        return gettext("Reminder: {left} left for your move in {game}").format(left=left, game=game), context
    if kind == "timed_out":
        context.update(move=describe_move(details.get("move") or {}), count=details.get("count", 1),
                       by_bot=bool(details.get("by_bot")))
        return gettext("Your time ran out in {game}: a move was made for you").format(game=game), context
    if kind == "admin_alert":
        player = str(details.get("player") or gettext("a player"))
        context.update(player=player, seat=details.get("seat"), count=details.get("count", 3),
                       away=bool(details.get("away")), hours=details.get("hours", 0))
        if context["away"]:  # still away two move clocks after the timeout (app.play.clocks.report_absences)
            return gettext("{player} has not come back to {game}").format(player=player, game=game), context
        return ngettext("{player} ran out of time {count} time in a row in {game}",
                        "{player} ran out of time {count} times in a row in {game}",
                        context["count"]).format(player=player, count=context["count"], game=game), context
    if kind == "seat_replaced":
        newcomer, previous = str(details.get("username")), str(details.get("previous"))
        context.update(newcomer=newcomer, previous=previous, you=newcomer == message.recipient.username,
                       yours=previous == message.recipient.username)
        if context["you"]:
            return gettext("You take over {previous}'s seat in {game}").format(previous=previous, game=game), context
        if context["yours"]:
            return gettext("{newcomer} takes over your seat in {game}").format(newcomer=newcomer, game=game), context
        return gettext("{newcomer} takes over {previous}'s seat in {game}").format(
            newcomer=newcomer, previous=previous, game=game), context
    if kind == "invitation":
        # Nothing the inviter chose is in the subject (neither their name nor the table's): the subject is what a
        # stranger would use to advertise. The body lists each table, its name as text (escaped in HTML).
        listed: Sequence[Mapping[str, Any]] = details.get("invitations") or [
            {"by": details.get("by"), "game": game, "game_id": message.game_id}
        ]
        invitations = [{"by": str(i.get("by") or gettext("A player")), "game": str(i.get("game", "")),
                        "game_id": i.get("game_id")} for i in listed]
        context.update(invitations=invitations)
        return ngettext("You are invited to a table of Carson City", "You are invited to {count} tables of Carson City",
                        len(invitations)).format(count=len(invitations)), context
    if kind == "invitation_expired":
        invitee = str(details.get("invitee") or gettext("a player"))
        context.update(invitee=invitee, days=int(details.get("days", 7)))
        return gettext("{invitee} did not answer your invitation to {game}").format(invitee=invitee, game=game), context
    if kind == "chat":
        author = str(details.get("from") or gettext("A player"))
        context.update(author=author, text=str(details.get("text", "")))
        return gettext("{author} wrote in the chat of {game}").format(author=author, game=game), context
    if kind == "account_suspended":
        context.update(reason=str(details.get("reason", "")))
        return gettext("Your Carson City account is suspended"), context
    if kind == "email_changed":
        context.update(new=str(details.get("new", "")))
        return gettext("The email address of your Carson City account was changed"), context
    if kind == "email_confirm":
        context.update(link=str(details["link"]), lifetime=days_and_hours(float(details.get("hours", 24))),
                       new=str(details.get("new", "")))
        return gettext("Confirm the new address of your Carson City account"), context
    if kind == "password_reset":
        context.update(link=str(details["link"]), lifetime=days_and_hours(float(details.get("hours", 1))))
        return gettext("Set a new password for Carson City Online"), context
    if kind == "digest":
        games: Sequence[Mapping[str, Any]] = details.get("games", [])
        waiting = sum(1 for g in games if g.get("awaiting"))
        context.update(games=games, waiting=waiting)
        count = len(games)
        return ngettext("Your Carson City digest: {count} game, {waiting} waiting for you",
                        "Your Carson City digest: {count} games, {waiting} waiting for you",
                        count).format(count=count, waiting=waiting), context
    raise ValueError(f"unknown message kind {kind!r}")


def subject_of(message: Message) -> str:
    """The subject line of `message` in its recipient's language (digests list their items by it)."""
    with i18n.speaking(message.recipient.language):
        return _subject_and_context(message)[0]


def _datetime(value: Any) -> datetime:
    return value if isinstance(value, datetime) else datetime.fromisoformat(str(value))


@cache
def _environments() -> tuple[Environment, Environment]:
    loader = FileSystemLoader(TEMPLATES)
    text = Environment(loader=loader, autoescape=False, undefined=StrictUndefined, keep_trailing_newline=True)
    html = Environment(loader=loader, autoescape=select_autoescape(["html"]), undefined=StrictUndefined)
    for environment in (text, html):
        i18n.install(environment)
    return text, html


def compose(message: Message, *, base_url: str, unsubscribe_url: str | None, preferences_url: str) -> Composed:
    """Subject, plain text and HTML of `message`, in its recipient's language (raises ValueError for an unknown
    kind)."""
    with i18n.speaking(message.recipient.language):
        return _compose(message, base_url, unsubscribe_url, preferences_url)


def _compose(message: Message, base_url: str, unsubscribe_url: str | None, preferences_url: str) -> Composed:
    subject, context = _subject_and_context(message)
    context.update(
        subject=subject,
        username=message.recipient.username,
        game_name=message.game_name,
        game_id=message.game_id,
        link=context.get("link") or (game_link(base_url, message.game_id) if message.game_id is not None else base_url),
        unsubscribe_url=unsubscribe_url,
        preferences_url=preferences_url,
        kind_label=gettext(KIND_LABELS.get(message.kind, DIGEST_LABEL)),
        language=i18n.current(),
    )
    for invitation in context.get("invitations", ()):
        invitation["link"] = game_link(base_url, invitation["game_id"])
    text_env, html_env = _environments()
    text = text_env.get_template(f"{message.kind}.txt").render(context)
    html = html_env.get_template(f"{message.kind}.html").render(context)
    return Composed(subject, text, html)
