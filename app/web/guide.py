"""Help on everything at the table, in our own words from the rule documents (`000` "Actions", "Buildings",
"Variants"; `001` "New Buildings"; RULINGS B6-B16, V1-V4, G2-G6): what each action square, building and variant
does and what it costs. The table shows these on hover, focus and tap; the rules page (`/rules`) reads them too,
so a player meets one wording everywhere.

The numbers come from the catalog, never typed twice: a correction to a price changes the help with it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Final

from app.i18n import N_, gettext
from app.rules.catalog import (
    AMMUNITION_FIREPOWER,
    BANK_PER_HOUSE,
    BANK_PER_MINE,
    BLACKSMITH_PER_RANCH,
    BLACKSMITH_PER_ROUND,
    BRIDGE_ROADS,
    BRIDGE_VP_PER_ITEM,
    BUILDINGS,
    BUY_VP_SQUARES,
    CASH_LIMIT_MONEY_PER_VP,
    CHARACTERS_IN_PLAY,
    CONSTRUCTION_SQUARES,
    COWBOY_INCOME_PER_FIREPOWER,
    DRUGSTORE_PER_HOUSE,
    DRUGSTORE_PER_RANCH,
    DUEL_TILE_VALUES,
    FINAL_MONEY_PER_VP,
    FINAL_VP_PER_ITEM,
    FIREPOWER_PER_VP,
    GENERAL_STORE_PER_OTHER_HOUSE,
    GENERAL_STORE_PER_OWN_HOUSE,
    HORSE_PRICE,
    HORSE_VP,
    HOTEL_INCOME,
    HOUSE_PIECES,
    HOUSES_SUPPLY,
    KIT_CARSON_VP_PER_PLAYER,
    MIGHT_REDRAW,
    MINE_PER_MOUNTAIN,
    NEW_BEGINNING_COWBOYS,
    NEW_BEGINNING_MONEY,
    NEW_COWBOYS,
    OUTLAW_COUNT,
    OUTLAW_ROUNDS,
    OUTLAW_VP,
    PARCEL_INCOME_PER_PARCEL,
    PARCELS_PER_VP,
    PERSONALITIES,
    RANCH_LEAST,
    RANCH_PER_EMPTY_PARCEL,
    RIVER_MOUNTAINS,
    ROUNDS,
    SALOON_PER_HOUSE,
    SQUARES,
    STATION_HOUSE_VALUES_PER_VP,
    THREE_ROADS,
    TRACK_STEPS,
    WAGE_PER_COWBOY,
)
from app.rules.config import EXPANSION_NAMES
from app.rules.townhouses import FULL_RING

# The track's steps that are not squares (where the cowboys on parcels and buildings are resolved).
STEP_NAMES: Final = {
    "parcel_purchase": N_("Parcel purchase"),
    "build_from_reserve": N_("Building from reserve"),
    "estate_income": N_("Estate income"),
}

DUEL = N_("One cowboy per player; if several players put a cowboy here they duel (die + firepower), and the "
          "winner acts.")
# The help texts below (and the templates' words about the rules, as `numbers`) are catalog messages whose
# `{fields}` are the catalog's numbers, filled in where they are shown (`square_help`, `building_help`, ...): a
# translation keeps the numbers of the rules core. A count the catalog holds as a table is read from it.
NUMBERS: Final = {
    "wage": WAGE_PER_COWBOY, "firepower": AMMUNITION_FIREPOWER, "roads": THREE_ROADS,
    "parcel_income": PARCEL_INCOME_PER_PARCEL, "cowboy_income": COWBOY_INCOME_PER_FIREPOWER,
    "parcels_per_vp": PARCELS_PER_VP, "firepower_per_vp": FIREPOWER_PER_VP,
    "ranch_rate": RANCH_PER_EMPTY_PARCEL, "ranch_least": RANCH_LEAST, "mine_rate": MINE_PER_MOUNTAIN,
    "drugstore_house": DRUGSTORE_PER_HOUSE, "drugstore_ranch": DRUGSTORE_PER_RANCH, "bank_house": BANK_PER_HOUSE,
    "bank_mine": BANK_PER_MINE, "saloon_house": SALOON_PER_HOUSE, "hotel": HOTEL_INCOME,
    **{f"{b.type}_revolvers": b.revolvers for b in BUILDINGS.values()},
    **{f"{b.type}_houses": b.house_value for b in BUILDINGS.values()},
    "school_built_with": BUILDINGS["school"].houses, "townhouse_houses": HOUSE_PIECES["townhouse"], "ring": FULL_RING,
    "station_per_vp": STATION_HOUSE_VALUES_PER_VP, "houses_supply": HOUSES_SUPPLY,
    "own_house": GENERAL_STORE_PER_OWN_HOUSE, "other_house": GENERAL_STORE_PER_OTHER_HOUSE,
    "per_round": BLACKSMITH_PER_ROUND, "per_ranch": BLACKSMITH_PER_RANCH, "horse_price": HORSE_PRICE,
    "horse_vp": HORSE_VP, "kit_vp": KIT_CARSON_VP_PER_PLAYER,
    "tile_low": min(DUEL_TILE_VALUES), "tile_high": max(DUEL_TILE_VALUES), "redraw": MIGHT_REDRAW,
    "river_mountains": RIVER_MOUNTAINS, "bridge_roads": BRIDGE_ROADS, "bridge_vp": BRIDGE_VP_PER_ITEM,
    "rounds": ROUNDS, "start_money": NEW_BEGINNING_MONEY, "start_cowboys": NEW_BEGINNING_COWBOYS,
    "in_play": CHARACTERS_IN_PLAY, "in_play_with_extra": CHARACTERS_IN_PLAY + 1,  # the Newspaper Boy's extra card
    "characters": sum(1 for card in PERSONALITIES.values() if card.expansion in (None, "gold_and_guns")),
    "outlaw_round": OUTLAW_ROUNDS[0], "outlaws_least": min(OUTLAW_COUNT.values()),
    "outlaws_most": max(OUTLAW_COUNT.values()), "strength_low": min(OUTLAW_VP), "strength_high": max(OUTLAW_VP),
    "cash_limit_step": CASH_LIMIT_MONEY_PER_VP, "new_cowboys_from": min(NEW_COWBOYS),
    "new_cowboys_to": max(NEW_COWBOYS), "final_vp": FINAL_VP_PER_ITEM, "final_money": FINAL_MONEY_PER_VP,
}
PRICES: Final = {c.square: c.price for c in CONSTRUCTION_SQUARES} | {b.square: b.price for b in BUY_VP_SQUARES}
_CONSTRUCTION = N_("The winner may buy the building on this square for ${price} (the yellow Chinese Worker pays "
                   "half, rounded up), then build it at once or keep it for later.")
_BUY_VP = N_("Buy as many victory points as you can pay for, ${price} each. The round counter closes the cheapest "
             "open square at the end of each round.")
SQUARE_TEXTS: Final[dict[str, str]] = {
    "wages": N_("Any number of cowboys of every player, and nobody duels here. Each cowboy earns ${wage}."),
    "ammunition": N_("The 3-revolvers chip: +{firepower} firepower for the rest of the round."),
    "three_roads": N_("Take {roads} roads from the supply into your reserve (fewer if the supply runs short)."),
    "road": N_("Any number of cowboys of every player, and nobody duels here. One road per cowboy."),
    "parcel_purchase": N_("Cowboys on owner-free parcels are resolved now: a lone cowboy may buy its parcel; several "
                          "players on one parcel duel first. A parcel costs a dollar, plus a dollar for each "
                          "building, house or mountain on it and around it."),
    **{c.square: _CONSTRUCTION for c in CONSTRUCTION_SQUARES},
    "build_from_reserve": N_("After the construction squares, everyone holding bought buildings may build them, in "
                             "placement order, one at a time."),
    "parcel_income": N_("${parcel_income} for each parcel you own."),
    "cowboy_income": N_("${cowboy_income} for each point of your firepower."),
    "gambling_income": N_("Roll two dice and receive their sum in dollars."),
    "estate_income": N_("Every building pays its owner. Cowboys on buildings are resolved first: an attacker who "
                        "wins (or meets no defender) takes half the building's income; a church protects its "
                        "owner's buildings around it."),
    "parcels_vp": N_("A victory point for every {parcels_per_vp} parcels you own."),
    "cowboy_vp": N_("A victory point for every {firepower_per_vp} points of firepower."),
    "estate_vp": N_("A victory point for each building on your parcels (houses and mountains do not count)."),
    **{b.square: _BUY_VP for b in BUY_VP_SQUARES},
}
# The squares where cowboys duel: their help ends with DUEL.
DUELLING: Final = frozenset(SQUARES) - {"wages", "road"}


def square_help(step: str, translate: Callable[[str], str] = gettext) -> str:
    """What a step of the track does, in the language spoken now (`translate=str`: in English)."""
    text = translate(SQUARE_TEXTS[step]).format(price=PRICES.get(step), **NUMBERS)
    return f"{text} {translate(DUEL)}" if step in DUELLING else text


SQUARE_HELP: Final[dict[str, str]] = {step: square_help(step, str) for step in SQUARE_TEXTS}

HOUSE_VALUES = N_("A neighbour counts as a house for your building if it is a house on your parcel or on an owner-free "
                 "one, or your ranch ({ranch_houses}) or church ({church_houses}), or your hotel ({hotel_houses}).")

BUILDING_HELP: Final[dict[str, str]] = {
    "ranch": N_("Earns ${ranch_rate} for each empty parcel around it (no building, house or mountain, whoever owns "
                "it), at least ${ranch_least}; counts as a house for your buildings around it. No road or house "
                "needed. Gives {ranch_revolvers} revolver when built."),
    "mine": N_("Earns ${mine_rate} for each mountain around it that is owner-free or yours. No road or house needed. "
               "Gives {mine_revolvers} revolver when built."),
    "drugstore": N_("Earns ${drugstore_house} for each house value around it, plus ${drugstore_ranch} for each ranch "
                    "you own anywhere. Needs a road; built with a house."),
    "bank": N_("Earns ${bank_house} for each house value around it, plus ${bank_mine} for each mine you own anywhere. "
               "Needs a road; built with a house."),
    "saloon": N_("Earns ${saloon_house} for each house value around it. Needs a road; built with a house."),
    "hotel": N_("Earns ${hotel}, and counts as {hotel_houses} houses for your buildings around it. Needs a road; "
                "built with a house."),
    "church": N_("Earns nothing, counts as a house for your buildings around it, and your buildings around it cannot "
                 "be attacked. It cannot be attacked itself. Needs a road; built with a house."),
    "prison": N_("Earns nothing; gives {prison_revolvers} revolvers when built. It cannot be attacked. Needs a road; "
                 "built with a house."),
    "station": N_("Stands beside a road that crosses the whole board in a straight line. At the end of the game: a "
                  "victory point for every {station_per_vp} house symbols in the whole city. Counts as "
                  "{station_houses} houses for your buildings around it."),
    "city_hall": N_("Nobody buys it: when drawn it is placed at once on an owner-free parcel. One cowboy may occupy "
                    "it (others duel for it) and stays there across rounds; the occupant's drugstores, banks, "
                    "saloons, general stores and blacksmiths earn one level more."),
    "school": N_("Earns nothing; counts as a house for the buildings around it. Needs a road; built with "
                 "{school_built_with} houses."),
    "general_store": N_("Earns ${own_house} for each of your house values around it and ${other_house} for each of "
                        "anyone else's. Needs a road; built with a house."),
    "blacksmith": N_("Earns ${per_round} × the round number, plus ${per_ranch} for each ranch you own. Needs a road; "
                     "built with a house."),
}


AT_MOST: Final = N_("At most ${cap}.")  # a building's printed maximum income


def building_help(kind: str, translate: Callable[[str], str] = gettext) -> str:
    """What a building does, with its printed maximum income when it has one, in the language spoken now."""
    row = BUILDINGS[kind]
    text = translate(BUILDING_HELP[kind]).format(**NUMBERS)
    if row.income_cap is None:
        return text
    return f"{text} {translate(AT_MOST).format(cap=row.income_cap)}"


PIECE_HELP: Final[dict[str, str]] = {
    "house": N_("A house: counts for the buildings around it (see each building). {houses_supply} in the supply."),
    "townhouse": N_("A townhouse: a house turned over when all {ring} parcels around it are taken; counts as "
                    "{townhouse_houses} houses."),
    "mountain": N_("A mountain: mines earn from it; it makes the parcels around it dearer."),
}

VARIANT_TEXTS: Final[dict[str, str]] = {
    "yellow": N_("Every personality card shows its yellow side, as in the base game."),
    "red": N_("Every personality card shows its red side: other powers, other cash limits."),
    "random": N_("Each card's side is drawn at random when the game starts."),
    "vote": N_("Before the first round every player votes, secretly, on the side of each card; the majority decides, "
               "a tie is drawn at random."),
    "might_is_right": N_("Duels are fought with duel tiles ({tile_low} to {tile_high}) instead of a die: each "
                         "duellist plays one in secret, then they are revealed together. An empty hand draws "
                         "{redraw} used tiles at random."),
    "river": N_("The board with the river: {river_mountains} mountains, river parcels nobody owns, bridges that take "
                "{bridge_roads} roads, {bridge_vp} VP for items next to a bridge, a bonus for mines by the water, and "
                "a last road phase after round {rounds}."),
    "new_beginning": N_("Everyone starts with ${start_money} and {start_cowboys} cowboy and no parcels, and shops in "
                        "secret before the first round: cowboys, revolvers, roads, victory points, parcel picks, a "
                        "marksman, or money for VP."),
    "gold_and_guns": N_("Townhouses, higher incomes, new kinds of building (station, City Hall, schools, general "
                        "stores, blacksmiths) and new characters: the Indian, the Prospector, the Gunsmith, the "
                        "Singer, the Auctioneer, the Governor and the Doctor / Undertaker, with dynamite, \"no duel\" "
                        "chips and auctions. {in_play} of the {characters} characters are played."),
    "outlaws": N_("From round {outlaw_round}, {outlaws_least} to {outlaws_most} outlaws arrive each round (strength "
                  "{strength_low} to {strength_high}, by dice) and move toward the richest buildings. A parcel with "
                  "an outlaw cannot be bought or built on and its building earns half. Send cowboys to fight one "
                  "before the estate income: beat its strength for its VP (half its strength) or half the "
                  "building's income. An outlaw that starts a round on a prison is jailed: its VP go to the "
                  "prison's owner."),
    "big_box": N_("Up to six players on the same board, and two options of its own: horses and Kit Carson."),
    "horses": N_("Needs Big Box. At Wages a player may pay ${horse_price} for a horse instead of taking ${wage} for "
                 "one of their cowboys there, one horse a round; each horse is worth {horse_vp} VP at the end. The "
                 "rodeo and the horses' special actions are not played here."),
    "kit_carson": N_("Needs Big Box. At the end each player scores {kit_vp} VP for every player behind them on the "
                     "turn-order track: the first to pass in round {rounds} has everyone else behind, the last to pass "
                     "nobody."),
}



def variant_help(key: str, translate: Callable[[str], str] = gettext) -> str:
    """What a variant, an expansion or a Big Box option changes, in the language spoken now."""
    return translate(VARIANT_TEXTS[key]).format(**NUMBERS)


VARIANT_HELP: Final = {key: variant_help(key, str) for key in VARIANT_TEXTS}

# RULING X6: the rodeo and the horses' special actions have no rule text in our sources; wherever horses are shown,
# the page says they are not played here.
HORSES_NOT_PLAYED: Final = N_("The rodeo and the horses' special actions are not part of this site: our rule "
                              "sources give no text for them. Here a horse is worth its VP at the end, nothing more.")

# What an action square does more with a Big Box option on (the table's `?` and the rules page).
OPTION_SQUARE_TEXTS: Final[dict[str, dict[str, str]]] = {
    "horses": {
        "wages": N_("With horses, a player may instead pay ${horse_price} for a horse with one of their cowboys "
                    "there (one horse a round); each horse is worth {horse_vp} VP at the end."),
    },
}


def option_square_help(option: str, step: str, translate: Callable[[str], str] = gettext) -> str:
    """What a square does more with a Big Box option on, in the language spoken now."""
    return translate(OPTION_SQUARE_TEXTS[option][step]).format(**NUMBERS)


OPTION_SQUARE_HELP: Final = {option: {step: option_square_help(option, step, str) for step in texts}
                             for option, texts in OPTION_SQUARE_TEXTS.items()}

# The rules page's outline of a round and of the game's end, in play order (`000` "Course of a Round";
# RULINGS B7, B8, B16, B17).
ROUND_OUTLINE: Final = (
    (N_("Personalities"), N_("In turn order each player takes one personality card for the round. Its side (yellow "
                             "or red) gives a power and sets the player's cash limit; the card's number sets the "
                             "order of placement.")),
    (N_("Placement"), N_("In placement order, each player puts one cowboy at a time on an action square, an "
                         "owner-free parcel (to buy it) or a building (to attack another player's, or defend one's "
                         "own), or passes for the rest of the round. Passing early helps: ties in duels go to "
                         "whoever passed first.")),
    (N_("Duels"), N_("Where two or more players' cowboys meet, they duel: each rolls a die and adds their firepower "
                     "(cowboys in reserve + revolvers + the round's bonuses). The highest wins; losers' cowboys go "
                     "back to their owners. The Sheriff's white cowboy never duels and nobody may join it.")),
    (N_("Actions"), N_("The squares are resolved in the order of the track, from Wages to the victory point squares; "
                       "each winner may use their square or decline it.")),
    (N_("End of the round"), N_("The red Banker may buy victory points; every player above their cash limit gives up "
                                "the excess and scores a VP for each ${cash_limit_step} given up; new cowboys arrive "
                                "(after rounds {new_cowboys_from} to {new_cowboys_to}); the unbought buildings slide "
                                "to the cheaper squares and the empty ones are refilled from the bag.")),
    (N_("End of the game"), N_("After round {rounds}: {final_vp} VP for each building, house and mountain on one's "
                               "own parcels, and a VP for every ${final_money}. Most VP wins; a tie goes to the tied "
                               "player who passed first in round {rounds}.")),
)

VARIANT_NAMES: Final = {
    "yellow": N_("Yellow sides"), "red": N_("Red sides"), "random": N_("Random sides"), "vote": N_("Sides by vote"),
    "might_is_right": N_("Might Is Right"), "river": N_("The River"), "new_beginning": N_("A New Beginning"),
    "gold_and_guns": "Gold & Guns", "outlaws": "The Outlaws", "big_box": "Big Box",
    "horses": N_("Horses (Big Box)"), "kit_carson": N_("Kit Carson (Big Box)"),
}

# The new-game form's choice of sides, in words.
SIDE_CHOICES: Final = {
    "yellow": N_("all yellow (base game)"), "red": N_("all red"), "random": N_("random side per card"),
    "vote": N_("players vote per card"),
}

# The rules page's Big Box section (`004`; RULINGS X1, X4, X6): the expansion and its two options.
BIG_BOX_KEYS: Final = ("big_box", "horses", "kit_carson")
BIG_BOX_TITLES: Final = {"big_box": N_("Six players"), "horses": N_("Horses"), "kit_carson": "Kit Carson"}
NOT_PLAYED: Final = N_("Not played here")


def rules_context() -> dict[str, Any]:
    """What the rules page shows, in the language spoken now: the round, then every square, building, personality
    and variant."""
    return {
        "outline": [(gettext(title), gettext(text).format(**NUMBERS)) for title, text in ROUND_OUTLINE],
        "squares": [(gettext(SQUARES[step].name if step in SQUARES else STEP_NAMES[step]), square_help(step))
                    for step in TRACK_STEPS],
        "house_values": gettext(HOUSE_VALUES).format(**NUMBERS),
        "buildings": [{"type": b.type, "name": gettext(b.name), "count": b.count, "expansion": b.expansion,
                       "help": building_help(b.type)} for b in BUILDINGS.values()],
        "pieces": [(piece, gettext(text).format(**NUMBERS)) for piece, text in PIECE_HELP.items()],
        "personalities": [{"number": card.number, "name": gettext(card.name), "expansion": card.expansion,
                           "yellow_limit": card.yellow.cash_limit, "yellow_text": gettext(card.yellow.text),
                           "red_limit": card.red.cash_limit, "red_text": gettext(card.red.text)}
                          for card in sorted(PERSONALITIES.values(), key=lambda card: card.number)],
        "expansion_names": EXPANSION_NAMES,
        "variants": [(gettext(VARIANT_NAMES[key]), variant_help(key)) for key in VARIANT_TEXTS
                     if key not in BIG_BOX_KEYS],
        "big_box": [(gettext(BIG_BOX_TITLES[key]), variant_help(key)) for key in BIG_BOX_KEYS]
        + [(gettext(NOT_PLAYED), gettext(HORSES_NOT_PLAYED))],
    }


def building_legend(expansions: list[str]) -> list[tuple[str, str, str]]:
    """(type, name, help) of every building of a game with these expansions, for the table's legend."""
    return [(b.type, gettext(b.name), building_help(b.type)) for b in BUILDINGS.values()
            if b.expansion is None or b.expansion in expansions]
