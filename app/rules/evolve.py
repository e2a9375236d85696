"""The base game's events and what each does to the state (`registry.handles`, dispatched by `evolve`), and
`replay`, the fold of a log.

Effects never validate and never draw: everything random or chosen is already inside the event. They only do the
bookkeeping an event implies (a placed cowboy leaves the reserve, the turn moves on, ...). The families' events
have their effects in their own modules (`app.rules.families`); `evolve` itself and the helpers every effect
writes the state with are `app.rules.draft`'s.
"""

from __future__ import annotations

from collections.abc import Iterable
from itertools import islice

import app.rules.families  # noqa: F401  (every family registers its events' effects before one is applied)
from app.rules.board import PARCELS, SIDES, parcel_index
from app.rules.catalog import (
    BASE_CARDS,
    CITY_HALL,
    CONSTRUCTION_INDEX,
    COWBOYS_PER_PLAYER,
    FINAL_STEPS,
    NEW_BEGINNING_COWBOYS,
    NEW_BEGINNING_MONEY,
    PERSONALITIES,
    RIVER_PARCELS,
    ROUND_STEPS,
    ROUNDS,
    SETUP_STEPS,
    START_COWBOYS,
    START_MONEY,
    START_REVOLVERS,
    START_ROADS,
    bag_contents,
)
from app.rules.config import GameConfig
from app.rules.draft import (
    card_taken,
    clear_parcel,
    clear_square,
    duel_outcome,
    evolve,
    fold,
    gain,
    index_of,
    remove_cowboys,
    replace,
    set_parcel,
    square_done,
    update_player,
)
from app.rules.duels import kept_purchases, purchase_settled
from app.rules.events import (
    ActionDeclined,
    AttackCancelled,
    AttackWon,
    BuildingDefended,
    CentrePlaced,
    ChipTaken,
    ConstructionRefilled,
    CowboyPlaced,
    CowboysReceived,
    DuelFought,
    DuelOrderChosen,
    EstateIncomePaid,
    Event,
    GameFinished,
    GameStarted,
    MoneyGained,
    MoneyGivenUp,
    MountainsPlaced,
    MoveUndone,
    ParcelBought,
    ParcelClaimed,
    ParcelPurchaseDeclined,
    PersonalityChosen,
    PlacementOrderSet,
    PlayerPassed,
    RoadsGained,
    RoadsHandedOut,
    RoundEnded,
    SeatReplaced,
    StepCompleted,
    TurnOrderDrawn,
    VpBought,
    VpGained,
    WagesPaid,
)
from app.rules.model import (
    COWBOYS,
    DYNAMITE_COWBOYS,
    NO_DUEL_COWBOYS,
    SINGER_COWBOYS,
    GameState,
    Parcel,
    PlayerState,
    initial_state,
    replace_player,
)
from app.rules.model import replace as model_replace
from app.rules.registry import EFFECTS as _HANDLERS  # noqa: F401  (the table of every effect, for its tests)
from app.rules.registry import handles
from app.rules.shop import next_picker
from app.rules.undo import taken_back

__all__ = ["UndoBeyondState", "evolve", "replay"]


class UndoBeyondState(ValueError):
    """An undo among the events to fold takes back a move folded into the state they were to be folded onto:
    fold the log from its start instead."""


def replay(events: Iterable[Event], state: GameState | None = None) -> GameState:
    """Fold the events (from the start, or onto `state`).

    An undo (`move_undone`) returns to the state before the move it takes back, which a fold of one event
    cannot know: the log is read twice, first for where each undone move starts (`undo.taken_back`), then
    folded, keeping the states the undos return to. Raises UndoBeyondState when an undo reaches back before
    `state`."""
    log: list[Event] = events if isinstance(events, list) else list(events)
    start = 0
    if state is None:
        first = log[0]
        assert first["type"] == "game_started", "a log starts with the setup of its game"
        state = evolve(initial_state(GameConfig.from_json(first["players"], first["config"])), first)
        start = 1
    undos = [i for i in range(start, len(log)) if log[i]["type"] == "move_undone"]
    if not undos:
        return fold(state, islice(log, start, None))
    return _replay_with_undos(log, start, state, undos)


def _replay_with_undos(log: list[Event], start: int, state: GameState, undos: list[int]) -> GameState:
    """`replay` of a log holding undos: the state before each undone move is kept until its undo, which returns
    to it, folds again the events the undo keeps, and counts every event of the log (seq, private events)."""
    moves: dict[int, tuple[int, list[int]]] = {}
    for index in undos:
        found = taken_back(log, index)
        if found is None or found[0] < start:
            raise UndoBeyondState(f"the undo at position {index} takes back events before the state given")
        moves[index] = found
    bases = {base for base, _ in moves.values()}
    kept: dict[int, GameState] = {}
    for index in range(start, len(log)):
        if index in bases:
            kept[index] = state
        event = log[index]
        if index in moves:
            base, again = moves[index]
            restored = kept[base]
            for other in again:
                restored = evolve(restored, log[other])
            state = model_replace(restored, seq=state.seq + 1, private_events=state.private_events)
        else:
            state = evolve(state, event)
    return state


