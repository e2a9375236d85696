"""The heuristic bot: every legal move gets a value in victory points, the best one is played.

It reads only its seat's view, and the rulebook's numbers (`app.rules.catalog`, which any player may read).
Money is worth what it will still buy: early a dollar becomes parcels and buildings (each worth 2 VP at the end and
an income every round), in the last round only 1 VP per $6 (`000` "End Of The Game"), and money above the cash
limit is lost at the round's end. Cowboys go where the view's hints say they earn most, less the risk of a duel;
parcels and buildings are bought while they can still pay off; permission is granted, since the house on a
granted parcel scores for its owner (RULING B12).

The weights were set by playing the bot against a copy of itself with one weight changed (2- and 4-player
games, seats alternating): a dollar worth less and a bare parcel worth less than first guessed won clearly; bonuses
for parcels next to one's own or already reached by a road did not.

One move is one pass over the legal moves with a constant amount of work each, far below the 200 ms a move may
take (bench/bots.py measures it).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final

from app.bots.base import MoveView, View
from app.rules.catalog import FINAL_MONEY_PER_VP, FINAL_VP_PER_ITEM, WAGE_PER_COWBOY
from app.rules.catalog import ROUNDS as LAST_ROUND

PIECE_VP: Final = float(FINAL_VP_PER_ITEM)  # a building, house or mountain on one's own parcel at the end
# A dollar's worth in VP by round: what it still buys before the end; in round 4 only the final exchange.
MONEY_VP: Final = {0: 0.35, 1: 0.35, 2: 0.3, 3: 0.22, 4: 1 / FINAL_MONEY_PER_VP}
# What a building earns in a round, about (its real income depends on its neighbours, shown once it is built).
BUILDING_INCOME: Final = {"ranch": 3, "mine": 3, "drugstore": 4, "bank": 5, "saloon": 5, "hotel": 3}
OTHER_BUILDING_INCOME: Final = 1  # church, prison and the expansion's buildings: their VP and bonuses
# Personalities by how much a decent player values them, whatever the side (the expansion's count 0.4).
PERSONALITY: Final = {"banker": 1.2, "settler": 1.0, "grocer": 0.9, "captain": 0.8, "sheriff": 0.7,
                      "chinese_worker": 0.6, "mercenary": 0.5,
                      # Big Box: the Newspaper Boy is the best card copied less $3; the Cowboy's horse is 1 VP.
                      "newspaper_boy": 0.9, "cowboy": 0.6}
SHOP_ITEM: Final = {"parcel": 1.2, "cowboy": 1.0, "road": 0.5, "revolver": 0.4, "marksman": 0.3, "vp": 0.35}
PARCEL_VP: Final = 1.2  # a parcel scores only with something on it, so less than a piece
PARCEL_FUTURE: Final = 0.6  # before the last round: a site for a building to come
# Squares whose worth the view does not state: in VP (before the last round, in it) or in dollars.
FIXED_VP: Final = {"ammunition": (0.6, 0.2), "three_roads": (0.9, 0.9), "road": (0.3, 0.3)}
FIXED_MONEY: Final = {"wages": WAGE_PER_COWBOY, "gambling_income": 3.5}  # the gambling die's mean
DUEL_RISK: Final = 0.5  # a square or parcel others already claim is won about half the time
CHIP_IN_DUEL: Final = 0.3  # a dynamite or "no duel" chip: spent where it turns a duel, kept otherwise


@dataclass(frozen=True)
class Seat:
    """What the bot reads from the view about itself, once per move."""

    view: View
    me: Mapping[str, Any]
    round: int
    money: int
    free: int  # money not yet promised to the parcels and buildings under its cowboys
    dollar: float  # VP per dollar now

    @property
    def rounds_left(self) -> int:
        return max(LAST_ROUND - self.round + 1, 1)

    def parcel(self, x: int, y: int) -> Mapping[str, Any]:
        row: Mapping[str, Any] = next(p for p in self.view["board"]["parcels"] if p["x"] == x and p["y"] == y)
        return row

    def own_empty_parcels(self) -> int:
        return sum(1 for p in self.view["board"]["parcels"] if p["owner"] == self.me["seat"] and p["content"] is None)

    def over_limit(self, amount: int) -> float:
        """How much of `amount` spent now would otherwise be lost to the cash limit (worth spending at any price)."""
        limit = self.me.get("cash_limit")
        return 0.0 if limit is None else float(max(0, min(amount, self.money - int(limit))))


def _seat(view: View) -> Seat:
    me: Mapping[str, Any] = view["players"][view["viewer"]]
    money = int(me["money"])
    committed = int(me.get("hints", {}).get("placement_cost", 0))
    rnd = int(view["round"])
    return Seat(view, me, rnd, money, money - committed, MONEY_VP.get(rnd, MONEY_VP[LAST_ROUND]))


def _building_value(s: Seat, building: str | None, price: int) -> float:
    """A building bought now: 2 VP at the end plus its income for the rounds left (from the next one), less its
    price; nothing when it cannot be paid for or has no own parcel to stand on."""
    if building is None or price > s.free or s.own_empty_parcels() == 0:
        return -1.0
    income = BUILDING_INCOME.get(building, OTHER_BUILDING_INCOME)
    return PIECE_VP + income * (s.rounds_left - 1) * MONEY_VP[min(s.round + 1, LAST_ROUND)] - price * s.dollar


def _others_there(s: Seat, cowboys: Sequence[int]) -> bool:
    return any(seat != s.me["seat"] for seat in cowboys)


def _square_value(s: Seat, square: str) -> float:
    """What one more cowboy on an action square earns, before the risk of a duel."""
    hints: Mapping[str, int] = s.me.get("hints", {})
    if square in FIXED_VP:
        return FIXED_VP[square][0] if s.round < LAST_ROUND else FIXED_VP[square][1]
    if square in FIXED_MONEY:
        return FIXED_MONEY[square] * s.dollar
    if square in ("parcel_income", "cowboy_income"):  # the view's hints: what the square pays this seat now
        return hints.get(square, 0) * s.dollar
    if square in ("parcels_vp", "cowboy_vp", "estate_vp"):
        return float(hints.get(square, 0))
    if square.startswith("buy_vp_"):
        price = int(square.rsplit("_", 1)[1])
        affordable = s.free // price
        return affordable * (1 - price * s.dollar) + s.over_limit(affordable * price) * s.dollar
    if square.startswith("build_"):
        row = next((c for c in s.view["construction"] if c["square"] == square), None)
        if row is None:
            return -1.0
        return _building_value(s, row["building"], int(row["your_price"] or row["price"]))
    return 0.0


def _on_square(s: Seat, square: str) -> float:
    row = next((q for q in s.view["squares"] if q["square"] == square), None)
    value = _square_value(s, square)
    if row is None or square in ("wages", "road"):  # many cowboys share these, nobody duels
        return value
    if s.me["seat"] in row["cowboys"]:
        return -1.0  # one square, one win
    return value * DUEL_RISK if _others_there(s, row["cowboys"]) else value


def _on_parcel(s: Seat, x: int, y: int) -> float:
    """A cowboy on a parcel buys it if it is free, attacks the building on it otherwise, or fights its outlaw."""
    p = s.parcel(x, y)
    if s.me["seat"] in p["cowboys"]:
        return -1.0
    if p.get("outlaw"):
        value = float(p["outlaw"].get("vp") or 0) * 0.4
    elif p["owner"] is None and p["price"] is not None:
        if p["price"] > s.free:
            return -1.0
        value = PARCEL_VP + (PARCEL_FUTURE if s.round < LAST_ROUND else 0.0) - p["price"] * s.dollar
    elif p["owner"] not in (None, s.me["seat"]) and p.get("income"):
        value = p["income"] / 2 * s.dollar
    else:
        value = -0.5
    return value * DUEL_RISK if _others_there(s, p["cowboys"]) else value


def _placement(s: Seat, m: MoveView) -> float:
    value = _on_square(s, m["square"]) if "square" in m else _on_parcel(s, m["x"], m["y"])
    if m.get("dynamite") or m.get("no_duel"):  # a chip is worth using where a duel is likely, kept otherwise
        value += CHIP_IN_DUEL if _contested(s, m) else -CHIP_IN_DUEL
    return value


def _contested(s: Seat, m: MoveView) -> bool:
    """Whether another player's cowboy already stands where the move places one (a duel to come)."""
    if "square" in m:
        row = next((q for q in s.view["squares"] if q["square"] == m["square"]), None)
        return row is not None and _others_there(s, row["cowboys"])
    return _others_there(s, s.parcel(m["x"], m["y"])["cowboys"])


