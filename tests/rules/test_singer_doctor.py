"""The yellow Singer's "no duel" chips and the Doctor / Undertaker (`001` "The Singer (11)", "The Doctor / The
Undertaker (14)"; `004` "El Doctor / El Enterrador"; RULINGS G9, G11, G13, X8; decisions D73-D81): R-GG-9, R-GG-15,
R-GG-16, R-GG-29, and R-OUT-7 (an outlaw's winner who stays, against a healed cowboy).

Games are built with the real setup and driven through the real moves; a board or a square is shaped only where a
scenario needs it (an empty board around the centre (4, 4)). Duels are settled by firepower far apart (20 against
0), so that no die can turn them.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.rules import GameConfig, new_game, player_view, replay
from app.rules.board import SIDES, parcel_index
from app.rules.catalog import NO_DUEL_CHIP_SQUARES, SQUARES
from app.rules.defaults import default_move
from app.rules.evolve import evolve
from app.rules.model import COWBOYS, NO_DUEL_COWBOYS, GameState, replace
from tests.rules.builders import Game, events_of

GG = ["gold_and_guns"]
# Sheriff, Banker, Grocer, Chinese Worker, Settler, Singer, Doctor / Undertaker.
CARDS = [1, 2, 3, 4, 5, 11, 14]


def table(picks: list[dict[str, Any]], players: int = 3, outlaws: bool = False, **variants: Any) -> Game:
    """A Gold & Guns game with the Singer and the Doctor / Undertaker among its cards, on an empty board around
    the centre (4, 4), its players having chosen `picks` (the `choose_personality` moves without their type, in
    choosing order; card decisions take their first option), at round 1's placement."""
    expansions = [*GG, "outlaws"] if outlaws else GG
    g = Game(players, expansions=expansions, characters=variants.pop("characters", CARDS), **variants)
    g.claim_starts([(x, 1) for x in range(1, 9)])
    for pick in picks:
        g.act({"type": "choose_personality", **pick})  # type: ignore[typeddict-item]
        while g.awaiting not in ("personality", "placement"):
            g.act(g.moves()[0])
    g.clear_board()
    g.with_state(roads=frozenset(SIDES[parcel_index(4, 4)]), centre=parcel_index(4, 4))
    g.put(4, 4, content="house")
    return g


def seat(g: Game, card: str) -> int:
    holder = g.state.holder(card)
    assert holder is not None
    return holder


def others(g: Game, card: str) -> list[int]:
    """The other seats, in the round's turn order."""
    return [s for s in g.state.choosing_order if s != seat(g, card)]


def firepower(g: Game, seat_: int, revolvers: int) -> None:
    """Exactly `revolvers` firepower (no cowboy left in reserve, no card bonus among these cards)."""
    g.set_player(seat_, cowboys=0, revolvers=revolvers)


def on_square(g: Game, square: str, *cowboys: Any) -> None:
    g.with_state(squares={**g.state.squares, square: tuple(cowboys)})


def on_parcel(g: Game, x: int, y: int, *seats: int) -> None:
    g.with_state(parcel_cowboys={**g.state.parcel_cowboys, parcel_index(x, y): tuple(COWBOYS[s, False] for s in seats)})


def resume(g: Game, step: str) -> tuple[GameState, int]:
    """Run the round from `step` (everyone passed) to the next decision; returns the state it started from and
    where its events begin in the log, for `state_after`."""
    start, first = g.state, len(g.events)
    g.resume_at(step)
    return start, first


def state_after(g: Game, since: tuple[GameState, int], kind: str) -> GameState:
    """The state right after the first `kind` event since `resume` (the flow runs on past it)."""
    state, first = since
    for event in g.events[first:]:
        state = evolve(state, event)
        if event["type"] == kind:
            return state
    raise AssertionError(f"no {kind} event")


def outlaw(g: Game, x: int, y: int, strength: int = 13) -> None:
    parcels = list(g.state.parcels)
    parcels[parcel_index(x, y)] = replace(parcels[parcel_index(x, y)], outlaw=True)
    g.with_state(parcels=tuple(parcels), outlaw_strength=strength)


SINGER_FIRST = [{"card": "singer"}, {"card": "banker"}, {"card": "chinese_worker"}]


