"""The pages that explain the game and the site to anyone, signed in or not: the rules in our words (the same
texts as the table's help, `app.web.guide`) and how to check that a game's dice were fair."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response

from app.web import guide
from app.web.deps import OptionalAccount
from app.web.rendering import render

router = APIRouter(include_in_schema=False)


@router.get("/fairness")
async def fairness(request: Request, account: OptionalAccount) -> Response:
    """How anyone can check that a game's dice were fair (the seed's commitment and `python -m app verify`)."""
    return render(request, "pages/fairness.html", account)


@router.get("/rules")
async def rules(request: Request, account: OptionalAccount) -> Response:
    """The rules in our words, open to everyone (signed in or not): the same texts as the table's help."""
    return render(request, "pages/rules.html", account, **guide.rules_context())