# --- setup ----------------------------------------------------------------------------------------------------


@handles("game_started")
def _game_started(s: GameState, e: GameStarted) -> GameState:
    if s.config.new_beginning:  # RULING V4: $50 and one cowboy, no revolver, road or parcel
        money, cowboys, revolvers, roads = NEW_BEGINNING_MONEY, NEW_BEGINNING_COWBOYS, 0, 0
    else:
        money, cowboys, revolvers, roads = START_MONEY, START_COWBOYS, START_REVOLVERS, START_ROADS
    players = tuple(
        PlayerState(seat=i, money=money, cowboys=cowboys, revolvers=revolvers, roads=roads)
        for i in range(e["players"])
    )
    river = {parcel_index(x, y) for x, y in RIVER_PARCELS} if s.config.river else set()
    land, water = Parcel(), Parcel(river=True)  # every parcel starts empty; equal parcels may share one value
    bag = bag_contents(s.config.expansions)
    return replace(
        s, players=players, parcels=tuple([water if i in river else land for i in PARCELS]), bag=bag,
        sides=dict(e["sides"]), construction=(None,) * len(CONSTRUCTION_INDEX),
        cards=tuple(e["characters"]) if "characters" in e else BASE_CARDS,
    )


@handles("turn_order_drawn")
def _turn_order_drawn(s: GameState, e: TurnOrderDrawn) -> GameState:
    return replace(s, initial_order=tuple(e["order"]), step=SETUP_STEPS[0])


@handles("centre_placed")
def _centre_placed(s: GameState, e: CentrePlaced) -> GameState:
    index = index_of(e)
    s = set_parcel(s, index, content="house")
    return replace(s, centre=index, roads=frozenset(SIDES[index]), houses=s.houses - 1)


@handles("mountains_placed")
def _mountains_placed(s: GameState, e: MountainsPlaced) -> GameState:
    parcels = list(s.parcels)  # one copy of the board for them all
    for spot in e["parcels"]:
        index = index_of(spot)
        parcels[index] = model_replace(parcels[index], content="mountain")
    return replace(s, parcels=tuple(parcels))


@handles("construction_refilled")
def _construction_refilled(s: GameState, e: ConstructionRefilled) -> GameState:
    bag = dict(s.bag)
    for building in (*e["drawn"], *e.get("placed", ())):
        bag[building] -= 1
    return replace(s, construction=tuple(e["construction"]), bag=bag, city_hall_drawn=CITY_HALL in e["drawn"])


@handles("parcel_claimed")
def _parcel_claimed(s: GameState, e: ParcelClaimed) -> GameState:
    s = set_parcel(s, index_of(e), owner=e["seat"])
    if e["reason"] == "start":
        return replace(s, draft_claims=s.draft_claims + 1)
    if e["reason"] == "pick":
        s = update_player(s, e["seat"], picks=s.players[e["seat"]].picks - 1)
        return replace(s, turn=next_picker(s, e["seat"]))
    return replace(s, card_decision=None)


# --- personalities --------------------------------------------------------------------------------------------


@handles("personality_chosen")
def _personality_chosen(s: GameState, e: PersonalityChosen) -> GameState:
    seat = e["seat"]
    s = update_player(s, seat, personality=e["card"])
    return card_taken(s, seat, e)


@handles("placement_order_set")
def _placement_order_set(s: GameState, e: PlacementOrderSet) -> GameState:
    order = tuple(e["order"])
    white = s.holder("sheriff", "yellow") is not None
    singer = any((side := s.side(seat)) is not None and side.lucky_cowboy for seat in order)
    return replace(s, placement_order=order, turn=order[0], white_cowboy=white, singer_cowboy=singer)


# --- placement ------------------------------------------------------------------------------------------------


def _next_turn(s: GameState, after: int) -> int | None:
    """The next seat in placement order after `after` that has not passed."""
    order, players = s.placement_order, s.players
    start = order.index(after) + 1
    for seat in order[start:] + order[:start]:  # the order from the seat after, round to `after` itself last
        if not players[seat].passed:
            return seat
    return None