# --- R-GG-9: the yellow Singer's "no duel" chips --------------------------------------------------------------


def test_the_yellow_singer_receives_two_chips_for_the_round_only() -> None:
    """R-GG-9 (`001` "The Singer (11)": "You receive two 'no duel' chips for the current round"): the choice
    gives them (in its event and the view); they are gone when the round ends, used or not."""
    g = table(SINGER_FIRST)
    singer = seat(g, "singer")
    chosen = events_of(g.events, "personality_chosen")[0]
    assert chosen["card"] == "singer" and chosen["no_duel_chips"] == 2
    assert [p["no_duel_chips"] for p in player_view(g.state, None)["players"]] == [
        2 if s == singer else 0 for s in range(3)]
    g.pass_all()
    g.run(lambda game, s, moves: moves[-1] if moves[-1]["type"] in ("decline", "keep_building") else moves[0],
          until=lambda game: game.state.round == 2)
    assert g.state.players[singer].no_duel_chips == 0


def test_chips_go_only_with_a_cowboy_on_3_roads_the_money_and_the_vp_squares() -> None:
    """R-GG-9 (RULING G9: "only on 3 Roads, the three money squares ... and the seven VP squares"): a chip is
    placed with one of the player's cowboys; never on Wages, Ammunition, Road, a construction square or a
    parcel; two chips, then no more; nobody else has any."""
    g = table(SINGER_FIRST)
    singer = seat(g, "singer")
    g.with_state(turn=singer)
    chip_moves = [m for m in g.moves() if m.get("no_duel")]
    assert {m["square"] for m in chip_moves} == NO_DUEL_CHIP_SQUARES  # round 1 blocks no Buy VP square (B15)
    assert all(set(m) == {"type", "square", "no_duel"} for m in chip_moves)
    cowboys = g.state.players[singer].cowboys
    (placed,) = g.act({"type": "place_cowboy", "square": "cowboy_income", "no_duel": True})
    assert placed == {"type": "cowboy_placed", "seat": singer, "white": False, "square": "cowboy_income",
                      "no_duel": True}
    assert g.state.players[singer].cowboys == cowboys - 1 and g.state.players[singer].no_duel_chips == 1
    assert g.state.squares["cowboy_income"] == (NO_DUEL_COWBOYS[singer],)
    view = {row["square"]: row for row in player_view(g.state, None)["squares"]}
    assert view["cowboy_income"]["cowboys"] == [singer] and view["cowboy_income"]["no_duel"] == [singer]
    while g.to_act != (singer,):
        assert not any(m.get("no_duel") for m in g.moves())  # nobody else has a chip
        g.act({"type": "place_cowboy", "square": "wages"})
    assert {"type": "place_cowboy", "square": "cowboy_income", "no_duel": True} not in g.moves()  # one per player
    g.act({"type": "place_cowboy", "square": "estate_vp", "no_duel": True})
    assert g.state.players[singer].no_duel_chips == 0
    while g.to_act != (singer,):
        g.act({"type": "pass"})
    assert not any(m.get("no_duel") for m in g.moves())


def test_chip_squares_are_those_of_the_ruling() -> None:
    """R-GG-9 (RULING G9): the eleven squares, named one by one against the track."""
    assert {
        "three_roads", "parcel_income", "cowboy_income", "gambling_income", "parcels_vp", "cowboy_vp", "estate_vp",
        "buy_vp_2", "buy_vp_3", "buy_vp_4", "buy_vp_5"} == NO_DUEL_CHIP_SQUARES
    assert set(SQUARES) >= NO_DUEL_CHIP_SQUARES


