"""new_game(config, seed) -> the setup events (`000` "Game Setup"; RULINGS B1, B19); `start_game`: with the state
they lead to.

Every die rolled and every tile drawn is written into these events; the seed itself never is.
"""

from __future__ import annotations

from app.rules.board import parcel_index, roll_parcel
from app.rules.catalog import (
    CARD_BY_NUMBER,
    CHARACTERS_IN_PLAY,
    CONSTRUCTION_SQUARES,
    DUEL_TILE_VALUES,
    EXTRA_CARD,
    MIGHT_MONEY_BEFORE_TILES,
    MIGHT_TWO_PLAYER_MONEY,
    MOUNTAINS,
    PERSONALITIES,
    RIVER_MOUNTAINS,
    RIVER_PARCELS,
    bag_contents,
    sided_cards,
)
from app.rules.config import GameConfig
from app.rules.decide import advance
from app.rules.events import SCHEMA_VERSION, XY, Event, GameStarted, TilesDealt
from app.rules.evolve import replay
from app.rules.model import GameState
from app.rules.rng import Rng
from app.rules.supply import draw_into


def _cards(config: GameConfig, rng: Rng) -> tuple[str, ...]:
    """The game's cards, by number (RULING G1, decision D90): the admin's choice, or, from a pool of more than 7,
    7 drawn at random — the pool shuffled and taken in order until 7 cards other than the Newspaper Boy are in,
    who comes on top of them when drawn before that (`004` "Preparación": "8 si jugamos con el ... Repartidor")."""
    if config.characters is not None:
        return tuple(CARD_BY_NUMBER[n] for n in config.characters)
    pool = config.card_pool
    if len(pool) == CHARACTERS_IN_PLAY:  # the base cards: nothing to draw
        return pool
    drawn: list[str] = []
    for number in rng.shuffled([PERSONALITIES[card].number for card in pool]):
        drawn.append(CARD_BY_NUMBER[number])
        if len(drawn) - (EXTRA_CARD in drawn) == CHARACTERS_IN_PLAY:
            break
    return tuple(sorted(drawn, key=lambda card: PERSONALITIES[card].number))


def _sides(config: GameConfig, cards: tuple[str, ...], rng: Rng) -> dict[str, str]:
    """The side of each card (RULING V1), but for a card whose holder chooses it with the card (decision D73)."""
    if config.sides == "vote":
        return {}  # decided by the players' vote before the starting parcels (RULING V1)
    if config.sides == "random":
        return {card: rng.choice(("yellow", "red")) for card in sided_cards(cards)}
    return {card: config.sides for card in sided_cards(cards)}


def _deal_tiles(config: GameConfig, rng: Rng) -> TilesDealt:
    """Might Is Right (`000`): with 2 players — or with A New Beginning — each gets the tiles 0-5; with 3-5
    players the sets are mixed and 6 dealt to each at random, whose starting cash is then $30 minus their sum."""
    if config.new_beginning:  # each gets 0-5 and keeps A New Beginning's money (`000` "A new beginning")
        return {"type": "tiles_dealt", "hands": [list(DUEL_TILE_VALUES)] * config.players}
    if config.players == 2:
        return {"type": "tiles_dealt", "hands": [list(DUEL_TILE_VALUES)] * 2, "money": [MIGHT_TWO_PLAYER_MONEY] * 2}
    pool = rng.shuffled([v for _ in range(config.players) for v in DUEL_TILE_VALUES])
    size = len(DUEL_TILE_VALUES)
    hands = [sorted(pool[k * size:(k + 1) * size]) for k in range(config.players)]
    money = [MIGHT_MONEY_BEFORE_TILES - sum(hand) for hand in hands]
    return {"type": "tiles_dealt", "hands": hands, "money": money}


def new_game(config: GameConfig, seed: int) -> list[Event]:
    """The setup events of a game played with `config` from the secret `seed`."""
    return start_game(config, seed)[0]


def start_game(config: GameConfig, seed: int) -> tuple[list[Event], GameState]:
    """`new_game`'s events and the state they lead to: the setup folds them to find its first decision, so a
    caller that plays on at once need not fold them a second time (`replay(new_game(...))`)."""
    rng = Rng(seed, 0)
    cards = _cards(config, rng)
    started: GameStarted = {"type": "game_started", "schema": SCHEMA_VERSION, "players": config.players,
                            "config": config.to_json(), "sides": _sides(config, cards, rng)}
    if config.gold_and_guns or config.big_box:
        started["characters"] = list(cards)
    events: list[Event] = [started, {"type": "turn_order_drawn", "order": rng.shuffled(range(config.players))}]
    river = {parcel_index(x, y) for x, y in RIVER_PARCELS} if config.river else set()
    rolls: list[list[int]] = []
    centre = roll_parcel(rng, river.__contains__, rolls)  # river parcels stay free (`000` "The River")
    events.append({"type": "centre_placed", "x": centre % 8 + 1, "y": centre // 8 + 1, "dice": rolls[-1]})
    taken = {centre, *river}
    mountains: list[XY] = []
    rolls = []
    for _ in range(RIVER_MOUNTAINS if config.river else MOUNTAINS):
        index = roll_parcel(rng, taken.__contains__, rolls)  # an occupied result is rolled again
        taken.add(index)
        mountains.append({"x": index % 8 + 1, "y": index // 8 + 1})
    events.append({"type": "mountains_placed", "parcels": mountains, "dice": rolls})

    bag = bag_contents(config.expansions)
    placed = [c.setup_building for c in CONSTRUCTION_SQUARES if c.setup_building is not None]
    for building in placed:
        bag[building] -= 1
    construction: list[str | None] = [c.setup_building for c in CONSTRUCTION_SQUARES]
    drawn = draw_into(construction, bag, rng)
    events.append({"type": "construction_refilled", "construction": construction, "drawn": drawn,
                   "placed": placed})
    if config.might_is_right:
        events.append(_deal_tiles(config, rng))
    more, state = advance(replay(events), rng)
    return events + more, state
