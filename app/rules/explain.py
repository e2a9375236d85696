"""Why a move is not legal, in words a player understands.

Legality itself is decided only by `legal_moves`; this module merely finds the most helpful code and sentence
for a move that is not in that list.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Final

from app.rules.board import is_on_board, parcel_index
from app.rules.decisions import Awaiting, Decision
from app.rules.errors import N_, IllegalMove, IllegalMoveCode
from app.rules.model import GameState
from app.rules.phrases import DECISION_PHRASES
from app.rules.registry import LEGAL

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import MoveType


# Refusals that depend only on the move's type, once its type fits the decision (`{what}`: what the decision
# asks); any other move type gets the general refusal.
_AMOUNT: Final = (IllegalMoveCode.AMOUNT_NOT_ALLOWED, N_("That amount is not possible: you must {what}."))
_REFUSALS: Final[Mapping[MoveType, tuple[IllegalMoveCode, str]]] = {
    "play_tile": (IllegalMoveCode.TILE_NOT_IN_HAND, N_("You can only play a duel tile you hold.")),
    "shop_add": (IllegalMoveCode.CANNOT_BUY_ITEM,
                 N_("That item is not for sale to you now: too expensive or at its limit.")),
    "buy_vp": _AMOUNT,
    "give_up_money": _AMOUNT,
    "hire_cowboys": _AMOUNT,
    "buy_revolvers": _AMOUNT,
    "banker_vp": _AMOUNT,
    "bid": _AMOUNT,
    "place_road": (IllegalMoveCode.ROAD_NOT_ALLOWED,
                   N_("A road must lie on a free edge that extends the roads already on the board, you need a road "
                      "in your reserve, and roads are placed only while constructing a building that must be "
                      "connected (not a ranch or a mine).")),
}
_REFUSED: Final = (IllegalMoveCode.ILLEGAL_MOVE, N_("That move is not allowed now: you must {what}."))
_CLAIMS: Final[tuple[MoveType, ...]] = ("claim_parcel", "buy_parcel")


def _legal_types(s: GameState, seat: int, waiting: Awaiting) -> set[str]:
    return {m["type"] for m in LEGAL[waiting.kind](s, seat, waiting)}


def _parcel_reason(s: GameState, seat: int, kind: MoveType, move: dict[str, Any]) -> IllegalMove | None:
    x, y = move.get("x"), move.get("y")
    if not isinstance(x, int) or not isinstance(y, int) or not is_on_board(x, y):
        return IllegalMove(IllegalMoveCode.NO_SUCH_PARCEL, "Parcels are numbered 1 to 8 in both directions.")
    parcel = s.parcels[parcel_index(x, y)]
    if parcel.river:
        return IllegalMove(IllegalMoveCode.RIVER_PARCEL, "Parcel ({x}, {y}) is on the river.", x=x, y=y)
    if kind in _CLAIMS and parcel.owner is not None:
        return IllegalMove(IllegalMoveCode.PARCEL_TAKEN, "Parcel ({x}, {y}) already belongs to a player.", x=x, y=y)
    if kind == "place_building":
        if parcel.owner != seat:
            return IllegalMove(IllegalMoveCode.PARCEL_NOT_OWNED, "Parcel ({x}, {y}) is not yours.", x=x, y=y)
        if parcel.content is not None:
            return IllegalMove(IllegalMoveCode.PARCEL_OCCUPIED, "Parcel ({x}, {y}) is not empty.", x=x, y=y)
        return IllegalMove(IllegalMoveCode.CANNOT_BUILD_HERE,
                           "You cannot build there: the parcel needs a road, or no parcel is left for the house.")
    if kind == "place_house" and parcel.content is not None:
        return IllegalMove(IllegalMoveCode.PARCEL_OCCUPIED, "Parcel ({x}, {y}) is not empty.", x=x, y=y)
    return None


def explain_illegal(s: GameState, seat: int, move: object, waiting: Awaiting | None) -> IllegalMove:
    if s.step == "finished":
        return IllegalMove(IllegalMoveCode.GAME_FINISHED, "The game is over.")
    if waiting is None or seat not in waiting.seats:
        if waiting is None:
            return IllegalMove(IllegalMoveCode.NOT_YOUR_TURN, "It is not your turn: the game waits for nobody.")
        who = ", ".join(str(x) for x in waiting.seats)
        return IllegalMove(IllegalMoveCode.NOT_YOUR_TURN, "It is not your turn: the game waits for seat {who}.",
                           who=who)
    what = DECISION_PHRASES[waiting.kind]
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return IllegalMove(IllegalMoveCode.MALFORMED_MOVE, 'A move is a JSON object with a "type".')
    if move["type"] == "place_cowboy" and waiting.kind == Decision.PLACEMENT and s.players[seat].cowboys == 0:
        # Before the type check: with an empty reserve 'place_cowboy' is never listed (the Sheriff may still
        # place the white cowboy), and "you must place a cowboy or pass" would mislead.
        return IllegalMove(IllegalMoveCode.NO_COWBOYS_LEFT,
                           "You have no cowboy left in your reserve: you can only pass.")
    if move["type"] not in _legal_types(s, seat, waiting):
        return IllegalMove(IllegalMoveCode.WRONG_DECISION, "'{type}' is not possible now: you must {what}.",
                           type=move["type"], phrases={"what": what})
    kind: MoveType = move["type"]  # one of the listed types now
    if "x" in move or "y" in move:
        reason = _parcel_reason(s, seat, kind, move)
        if reason is not None:
            return reason
    code, message = _REFUSALS.get(kind, _REFUSED)
    return IllegalMove(code, message, phrases={"what": what} if "{what}" in message else None)