def test_a_chip_cowboy_joins_anyone_even_the_white_cowboy_and_others_join_it() -> None:
    """R-GG-9 (`001`: "the action can be performed regardless of the presence of any other cowboy (even the
    Sheriff)"; decision D74): a chip cowboy may go beside the white cowboy or a duel; the others may join it as if
    it were absent (the red Sheriff too), the white cowboy may not (RULING B6)."""
    g = table([{"card": "singer"}, {"card": "sheriff"}, {"card": "banker"}])
    singer, sheriff = seat(g, "singer"), seat(g, "sheriff")
    banker = seat(g, "banker")
    g.with_state(squares={"parcel_income": (COWBOYS[sheriff, True],), "cowboy_vp": (COWBOYS[banker, False],),
                          "estate_vp": (COWBOYS[sheriff, False], COWBOYS[banker, False])})
    g.with_state(turn=singer)
    moves = g.moves(singer)
    for square in ("parcel_income", "cowboy_vp", "estate_vp"):
        assert {"type": "place_cowboy", "square": square, "no_duel": True} in moves
    assert {"type": "place_cowboy", "square": "parcel_income"} not in moves  # without a chip: not beside white
    g.with_state(squares={"three_roads": (NO_DUEL_COWBOYS[singer],)}, turn=sheriff)
    sheriff_moves = g.moves(sheriff)
    assert {"type": "place_cowboy", "square": "three_roads"} in sheriff_moves
    assert {"type": "place_white_cowboy", "square": "three_roads"} not in sheriff_moves


def test_a_chip_cowboy_never_duels_and_acts_first_the_others_as_if_it_were_absent() -> None:
    """R-GG-9 (`001`: "If only one cowboy from another player is placed on the same square, no duel will occur
    and both players can do the action. If a duel occurs between two or more other players, the result of the
    duel doesn't affect the cowboy with the 'no duel' chip"; RULING G9; decision D75): on Cowboy VP the Singer
    scores first, then the others duel, or a single one scores too, or the white cowboy's owner scores."""
    for rivals in ([], ["banker"], ["banker", "chinese_worker"], ["white"]):
        g = table([{"card": "singer"}, {"card": "banker"}, {"card": "chinese_worker"}] if "white" not in rivals
                  else [{"card": "singer"}, {"card": "sheriff"}, {"card": "banker"}])
        singer = seat(g, "singer")
        cowboys = [NO_DUEL_COWBOYS[singer]]
        for card in rivals:
            cowboys.append(COWBOYS[seat(g, "sheriff"), True] if card == "white" else COWBOYS[seat(g, card), False])
        firepower(g, singer, 0)
        on_square(g, "cowboy_vp", *cowboys)
        g.resume_at("cowboy_vp")
        done = [e for e in g.events if e.get("square") == "cowboy_vp" or e["type"] == "duel_fought"]
        first = done[0]
        assert first["type"] == "vp_gained" and first["seat"] == singer  # the Singer acts first
        duels = events_of(done, "duel_fought")
        assert all(singer not in {d["seat"] for d in duel["duelists"]} for duel in duels)
        assert len(duels) == (1 if len(rivals) == 2 else 0)
        scorers = [e["seat"] for e in done if e["type"] == "vp_gained"]
        assert len(scorers) == (2 if rivals else 1) and scorers[0] == singer


def test_a_chip_cowboy_takes_3_roads_and_buys_vp_like_anyone_first() -> None:
    """R-GG-9: on 3 Roads the Singer takes 3 roads, and so does the winner of the others' duel; on a Buy VP square
    the Singer decides first, then the other cowboy."""
    g = table(SINGER_FIRST)
    singer, banker = seat(g, "singer"), seat(g, "banker")
    roads = [p.roads for p in g.state.players]
    on_square(g, "three_roads", NO_DUEL_COWBOYS[singer], COWBOYS[banker, False])
    g.resume_at("three_roads")
    gains = events_of(g.events, "roads_gained")
    assert [(e["seat"], e["count"]) for e in gains] == [(singer, 3), (banker, 3)]
    assert g.state.players[singer].roads == roads[singer] + 3 and g.state.players[banker].roads == roads[banker] + 3

    g = table(SINGER_FIRST)
    singer, banker = seat(g, "singer"), seat(g, "banker")
    on_square(g, "buy_vp_3", NO_DUEL_COWBOYS[singer], COWBOYS[banker, False])
    g.resume_at("buy_vp_3")
    assert g.awaiting == "buy_vp" and g.to_act == (singer,)
    g.act({"type": "buy_vp", "count": 1})
    assert g.awaiting == "buy_vp" and g.to_act == (banker,)
    assert g.state.squares["buy_vp_3"] == (COWBOYS[banker, False],)


