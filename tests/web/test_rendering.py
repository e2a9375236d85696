"""The pages' template environment looks a dict's keys up before its attributes (`rendering._Environment`, for
speed); these tests hold it to Jinja's own answers: the same page, byte for byte, and the same lookups."""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

import jinja2
import pytest

import app.i18n as i18n
from app.rules import decide, evolve, legal_moves, player_view, to_act
from app.web.rendering import templates
from tests.web.test_present import VARIANTS, _known_log, board_html, fresh_game


def _as_jinja_would(monkeypatch: pytest.MonkeyPatch, render: Any, *args: Any, **kwargs: Any) -> str:
    """`render(*args, **kwargs)` with Jinja's own attribute lookup (the attribute first, then the key)."""
    with monkeypatch.context() as patched:
        patched.setattr(type(templates.env), "getattr", jinja2.Environment.getattr)
        html: str = render(*args, **kwargs)
    return html


@pytest.mark.parametrize(("players", "variants"), [(2, VARIANTS[0]), (4, VARIANTS[2]), (4, VARIANTS[7]),
                                                    (6, VARIANTS[9])])
def test_the_board_renders_as_with_jinjas_own_lookup(
    players: int, variants: dict[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    seed = 40 + players
    events, state, chooser, names, game = fresh_game(players, variants, seed)
    compared: set[str] = set()
    while state.status != "finished":
        seat = chooser.choice(to_act(state))
        moves = legal_moves(state, seat)
        doc = player_view(state, seat, game_id=1, usernames=names)
        if doc["awaiting"] not in compared:  # every kind of decision once, with its choices on the page
            compared.add(doc["awaiting"])
            log = _known_log(events, seat)
            html = board_html(game, doc, moves, log)
            assert html == _as_jinja_would(monkeypatch, board_html, game, doc, moves, log)
        new = decide(state, seat, chooser.choice(moves), seed)
        for event in new:
            state = evolve(state, event)
        events.extend(new)
    doc = player_view(state, None, game_id=1, usernames=names)
    log = _known_log(events, None)
    html = board_html(game, doc, [], log)
    assert "Final score" in html
    assert html == _as_jinja_would(monkeypatch, board_html, game, doc, [], log)
    assert len(compared) > 5


@pytest.mark.parametrize(
    ("source", "value"),
    [
        ("{{ d.seq }}", {"seq": 7}),  # a key
        ("{{ d.items is callable }}", {"items": 1}),  # a key named as a dict's method: the method, as Jinja says
        ("{{ d.missing is defined }}", {}),  # no such key: undefined
        ("{{ d.missing|default('none') }}", {"x": 1}),
        ("{{ d.real }}", 3),  # not a dict: the attribute
        ("{{ d.x }}", SimpleNamespace(x="attr")),
    ],
)
def test_a_lookup_answers_as_jinjas_own(source: str, value: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    template = templates.env.from_string(source)
    assert template.render(d=value) == _as_jinja_would(monkeypatch, template.render, d=value)


TEXTS = '{{ _("Your turn") }}|{{ _("Cowboy of {player}").format(player="Émile & ann") }}|{{ _("Place here") }}|' \
        '{{ _("100%% sure") }}|{{ _(word) }}'


@pytest.mark.parametrize("language", sorted(i18n.LANGUAGES))
@pytest.mark.parametrize("autoescape", [True, False])
def test_a_text_without_fields_is_kept_as_first_answered(
    language: str, autoescape: bool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`_("...")` without fields is answered from what the callable answered first (`i18n.SAID_KEPT`): in each
    language and escaping mode the page reads as if every text were translated afresh, elisions included."""
    def rendered() -> str:
        environment = jinja2.Environment(autoescape=autoescape)
        i18n.install(environment)
        template = environment.from_string(TEXTS)
        with i18n.speaking(language):
            first, kept = template.render(word="Sheriff"), template.render(word="Sheriff")
        assert first == kept
        return kept

    cached = rendered()
    monkeypatch.setattr(i18n, "SAID_KEPT", 0)  # nothing kept: every text translated afresh
    assert rendered() == cached
