"""Builders for rules tests: start a game, drive it with chosen moves, and shape a state for a scenario.

States are frozen; `put`, `set_player` and `with_state` return changed copies (through `app.rules.model.replace`,
so the memo of answers is never carried over). Moves go through the real `play`, so every scenario step is
validated by the rules core itself.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from app.rules import Event, GameConfig, GameState, legal_moves, new_game, play, replay, to_act
from app.rules.board import parcel_index
from app.rules.decide import advance
from app.rules.flow import awaiting
from app.rules.model import Cowboy, Parcel, replace
from app.rules.moves import Move
from app.rules.rng import Rng

SEED = 12345


class Game:
    """A game under test: its state, its event log and its seed."""

    def __init__(self, players: int = 3, seed: int = SEED, **variants: Any) -> None:
        """A Gold & Guns or Big Box game plays the seven base cards unless `characters` says otherwise (None: drawn
        at random), so that scenarios written for the base cards keep them."""
        self.seed = seed
        if {"gold_and_guns", "big_box"} & set(variants.get("expansions", ())):
            variants.setdefault("characters", list(range(1, 8)))
        self.config = GameConfig.from_variants(players, variants, preview=True)  # expansions in preview too
        self.events: list[Event] = new_game(self.config, seed)
        self.state: GameState = replay(self.events)

    # -- driving ------------------------------------------------------------------------------------------------
    def move(self, seat: int, move: Move) -> list[Event]:
        """Play one move (it must be legal) and return the events it produced."""
        new, self.state = play(self.state, seat, move, Rng(self.seed, self.state.seq))
        self.events += new
        return new

    def act(self, move: Move) -> list[Event]:
        """Play `move` for the single awaited seat."""
        (seat,) = self.to_act
        return self.move(seat, move)

    def moves(self, seat: int | None = None) -> list[Move]:
        if seat is None:
            (seat,) = self.to_act
        return legal_moves(self.state, seat)

    @property
    def awaiting(self) -> str | None:
        waiting = awaiting(self.state)
        return waiting.kind if waiting else None

    @property
    def to_act(self) -> tuple[int, ...]:
        """The seats whose decision the game awaits now."""
        return to_act(self.state)

    def claim_starts(self, parcels: Iterable[tuple[int, int]] | None = None) -> None:
        """Play the starting-parcel draft with the given parcels (default: a column on the west border)."""
        chosen = list(parcels) if parcels is not None else [(1, y) for y in range(1, 9)]
        free = [p for p in chosen if self.state.parcels[parcel_index(*p)].owner is None]
        while self.awaiting == "start_parcel":
            x, y = free.pop(0)
            self.act({"type": "claim_parcel", "x": x, "y": y})

    def choose(self, cards: Iterable[str], decide: Callable[[Game], Move] | None = None) -> None:
        """Choose personalities in choosing order; card decisions are answered by `decide` (default: the
        first listed move, i.e. the cheapest/plainest option)."""
        todo = list(cards)
        while self.awaiting not in (None, "placement") and self.state.step == "personalities":
            if self.awaiting == "personality":
                self.act({"type": "choose_personality", "card": todo.pop(0)})
            else:
                self.act(decide(self) if decide else self.moves()[0])

    def pass_all(self) -> None:
        """Everyone passes the placement phase."""
        while self.awaiting == "placement":
            self.act({"type": "pass"})

    def run(self, policy: Callable[[Game, int, list[Move]], Move], until: Callable[[Game], bool]) -> None:
        """Let `policy` decide until `until` holds (or the game ends)."""
        while not until(self) and self.state.status != "finished":
            seat = self.to_act[0]
            self.move(seat, policy(self, seat, legal_moves(self.state, seat)))

    def resume_at(self, step: str, passing_order: Iterable[int] | None = None) -> list[Event]:
        """Jump the cursor to `step` of the current round with everyone passed (in `passing_order`, default
        placement order), then run the automatic flow; returns the events it produced."""
        order = tuple(passing_order) if passing_order is not None else self.state.placement_order
        players = tuple(replace(p, passed=True) for p in self.state.players)
        self.state = replace(self.state, step=step, players=players, passing_order=order, turn=None)
        new, self.state = advance(self.state, Rng(self.seed, self.state.seq))
        self.events += new
        return new

    # -- shaping ------------------------------------------------------------------------------------------------
    def with_state(self, **changes: Any) -> None:
        self.state = replace(self.state, **changes)

    def set_player(self, seat: int, **changes: Any) -> None:
        players = list(self.state.players)
        players[seat] = replace(players[seat], **changes)
        self.state = replace(self.state, players=tuple(players))

    def put(self, x: int, y: int, owner: int | None = None, content: str | None = None, river: bool = False,
            outlaw: bool = False) -> None:
        """Set one parcel's owner and content (and, with the Outlaws, an outlaw on it)."""
        parcels = list(self.state.parcels)
        parcels[parcel_index(x, y)] = Parcel(owner=owner, content=content, river=river, outlaw=outlaw)
        self.state = replace(self.state, parcels=tuple(parcels))

    def clear_board(self) -> None:
        """Empty every parcel (no owners, no mountains, no houses) — roads stay."""
        self.state = replace(self.state, parcels=tuple(Parcel() for _ in range(64)))

    def place_cowboys(self, square: str | None = None, xy: tuple[int, int] | None = None,
                      seats: Iterable[int] = (), white: bool = False) -> None:
        """Put cowboys directly on a square or parcel (bypassing placement) for resolution scenarios."""
        cowboys = tuple(Cowboy(seat=s, white=white) for s in seats)
        if square is not None:
            squares = dict(self.state.squares)
            squares[square] = (*squares.get(square, ()), *cowboys)
            self.state = replace(self.state, squares=squares)
        else:
            assert xy is not None
            spots = dict(self.state.parcel_cowboys)
            index = parcel_index(*xy)
            spots[index] = (*spots.get(index, ()), *cowboys)
            self.state = replace(self.state, parcel_cowboys=spots)


def events_of(events: Iterable[Event], event_type: str) -> list[Event]:
    return [e for e in events if e["type"] == event_type]