@handles("cowboy_placed")
def _cowboy_placed(s: GameState, e: CowboyPlaced) -> GameState:
    seat = e["seat"]
    draft = s.__dict__  # written into directly: this is the most frequent event
    draft["turn"] = _next_turn(s, seat)  # placing changes nobody's "passed"
    # The white cowboy and the red Singer's are not part of the personal reserve (RULING B6, `001` "Singer").
    if "singer" in e:
        cowboy = SINGER_COWBOYS[seat]
        draft["singer_cowboy"] = False
    elif "dynamite" in e:  # a chip goes with it (RULING G7): on one's own mine it triples the mine as well
        cowboy = DYNAMITE_COWBOYS[seat]
        p = s.players[seat]
        update_player(s, seat, cowboys=p.cowboys - 1, dynamite=p.dynamite - 1)
        if "x" in e and s.parcels[index_of(e)].owner == seat and s.parcels[index_of(e)].content == "mine":
            draft["dynamite_mines"] = s.dynamite_mines | {index_of(e)}
    elif "no_duel" in e:  # one of the player's own cowboys, with one of the yellow Singer's chips (RULING G9)
        cowboy = NO_DUEL_COWBOYS[seat]
        p = s.players[seat]
        update_player(s, seat, cowboys=p.cowboys - 1, no_duel_chips=p.no_duel_chips - 1)
    else:
        cowboy = COWBOYS[seat, e.get("white", False)]
        if cowboy.white:
            draft["white_cowboy"] = False
        else:  # `update_player`, written out for the one field
            players = list(s.players)
            players[seat] = replace_player(players[seat], {"cowboys": players[seat].cowboys - 1})
            draft["players"] = tuple(players)
    if "square" in e:
        squares = dict(s.squares)
        squares[e["square"]] = (*squares.get(e["square"], ()), cowboy)
        draft["squares"] = squares
    else:
        spots = dict(s.parcel_cowboys)
        index = index_of(e)
        if e.get("buy"):  # the purchase answered ahead goes with the cowboy, through its duel (decision D106)
            cowboy = model_replace(cowboy, buy=True)
        spots[index] = (*spots.get(index, ()), cowboy)
        draft["parcel_cowboys"] = spots
    return s


@handles("player_passed")
def _player_passed(s: GameState, e: PlayerPassed) -> GameState:
    seat = e["seat"]
    s = update_player(s, seat, passed=True)
    return replace(s, passing_order=(*s.passing_order, seat), turn=_next_turn(s, seat))


# --- the track ------------------------------------------------------------------------------------------------


@handles("step_completed")
def _step_completed(s: GameState, e: StepCompleted) -> GameState:
    if s.round == 0 and e["next"] in ROUND_STEPS:
        return replace(s, round=1, step=e["next"], choosing_order=s.initial_order)
    return replace(s, step=e["next"])


@handles("wages_paid")
def _wages_paid(s: GameState, e: WagesPaid) -> GameState:
    for pay in e["payments"]:
        s = gain(s, pay["seat"], money=pay["amount"])
        if pay.get("horse"):
            s = update_player(s, pay["seat"], horses=s.players[pay["seat"]].horses + 1)
    if s.wages_chosen:
        s = replace(s, wages_chosen={})
    return clear_square(s, "wages")


@handles("roads_handed_out")
def _roads_handed_out(s: GameState, e: RoadsHandedOut) -> GameState:
    for handed in e["gains"]:
        s = gain(s, handed["seat"], roads=handed["roads"])
    return clear_square(s, "road")


@handles("chip_taken")
def _chip_taken(s: GameState, e: ChipTaken) -> GameState:
    return square_done(replace(s, chip_holder=e["seat"]), e["square"], e["seat"])


@handles("roads_gained")
def _roads_gained(s: GameState, e: RoadsGained) -> GameState:
    return square_done(gain(s, e["seat"], roads=e["count"]), e.get("square"), e["seat"])


@handles("money_gained")
def _money_gained(s: GameState, e: MoneyGained) -> GameState:
    return square_done(gain(s, e["seat"], money=e["amount"]), e.get("square"), e["seat"])


@handles("vp_gained")
def _vp_gained(s: GameState, e: VpGained) -> GameState:
    return square_done(gain(s, e["seat"], vp=e["amount"]), e.get("square"), e["seat"])


@handles("vp_bought")
def _vp_bought(s: GameState, e: VpBought) -> GameState:
    s = gain(s, e["seat"], money=-e["count"] * e["price"], vp=e["count"])
    return square_done(s, e["square"], e["seat"])


@handles("action_declined")
def _action_declined(s: GameState, e: ActionDeclined) -> GameState:
    return square_done(s, e["square"], e["seat"])


@handles("parcel_bought")
def _parcel_bought(s: GameState, e: ParcelBought) -> GameState:
    index = index_of(e)
    before = kept_purchases(s)
    s = gain(set_parcel(s, index, owner=e["seat"]), e["seat"], money=-e["price"])
    return purchase_settled(clear_parcel(s, index), index, before)


@handles("parcel_purchase_declined")
def _parcel_purchase_declined(s: GameState, e: ParcelPurchaseDeclined) -> GameState:
    index = index_of(e)
    before = kept_purchases(s)
    return purchase_settled(clear_parcel(s, index), index, before)