# --- the Doctor / Undertaker's side (decision D73) ---------------------------------------------------------------


def test_the_holder_chooses_the_doctor_or_the_undertaker_with_the_card() -> None:
    """R-GG-15, R-GG-16 (`001`: "When you choose the Doctor / Undertaker, you may choose either the yellow (Doctor)
    or red (Undertaker) side"; decision D73): the card is offered with either side, whatever the game's `sides`;
    it has no side in `game_started` nor in the vote, and none again once its round ends."""
    g = Game(3, expansions=GG, characters=CARDS, sides="red")
    assert "doctor" not in events_of(g.events, "game_started")[0]["sides"]
    g.claim_starts([(x, 1) for x in range(1, 9)])
    doctor_moves = [m for m in g.moves() if m["card"] == "doctor"]
    assert doctor_moves == [{"type": "choose_personality", "card": "doctor", "side": "yellow"},
                            {"type": "choose_personality", "card": "doctor", "side": "red"}]
    assert {"type": "choose_personality", "card": "doctor"} not in g.moves()
    assert {"type": "choose_personality", "card": "banker"} in g.moves()
    chooser = g.to_act[0]
    (chosen,) = g.act({"type": "choose_personality", "card": "doctor", "side": "yellow"})
    assert chosen["side"] == "yellow" and g.state.holds(chooser, "doctor", "yellow")
    assert player_view(g.state, None)["players"][chooser]["cash_limit"] == 60
    assert g.state.sides["banker"] == "red"  # the other cards keep the game's sides
    g.choose(["banker", "grocer"])
    g.pass_all()
    g.run(lambda game, s, moves: moves[-1] if moves[-1]["type"] in ("decline", "keep_building") else moves[0],
          until=lambda game: game.state.round == 2)
    assert "doctor" not in g.state.sides

    voted = Game(3, expansions=GG, characters=CARDS, sides="vote")
    assert "doctor" not in {m["card"] for m in voted.moves(0)}


def test_the_undertakers_cash_limit_and_card_text() -> None:
    """R-GG-16 (`001`: "Cash limit: $90"; R-GG-15: the Doctor's $60)."""
    g = table([{"card": "doctor", "side": "red"}, {"card": "banker"}, {"card": "chinese_worker"}])
    undertaker = seat(g, "doctor")
    assert player_view(g.state, None)["players"][undertaker]["cash_limit"] == 90
    assert player_view(g.state, None)["players"][undertaker]["side"] == "red"


# --- R-GG-15: the Doctor ---------------------------------------------------------------------------------------


DOCTOR_FIRST = [{"card": "doctor", "side": "yellow"}, {"card": "banker"}, {"card": "chinese_worker"}]


def test_a_defeated_cowboy_may_be_moved_for_3_to_a_place_still_to_come_and_acts_there() -> None:
    """R-GG-15 (`001`: "The Doctor charges $3 to any player who wishes to reposition a defeated cowboy ... onto an
    uncontested and unperformed location/action space, rather than into the players personal reserve"; RULING
    G11; decisions D76-D78): the loser of the Ammunition duel is asked at once; the places offered are the empty
    ones later on the track, on the land (the parcel purchase is still to come) and the buildings (the attacks
    are too); never Wages (resolved) nor an occupied square. Moved to Cowboy income, it earns there."""
    g = table(DOCTOR_FIRST)
    doctor = seat(g, "doctor")
    winner, loser = others(g, "doctor")
    g.put(6, 6, owner=winner, content="ranch")
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    on_square(g, "ammunition", COWBOYS[winner, False], COWBOYS[loser, False])
    on_square(g, "estate_vp", COWBOYS[doctor, False])
    money = [p.money for p in g.state.players]
    g.resume_at("ammunition")
    assert g.awaiting == "doctor" and g.to_act == (loser,)
    assert player_view(g.state, None)["defeated"] == [loser]
    assert g.state.players[loser].cowboys == 0  # waiting, neither home nor on the board
    heal = {(m.get("square"), m.get("x"), m.get("y")) for m in g.moves() if m["type"] == "heal_cowboy"}
    assert (None, 5, 5) in heal and (None, 6, 6) in heal  # owner-free land, the winner's ranch
    assert ("cowboy_income", None, None) in heal and ("three_roads", None, None) in heal
    assert ("wages", None, None) not in heal and ("ammunition", None, None) not in heal
    assert ("estate_vp", None, None) not in heal  # the Doctor's cowboy holds it
    assert {"type": "decline"} in g.moves()
    before = g.state
    (healed,) = g.act({"type": "heal_cowboy", "square": "cowboy_income"})[:1]
    assert healed == {"type": "cowboy_healed", "seat": loser, "doctor": doctor, "price": 3,
                      "square": "cowboy_income"}
    after = evolve(before, healed)
    assert after.players[doctor].money == money[doctor] + 3 and after.players[loser].money == money[loser] - 3
    assert after.squares["cowboy_income"] == (COWBOYS[loser, False],) and after.defeat is None
    income = [e for e in g.events if e["type"] == "money_gained" and e.get("square") == "cowboy_income"]
    assert [e["seat"] for e in income] == [loser]


