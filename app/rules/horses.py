"""Big Box's horses (`004` "Salario" and "Final de la partida"; RULING X6): at Wages a player may, instead of
taking $4 for one of their cowboys there, pay $4 for a horse — one horse a round — and each horse is worth 1 VP at
the end. The rodeo and the horses' special actions have no rule text in our sources and are not played (X6).

The payment is one decision per seat, asked before the wages are paid (decision D87): the horse's $4 may come from
the wages of the player's other cowboys on the square, which are paid in the same step.
"""

from __future__ import annotations

from app.rules.catalog import HORSE_PRICE, HORSE_VP, WAGE_PER_COWBOY
from app.rules.events import Payment
from app.rules.model import GameState, PlayerState


def wage_cowboys(s: GameState, seat: int) -> int:
    """How many of `seat`'s cowboys stand on Wages."""
    return sum(1 for c in s.squares.get("wages", ()) if c.seat == seat)


def may_buy_horse(s: GameState, seat: int) -> bool:
    """Whether `seat` may pay for a horse at this Wages: horses are played, one of their cowboys stands there,
    and their money with the wages of their other cowboys there covers the price (decision D87)."""
    cowboys = wage_cowboys(s, seat)
    if not s.config.horses or not cowboys:
        return False
    return s.players[seat].money + WAGE_PER_COWBOY * (cowboys - 1) >= HORSE_PRICE


def horse_chooser(s: GameState) -> int | None:
    """The next seat, in placement order, to be asked whether it buys a horse at Wages; None when nobody is."""
    for seat in s.placement_order:
        if seat not in s.wages_chosen and may_buy_horse(s, seat):
            return seat
    return None


def wages_payments(s: GameState) -> list[Payment]:
    """The Wages square's payments in placement order: $4 a cowboy (RULING B14), but a horse buyer's one cowboy
    pays $4 instead of taking it (the field `horse` only then, so that games without horses keep their log)."""
    payments: list[Payment] = []
    for seat in s.placement_order:
        cowboys = wage_cowboys(s, seat)
        if not cowboys:
            continue
        payment: Payment = {"seat": seat, "cowboys": cowboys, "amount": WAGE_PER_COWBOY * cowboys}
        if s.wages_chosen.get(seat, False):
            payment["amount"] = WAGE_PER_COWBOY * (cowboys - 1) - HORSE_PRICE
            payment["horse"] = True
        payments.append(payment)
    return payments


def horses_vp(p: PlayerState) -> int:
    """The horses' VP at the end of the game (`004` "Final de la partida": one VP per horse)."""
    return HORSE_VP * p.horses
