"""What every HTML page is answered with: the templates and the words and helpers they share, `render`,
redirects, and a refusal said in the request's language.

The route modules (`*_pages.py`) parse, call a service and answer through these; none imports another.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import jinja2
from fastapi import Request
from fastapi.responses import HTMLResponse, RedirectResponse
from fastapi.templating import Jinja2Templates

import app.i18n as i18n
from app.i18n import gettext
from app.notify.gamelog import COLOUR_NAMES, building_name, card_name
from app.play.accounts import Account
from app.play.clocks import VACATION_DAYS_PER_YEAR
from app.play.errors import Invalid, PlayError, TooMany
from app.rules.catalog import OUTLAW_VP
from app.rules.config import EXPANSION_NAMES
from app.web import csrf, guide, present
from app.web.assets import static_url

ROOT = Path(__file__).resolve().parents[2]
_DICT_NAMES = frozenset(dir(dict))


class _Environment(jinja2.Environment):
    """Jinja's environment, whose `doc.seq` on a dict looks the key up first: Jinja asks for the attribute first
    and takes the key when that raises, and the table's documents are dicts, so the board's page raised and
    caught over two thousand AttributeErrors a render (a fifth of it). The answer is the same: a plain dict has no
    attribute but its type's (`_DICT_NAMES`), which are still asked for first."""

    def getattr(self, obj: Any, attribute: str) -> Any:
        if type(obj) is dict and attribute not in _DICT_NAMES:
            try:
                return obj[attribute]
            except KeyError:
                return self.undefined(obj=obj, name=attribute)
        return super().getattr(obj, attribute)


templates = Jinja2Templates(
    env=_Environment(loader=jinja2.FileSystemLoader(ROOT / "templates"), autoescape=jinja2.select_autoescape())
)
i18n.install(templates.env)
templates.env.globals.update(
    language=i18n.current, languages=i18n.LANGUAGES, moment=i18n.format_moment,
    colour=present.colour, colour_names=COLOUR_NAMES, CELL=present.CELL, MARGIN=present.MARGIN,
    BOARD_PX=present.BOARD_PX, ink=present.ink, variant_help=guide.variant_help, variant_names=guide.VARIANT_NAMES,
    side_choices=guide.SIDE_CHOICES,
    expansion_names=EXPANSION_NAMES, OUTLAW_VP=OUTLAW_VP, static_url=static_url, score_part=present.score_part,
    horses_not_played=guide.HORSES_NOT_PLAYED, numbers=guide.NUMBERS, building_name=building_name, card_name=card_name,
    card_side_name=present.card_side_name, shop_name=present.shop_name, piece_name=present.piece_name,
    vacation_days=VACATION_DAYS_PER_YEAR,
)
templates.env.filters.update(
    player_link=present.player_link, player_links=present.player_links, building_name=building_name,
)


def is_htmx(request: Request) -> bool:
    return request.headers.get("hx-request") == "true"


def may_create_games(request: Request, account: Account | None) -> bool:
    """Admins always; every other signed-in player unless the site leaves it to admins (PLAYERS_CREATE_GAMES)."""
    return account is not None and (account.is_admin or request.app.state.settings.players_create_games)


def render(request: Request, name: str, account: Account | None, status: int = 200, **context: Any) -> HTMLResponse:
    context.update(request=request, account=account, csrf_token=csrf.token(request),
                   may_create=may_create_games(request, account))
    response = templates.TemplateResponse(request, name, context, status_code=status)
    response.headers["Cache-Control"] = "no-store"
    return response


def redirect(url: str) -> RedirectResponse:
    return RedirectResponse(url, status_code=303)


def to_login(request: Request) -> RedirectResponse:
    return redirect(f"/login?next={request.url.path}")


def safe_next(url: str | None) -> str:
    """Only local paths, so the sign-in form cannot send anyone to another site."""
    if url and url.startswith("/") and not url.startswith("//") and "\\" not in url:
        return url
    return "/"


def said(exc: PlayError) -> str:
    """A refusal's message in the language of the request."""
    return exc.translated(gettext)


def refused(request: Request, name: str, account: Account | None, exc: PlayError, status: int,
            **context: Any) -> HTMLResponse:
    """The form again with the refusal's message; too many failed sign-ins answer 429 with `Retry-After`, input
    that cannot be accepted (Invalid: an address we cannot mail) 422, as the API does."""
    if isinstance(exc, Invalid):
        status = 422
    if isinstance(exc, TooMany):
        response = render(request, name, account, status=429, error=said(exc), **context)
        response.headers["Retry-After"] = str(exc.retry_after)
        return response
    return render(request, name, account, status=status, error=said(exc), **context)