def test_the_doctors_own_cowboy_comes_first_and_free_then_turn_order() -> None:
    """R-GG-15 (`001`: "a Doctor's cowboy is always first, then in the order following the turn order track. The
    Doctor pays nothing for healing his own cowboys"; RULING G11; decision D76): the Doctor chose last, so he is
    last in turn order, and still decides first."""
    g = table([{"card": "banker"}, {"card": "chinese_worker"}, {"card": "doctor", "side": "yellow"}])
    doctor = seat(g, "doctor")
    first, second = others(g, "doctor")
    assert g.state.choosing_order[-1] == doctor
    for s, power in ((doctor, 0), (first, 0), (second, 20)):
        firepower(g, s, power)
    on_square(g, "ammunition", COWBOYS[first, False], COWBOYS[second, False], COWBOYS[doctor, False])
    g.resume_at("ammunition")
    assert g.to_act == (doctor,)
    assert g.state.defeat is not None and g.state.defeat.seats == (doctor, first)
    (healed,) = g.act({"type": "heal_cowboy", "square": "parcel_income"})[:1]
    assert healed["price"] == 0 and healed["doctor"] == doctor
    assert g.to_act == (first,)
    before = g.state
    declined = g.act({"type": "decline"})
    assert declined[0] == {"type": "healing_declined", "seat": first}
    assert evolve(before, declined[0]).players[first].cowboys == 1  # home


def test_turn_order_decides_among_the_other_players() -> None:
    """R-GG-15 (`001`: "then in the order following the turn order track"): the Doctor wins; the two losers are
    asked in the round's turn order, whatever their order on the square."""
    g = table(DOCTOR_FIRST)
    doctor = seat(g, "doctor")
    first, second = others(g, "doctor")
    for s, power in ((doctor, 20), (first, 0), (second, 0)):
        firepower(g, s, power)
    on_square(g, "ammunition", COWBOYS[second, False], COWBOYS[first, False], COWBOYS[doctor, False])
    g.resume_at("ammunition")
    assert g.state.defeat is not None and g.state.defeat.seats == (first, second)


def test_the_queue_follows_the_turn_order_track_not_the_choosing_order() -> None:
    """R-GG-29 (`001`: "then in the order following the turn order track"; RULING X8: "the turn-order track as it
    stands at that moment of the round (the placement order)"; decision D76): the Chinese Worker (4) chose before
    the Banker (2) but places after him, so the Banker's holder decides first."""
    g = table([{"card": "doctor", "side": "yellow"}, {"card": "chinese_worker"}, {"card": "banker"}])
    doctor, worker, banker = seat(g, "doctor"), seat(g, "chinese_worker"), seat(g, "banker")
    assert g.state.choosing_order == (doctor, worker, banker)
    assert g.state.placement_order == (banker, worker, doctor)
    for s, power in ((doctor, 20), (worker, 0), (banker, 0)):
        firepower(g, s, power)
    on_square(g, "ammunition", COWBOYS[worker, False], COWBOYS[banker, False], COWBOYS[doctor, False])
    g.resume_at("ammunition")
    assert g.state.defeat is not None and g.state.defeat.seats == (banker, worker)
    assert g.to_act == (banker,)


