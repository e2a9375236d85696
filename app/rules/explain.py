"""Why a move is not legal, in words a player understands.

Legality itself is decided only by `legal_moves`; this module merely finds the most helpful code and sentence
for a move that is not in that list.
"""

from __future__ import annotations

from typing import Any

from app.rules.board import is_on_board, parcel_index
from app.rules.errors import IllegalMove
from app.rules.model import GameState

DECISIONS = {
    "start_parcel": "choose a starting parcel",
    "personality": "choose a personality",
    "settler": "take a parcel with the Settler",
    "grocer": "choose the Grocer's option",
    "captain": "hire cowboys with the Captain",
    "chinese_worker_red": "take a building with the Chinese Worker or decline",
    "settler_red": "choose the Settler's option",
    "grocer_red": "choose the Grocer's option",
    "captain_red": "buy revolvers with the Captain",
    "placement": "place a cowboy or pass",
    "choose_duel": "choose which duel is fought next",
    "buy_parcel": "buy or decline a parcel",
    "buy_building": "buy or decline the building",
    "construct": "build: place roads, ask for permission, place the building or its house",
    "permission": "answer a request to build a house on your parcels",
    "buy_vp": "choose how many victory points to buy",
    "banker_vp": "choose how many victory points to buy with the Banker",
    "cash_limit": "give up the money above your cash limit",
    "vote": "vote on the side of each personality card",
    "duel_tile": "choose the duel tile you play in this duel",
    "shopping": "do your shopping for A New Beginning",
    "parcel_pick": "place one of the parcels you bought",
    "final_roads": "place your remaining roads or finish",
}


def _legal_types(s: GameState, seat: int, kind: str) -> set[str]:
    from app.rules.legal import MOVES_BY_KIND

    return {m["type"] for m in MOVES_BY_KIND[kind](s, seat)}


def _parcel_reason(s: GameState, seat: int, move: dict[str, Any]) -> IllegalMove | None:
    x, y = move.get("x"), move.get("y")
    if not isinstance(x, int) or not isinstance(y, int) or not is_on_board(x, y):
        return IllegalMove("no_such_parcel", "Parcels are numbered 1 to 8 in both directions.")
    parcel = s.parcels[parcel_index(x, y)]
    if parcel.river:
        return IllegalMove("river_parcel", f"Parcel ({x}, {y}) is on the river.")
    if move["type"] in ("claim_parcel", "buy_parcel") and parcel.owner is not None:
        return IllegalMove("parcel_taken", f"Parcel ({x}, {y}) already belongs to a player.")
    if move["type"] == "place_building":
        if parcel.owner != seat:
            return IllegalMove("parcel_not_owned", f"Parcel ({x}, {y}) is not yours.")
        if parcel.content is not None:
            return IllegalMove("parcel_occupied", f"Parcel ({x}, {y}) is not empty.")
        return IllegalMove("cannot_build_here",
                           "You cannot build there: the parcel needs a road, or no parcel is left for the house.")
    if move["type"] == "place_house" and parcel.content is not None:
        return IllegalMove("parcel_occupied", f"Parcel ({x}, {y}) is not empty.")
    return None


def explain_illegal(s: GameState, seat: int, move: object, waiting: Any) -> IllegalMove:
    if s.step == "finished":
        return IllegalMove("game_finished", "The game is over.")
    if waiting is None or seat not in waiting.seats:
        who = ", ".join(str(x) for x in waiting.seats) if waiting else "nobody"
        return IllegalMove("not_your_turn", f"It is not your turn: the game waits for seat {who}.")
    what = DECISIONS.get(waiting.kind, waiting.kind)
    if not isinstance(move, dict) or not isinstance(move.get("type"), str):
        return IllegalMove("malformed_move", 'A move is a JSON object with a "type".')
    if move["type"] == "place_cowboy" and waiting.kind == "placement" and s.players[seat].cowboys == 0:
        # Before the type check: with an empty reserve 'place_cowboy' is never listed (the Sheriff may still
        # place the white cowboy), and "you must place a cowboy or pass" would mislead.
        return IllegalMove("no_cowboys_left", "You have no cowboy left in your reserve: you can only pass.")
    if move["type"] not in _legal_types(s, seat, waiting.kind):
        return IllegalMove("wrong_decision", f"'{move['type']}' is not possible now: you must {what}.")
    if "x" in move or "y" in move:
        reason = _parcel_reason(s, seat, move)
        if reason is not None:
            return reason
    if move["type"] == "play_tile":
        return IllegalMove("tile_not_in_hand", "You can only play a duel tile you hold.")
    if move["type"] == "shop_add":
        return IllegalMove("cannot_buy_item", "That item is not for sale to you now: too expensive or at its limit.")
    if move["type"] in ("buy_vp", "give_up_money", "hire_cowboys", "buy_revolvers", "banker_vp"):
        return IllegalMove("amount_not_allowed", f"That amount is not possible: you must {what}.")
    if move["type"] == "place_road":
        return IllegalMove("road_not_allowed",
                           "A road must lie on a free edge that extends the roads already on the board, "
                           "you need a road in your reserve, and roads are placed only while constructing a "
                           "building that must be connected (not a ranch or a mine).")
    return IllegalMove("illegal_move", f"That move is not allowed now: you must {what}.")
