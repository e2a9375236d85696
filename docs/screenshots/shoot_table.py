"""Take the table's before/after screenshots (docs/screenshots/README.md): one scenario, played the same way on any
checkout of the project, so the pictures and the figures of two commits compare.

Not part of the test suite: copy it into the checkout to shoot, under tests/browser/ (for its fixtures: a live
server on an embedded PostgreSQL, Debian's Chromium), and run it with pytest there:

    cp docs/screenshots/shoot_table.py CHECKOUT/tests/browser/shoot_table.py
    cd CHECKOUT && SHOTS_OUT=/tmp/shots SHOTS_LABEL=after python -m pytest -n 0 -q -p no:cacheprovider \
        tests/browser/shoot_table.py

It writes SHOTS_OUT/table-<width>-<stage>-<label>.png (the first screen only) and
SHOTS_OUT/figures-<label>.json (where the boxes are, in CSS pixels from the top of the page)."""

from __future__ import annotations

import json
import os
import random
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, Page, expect

from app.rules import GameConfig, legal_moves, new_game, play, replay, to_act
from app.rules.model import GameState
from app.rules.moves import Move
from app.rules.rng import Rng
from tests.browser.conftest import LiveServer
from tests.browser.helpers import fast_forward, sign_up

NAMES = ("ona", "pete")
SCREENS = ({"width": 1280, "height": 900}, {"width": 390, "height": 844})
# The stages: a mid-game placement (round 2, a cowboy to place), a duel (Might is right) and a permission request.
STAGES: dict[str, tuple[int, dict[str, Any], Callable[[GameState, list[Move]], bool]]] = {
    "placement": (31, {}, lambda s, legal: s.round == 2 and any(m["type"] == "place_cowboy" for m in legal)),
    "duel": (5, {"might_is_right": True}, lambda s, legal: any(m["type"] == "play_tile" for m in legal)),
    "permission": (31, {}, lambda s, legal: any(m["type"] == "answer_permission" for m in legal)),
}

# Where the parts of the table are, read the same way on both commits (the old page has no #map, #track hooks).
FIGURES_JS = """() => {
    window.scrollTo(0, 0);
    const shown = el => el && el.getClientRects().length > 0 && getComputedStyle(el).visibility !== 'hidden';
    const box = el => { if (!shown(el)) return null; const r = el.getBoundingClientRect();
        return {top: Math.round(r.top), bottom: Math.round(r.bottom), left: Math.round(r.left),
                width: Math.round(r.width), height: Math.round(r.height)}; };
    const q = s => document.querySelector(s);
    const top = el => shown(el) ? Math.round(el.getBoundingClientRect().top) : null;
    const places = [...document.querySelectorAll(
        'button[value*="place_cowboy"], .map .target, button.place')].filter(shown)
        .map(el => el.getBoundingClientRect().top);
    return {
        page_height: document.documentElement.scrollHeight,
        page_width: document.documentElement.scrollWidth,
        board: box(q('svg.map')),
        decision: box(q('#decision')),
        decision_buttons: [...document.querySelectorAll('#decision button')].filter(shown).length,
        first_place_control_y: places.length ? Math.round(Math.min(...places)) : null,
        place_controls: places.length,
        first_place_here_y: top(q('button.place')),  // the action track's first "Place here"
        track: box(q('#track-h') && q('#track-h').closest('section')),
        log: box(q('#log-h') && q('#log-h').closest('section')),  // null: behind a tab
        chat: box(q('#chat-h') && q('#chat-h').closest('section')),
        tabs: box(q('[role=tablist]')),
        stake: q('#decision .stake') ? q('#decision .stake').innerText : null,
        // answers shown but out of sight at the top of the page (outside the window, or scrolled out of the side
        // column's box where there is one), as tests/browser/test_one_screen.py counts them
        answers_out_of_sight: [...document.querySelectorAll('#decision button, #decision select')].filter(shown)
            .filter(el => { const r = el.getBoundingClientRect(), col = q('.table-now');
                            const b = col ? col.getBoundingClientRect() : {top: 0, bottom: innerHeight};
                            return r.top < b.top - 0.5 || r.bottom > Math.min(b.bottom, innerHeight) + 0.5; })
            .length,
    };
}"""


def moves_until(seed: int, variants: dict[str, Any],
                stop: Callable[[GameState, list[Move]], bool]) -> tuple[list[tuple[int, Move]], GameState]:
    """The moves of a two-player game with `seed`, chosen at random (favouring buildings), until `stop` holds."""
    for attempt in range(30):
        chooser = random.Random(attempt)
        state = replay(new_game(GameConfig.from_variants(2, variants), seed))
        moves: list[tuple[int, Move]] = []
        while state.status != "finished":
            seat = to_act(state)[0]
            legal = legal_moves(state, seat)
            if stop(state, legal):
                return moves, state
            builds = [m for m in legal if m["type"] in ("buy_building", "place_building", "buy_parcel")]
            move = chooser.choice(builds or legal)
            _, state = play(state, seat, move, Rng(seed, state.seq))
            moves.append((seat, move))
    raise AssertionError(f"no game with seed {seed} reached the stage")


def test_shoot_the_table(browser: Browser, live: LiveServer) -> None:
    out = Path(os.environ.get("SHOTS_OUT", "/tmp/shots"))
    label = os.environ.get("SHOTS_LABEL", "shot")
    out.mkdir(parents=True, exist_ok=True)
    contexts = [browser.new_context(), browser.new_context()]
    pages: dict[str, Page] = {}
    for context, name in zip(contexts, NAMES, strict=True):
        pages[name] = context.new_page()
        sign_up(pages[name], live.url, name)
    figures: dict[str, Any] = {}
    for stage, (seed, variants, stop) in STAGES.items():
        moves, state = moves_until(seed, variants, stop)
        game = fast_forward(live.url, stage, list(NAMES), seed, moves, variants).game
        seats = {s["seat"]: s["username"] for s in game["seats"]}
        page = pages[seats[to_act(state)[0]]]
        for screen in SCREENS:
            page.set_viewport_size(screen)
            page.goto(f"{live.url}/games/{game['id']}")
            expect(page.locator("#decision")).to_be_attached()
            page.wait_for_timeout(300)
            figures[f"{stage}-{screen['width']}"] = {"moves": len(moves), "seq": state.seq,
                                                     **page.evaluate(FIGURES_JS)}
            page.screenshot(path=str(out / f"table-{screen['width']}-{stage}-{label}.png"))
    (out / f"figures-{label}.json").write_text(json.dumps(figures, indent=1))
    for context in contexts:
        context.close()