def test_without_3_the_cowboy_goes_home_unasked() -> None:
    """R-GG-15 (decision D78, RULING B10): a player without $3 has no choice: the cowboy goes home at once."""
    g = table(DOCTOR_FIRST)
    winner, loser = others(g, "doctor")
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    g.set_player(loser, money=2)
    on_square(g, "ammunition", COWBOYS[winner, False], COWBOYS[loser, False])
    since = resume(g, "ammunition")
    assert events_of(g.events, "healing_declined") == [
        {"type": "healing_declined", "seat": loser, "automatic": "only_move"}]
    after = state_after(g, since, "healing_declined")
    assert after.players[loser].cowboys == 1 and after.players[loser].money == 2


def test_a_parcel_duels_loser_may_not_go_to_another_parcel_but_may_attack() -> None:
    """R-GG-15 (RULING G11: a place "whose step in the resolution order has not come yet"; decision D77): at the
    parcel purchase the land's turn has come, so another owner-free parcel is not offered; a building's attack
    is still to come: moved there, the cowboy attacks it at the estate income."""
    g = table(DOCTOR_FIRST)
    winner, loser = others(g, "doctor")
    g.put(6, 6, owner=winner, content="ranch")
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    on_parcel(g, 5, 5, winner, loser)
    g.resume_at("parcel_purchase")
    while g.awaiting != "doctor":
        g.act(g.moves()[0])
    heal = [m for m in g.moves() if m["type"] == "heal_cowboy"]
    assert not any("x" in m and g.state.parcels[parcel_index(m["x"], m["y"])].owner is None for m in heal)
    assert {"type": "heal_cowboy", "x": 6, "y": 6} in heal
    g.act({"type": "heal_cowboy", "x": 6, "y": 6})
    g.run(lambda game, s, moves: moves[-1] if moves[-1]["type"] in ("decline", "keep_building") else moves[0],
          until=lambda game: bool(events_of(game.events, "estate_income_paid")))
    assert {"type": "attack_won", "x": 6, "y": 6, "seat": loser} in g.events


def test_outlaw_fights_losers_are_asked_and_the_doctor_is_paid_for_each_outlaw_beaten() -> None:
    """R-GG-15 (`001`: "outduelled by another player or an outlaw"; `004`: "el Doctor recibe del Banco Central $3
    por cada Forajido retirado del juego"; RULING G11; decision D80): everyone who lost to an outlaw is asked, the
    Doctor first; another outlaw's fight has had its turn (the fights and the attacks are one stage, decision D77);
    beating an outlaw pays the Doctor $3 from the bank, whoever beat it."""
    g = table(DOCTOR_FIRST, outlaws=True)
    doctor = seat(g, "doctor")
    first, second = others(g, "doctor")
    outlaw(g, 3, 3)
    outlaw(g, 2, 6)
    for s in (doctor, first, second):
        firepower(g, s, 0)
    on_parcel(g, 3, 3, first, doctor)
    g.resume_at("estate_income")
    (fought,) = events_of(g.events, "outlaw_fought")
    assert fought["winner"] is None and "bounty" not in fought
    assert g.state.defeat is not None and g.state.defeat.seats == (doctor, first)
    heal = [m for m in g.moves() if m["type"] == "heal_cowboy"]
    assert {"type": "heal_cowboy", "x": 2, "y": 6} not in heal and {"type": "heal_cowboy", "x": 3, "y": 3} not in heal
    assert {"type": "heal_cowboy", "square": "parcels_vp"} in heal

    g = table(DOCTOR_FIRST, outlaws=True)
    doctor = seat(g, "doctor")
    winner = others(g, "doctor")[0]
    outlaw(g, 3, 3)
    firepower(g, winner, 20)
    on_parcel(g, 3, 3, winner)
    money = g.state.players[doctor].money
    since = resume(g, "estate_income")
    (fought,) = events_of(g.events, "outlaw_fought")
    assert fought["winner"] == winner and fought["bounty"] == {"seat": doctor, "amount": 3}
    assert state_after(g, since, "outlaw_fought").players[doctor].money == money + 3


