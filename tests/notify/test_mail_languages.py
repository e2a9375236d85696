"""Issue 17 "Languages": every kind of mail, subject, text and HTML, in English, French and Spanish, with no
English left in the French and Spanish ones (names apart), plurals right in each, and in the language of the
recipient's account."""

from __future__ import annotations

from typing import Any

import pytest
from conftest import Api

from app.i18n import speaking
from app.notify.messages import KINDS, Message, Recipient, compose, days_and_hours, subject_of
from app.notify.worker import Notifier
from app.play.accounts import set_language
from app.play.service import GameService
from tests.notify.conftest import SmtpServer, drain, started
from tests.support import english_left

NAMES = ("ann", "bob", "Friday game")
VIEW: dict[str, Any] = {
    "viewer": 0, "to_act": [0], "awaiting": "placement", "winner": 1,
    "players": [
        {"seat": 0, "username": "ann", "money": 12, "vp": 20, "score": {"total": 31}},
        {"seat": 1, "username": "bob", "money": 7, "vp": 25, "score": {"total": 40}},
    ],
    "construction_work": {"seat": 1, "building": "saloon", "request": {"parcels": [[2, 3]]}},
}
DETAILS: dict[str, dict[str, Any]] = {
    "reminder": {"deadline": "2026-12-03T09:30:00+00:00", "hours_left": 30},
    "timed_out": {"move": {"type": "pass"}, "count": 2},
    "admin_alert": {"player": "bob", "seat": 1, "count": 3},
    "seat_replaced": {"username": "ann", "previous": "bob"},
    "invitation": {"by": "bob"},
    "invitation_expired": {"invitee": "bob", "days": 7},
    "chat": {"from": "bob", "text": "bonjour / hola"},
    "password_reset": {"link": "https://carson.example/password/reset/xyz", "hours": 1},
    "email_changed": {"to": "ann@example.com", "new": "ann.b@example.org"},
    "email_confirm": {"link": "https://carson.example/settings/email/confirm/xyz", "hours": 24,
                      "new": "ann.b@example.org"},
    "digest": {"games": [
        {"name": "Friday game", "link": "https://carson.example/games/1", "awaiting": "poser un cow-boy ou passer",
         "lines": ["…"]},
    ]},
}
EVERY_KIND = (*KINDS, "password_reset", "email_changed", "email_confirm", "digest")


def mail(kind: str, language: str | None, **details: Any) -> Message:
    return Message(kind, Recipient(1, "ann", "ann@example.com", language), game_id=1, game_name="Friday game",
                   view=VIEW, details={**DETAILS.get(kind, {}), **details})


def written(message: Message) -> tuple[str, str, str]:
    composed = compose(message, base_url="https://carson.example", unsubscribe_url="https://carson.example/u/1",
                       preferences_url="https://carson.example/settings/notifications")
    return composed.subject, composed.text, composed.html


@pytest.mark.parametrize("kind", EVERY_KIND)
@pytest.mark.parametrize("language", ["fr", "es"])
def test_every_mail_is_written_in_french_and_spanish_without_english(kind: str, language: str) -> None:
    english = written(mail(kind, "en"))
    translated = written(mail(kind, language))
    for part, original in zip(translated, english, strict=True):
        assert part != original
        assert english_left(part, NAMES) == [], part
    assert f'<html lang="{language}">' in translated[2]


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_admins_alert_about_a_player_still_away_is_translated(language: str) -> None:
    """The other form of "admin_alert" (app.play.clocks.report_absences): a player away two move clocks after
    the timeout."""
    english = written(mail("admin_alert", "en", away=True, hours=48))
    translated = written(mail("admin_alert", language, away=True, hours=48))
    assert english[0] == "bob has not come back to Friday game" and "48 hours" in english[1]
    subject, text, html = translated
    assert subject != english[0] and "bob" in subject
    assert text != english[1] and "48" in text and "48" in html
    for part in translated:
        assert english_left(part, NAMES) == [], part