def _construct(s: Seat, m: MoveView) -> float:
    kind = m["type"]
    if kind == "place_building":
        work = s.view.get("construction_work") or {}
        income = next((site["income"] for site in work.get("site_incomes", ())
                       if site["x"] == m["x"] and site["y"] == m["y"]), 0)
        return 5.0 + income * s.dollar + (0.5 if s.parcel(m["x"], m["y"])["owner"] == s.me["seat"] else 0.0)
    if kind in ("place_house", "place_townhouse"):
        own = s.parcel(m["x"], m["y"])["owner"] == s.me["seat"]
        return 4.0 + (1.0 if own else 0.0) + (0.2 if kind == "place_townhouse" else 0.0)
    if kind == "place_road":
        return 2.0
    if kind == "ask_permission":
        return 1.0
    if kind == "finish_roads":
        return 0.5
    return 0.0  # keep_building


def _amount(s: Seat, m: MoveView) -> float:
    """Moves that name a count: cowboys and revolvers early, VP whenever the price beats the final exchange."""
    kind = m["type"]
    if kind in ("buy_vp", "banker_vp"):
        return int(m.get("count", m.get("vp", 0))) * 0.5  # the bot went to that square to buy
    if kind == "hire_cowboys":
        return int(m["count"]) * (0.6 if s.round < LAST_ROUND else -0.2)
    if kind == "buy_revolvers":
        return int(m["count"]) * (0.3 if s.round < LAST_ROUND else -0.2)
    if kind == "give_up_money":
        return -float(m["amount"])
    if kind == "play_tile":
        return float(m["tile"] + m.get("second", 0))  # the strongest tiles: duels are won now or never
    if kind == "bid":
        return 1.2 - int(m["amount"]) * s.dollar
    return 0.0