def test_an_outlaws_winner_who_stays_holds_the_building_against_a_healed_cowboy() -> None:
    """R-OUT-7 (RULING G13: "keeps that cowboy standing there until the estate income is paid: the building is
    then contested, so no healed cowboy may be moved onto it (G11), and nobody else takes its half"; `001` "the
    cowboy can remain in the building he has liberated ... and take half of its income"; decisions D54, D77): the
    winner on the Doctor's hotel stays; the loser of the next fight is not offered the hotel, the winner's
    cowboy stands there until the income is paid, then leaves, and the winner takes the half."""
    g = table(DOCTOR_FIRST, outlaws=True)
    doctor = seat(g, "doctor")
    winner, loser = others(g, "doctor")
    g.put(3, 3, owner=doctor, content="hotel")
    outlaw(g, 3, 3, strength=8)
    outlaw(g, 5, 6, strength=8)
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    on_parcel(g, 3, 3, winner)
    on_parcel(g, 5, 6, loser)
    g.resume_at("estate_income")
    assert g.awaiting == "choose_duel"  # the two fights are one pool (RULING G15): the hotel's first
    g.act({"type": "resolve_duel", "x": 3, "y": 3})
    assert g.awaiting == "outlaw_reward" and g.to_act == (winner,)
    g.act({"type": "outlaw_reward", "reward": "income"})
    hotel = parcel_index(3, 3)
    assert g.state.parcel_cowboys[hotel] == (COWBOYS[winner, False],)
    assert g.awaiting == "doctor" and g.to_act == (loser,)
    heal = [m for m in g.moves() if m["type"] == "heal_cowboy"]
    assert heal and {"type": "heal_cowboy", "x": 3, "y": 3} not in heal
    before, first = g.state, len(g.events)
    g.run(lambda game, s, moves: moves[-1] if moves[-1]["type"] in ("decline", "keep_building") else moves[0],
          until=lambda game: bool(events_of(game.events[first:], "estate_income_paid")))
    assert not events_of(g.events[first:], "attack_won") and not events_of(g.events[first:], "building_defended")
    paid = {(p["x"], p["y"]): p for p in events_of(g.events[first:], "estate_income_paid")[0]["payments"]}
    assert paid[3, 3]["attacker"] == winner and paid[3, 3]["attacker_gets"] == 3
    state = before
    for event in g.events[first:]:
        state = evolve(state, event)
        if event["type"] == "estate_income_paid":
            break
    assert hotel not in state.parcel_cowboys and not state.attacks


# --- R-GG-16: the Undertaker ----------------------------------------------------------------------------------


UNDERTAKER_FIRST = [{"card": "doctor", "side": "red"}, {"card": "banker"}, {"card": "chinese_worker"}]


def test_each_defeated_cowboy_costs_2_to_the_undertaker_or_1_vp_his_own_free() -> None:
    """R-GG-16 (`001` variant: "For each defeated cowboy, a player must choose either to pay $2 to the Undertaker
    or to lose 1 Victory point ... The Undertaker pays nothing for his own defeated cowboys"; RULING G11): the
    Undertaker's own loser goes home unasked; the other loser chooses, at once."""
    g = table(UNDERTAKER_FIRST)
    undertaker = seat(g, "doctor")
    winner, loser = others(g, "doctor")
    for s, power in ((undertaker, 0), (winner, 20), (loser, 0)):
        firepower(g, s, power)
    g.set_player(loser, vp=3)
    g.set_player(undertaker, vp=3)  # he could pay either way, were he to pay
    on_square(g, "ammunition", COWBOYS[undertaker, False], COWBOYS[winner, False], COWBOYS[loser, False])
    money = [p.money for p in g.state.players]
    g.resume_at("ammunition")
    assert g.awaiting == "undertaker" and g.to_act == (loser,)
    assert g.state.players[undertaker].cowboys == 1  # his own went home, free
    assert g.moves() == [{"type": "pay_undertaker", "pay": "money"}, {"type": "pay_undertaker", "pay": "vp"}]
    assert default_move(g.state, loser) == {"type": "pay_undertaker", "pay": "money"}
    before = g.state
    (paid,) = g.act({"type": "pay_undertaker", "pay": "money"})[:1]
    assert paid == {"type": "undertaker_paid", "seat": loser, "undertaker": undertaker, "money": 2, "vp": 0}
    after = evolve(before, paid)
    assert after.players[loser].money == money[loser] - 2 and after.players[loser].cowboys == 1
    assert after.players[undertaker].money == money[undertaker] + 2 and after.defeat is None

    g = table(UNDERTAKER_FIRST)
    undertaker = seat(g, "doctor")
    winner, loser = others(g, "doctor")
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    g.set_player(loser, vp=3)
    on_square(g, "ammunition", COWBOYS[winner, False], COWBOYS[loser, False])
    g.resume_at("ammunition")
    before = g.state
    assert evolve(before, g.act({"type": "pay_undertaker", "pay": "vp"})[0]).players[loser].vp == 2