@pytest.mark.parametrize("kind", EVERY_KIND)
def test_the_english_mail_is_english(kind: str) -> None:
    """The check above is not blind: the English mails are full of the words it looks for."""
    _, text, html = written(mail(kind, None))
    assert english_left(text, NAMES) and english_left(html, NAMES)
    assert '<html lang="en">' in html


def test_the_game_words_are_the_rule_documents_own() -> None:
    """The permission mail names the building as 003 (French) and 004 (Spanish) do: "Saloon", "Salón"; the
    decision as the board's words: "poser un cow-boy", "colocar un vaquero"."""
    assert "(Saloon)" in written(mail("permission", "fr"))[1]
    assert "(Salón)" in written(mail("permission", "es"))[1]
    assert subject_of(mail("your_turn", "fr")) == "Ton tour dans Friday game : poser un cow-boy ou passer"
    assert subject_of(mail("your_turn", "es")) == "Tu turno en Friday game: colocar un vaquero o pasar"
    assert "jeu. 3 déc. 2026, 09:30 UTC" in written(mail("reminder", "fr"))[1]


@pytest.mark.parametrize(
    ("language", "one", "two"),
    [
        ("en", "Your Carson City digest: 1 game, 0 waiting for you",
         "Your Carson City digest: 2 games, 1 waiting for you"),
        ("fr", "Ton résumé Carson City : 1 partie, 0 t'attendent", "Ton résumé Carson City : 2 parties, 1 t'attendent"),
        ("es", "Tu resumen de Carson City: 1 partida, 0 te esperan",
         "Tu resumen de Carson City: 2 partidas, 1 te esperan"),
    ],
)
def test_plurals_follow_each_language(language: str, one: str, two: str) -> None:
    game = {"name": "g", "link": "l", "lines": []}
    assert subject_of(mail("digest", language, games=[game])) == one
    assert subject_of(mail("digest", language, games=[game, {**game, "awaiting": "x"}])) == two


@pytest.mark.parametrize(
    ("language", "durations"),
    [
        ("en", ["1 day", "2 days 1 hour", "5 hours"]),
        ("fr", ["1 jour", "2 jours 1 heure", "5 heures"]),
        ("es", ["1 día", "2 días 1 hora", "5 horas"]),
    ],
)
def test_durations_have_their_plurals(language: str, durations: list[str]) -> None:
    with speaking(language):
        assert [days_and_hours(24), days_and_hours(49), days_and_hours(5)] == durations


async def test_mails_follow_the_account_language(api: Api, service: GameService, notifier: Notifier,
                                                 smtp: SmtpServer) -> None:
    """Issue 17: "a language setting per account (mails use it)". bob chose French, ann nothing (English)."""
    _, _, players = await started(api, service, ["ann", "bob"], seed=3)
    bob = next(p for p in players if p.username == "bob")
    async with service.db.session() as session:
        await set_language(session, bob.id, "fr")
        await session.commit()
    await drain(notifier)
    french = smtp.inbox.to("bob@example.com")[0]
    english = smtp.inbox.to("ann@example.com")[0]
    assert french["Subject"].startswith("Test game a commencé") and english["Subject"].startswith("Test game has")
    html = french.get_body(("html",)).get_content()  # type: ignore[union-attr]
    assert '<html lang="fr">' in html and english_left(html, ("Test game", "ann", "bob")) == []


@pytest.mark.parametrize("language", ["fr", "es"])
def test_the_player_who_leaves_a_seat_reads_it_in_their_language(language: str) -> None:
    """The replaced player's own mail (ann gives her seat to carl), as every other kind above."""
    english = written(mail("seat_replaced", "en", previous="ann", username="carl"))
    translated = written(mail("seat_replaced", language, previous="ann", username="carl"))
    assert "carl takes over your seat" in english[0]
    for part, original in zip(translated, english, strict=True):
        assert part != original
        assert english_left(part, (*NAMES, "carl")) == [], part
