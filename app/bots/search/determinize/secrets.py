"""The other seats' secrets in a rebuilt game, sampled from what the seat's view allows, with the generator handed
in (never the seed, never the true secrets: the view holds neither).

- Might Is Right (RULING V2): the box holds one set of tiles 0-5 per player. The seat knows its own hand, how many
  tiles each other hand and the used pile hold, and the tiles shown before the red Gunsmith plays (RULING G7);
  the rest is dealt at random: each other hand gets as many as it holds, the used pile the remainder. A tile
  another seat chose in secret for the duel under way is drawn from its hand (two with a dynamite chip).
- The vote on the sides (RULING V1): each other seat has voted on as many cards as the view counts; which cards,
  and which side, are drawn.
- Big Box's horses (RULING X6): at Wages the seats are asked in placement order, and the view does not carry
  the answers of those asked before the seat: each buys a horse or not, at even odds.
- A New Beginning's shopping (RULING V4): each other seat's basket is a few items its money buys, added one at a
  time among the items the rules would let it add.

The view carries the seat's own secrets but one: the second tile of its own dynamite pair, drawn from its hand.
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Final

from app.bots.base import View
from app.rules import GameState, legal_moves_read_only
from app.rules.catalog import DUEL_TILE_VALUES, sided_cards
from app.rules.decisions import Decision
from app.rules.draft import with_player
from app.rules.dynamite import plays_two_tiles
from app.rules.events import DuelTarget
from app.rules.horses import may_buy_horse
from app.rules.model import replace

# After each item, the chance that a sampled basket stops there (a basket holds 1 + 7 items on average, when the
# money allows).
BASKET_STOP: Final = 1 / 8


def fill(s: GameState, view: View, rng: random.Random) -> GameState:
    """`s` with the secrets of the variants in play: the seat's own from the view, the others' sampled."""
    if s.config.might_is_right:
        s = _tiles(s, view, rng)
    if s.config.sides == "vote" and not s.sides:
        s = _votes(s, view, rng)
    if s.config.new_beginning and s.step == "shopping":
        s = _baskets(s, view, rng)
    if s.config.horses and view.get("awaiting") == Decision.HORSE:
        s = _horses(s, view, rng)
    return s


def _tiles(s: GameState, view: View, rng: random.Random) -> GameState:
    seat = int(view["viewer"])
    rows = view["players"]
    revealed = {
        int(row["seat"]): int(row["duel_tile"]) for row in rows if row["seat"] != seat and row["duel_tile"] is not None
    }
    unknown = Counter(DUEL_TILE_VALUES * len(rows)) - Counter(rows[seat]["tiles"]) - Counter(revealed.values())
    pile = list(unknown.elements())
    rng.shuffle(pile)
    hands: dict[int, tuple[int, ...]] = {seat: tuple(rows[seat]["tiles"])}
    for row in rows:
        other = int(row["seat"])
        if other != seat:
            shown = [revealed[other]] if other in revealed else []
            count = int(row["tile_count"]) - len(shown)
            hands[other] = tuple(sorted([*shown, *pile[:count]]))
            del pile[:count]
    players = s.players
    for other, hand in hands.items():
        players = with_player(players, other, tiles=hand)
    s = replace(s, players=players, used_tiles=tuple(sorted(pile)), duel_tiles_revealed=bool(revealed))
    return _chosen_tiles(s, view, rng)


def _chosen_tiles(s: GameState, view: View, rng: random.Random) -> GameState:
    """The tiles chosen for the duel under way: the seat's own and those shown as the view has them, the others
    drawn from their hands; a dynamite duellist's second tile drawn from the rest of its hand."""
    target: DuelTarget | None = None
    duel = view.get("duel")
    if duel is not None:
        target = {key: duel[key] for key in ("square", "x", "y") if key in duel}  # type: ignore[assignment]
    first: dict[int, int] = {}
    second: dict[int, int] = {}
    for row in view["players"]:
        seat = int(row["seat"])
        if not row["duel_tile_chosen"]:
            continue
        hand = list(s.players[seat].tiles)
        tile = int(row["duel_tile"]) if row["duel_tile"] is not None else rng.choice(hand)
        first[seat] = tile
        hand.remove(tile)
        if plays_two_tiles(s, seat, target):
            second[seat] = rng.choice(hand)
    return replace(s, duel_tiles=first, duel_second_tiles=second)


def _votes(s: GameState, view: View, rng: random.Random) -> GameState:
    seat = int(view["viewer"])
    cards = sided_cards(s.cards)
    votes: dict[int, dict[str, str]] = {}
    for row in view["players"]:
        other = int(row["seat"])
        if other == seat:
            votes[seat] = dict(row["votes"] or {})
        elif row["votes_cast"]:
            votes[other] = {card: rng.choice(("yellow", "red")) for card in rng.sample(cards, row["votes_cast"])}
    return replace(s, votes={other: cast for other, cast in votes.items() if cast})


def _baskets(s: GameState, view: View, rng: random.Random) -> GameState:
    seat = int(view["viewer"])
    baskets: dict[int, dict[str, int]] = {}
    own = view["players"][seat]["basket"]
    if own:
        baskets[seat] = dict(own)
    for p in s.players:
        if p.seat == seat:
            continue
        basket: dict[str, int] = {}
        while rng.random() >= BASKET_STOP or not basket:
            # The rules' own list of what the seat may add now (asked of the state with the seat still shopping).
            trial = replace(s, baskets={**baskets, p.seat: basket}, shopping_done=frozenset())
            adds = [m["item"] for m in legal_moves_read_only(trial, p.seat) if m["type"] == "shop_add"]
            if not adds:
                break
            item = rng.choice(adds)
            basket[item] = basket.get(item, 0) + 1
        if basket:
            baskets[p.seat] = basket
    return replace(s, baskets=baskets)


def _horses(s: GameState, view: View, rng: random.Random) -> GameState:
    asked = s.placement_order[: s.placement_order.index(view["to_act"][0])]
    return replace(s, wages_chosen={seat: rng.random() < 0.5 for seat in asked if may_buy_horse(s, seat)})