@pytest.mark.parametrize(("money", "vp", "paid"), [(1, 2, {"money": 0, "vp": 1}), (5, 0, {"money": 2, "vp": 0}),
                                                   (1, 0, {"money": 0, "vp": 0})])
def test_the_undertaker_takes_what_can_be_given_unasked(money: int, vp: int, paid: dict[str, int]) -> None:
    """R-GG-16 (decision D79, RULING B10): with only one way to pay, it is taken at once; with neither $2 nor a VP,
    the cowboy goes home for nothing (money and VP never go below zero)."""
    g = table(UNDERTAKER_FIRST)
    winner, loser = others(g, "doctor")
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    g.set_player(loser, money=money, vp=vp)
    on_square(g, "ammunition", COWBOYS[winner, False], COWBOYS[loser, False])
    since = resume(g, "ammunition")
    (event,) = events_of(g.events, "undertaker_paid")
    assert {"money": event["money"], "vp": event["vp"]} == paid
    after = state_after(g, since, "undertaker_paid")
    assert after.players[loser].money == money - paid["money"] and after.players[loser].vp == vp - paid["vp"]
    assert after.players[loser].cowboys == 1


def test_the_undertaker_gains_2_for_each_outlaw_beaten_by_anyone() -> None:
    """R-GG-16 (`001`: "the undertaker immediately gains $2 dollars from the bank for each Outlaw defeated during
    the current turn. The undertaker does not have to be involved the duel"; decision D80)."""
    g = table(UNDERTAKER_FIRST, outlaws=True)
    undertaker = seat(g, "doctor")
    winner = others(g, "doctor")[0]
    outlaw(g, 3, 3)
    firepower(g, winner, 20)
    on_parcel(g, 3, 3, winner)
    money = g.state.players[undertaker].money
    since = resume(g, "estate_income")
    (fought,) = events_of(g.events, "outlaw_fought")
    assert fought["bounty"] == {"seat": undertaker, "amount": 2}
    assert state_after(g, since, "outlaw_fought").players[undertaker].money == money + 2


def test_nobody_waits_on_a_defeat_without_the_card_and_base_logs_are_unchanged() -> None:
    """R-GG-15, R-GG-16: without the Doctor / Undertaker held, a loser goes home as always and no event carries
    the new fields; a base game's setup has no trace of them."""
    g = table([{"card": "banker"}, {"card": "chinese_worker"}, {"card": "grocer"}])
    winner, loser = g.state.choosing_order[:2]
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    on_square(g, "ammunition", COWBOYS[winner, False], COWBOYS[loser, False])
    since = resume(g, "ammunition")
    after = state_after(g, since, "duel_fought")
    assert after.defeat is None and after.players[loser].cowboys == 1
    events = new_game(GameConfig.from_variants(3, {}), 5)
    assert "no_duel_chips" not in player_view(replay(events), None)["players"][0]


def test_the_doctors_default_lets_the_cowboy_go_home() -> None:
    """Decision D81: a player whose clock runs out pays nothing: the Doctor's cowboy goes home."""
    g = table(DOCTOR_FIRST)
    winner, loser = others(g, "doctor")
    firepower(g, winner, 20)
    firepower(g, loser, 0)
    on_square(g, "ammunition", COWBOYS[winner, False], COWBOYS[loser, False])
    g.resume_at("ammunition")
    assert default_move(g.state, loser) == {"type": "decline"}
