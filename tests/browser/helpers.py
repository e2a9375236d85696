"""Steps the browser tests share: sign up, sign in, create a game in the admin's form, click and wait."""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

import httpx
from playwright.sync_api import Page, expect

from app.rules import GameConfig, decide, evolve, legal_moves, new_game, replay, to_act
from app.rules.model import GameState
from app.rules.moves import Move
from tests.browser.conftest import ADMIN, PASSWORD

TIMEOUT = 10_000


def sign_up(page: Page, base: str, username: str) -> None:
    page.goto(f"{base}/signup")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Email").fill(f"{username}@example.com")
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign up").click()
    expect(page.locator("header.top")).to_contain_text(f"Signed in as {username}")


def sign_in(page: Page, base: str, username: str, password: str = PASSWORD) -> None:
    page.goto(f"{base}/login")
    page.locator("input[name=username]").fill(username)
    page.locator("input[name=password]").fill(password)
    page.get_by_role("button", name="Sign in").click()
    expect(page.locator("header.top")).to_contain_text(f"Signed in as {username}")


def sign_in_admin(page: Page, base: str) -> None:
    sign_in(page, base, *ADMIN)


def create_game(page: Page, base: str, name: str, players: list[str], *, seed: int | None = None,
                sides: str = "yellow", might_is_right: bool = False, river: bool = False,
                new_beginning: bool = False, expansions: tuple[str, ...] = (), horses: bool = False,
                kit_carson: bool = False, characters: tuple[int, ...] = ()) -> int:
    """Fill the admin's form; return the new game's id (the page shows the table)."""
    page.goto(f"{base}/games/new")
    page.locator("[name=name]").fill(name)
    page.locator("[name=seats]").select_option(str(len(players)))
    page.locator("[name=sides]").select_option(sides)
    for label, on in (("Might Is Right", might_is_right), ("The River", river), ("A New Beginning", new_beginning)):
        page.get_by_label(label).set_checked(on)
    for expansion in expansions:
        page.locator(f"input[name=expansions][value={expansion}]").check()
    for flag, on in (("horses", horses), ("kit_carson", kit_carson)):
        page.locator(f"input[name={flag}]").set_checked(on)
    for card in characters:
        page.locator(f"input[name=characters][value='{card}']").check()
    page.locator("[name=players]").fill(", ".join(players))
    if seed is not None:
        page.locator("[name=seed]").fill(str(seed))
    page.get_by_role("button", name="Create the game").click()
    expect(page.locator("#board")).to_be_visible(timeout=TIMEOUT)
    return int(page.url.rstrip("/").rsplit("/", 1)[1])


def board_seq(page: Page) -> int:
    return int(page.locator("#board").get_attribute("data-seq") or -1)


def is_acting(page: Page) -> bool:
    board = page.locator("#board")
    viewer = board.get_attribute("data-viewer") or ""
    return viewer != "" and viewer in (board.get_attribute("data-to-act") or "").split()


def wait_seq(page: Page, seq: int, timeout: int = TIMEOUT) -> None:
    """Wait until the page's board shows `seq` — by the live refresh, the page is never reloaded here."""
    page.wait_for_function("seq => document.getElementById('board')?.dataset.seq === String(seq)", arg=seq,
                           timeout=timeout)


def click_and_wait(actor: Page, target: Any, others: list[Page], key: str | None = None) -> int:
    """Click `target` (or focus it and press `key`) on the actor's page, wait for the actor's board to move on,
    then for every other page's board to reach the same seq through the live stream; return that seq."""
    before = board_seq(actor)
    if key is None:
        target.click()
    else:
        target.focus()
        actor.keyboard.press(key)
    actor.wait_for_function("old => document.getElementById('board')?.dataset.seq !== String(old)", arg=before,
                            timeout=TIMEOUT)
    seq = board_seq(actor)
    for other in others:
        wait_seq(other, seq)
    return seq


def mark_no_reload(page: Page) -> None:
    """A marker in the window: it survives htmx swaps and disappears on any reload."""
    page.evaluate("window.__noReload = true")


def was_not_reloaded(page: Page) -> bool:
    return bool(page.evaluate("window.__noReload === true"))


def scripted_moves(players: int, seed: int, until: str, variants: dict[str, Any] | None = None,
                   tries: int = 40) -> tuple[list[tuple[int, Move]], GameState]:
    """Moves (seat, move) from the start of a game with `seed` until some seat may make a move of type `until`:
    a simple policy that favours buildings, played on the rules core alone (the server, given the same seed,
    deals and rolls the same)."""
    config = GameConfig.from_variants(players=players, variants=variants or {})
    for attempt in range(tries):
        rnd = random.Random(attempt)
        state = replay(new_game(config, seed))
        moves: list[tuple[int, Move]] = []
        for _ in range(600):
            if state.status == "finished":
                break
            seat = to_act(state)[0]
            legal = legal_moves(state, seat)
            if any(m["type"] == until for m in legal):
                return moves, state
            preferred = [m for m in legal if m["type"] in ("buy_building", "buy_parcel", "place_building")]
            squares = [m for m in legal if m["type"] == "place_cowboy" and str(m.get("square", "")).startswith("build")]
            if preferred:
                move = rnd.choice(preferred)
            elif squares and rnd.random() < 0.5:
                move = rnd.choice(squares)
            else:
                move = rnd.choice(legal)
            for event in decide(state, seat, move, seed):
                state = evolve(state, event)
            moves.append((seat, move))
    raise AssertionError(f"no game with seed {seed} reached a '{until}' move")


@dataclass
class FastForwarded:
    """A game the admin created through the API and played on by `moves`: its summary as created, each seat's
    bearer headers and each seat's username."""

    game: dict[str, Any]
    headers: dict[int, dict[str, str]]
    names: dict[int, str]

    @property
    def id(self) -> int:
        return int(self.game["id"])


def bearer(api: httpx.Client, username: str, password: str = PASSWORD) -> dict[str, str]:
    r = api.post("/auth/token", data={"username": username, "password": password})
    return {"Authorization": f"Bearer {r.json()['access_token']}"}


def fast_forward(base: str, name: str, players: list[str], seed: int, moves: list[tuple[int, Move]],
                 variants: dict[str, Any] | None = None) -> FastForwarded:
    """The admin creates a game for `players` (signed up already) with `seed`, then the seats' moves scripted on
    the rules core with the same seed are posted through the API, so the browser starts where the test needs it."""
    with httpx.Client(base_url=f"{base}/api/v1", timeout=10) as api:
        body: dict[str, Any] = {"name": name, "seats": len(players), "players": players, "seed": seed}
        if variants:
            body["variants"] = variants
        game = api.post("/games", json=body, headers=bearer(api, *ADMIN)).json()
    return play_on(base, game, moves)


def play_on(base: str, game: dict[str, Any], moves: list[tuple[int, Move]]) -> FastForwarded:
    """Post the seats' scripted `moves` to a started `game` (its summary) through the API, each by its seat's player."""
    with httpx.Client(base_url=f"{base}/api/v1", timeout=10) as api:
        headers = {s["seat"]: bearer(api, s["username"]) for s in game["seats"]}
        seq = game["seq"]
        for seat, move in moves:
            r = api.post(f"/games/{game['id']}/moves", json={"seq": seq, "move": move}, headers=headers[seat])
            assert r.status_code == 200, r.text
            seq = r.json()["seq"]
    return FastForwarded(game, headers, {s["seat"]: s["username"] for s in game["seats"]})
