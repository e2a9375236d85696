"""What each decision asks of a player, in words: one phrase per decision, read as "you must …", "waiting for Ann
to …" or "your turn in Table 3: …".

Words are presentation, yet this table lives in the rules core because the core is the lowest layer that needs
it: an IllegalMove names the decision the move did not fit ("you must place a cowboy or pass"). The game page and
the mails read the same table, so a player meets one wording wherever a decision is named.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Final

from app.rules.decisions import Decision

DECISION_PHRASES: Final[Mapping[Decision, str]] = {
    Decision.VOTE: "vote on the side of each personality card (secret until everyone has voted)",
    Decision.START_PARCEL: "choose a starting parcel",
    Decision.SHOPPING: "fill your basket for A New Beginning (secret until everyone is done)",
    Decision.PARCEL_PICK: "place one of the parcels you bought",
    Decision.PLACE_CITY_HALL: "place the City Hall, just drawn from the bag, on an owner-free parcel",
    Decision.OUTLAW_ORDER: "choose which outlaw moves next",
    Decision.PERSONALITY: "choose a personality",
    Decision.SETTLER: "take a parcel with the Settler",
    Decision.SETTLER_RED: "choose the Settler's option",
    Decision.GROCER: "choose the Grocer's option",
    Decision.GROCER_RED: "choose the Grocer's option",
    Decision.CAPTAIN: "hire cowboys with the Captain",
    Decision.CAPTAIN_RED: "buy revolvers with the Captain",
    Decision.CHINESE_WORKER_RED: "take a building with the Chinese Worker or decline",
    Decision.PROSPECTOR: "pay $10 for a mine with the Prospector and choose its parcel",
    Decision.GOVERNOR_RED: "choose the Governor's tax: on revolvers or on money",
    Decision.AUCTION_PARCELS: "choose an owner-free parcel for the Auctioneer's auction",
    Decision.NEWSPAPER_BOY: "choose the card the Newspaper Boy copies (any other card of the game but the Sheriff)",
    Decision.AUCTION_BID: "bid more than the last bid in the Auctioneer's auction, or pass for good",
    Decision.PLACEMENT: "place a cowboy or pass",
    Decision.DUEL_TILE: "choose a duel tile (secret until every duellist has chosen)",
    Decision.CHOOSE_DUEL: "choose which duel is fought next",
    Decision.BUY_PARCEL: "buy or decline a parcel",
    Decision.BUY_BUILDING: "buy or decline the building",
    Decision.CONSTRUCT: "build: place roads, ask for permission, place the building or its house",
    Decision.PERMISSION: "answer a request to build a house on your parcels",
    Decision.BUY_VP: "choose how many victory points to buy",
    Decision.OUTLAW_REWARD: "take the beaten outlaw's victory points or half the income of its building",
    Decision.REROLL: "roll again in this duel with the Gunsmith, or keep your roll",
    Decision.DYNAMITE: "triple a mine's income with a dynamite chip, or keep your chips",
    Decision.DOCTOR: "decide whether the Doctor moves your defeated cowboy to a place still to come",
    Decision.UNDERTAKER: "pay the Undertaker $2 or 1 victory point for your defeated cowboy",
    Decision.HORSE: "pay $4 for a horse at Wages instead of taking $4, or take your wages",
    Decision.BANKER_VP: "choose how many victory points to buy with the Banker",
    Decision.CASH_LIMIT: "give up the money above your cash limit",
    Decision.FINAL_ROADS: "place your remaining roads, or stop",
}

_SECOND_PERSON: Final = re.compile(r"\byour\b|\byou\b")


def third_person(phrase: str) -> str:
    """A decision's phrase said of someone else ("waiting for Ann to keep their roll"): the same words with "you"
    and "your" turned to "they" and "their"."""
    return _SECOND_PERSON.sub(lambda m: {"your": "their", "you": "they"}[m.group(0)], phrase)
