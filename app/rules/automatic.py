"""Moves made for a seat without asking it, so that nobody waits for a choice that is not one (API.md "Further
additions", issue 26): `decide.advance` plays them at once, in the same write as what led to them, and marks the
first event of each with why (`events.Automatic`), so the log says the move was made for the player.

- `only_move`: the seat has exactly one legal move (decision D1, RULING B10) — unless that one move is a secret's
  (a Might Is Right hand of several tiles, D31; a secret basket);
- `answered_ahead`: the player answered ahead of time — "buy it if I win and can pay" with the cowboy placed on
  the parcel (D106), or how cash above the limit is given up, in their settings (D107);
- `standing_answer`: the asked player's standing answer to permission requests in this game (D108).

What the players answered ahead outside the log (the standing answers, the cash limit) comes in as `Answers`: the
server's settings of each seat, never part of the game's state; the purchase asked for with a cowboy is in the
state (`Cowboy.buy`). Each answer is a legal move of the seat, so replaying or auditing the log needs none of it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Final, Literal, get_args

from app.rules.cash_limit import cash_limit
from app.rules.catalog import CASH_LIMIT_MONEY_PER_VP
from app.rules.decisions import Awaiting, Decision
from app.rules.duels import purchase_singles
from app.rules.events import Automatic
from app.rules.legal import legal_moves_view
from app.rules.model import GameState
from app.rules.spots import xy

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move

PermissionAnswer = Literal["ask", "allow", "deny"]
CashLimitAnswer = Literal["ask", "least", "round_up"]
PERMISSION_ANSWERS: Final[tuple[PermissionAnswer, ...]] = get_args(PermissionAnswer)
CASH_LIMIT_ANSWERS: Final[tuple[CashLimitAnswer, ...]] = get_args(CashLimitAnswer)


@dataclass(frozen=True, slots=True)
class Answers:
    """What each seat answered ahead of time outside the game's log, by seat (a seat beyond a tuple asks), and
    whether lone moves are played at once — always on a table; off only to measure a game without any automatic
    move (`bench/handoffs.py`)."""

    permission: tuple[PermissionAnswer, ...] = ()
    cash_limit: tuple[CashLimitAnswer, ...] = ()
    only_moves: bool = True

    def permission_of(self, seat: int) -> PermissionAnswer:
        return self.permission[seat] if seat < len(self.permission) else "ask"

    def cash_limit_of(self, seat: int) -> CashLimitAnswer:
        return self.cash_limit[seat] if seat < len(self.cash_limit) else "ask"


ASK: Final = Answers()  # everyone is asked whatever may be asked: the rules' own behaviour


def automatic_move(s: GameState, waiting: Awaiting, answers: Answers = ASK) -> tuple[int, Move, Automatic] | None:
    """The first awaited seat whose move is made for it, that move and why; None when every awaited seat is to be
    asked."""
    for seat in waiting.seats:
        moves = legal_moves_view(s, seat, waiting)
        if answers.only_moves and len(moves) == 1 and not asking_keeps_a_secret(s, seat, moves[0]):
            return seat, moves[0], "only_move"
        answer = ANSWERED.get(waiting.kind)
        if answer is not None:
            made = answer(s, seat, answers)
            if made is not None:
                move, why = made
                assert move in moves, f"an answer given ahead must be a legal move: {move}"
                return seat, move, why
    return None


SECRET_BASKET_MOVES: Final = frozenset({"shop_add", "shop_remove", "shop_done"})  # A New Beginning (RULING V4)


def asking_keeps_a_secret(s: GameState, seat: int, move: Move) -> bool:
    """Whether the seat must be asked although it has one choice, because playing it for them would tell the
    table something hidden: a duel tile chosen from a hand of several tiles of one value (D31) — everyone sees how
    many tiles a hand holds, so a lone tile may be played at once; several tiles of one value may not, or the
    others would learn what was drawn (RULING V2: "nobody can work out which tiles another player drew") —; and
    any move of a secret basket, whose number of choices depends on what is in it (RULING V4; a basket always
    offers two, so this only keeps it so)."""
    if move["type"] == "play_tile":
        return len(s.players[seat].tiles) > 1
    return move["type"] in SECRET_BASKET_MOVES


def needs_answers(waiting: Awaiting | None) -> bool:
    """Whether the seats' answers outside the log could decide something here: the server reads them only then."""
    return waiting is not None and waiting.kind in OUTSIDE_THE_LOG


# --- the decisions answered ahead -----------------------------------------------------------------------------


def _purchase_ahead(s: GameState, seat: int, answers: Answers) -> tuple[Move, Automatic] | None:
    """A parcel won by a cowboy placed with "buy it if I win and can pay" (D106): bought when the seat can pay for
    it, declined when it cannot; the parcels in board order (the player ordered nothing)."""
    for index in purchase_singles(s, seat):
        for c in s.parcel_cowboys[index]:  # plain loops: asked of every lone cowboy at every purchase
            if c.buy and c.seat == seat:
                buy: Move = {"type": "buy_parcel", **xy(index)}
                if buy in legal_moves_view(s, seat):
                    return buy, "answered_ahead"
                return {"type": "decline_parcel", **xy(index)}, "answered_ahead"
    return None


def _cash_limit_ahead(s: GameState, seat: int, answers: Answers) -> tuple[Move, Automatic] | None:
    """The cash limit as the player's settings say (D107): give up the excess only (`least`), or the excess
    rounded up to the next $10 that scores one more VP, as far as the money goes (`round_up`)."""
    answer = answers.cash_limit_of(seat)
    if answer == "ask":
        return None
    money = s.players[seat].money
    limit = cash_limit(s, seat)
    assert limit is not None
    excess = money - limit
    step = CASH_LIMIT_MONEY_PER_VP
    amount = excess if answer == "least" else min(money, -(-excess // step) * step)
    return {"type": "give_up_money", "amount": amount}, "answered_ahead"


def _standing_permission(s: GameState, seat: int, answers: Answers) -> tuple[Move, Automatic] | None:
    """The asked player's standing answer (D108): `allow` grants the parcels one by one, as B12 answers them;
    `deny` denies them all at once."""
    answer = answers.permission_of(seat)
    if answer == "ask":
        return None
    if answer == "deny":
        return {"type": "deny_remaining"}, "standing_answer"
    assert s.work is not None and s.work.request is not None
    return {"type": "answer_permission", **xy(s.work.request.open[0]), "grant": True}, "standing_answer"


# The decisions a player may answer ahead of time, and how their answer is read.
ANSWERED: Final[dict[Decision, Callable[[GameState, int, Answers], tuple[Move, Automatic] | None]]] = {
    Decision.BUY_PARCEL: _purchase_ahead,
    Decision.CASH_LIMIT: _cash_limit_ahead,
    Decision.PERMISSION: _standing_permission,
}
# Of those, the ones answered by the server's settings rather than by the game's state.
OUTSIDE_THE_LOG: Final = frozenset({Decision.CASH_LIMIT, Decision.PERMISSION})
