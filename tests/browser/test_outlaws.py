"""An outlaw fight played by clicking (issue "Gold & Guns and the Outlaws", Tests): the admin opens a table with
the Outlaws on the form; the game is fast-forwarded through the API to a placement where the player can send a
cowboy onto an outlaw's parcel; they click it on the board, pass, and after the fight choose the reward with a
button, while the other player's page follows by itself (R-OUT-4, R-OUT-5)."""

from __future__ import annotations

import random
from typing import Any

from playwright.sync_api import Browser, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.board import parcel_index
from app.rules.model import GameState
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import LiveServer
from tests.browser.helpers import click_and_wait, fast_forward, sign_up

OUTLAWS = {"expansions": ["outlaws"]}
NAMES = ("olga", "pete")


def _on_outlaw(state: GameState, move: Move) -> bool:
    return (move["type"] == "place_cowboy" and "x" in move
            and state.parcels[parcel_index(move["x"], move["y"])].outlaw)


def _passing(legal: list[Move], chooser: random.Random) -> Move:
    """What the others (and the fighter, after the click) do: pass or decline where they can, else anything."""
    quiet = [m for m in legal if m["type"] in ("pass", "decline", "decline_parcel", "deny_remaining", "keep_building")]
    return quiet[0] if quiet else chooser.choice(legal)


def find_fight(seed: int) -> tuple[list[tuple[int, Move]], int, Move] | None:
    """Moves up to a placement where a seat may put a cowboy on an outlaw's parcel and, doing so and then passing,
    beats it and is offered the choice of reward: (moves before, the fighter's seat, the click's move)."""
    config = GameConfig.from_variants(2, OUTLAWS)
    chooser = random.Random(seed)
    state = replay(new_game(config, seed))
    moves: list[tuple[int, Move]] = []
    while state.status != "finished" and len(moves) < 400:
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        fights = [m for m in legal if _on_outlaw(state, m)]
        if fights and _wins_with_a_choice(state, seat, fights[0], seed):
            return moves, seat, fights[0]
        calm = [m for m in legal if not _on_outlaw(state, m)]
        move = chooser.choice(calm or legal)
        _, state = play(state, seat, move, Rng(seed, state.seq))
        moves.append((seat, move))
    return None


def _wins_with_a_choice(state: GameState, fighter: int, click: Move, seed: int) -> bool:
    """Whether, after the click, everyone passing and declining, `fighter` beats the outlaw this round and may
    choose between the VP and half the building's income."""
    chooser = random.Random(0)
    start = state.round
    _, state = play(state, fighter, click, Rng(seed, state.seq))
    while state.status != "finished" and state.round == start:
        seat = to_act(state)[0]
        legal = legal_moves(state, seat)
        if any(m["type"] == "outlaw_reward" and m["reward"] == "income" for m in legal):
            return seat == fighter
        _, state = play(state, seat, _passing(legal, chooser), Rng(seed, state.seq))
    return False


def test_an_outlaw_fight_by_clicking(browser: Browser, live: LiveServer, shots: Any) -> None:
    seed, found = next((s, f) for s in range(1, 400) if (f := find_fight(s)) is not None)
    moves, fighter_seat, click = found
    contexts = [browser.new_context(), browser.new_context()]
    pages = [c.new_page() for c in contexts]
    try:
        for page, name in zip(pages, NAMES, strict=True):
            page.on("dialog", lambda dialog: dialog.accept())  # "pass with cowboys left?" is answered yes
            sign_up(page, live.url, name)
        # fast-forward to the placement with the outlaw in reach
        played = fast_forward(live.url, "Outlaws", list(NAMES), seed, moves, OUTLAWS)
        game, name_of = played.game, played.names
        fighter = pages[NAMES.index(name_of[fighter_seat])]
        other = pages[1 - NAMES.index(name_of[fighter_seat])]
        for page in pages:
            page.goto(f"{live.url}/games/{game['id']}")
        spot = fighter.locator(f'svg .target[data-target="p{click["x"]}-{click["y"]}"]')
        outlaw = fighter.locator(f"#parcel-{click['x']}-{click['y']} .piece.outlaw")
        expect(outlaw).to_be_visible()
        assert (outlaw.get_attribute("aria-label") or "").startswith("Outlaw, strength ")
        shots(fighter, "15-outlaws-before-the-fight")
        click_and_wait(fighter, spot, [other])
        expect(other.locator(f"#parcel-{click['x']}-{click['y']} .piece.cowboy")).to_have_count(1)
        for _ in range(60):  # both pass and decline until the fighter is offered the reward
            acting = fighter if fighter.get_by_role("button", name="Leave your cowboy there").count() else None
            if acting:
                break
            for page, waiting in ((fighter, other), (other, fighter)):
                quiet = page.locator("#decision button", has_text="Pass")
                quiet = quiet if quiet.count() else page.locator("#decision button.no")
                if quiet.count():
                    click_and_wait(page, quiet.first, [waiting])
                    break
            else:
                fighter.wait_for_timeout(200)
        reward = fighter.get_by_role("button", name="Leave your cowboy there")
        expect(reward).to_be_visible()
        expect(fighter.locator(".log")).to_contain_text("outlaw")
        shots(fighter, "16-outlaws-reward-choice")
        take = fighter.get_by_role("button", name="Take the outlaw tile's")
        click_and_wait(fighter, take, [other])
        expect(other.locator(".log")).to_contain_text("VP")
        expect(fighter.locator(f"#parcel-{click['x']}-{click['y']} .piece.outlaw")).to_have_count(0)
    finally:
        for context in contexts:
            context.close()
