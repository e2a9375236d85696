"""A game's summary as the lobby lists it and the waiting page shows it: its players and variants, the seats
still free, whether the viewer hosts it, and its move clocks as the time left."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from app.i18n import gettext, ngettext
from app.play.accounts import Account
from app.play.positions import GameSummary
from app.web import present


def table_url(game_id: int) -> str:
    """The table page's path: where the lobby, `/next` and `GET /api/v1/me/next` send a player."""
    return f"/games/{game_id}"


def free_seats(g: GameSummary) -> int:
    """Seats of an open table neither taken nor held for an invited player."""
    return g.seat_count - len(g.seats) - len(g.invited)


def is_host(account: Account, g: GameSummary) -> bool:
    """Who may start an open table and invite to it: its creator, or an admin."""
    return account.is_admin or g.created_by == account.id


def game_row(account: Account, g: GameSummary) -> dict[str, Any]:
    """The row of one game in the lobby's lists (and the waiting page's table), for `account`."""
    return {
        "game": g,
        "players": ", ".join(s.username for s in g.seats) or gettext("nobody yet"),
        "names": [s.username for s in g.seats],
        "variants": present.variant_badges(g.variants),
        "deadlines": deadlines(g),
        "joined": any(s.user_id == account.id for s in g.seats),
        "host": is_host(account, g),
        "free": free_seats(g),
        "clock": clock_terms(g),
    }


def clock_terms(g: GameSummary) -> list[str]:
    """The table's clock in words, for those deciding whether to join: the time a move, whether it stops on
    weekends, whether vacation days stop it (nothing for a table without a clock)."""
    if g.move_timeout_hours is None:
        return []
    terms = [ngettext("{n} hour a move", "{n} hours a move", g.move_timeout_hours).format(n=g.move_timeout_hours)]
    if g.pause_weekends:
        terms.append(gettext("stops on weekends"))
    terms.append(gettext("vacation days allowed") if g.vacations else gettext("no vacation days"))
    return terms


def time_left(when: datetime, now: datetime) -> str:
    """A deadline as the time left, the way a player reads it at a glance: "1 d 23 h", "5 h 10 min", "overdue"."""
    minutes = int((when - now).total_seconds() // 60)
    if minutes < 0:
        return gettext("overdue")
    days, hours, mins = minutes // 1440, minutes // 60 % 24, minutes % 60
    if days:
        return gettext("{days} d {hours} h").format(days=days, hours=hours)
    return gettext("{hours} h {minutes} min").format(hours=hours, minutes=mins) if hours \
        else gettext("{minutes} min").format(minutes=mins)


def deadlines(g: GameSummary) -> list[tuple[str, str, str]]:
    """Per-seat move deadlines of a timed game (the seats' move clocks): who, the time left, the exact time."""
    now = datetime.now(UTC)
    shown = []
    for seat in g.seats:
        when = getattr(seat, "deadline", None)
        if isinstance(when, datetime):
            shown.append((seat.username, time_left(when, now), when.strftime("%Y-%m-%d %H:%M UTC")))
    return shown
