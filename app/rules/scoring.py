"""Final scoring (`000` "End Of The Game"; RULING B17): 2 VP per building, house and mountain on one's own
parcels, 1 VP per $6; buildings kept in reserve and empty parcels score nothing. Ties go to the tied player who
passed earliest in round 4."""

from __future__ import annotations

from app.rules.board import CORNERS
from app.rules.catalog import (
    BRIDGE_VP_PER_ITEM,
    BUILDINGS,
    FINAL_MONEY_PER_VP,
    FINAL_VP_PER_ITEM,
    KIT_CARSON_VP_PER_PLAYER,
)
from app.rules.construction import is_bridge
from app.rules.horses import horses_vp
from app.rules.model import GameState
from app.rules.station import station_vp

# The score part of each piece that is not a building; a townhouse scores as one house piece (RULING G6).
_SCORE_PARTS = {"house": "houses", "townhouse": "houses", "mountain": "mountains"}


def _bridge_parcels(s: GameState) -> set[int]:
    """Parcels touching the end point of a bridge (RULING V3)."""
    points = {(x, y) for x1, y1, x2, y2 in s.roads if is_bridge(s, (x1, y1, x2, y2)) for x, y in ((x1, y1), (x2, y2))}
    if not points:
        return set()
    return {i for i in range(len(s.parcels)) if not points.isdisjoint(CORNERS[i])}


def piece_vp(s: GameState, index: int) -> int:
    """What a building, house or mountain on parcel `index` scores for its owner at the game's end if the roads
    stay as they are now (RULING B17; beside a bridge's end, RULING V3): the figure a permission request names."""
    return _item_vp(index, _bridge_parcels(s))


def _item_vp(index: int, bridged: set[int]) -> int:
    return BRIDGE_VP_PER_ITEM if index in bridged else FINAL_VP_PER_ITEM


def kit_carson_vp(s: GameState, seat: int) -> int:
    """Kit Carson (RULING X4): 1 VP per player behind `seat` on the turn-order track at the end — the order in
    which round 4's players passed, the track's lower row (`000`: the "lowest turn order ... on the turn order
    track (ie the player who passed earliest)"; decision D88)."""
    order = s.passing_order
    return KIT_CARSON_VP_PER_PLAYER * (len(order) - 1 - order.index(seat))


def final_scores(s: GameState) -> tuple[list[dict[str, int]], int]:
    bridged = _bridge_parcels(s)
    scores: list[dict[str, int]] = []
    for p in s.players:
        counts = {"buildings": 0, "houses": 0, "mountains": 0}
        for index, parcel in enumerate(s.parcels):
            if parcel.owner != p.seat or parcel.content is None:
                continue
            kind = "buildings" if parcel.content in BUILDINGS else _SCORE_PARTS[parcel.content]
            counts[kind] += _item_vp(index, bridged)
        score = {"during_game": p.vp, **counts, "money": p.money // FINAL_MONEY_PER_VP}
        if s.config.gold_and_guns:
            score["station"] = station_vp(s, p.seat)
        if s.config.outlaws:  # the VP won from outlaws, kept apart from the rest of the game's (API "outlaws")
            score["during_game"] -= p.outlaw_vp
            score["outlaws"] = p.outlaw_vp
        if s.config.horses:  # Big Box: 1 VP per horse (`004` "Final de la partida", RULING X6)
            score["horses"] = horses_vp(p)
        if s.config.kit_carson:
            score["kit_carson"] = kit_carson_vp(s, p.seat)
        score["total"] = sum(score.values())
        scores.append(score)
    best = max(score["total"] for score in scores)
    tied = [seat for seat, score in enumerate(scores) if score["total"] == best]
    winner = min(tied, key=s.passing_order.index)
    return scores, winner
