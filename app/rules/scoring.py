"""Final scoring (`000` "End Of The Game"; RULING B17): 2 VP per building, house and mountain on one's own
parcels, 1 VP per $6; buildings kept in reserve and empty parcels score nothing. Ties go to the tied player who
passed earliest in round 4."""

from __future__ import annotations

from app.rules.catalog import BUILDINGS, FINAL_MONEY_PER_VP, FINAL_VP_PER_ITEM
from app.rules.model import GameState


def final_scores(s: GameState) -> tuple[list[dict[str, int]], int]:
    scores: list[dict[str, int]] = []
    for p in s.players:
        owned = [parcel.content for parcel in s.parcels if parcel.owner == p.seat]
        buildings = sum(1 for c in owned if c in BUILDINGS)
        houses = sum(1 for c in owned if c == "house")
        mountains = sum(1 for c in owned if c == "mountain")
        score = {
            "during_game": p.vp,
            "buildings": FINAL_VP_PER_ITEM * buildings,
            "houses": FINAL_VP_PER_ITEM * houses,
            "mountains": FINAL_VP_PER_ITEM * mountains,
            "money": p.money // FINAL_MONEY_PER_VP,
        }
        score["total"] = sum(score.values())
        scores.append(score)
    best = max(score["total"] for score in scores)
    tied = [seat for seat, score in enumerate(scores) if score["total"] == best]
    winner = min(tied, key=s.passing_order.index)
    return scores, winner
