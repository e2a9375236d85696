"""The move the site makes for a player whose clock ran out: the safest legal move.

Safest means: never spend or give away anything (money, VP, roads, cowboys, revolvers) while a move that costs
nothing is listed — pass, decline, deny, keep, stop, place the free house of a building already standing, buy
nothing, give up only the money the cash limit requires. Where a choice cannot be avoided (a starting parcel, a
personality, a duel tile), the first listed option is taken, or the smallest amount.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Any

from app.rules.board import parcel_index
from app.rules.legal import legal_moves_view
from app.rules.model import GameState

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, MoveType

# Moves that cost nothing, in order of preference. Placing the house finishes a construction whose building
# already stands: the house is free, while the same decision also lists roads, which cost one each (RULING B4);
# with Gold & Guns a townhouse may stand in for that house, just as free (RULING G6).
_SAFE_TYPES: tuple[MoveType, ...] = (
    "pass",
    "bid_pass",
    "decline",
    "decline_parcel",
    "keep_building",
    "place_house",
    "place_townhouse",
    "deny_remaining",
    "finish_roads",
    "shop_done",
    "keep_dynamite",
    "keep_roll",
)
# Amount-like fields: the smallest listed value is the safest.
_AMOUNTS = ("count", "amount", "vp", "tile")
# Choices with a clear safest option.
_PREFERRED: tuple[Move, ...] = (
    {"type": "grocer_choice", "option": "money_now"},
    {"type": "card_option", "option": "money"},
    {"type": "outlaw_reward", "reward": "vp"},  # it takes nothing from anyone
    {"type": "pay_undertaker", "pay": "money"},  # $2 is worth less than a VP (6 at the end, `000` "End Of The Game")
)


def _gives_away(s: GameState, seat: int, move: Mapping[str, Any]) -> bool:
    """Whether the move hands something to another player: a house (or townhouse) on a parcel another player
    granted belongs to that parcel's owner (RULINGS B12, G19), so the builder's own or an owner-free parcel comes
    first."""
    if move["type"] not in ("place_house", "place_townhouse"):
        return False
    owner = s.parcels[parcel_index(move["x"], move["y"])].owner
    return owner is not None and owner != seat


def default_move(s: GameState, seat: int) -> dict[str, Any] | None:
    """The move to make for `seat` when its time is up (a copy the caller may keep); None when nothing is
    awaited from it. The moves are read by field name here, whatever their type."""
    moves: Sequence[Mapping[str, Any]] = legal_moves_view(s, seat)
    if not moves:
        return None
    for safe in _SAFE_TYPES:
        candidates = [m for m in moves if m["type"] == safe]
        if candidates:
            best = min(candidates, key=lambda m: _gives_away(s, seat, m))
            return dict(best)
    for preferred in _PREFERRED:
        if preferred in moves:
            return dict(preferred)
    for field in _AMOUNTS:
        with_amount = [m for m in moves if field in m]
        if with_amount:
            return dict(min(with_amount, key=lambda m: m[field]))
    return dict(moves[0])
