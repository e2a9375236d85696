"""Big Box's Heroes (`004` "Los héroes"; RULING X5): for the round, the holder's buildings can be neither attacked
nor hurt by outlaws, and the holder attacks nobody's buildings.

One question, asked by the rules it changes: placement (no attack on, and none by, the holder), the outlaws'
choice of building (they see the holder's buildings as earning nothing), an outlaw's halving at the estate income
(the holder earns in full) and an outlaw fight's reward (no half income from, nor for, the holder; decision D92).
"""

from __future__ import annotations

from app.rules.model import GameState


def shielded(s: GameState, seat: int | None) -> bool:
    """Whether `seat` holds the Heroes this round (a Newspaper Boy copying them included, RULING X2). Only Big
    Box has the card, so other games never look further."""
    if seat is None or not s.config.big_box:
        return False
    side = s.side(seat)
    return side is not None and side.protected_buildings