def _claim(s: Seat, m: MoveView) -> float:
    """A starting or picked parcel: close to the centre and to the parcels already owned."""
    centre = s.view["board"].get("centre") or [3, 3]
    distance = abs(m["x"] - centre[0]) + abs(m["y"] - centre[1])
    own = [p for p in s.view["board"]["parcels"] if p["owner"] == s.me["seat"]]
    next_to_own = any(abs(p["x"] - m["x"]) + abs(p["y"] - m["y"]) == 1 for p in own)
    reached = s.parcel(m["x"], m["y"])["reached"]
    return -0.3 * float(distance) + (1.0 if next_to_own else 0.0) + (0.5 if reached else 0.0)


def _grocer(s: Seat, m: MoveView) -> float:
    if m["option"] == "double":
        return BUILDING_INCOME.get(str(m.get("building")), 0) * s.dollar * 1.5
    return 1.0 if m["option"] == "money_now" else 0.9


def _card(s: Seat, m: MoveView) -> float:
    """A card chosen or copied (the Newspaper Boy): its worth, but none for the Teacher in the last round, whose
    red side gives only its cash limit (RULING X3) and whose "first next round" has no next round."""
    if m["card"] == "teacher" and s.round >= LAST_ROUND:
        return 0.0
    return PERSONALITY.get(m["card"], 0.4) + (0.1 if m.get("side") == "red" else 0.0)


def _card_option(s: Seat, m: MoveView) -> float:
    return 1.0 if (m["option"] == "vp") == (s.round >= 3) else 0.0


def _shop(s: Seat, m: MoveView) -> float:
    if m["type"] == "shop_done":
        return 0.3
    if m["type"] == "shop_remove":
        return -1.0
    basket: Mapping[str, int] = s.me.get("basket") or {}
    return SHOP_ITEM.get(m["item"], -1.0) / (1 + basket.get(m["item"], 0))


def _neighbours(s: Seat, x: int, y: int) -> list[Mapping[str, Any]]:
    """The eight parcels around (x, y): what a building there counts for its income."""
    return [p for p in s.view["board"]["parcels"] if max(abs(p["x"] - x), abs(p["y"] - y)) == 1]


def _city_hall(s: Seat, m: MoveView) -> float:
    """The City Hall counts as houses for every building around it (RULING G2): next to the bot's own buildings."""
    return sum(1.0 for p in _neighbours(s, m["x"], m["y"])
               if p["owner"] == s.me["seat"] and p["content"] not in (None, "house", "mountain"))


def _prospect(s: Seat, m: MoveView) -> float:
    """The yellow Prospector's mine ($10, on an owner-free parcel that becomes the bot's): a building for the end,
    income from the mountains around it, close to the bot's own parcels."""
    around = _neighbours(s, m["x"], m["y"])
    mountains = sum(1 for p in around if p["content"] == "mountain")
    own = sum(1 for p in around if p["owner"] == s.me["seat"])
    rounds = s.rounds_left - 1
    return PIECE_VP + mountains * rounds * MONEY_VP[min(s.round + 1, LAST_ROUND)] + 0.2 * own - 10 * s.dollar


