"""The event vocabulary: what can happen in a game, in the past tense, one line each.

Events are the only persisted truth (a game is the fold of its events, `evolve`). Their type names are stable:
a renamed or reshaped event needs an upcaster for the logs already stored. `SCHEMA_VERSION` is written into
every game's first event, so a reader knows which shapes a log uses. What a viewer may see of each event is
decided by `view.redact_event`; whether a viewer may know of an event at all, by `private_to` below.
"""

from __future__ import annotations

from typing import Any, Final

SCHEMA_VERSION: Final = 1

EVENTS: Final[dict[str, str]] = {
    # setup
    "game_started": "the game was set up: players, variant settings, the sides of the cards (schema version)",
    "turn_order_drawn": "the initial turn order was drawn",
    "centre_placed": "the centre of Carson City was rolled (house and four roads)",
    "mountains_placed": "the mountains were rolled (every roll, re-rolls included)",
    "construction_refilled": "the construction squares were slid and refilled from the bag (the draws)",
    "tiles_dealt": "Might Is Right: the duel tiles were dealt (each hand is secret)",
    "side_voted": "a player voted on one card's side (secret until all voted)",
    "sides_decided": "the vote was counted: the sides, every vote, the cards drawn on a tie",
    "shop_item_added": "A New Beginning: an item went into a basket (secret)",
    "shop_item_removed": "A New Beginning: an item was taken back out of a basket (secret)",
    "shopping_finished": "A New Beginning: a player finished shopping",
    "shopping_revealed": "A New Beginning: every basket was revealed and paid",
    "parcel_pick_forfeited": "A New Beginning: a parcel pick could not be placed and was refunded",
    "parcel_claimed": "a parcel was taken: a starting parcel, the Settler's or a pick",
    # personalities
    "personality_chosen": "a player chose a personality (and what it gave at once)",
    "card_option_chosen": "a personality's option was chosen (Grocer, red Settler, red Grocer)",
    "cowboys_hired": "the Captain hired cowboys",
    "revolvers_bought": "the red Captain bought revolvers",
    "building_taken": "the red Chinese Worker took a building",
    "card_decision_declined": "a personality's offer was declined",
    "placement_order_set": "the placement order of the round was set by the card numbers",
    # placement
    "cowboy_placed": "a cowboy (or the white cowboy) was placed on a square, parcel or building",
    "player_passed": "a player passed",
    # resolution
    "step_completed": "a step of the round ended; the next one with something to do begins",
    "wages_paid": "Wages were paid",
    "roads_handed_out": "the Road square handed out roads",
    "duel_order_chosen": "the earliest passer chose which contested parcel or building is next",
    "duel_tile_chosen": "Might Is Right: a duellist chose a tile (secret until the duel)",
    "duel_fought": "a duel was fought: every die or tile, firepower and strength, and the winner",
    "tiles_drawn": "Might Is Right: an empty hand drew tiles from the used pile (secret)",
    "chip_taken": "the 3-guns chip was taken",
    "roads_gained": "roads were gained (3 Roads)",
    "money_gained": "money was gained (an income square, the Grocer, a card)",
    "vp_gained": "victory points were scored (a VP square, a red card)",
    "vp_bought": "victory points were bought",
    "action_declined": "the winner of a square did not use it",
    "parcel_bought": "a parcel was bought",
    "parcel_purchase_declined": "a parcel was not bought",
    "building_bought": "a building was bought",
    "building_purchase_declined": "a building was not bought",
    "construction_started": "a player began building from their reserve",
    "road_placed": "a road (or a bridge) was placed",
    "permission_asked": "a builder asked a player for permission to build a house on their parcels",
    "permission_answered": "the asked player granted or denied one parcel",
    "permission_denied_rest": "the asked player denied every parcel not answered yet",
    "building_placed": "a building was placed",
    "house_placed": "a building's house was placed",
    "townhouse_placed": "Gold & Guns: instead of a building's new house, a house became a townhouse",
    "building_kept": "a building was kept in reserve (or building from the reserve ended)",
    "attack_cancelled": "a church next to an attacked building cancelled the attack",
    "building_defended": "a building's defender kept its income",
    "attack_won": "an attack on a building succeeded",
    "estate_income_paid": "the estate income of every building was paid (and what attackers took)",
    # end of round and game
    "banker_vp_bought": "the red Banker bought victory points",
    "money_given_up": "money above the cash limit was given up for VP",
    "cowboys_received": "new cowboys were received",
    "round_ended": "the round ended: cards, white cowboy and chip returned",
    "final_roads_finished": "The River: a player ended the final road phase",
    "game_finished": "the game ended: each player's score and the winner",
    # the table
    "seat_replaced": "an admin gave a seat to another player (the seat, the previous and the new username)",
}

# Events that nobody but their own `seat` may know of at all, not even that they happened: A New Beginning's
# basket edits are hidden "until everyone is done" (RULING V4), and their number would tell the others how
# full a basket is. The reveal (`shopping_revealed`) then shows every basket. The store counts these by their
# type and `seat` field too (a viewer's seq numbers skip them), so an entry here is all a new one needs.
PRIVATE_EVENTS: Final = frozenset({"shop_item_added", "shop_item_removed"})


def private_to(event: dict[str, Any]) -> int | None:
    """The only seat that may know of `event`, or None when everyone may (redacted as `redact_event` says)."""
    if event["type"] in PRIVATE_EVENTS:
        seat: int = event["seat"]
        return seat
    return None