# --- duels ----------------------------------------------------------------------------------------------------


@handles("duel_order_chosen")
def _duel_order_chosen(s: GameState, e: DuelOrderChosen) -> GameState:
    return replace(s, duel_target={"x": e["x"], "y": e["y"]})


@handles("duel_fought")
def _duel_fought(s: GameState, e: DuelFought) -> GameState:
    return duel_outcome(s, e["target"], e["duelists"], e["winner"], e.get("winner_vp", 0))


# --- estate income and attacks --------------------------------------------------------------------------------


@handles("attack_cancelled")
def _attack_cancelled(s: GameState, e: AttackCancelled) -> GameState:
    s = remove_cowboys(s, e, e["seats"])
    for seat in e["seats"]:
        s = gain(s, seat, cowboys=1)
    return s


@handles("building_defended")
def _building_defended(s: GameState, e: BuildingDefended) -> GameState:
    return clear_parcel(s, index_of(e))


@handles("attack_won")
def _attack_won(s: GameState, e: AttackWon) -> GameState:
    attacks = dict(s.attacks)
    attacks[index_of(e)] = e["seat"]
    return clear_parcel(replace(s, attacks=attacks), index_of(e))


@handles("estate_income_paid")
def _estate_income_paid(s: GameState, e: EstateIncomePaid) -> GameState:
    """Every income is paid; an outlaw's winner who stayed on a building now leaves it (RULING G13)."""
    for index in s.attacks:
        if index in s.parcel_cowboys:
            s = clear_parcel(s, index)
    for pay in e["payments"]:
        s = gain(s, pay["owner"], money=pay["owner_gets"])
        if pay["attacker"] is not None:
            s = gain(s, pay["attacker"], money=pay["attacker_gets"])
    if s.dynamite_mines or s.dynamite_done:
        s = replace(s, dynamite_mines=frozenset(), dynamite_done=frozenset())
    return replace(s, attacks={})


# --- end of round and game ------------------------------------------------------------------------------------


@handles("money_given_up")
def _money_given_up(s: GameState, e: MoneyGivenUp) -> GameState:
    return gain(s, e["seat"], money=-e["amount"], vp=e["vp"])


@handles("cowboys_received")
def _cowboys_received(s: GameState, e: CowboysReceived) -> GameState:
    for received in e["gains"]:
        s = gain(s, received["seat"], cowboys=received["count"])
    return s


@handles("round_ended")
def _round_ended(s: GameState, e: RoundEnded) -> GameState:
    players = tuple(
        replace(p, personality=None, copied=None, passed=False, card_option=None, no_duel_chips=0) for p in s.players
    )
    assert all(p.cowboys <= COWBOYS_PER_PLAYER for p in players)
    last = s.round >= ROUNDS
    # The City Hall's occupant stays there across rounds (RULING G2); every other cowboy has gone home.
    occupant = s.parcel_cowboys.get(s.city_hall) if s.city_hall is not None else None
    # A dynamite chip that found no duel is lost (RULING G7): the occupant stays as a plain cowboy.
    stays = {s.city_hall: tuple(COWBOYS[c.seat, False] for c in occupant)} if s.city_hall is not None and occupant \
        else {}
    # A side chosen with its card is chosen again by its next holder (the Doctor / Undertaker).
    sides = {card: side for card, side in s.sides.items() if last or not PERSONALITIES[card].holder_chooses_side}
    # The Teacher turns red for round 4 (RULING X3, decision D91).
    sides.update({card: "red" for card in s.cards if PERSONALITIES[card].red_from_round == s.round + 1})
    return replace(
        s,
        sides=sides,
        players=players if not last else s.players,
        round=s.round if last else s.round + 1,
        step=FINAL_STEPS[0] if last else ROUND_STEPS[0],
        choosing_order=s.coming_choosing_order(),
        passing_order=s.passing_order if last else (),
        placement_order=s.placement_order if last else (),
        turn=None,
        squares={},
        parcel_cowboys=stays,
        white_cowboy=False,
        singer_cowboy=False,
        chip_holder=None,
        chip_sold=False,
        reserve_done=frozenset(),
    )


@handles("game_finished")
def _game_finished(s: GameState, e: GameFinished) -> GameState:
    return replace(s, step="finished", winner=e["winner"], scores=tuple(e["scores"]))


# --- outside the game -----------------------------------------------------------------------------------------


@handles("seat_replaced")
def _seat_replaced(s: GameState, e: SeatReplaced) -> GameState:
    # Who plays a seat is the server's business (app.play.clocks); the game goes on as it was.
    return s


@handles("move_undone")
def _move_undone(s: GameState, e: MoveUndone) -> GameState:
    raise UndoBeyondState("an undo returns to a state before the one given: `replay` folds it, with the log")
