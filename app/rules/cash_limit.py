"""The cash limit (`000` "End of Round", "Personalities"): the money a player may keep, printed on the side of
their personality card."""

from __future__ import annotations

from app.rules.model import GameState


def cash_limit(s: GameState, seat: int) -> int | None:
    """The limit of `seat`'s card this round; None while they hold no card."""
    side = s.side(seat)
    return None if side is None else side.cash_limit


def over_cash_limit(s: GameState) -> tuple[int, ...]:
    """The seats holding more money than their card allows, in seat order."""
    return tuple(
        p.seat for p in s.players if (limit := cash_limit(s, p.seat)) is not None and p.money > limit
    )