def _move_outlaw(s: Seat, m: MoveView) -> float:
    owner = s.parcel(m["x"], m["y"])["owner"]
    return 1.0 if owner not in (None, s.me["seat"]) else (-1.0 if owner == s.me["seat"] else 0.0)


def _reroll(s: Seat, m: MoveView) -> float:
    """The red Gunsmith rolls again when his throw does not already win."""
    rolls = s.view.get("duel_rolls") or []
    mine = max((r.get("total", 0) for r in rolls if r.get("seat") == s.me["seat"]), default=0)
    best_other = max((r.get("total", 0) for r in rolls if r.get("seat") != s.me["seat"]), default=0)
    losing = mine <= best_other
    return 1.0 if (m["type"] == "reroll") == losing else 0.0


def _constant(value: float) -> Callable[[Seat, MoveView], float]:
    return lambda _s, _m: value


SCORERS: Final[dict[str, Callable[[Seat, MoveView], float]]] = {
    "place_cowboy": _placement,
    "place_white_cowboy": _placement,
    "pass": _constant(0.05),
    "buy_parcel": lambda s, m: 1.0,  # chosen with the cowboy placed on it
    "decline_parcel": _constant(0.0),
    "buy_building": _constant(1.0),
    "take_building": lambda s, m: _square_value(s, m["square"]),
    "decline": _constant(0.0),
    "place_building": _construct,
    "place_house": _construct,
    "place_townhouse": _construct,
    "place_road": _construct,
    "ask_permission": _construct,
    "keep_building": _construct,
    "finish_roads": _construct,
    "answer_permission": lambda s, m: 1.0 if m["grant"] else 0.0,  # the house scores for the parcel's owner (B12)
    "deny_remaining": _constant(0.0),
    "choose_personality": _card,
    "copy_card": _card,  # Big Box: the Newspaper Boy copies the card worth most now (RULING X2)
    "grocer_choice": _grocer,
    "card_option": _card_option,
    "buy_vp": _amount,
    "banker_vp": _amount,
    "hire_cowboys": _amount,
    "buy_revolvers": _amount,
    "give_up_money": _amount,
    "play_tile": _amount,
    "bid": _amount,
    "bid_pass": _constant(0.0),
    "claim_parcel": _claim,
    "shop_add": _shop,
    "shop_remove": _shop,
    "shop_done": _shop,
    "move_outlaw": _move_outlaw,
    "outlaw_reward": lambda s, m: 1.0 if (m["reward"] == "vp") == (s.round >= 3) else 0.5,
    "use_dynamite": _constant(1.0),
    "keep_dynamite": _constant(0.0),
    "reroll": _reroll,
    "keep_roll": _reroll,
    "collect_tax": lambda s, m: 1.0 if m["tax"] == "money" else 0.5,
    "pay_undertaker": lambda s, m: 1.0 if m["pay"] == "money" else 0.5,
    "heal_cowboy": _constant(0.2),
    "place_singer_cowboy": _constant(1.0),
    "place_city_hall": _city_hall,
    "prospect_mine": _prospect,
    "auction_parcel": _claim,  # the Auctioneer's parcels: those the bot would like to win
    "resolve_duel": _constant(0.0),  # the order of the duels changes nobody's chances
    "vote_side": _constant(0.0),  # either side, at random
    # Big Box: a horse is $4 for 1 VP at the end, while $4 kept is worth 2/3 VP at the end: buy it.
    "buy_horse": _constant(0.5),
}


def heuristic_bot(view: View, moves: Sequence[MoveView], rng: random.Random) -> dict[str, Any]:
    """The legal move of highest value; ties (and near ties) are broken at random so games vary."""
    values = move_values(view, moves)
    best = max(range(len(moves)), key=lambda k: values[k] + rng.random() * 1e-3)
    return dict(moves[best])


def move_values(view: View, moves: Sequence[MoveView]) -> list[float]:
    """Each move's value in VP as the bot reckons it, in the order of `moves` (the weaker and the stronger bots
    start from these opinions)."""
    seat = _seat(view)
    return [_value(seat, m) for m in moves]


def _value(seat: Seat, move: MoveView) -> float:
    """The move's value in VP as the bot reckons it (moves it has no opinion about are worth 0)."""
    scorer = SCORERS.get(str(move["type"]))
    return scorer(seat, move) if scorer is not None else 0.0
