"""Issue 17 "Languages": the language of a page is the account's setting, else the footer switcher's, else the
browser's Accept-Language, else English; `<html lang>` says which; the sign-in page and the lobby have no English
left in French and Spanish (names apart); API error codes stay English while their message follows the caller."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
from conftest import Api

import app.i18n as i18n
from app.web.language import browser_language
from tests.support import assert_error, english_left
from tests.web.test_pages import csrf_of, signed_in

SIGN_IN = {"fr": "Se connecter", "es": "Iniciar sesión", "en": "Sign in"}


def lang_of(page: str) -> str:
    match = re.search(r'<html lang="([a-z]+)">', page)
    assert match, "no <html lang>"
    return match.group(1)


@pytest.mark.parametrize("language", ["en", "fr", "es"])
async def test_accept_language_picks_the_sign_in_pages_language(client: httpx.AsyncClient, language: str) -> None:
    header = {"en": "en-GB,en;q=0.9", "fr": "fr-CH, fr;q=0.9, en;q=0.8", "es": "de, es-MX;q=0.7, en;q=0.5"}
    page = (await client.get("/login", headers={"Accept-Language": header[language]})).text
    assert lang_of(page) == language and f"<h1>{SIGN_IN[language]}</h1>" in page
    if language != "en":
        assert english_left(page) == []
    else:
        assert english_left(page)  # the check finds English where there is some


async def test_an_unknown_or_missing_language_is_english(client: httpx.AsyncClient) -> None:
    assert lang_of((await client.get("/login", headers={"Accept-Language": "de, it;q=0.5"})).text) == "en"
    assert lang_of((await client.get("/login", headers={"Accept-Language": "fr;q=0, de"})).text) == "en"
    assert lang_of((await client.get("/login")).text) == "en"


async def test_the_footer_switcher_sets_the_language_without_javascript(client: httpx.AsyncClient) -> None:
    page = (await client.get("/login", headers={"Accept-Language": "es"})).text
    assert 'action="/language"' in page and 'value="fr"' in page
    r = await client.post("/language", data={"language": "fr", "next": "/login", "csrf_token": csrf_of(page)},
                          headers={"Accept-Language": "es"})
    assert r.status_code == 303 and r.headers["location"] == "/login"
    again = (await client.get("/login", headers={"Accept-Language": "es"})).text  # the cookie beats the browser
    assert lang_of(again) == "fr" and "<h1>Se connecter</h1>" in again


async def test_the_switcher_checks_the_csrf_token_and_stays_on_the_site(client: httpx.AsyncClient) -> None:
    assert (await client.post("/language", data={"language": "fr"})).status_code == 403
    page = (await client.get("/login")).text
    r = await client.post("/language", data={"language": "fr", "next": "//evil.example/",
                                             "csrf_token": csrf_of(page)})
    assert r.headers["location"] == "/"


async def test_the_account_setting_wins_and_the_settings_page_changes_it(client: httpx.AsyncClient) -> None:
    """Signed up in Spanish, the account speaks Spanish whatever the browser asks; the settings page makes it
    French, then "the browser's" again."""
    client.headers["Accept-Language"] = "es"
    token = await signed_in(client, "ana")
    client.headers["Accept-Language"] = "fr"
    assert lang_of((await client.get("/")).text) == "es"
    page = (await client.get("/settings/notifications")).text
    assert 'action="/settings/language"' in page and '<option value="es" lang="es" selected>' in page
    saved = await client.post("/settings/language", data={"language": "fr", "csrf_token": token})
    assert saved.status_code == 200 and "Ta langue est enregistrée." in saved.text and lang_of(saved.text) == "fr"
    client.headers["Accept-Language"] = "es"
    assert lang_of((await client.get("/")).text) == "fr"
    await client.post("/settings/language", data={"language": "", "csrf_token": token})
    assert lang_of((await client.get("/")).text) == "es"  # the browser's again


async def test_the_switcher_saves_the_signed_in_players_choice(client: httpx.AsyncClient) -> None:
    token = await signed_in(client, "ana")
    await client.post("/language", data={"language": "es", "next": "/", "csrf_token": token})
    client.cookies.delete("lang")
    assert lang_of((await client.get("/", headers={"Accept-Language": "fr"})).text) == "es"


@pytest.mark.parametrize("language", ["fr", "es"])
async def test_the_lobby_has_no_english_left(client: httpx.AsyncClient, api: Api, app: Any, language: str) -> None:
    """A lobby with an invitation, a running game (the viewer's turn or not), a table to join and one to watch."""
    admin = await api.admin()
    bob, cid = await api.player("bob"), await api.player("cid")
    client.headers["Accept-Language"] = language
    await signed_in(client, "ana")
    await api.started_game(admin, [bob, cid], name="Watched")
    r = await client.post("/api/v1/games", json={"name": "Invites", "seats": 3, "players": ["ana"]},
                          headers=bob.headers)
    assert r.status_code == 201, r.text
    r = await client.post("/api/v1/games", json={"name": "Open", "seats": 3}, headers=cid.headers)
    assert r.status_code == 201, r.text
    mine = await client.post("/api/v1/games", json={"name": "Ours", "seats": 2, "players": ["ana", "bob"]},
                             headers=admin.headers)
    assert mine.status_code == 201, mine.text
    page = (await client.get("/")).text
    names = ("ana", "bob", "cid", "admin", "Watched", "Invites", "Open", "Ours")
    assert 'id="invitations"' in page and 'id="open-games"' in page and 'id="watchable"' in page
    assert 'id="my-games"' in page and lang_of(page) == language
    assert english_left(page, names) == []
    seats = {"fr": "2/2 places", "es": "2/2 asientos"}[language]
    assert seats in page


@pytest.mark.parametrize(("language", "message"), [
    ("en", "The username or password is wrong."),
    ("fr", "Le nom d'utilisateur ou le mot de passe est faux."),
    ("es", "El nombre de usuario o la contraseña no son correctos."),
])
async def test_api_errors_keep_their_code_and_speak_the_callers_language(
    client: httpx.AsyncClient, api: Api, language: str, message: str
) -> None:
    await api.player("ann")
    r = await client.post("/api/v1/auth/token", data={"username": "ann", "password": "wrong password"},
                          headers={"Accept-Language": language})
    assert assert_error(r, 401, "invalid_credentials")["message"] == message


async def test_messages_with_values_are_translated_whole(client: httpx.AsyncClient, api: Api) -> None:
    ann = await api.player("ann")
    r = await client.get("/api/v1/games/987654", headers={**ann.headers, "Accept-Language": "es"})
    assert assert_error(r, 404, "game_not_found")["message"] == "No existe la partida 987654."
    r = await client.get("/no/such/page", headers={"Accept-Language": "fr"})
    assert assert_error(r, 404, "not_found")["message"] == "Il n'y a rien à cette adresse."


@pytest.mark.parametrize(("language", "refused", "not_yours"), [
    ("fr", "« place_road » n'est pas possible maintenant : tu dois ",
     "Ce n'est pas ton tour : la partie attend la place "),
    ("es", "«place_road» no es posible ahora: debes ", "No es tu turno: la partida espera al asiento "),
])
async def test_the_rules_cores_refusals_speak_the_callers_language(
    client: httpx.AsyncClient, api: Api, language: str, refused: str, not_yours: str
) -> None:
    """An illegal move's refusal keeps its code; its sentence, and what the decision asks inside it, follow the
    caller's language (the rules core gives the template and its fields, the web layer says it)."""
    admin = await api.admin()
    ann, bob = await api.player("ann"), await api.player("bob")
    game = await api.started_game(admin, [ann, bob], seed=3)
    by_seat = {s["seat"]: {"ann": ann, "bob": bob}[s["username"]] for s in game["seats"]}
    awaited, waiting = by_seat[game["to_act"][0]], by_seat[1 - game["to_act"][0]]
    move = {"seq": game["seq"], "move": {"type": "place_road", "x": 1, "y": 1, "side": "n"}}
    url = f"/api/v1/games/{game['id']}/moves"
    english = assert_error(await client.post(url, json=move, headers=awaited.headers), 422, "wrong_decision")
    asked = english["message"].removeprefix("'place_road' is not possible now: you must ").removesuffix(".")
    with i18n.speaking(language):
        expected = f"{refused}{i18n.gettext(asked)}."
    assert expected != english["message"] and english_left(expected) == []
    r = await client.post(url, json=move, headers={**awaited.headers, "Accept-Language": language})
    assert assert_error(r, 422, "wrong_decision")["message"] == expected
    r = await client.post(url, json=move, headers={**waiting.headers, "Accept-Language": language})
    assert assert_error(r, 403, "not_awaited")["message"] == f"{not_yours}{game['to_act'][0]}."


@pytest.mark.parametrize(("language", "message"), [
    ("en", "A game has 2 to 5 players. Six players need the Big Box expansion."),
    ("fr", "Une partie se joue de 2 à 5 joueurs. Six joueurs demandent l'extension Big Box."),
    ("es", "Una partida tiene de 2 a 5 jugadores. Seis jugadores necesitan la expansión Big Box."),
])
async def test_a_refused_variant_speaks_the_callers_language(
    client: httpx.AsyncClient, api: Api, language: str, message: str
) -> None:
    """The rules core's refusal of a game's settings (RULING X1: six seats only with Big Box), like its refusal of
    a move, is said in the caller's language with its numbers filled in."""
    admin = await api.admin()
    r = await client.post("/api/v1/games", json={"name": "Six", "seats": 6},
                          headers={**admin.headers, "Accept-Language": language})
    assert assert_error(r, 422, "invalid_variant")["message"] == message


@pytest.mark.parametrize(
    ("headers", "language"),
    [
        ([], "en"),  # a program's request: neither header
        ([(b"accept-language", b"fr-CA, en;q=0.5")], "fr"),
        ([(b"cookie", b"lang=es"), (b"accept-language", b"fr")], "es"),  # the switcher's choice beats the browser's
        ([(b"cookie", b'lang="es'), (b"accept-language", b"fr")], "fr"),  # a malformed Cookie loses only the choice
        ([(b"cookie", b"other=1")], "en"),
    ],
)
def test_the_browser_language_is_the_cookies_else_the_browsers_else_english(
    headers: list[tuple[bytes, bytes]], language: str
) -> None:
    assert browser_language({"type": "http", "headers": headers}) == language
