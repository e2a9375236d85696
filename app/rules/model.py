"""The frozen game state. Every field is plain data; `evolve` builds a new state from an old one and an event.

The state and its players are copied at almost every event, so they keep their fields in an instance dict (a
copy is one dict copy); the small pieces read in the scans over the board (parcels, cowboys) use slots.

Per-round bookkeeping (who has passed, cowboys on squares and parcels, the 3-guns chip) lives here beside the
permanent board, so that the flow can tell from the state alone what happens next.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import MISSING, dataclass, field, fields
from typing import Any, Final, TypeVar

from app.rules.board import Edge
from app.rules.catalog import BASE_CARDS, HOUSES_SUPPLY, PERSONALITIES, TOWNHOUSES_SUPPLY, Side
from app.rules.config import MAX_PLAYERS, MIN_PLAYERS, GameConfig
from app.rules.events import Throw


def own_dict(obj: T) -> T:
    """Give a new state (or player) a dict of its own before its fields are written. Otherwise CPython keeps the
    names of the first fields written as keys shared by every object of the class, and then reserves room for
    them in each new object — which `replace` and `successor` throw away at once for the dict they copy."""
    object.__setattr__(obj, "__dict__", {})
    return obj


@dataclass(frozen=True, slots=True)
class Parcel:
    owner: int | None = None
    content: str | None = None  # None, "house", "mountain" or a building type
    river: bool = False
    outlaw: bool = False  # the Outlaws: an outlaw meeple stands here (RULING G4)


@dataclass(frozen=True, slots=True)
class Cowboy:
    seat: int
    white: bool = False  # the Sheriff's white cowboy (RULING B6)
    singer: bool = False  # the red Singer's cowboy from the general reserve: it never duels (`001` "Singer")
    dynamite: bool = False  # placed with a dynamite chip: two dice (two tiles) in its duel (RULING G7)
    no_duel: bool = False  # placed with the yellow Singer's "no duel" chip: it never duels and acts first (G9)
    buy: bool = False  # "buy this parcel if I win and can pay", answered with the placement (decision D106)


# Cowboys are values: one of each colour per seat serves every placement.
COWBOYS: Final = {(seat, white): Cowboy(seat, white) for seat in range(MAX_PLAYERS) for white in (False, True)}
SINGER_COWBOYS: Final = {seat: Cowboy(seat, singer=True) for seat in range(MAX_PLAYERS)}
DYNAMITE_COWBOYS: Final = {seat: Cowboy(seat, dynamite=True) for seat in range(MAX_PLAYERS)}
NO_DUEL_COWBOYS: Final = {seat: Cowboy(seat, no_duel=True) for seat in range(MAX_PLAYERS)}


@dataclass(frozen=True)
class PlayerState:
    seat: int
    money: int
    cowboys: int  # in the personal reserve
    revolvers: int
    roads: int  # in the personal reserve
    vp: int = 0
    personality: str | None = None
    passed: bool = False
    buildings: tuple[str, ...] = ()  # bought, kept in reserve
    card_option: str | None = None  # what the holder chose on their card this round, e.g. "double:bank", "vp"
    tiles: tuple[int, ...] = ()  # Might Is Right: the duel tiles in hand (secret)
    marksman: bool = False  # A New Beginning: duels with two dice, the higher counts
    picks: int = 0  # A New Beginning: parcel picks bought and not yet placed
    outlaw_vp: int = 0  # the Outlaws: the part of `vp` won from outlaws (a score part of its own)
    dynamite: int = 0  # Gold & Guns: dynamite chips kept, until used (RULING G7, decision D57)
    no_duel_chips: int = 0  # Gold & Guns: the yellow Singer's chips not yet placed this round (RULING G9)
    horses: int = 0  # Big Box: horses bought at Wages, 1 VP each at the end (RULING X6)
    copied: str | None = None  # Big Box: the card the Newspaper Boy's holder copies this round (RULING X2)

    def __new__(cls, *args: Any, **kwargs: Any) -> PlayerState:
        return own_dict(super().__new__(cls))


@dataclass(frozen=True, slots=True)
class PermissionRequest:
    """The builder asked `asked` for a house on their parcels; `open` parcels are still unanswered (B12)."""

    asked: int
    open: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Construction:
    """A construction under way (RULINGS B4, B11, B12): one building and, if it needs one, its house.

    `source` is "square" (just bought), "card" (the red Chinese Worker) or "reserve" (building after the
    construction squares, `building` None until the builder picks one). `parcel` is set once the building stands
    and only its house (or, for a school, its `houses`) is missing.
    """

    seat: int
    source: str
    building: str | None
    parcel: int | None = None
    asked: frozenset[int] = frozenset()
    granted: frozenset[int] = frozenset()
    request: PermissionRequest | None = None
    houses: int = 1  # houses still to place once the building stands (a school places three)


@dataclass(frozen=True, slots=True)
class Auction:
    """The Auctioneer's auction under way (`001` "The Auctioneer (12)", RULING G8): the lot (`catalog.AUCTION_LOTS`)
    and, for parcels, the `size` to choose and those chosen; the bids so far in order (seat, amount), the last one
    the highest; who has passed (for good); whose bid is awaited (None while parcels are still chosen, and once
    the bidding is over)."""

    seat: int
    lot: str
    size: int = 0
    parcels: tuple[int, ...] = ()
    bids: tuple[tuple[int, int], ...] = ()
    passed: frozenset[int] = frozenset()
    turn: int | None = None


@dataclass(frozen=True)
class Defeat:
    """Cowboys just defeated in a duel or an outlaw fight while the Doctor or the Undertaker is held: their owners
    decide one at a time, `seats` in order (RULING G11), before anything else happens. `stage` is where in the
    resolution order (`defeats.RESOLUTION_STAGES`) the duel was fought: the Doctor moves a cowboy only later."""

    seats: tuple[int, ...]
    stage: str


@dataclass(frozen=True)
class GameState:
    config: GameConfig
    seq: int = 0
    round: int = 0
    step: str = "setup"
    players: tuple[PlayerState, ...] = ()
    parcels: tuple[Parcel, ...] = ()
    roads: frozenset[Edge] = frozenset()
    centre: int | None = None
    construction: tuple[str | None, ...] = ()  # the seven construction squares, cheapest first
    bag: Mapping[str, int] = field(default_factory=dict)  # building type -> tiles left; never shown to anyone
    houses: int = HOUSES_SUPPLY
    townhouses: int = TOWNHOUSES_SUPPLY  # Gold & Guns (RULING G6)
    # Gold & Guns: the City Hall's parcel once it stands, and whether it was drawn and waits to be placed (RULING
    # G2). Its occupant is the cowboy on its parcel, kept there across rounds (`city_hall.occupant`).
    city_hall: int | None = None
    city_hall_drawn: bool = False
    # The Outlaws (RULING G4): the strength on the outlaw tile now on the board (it applies to every outlaw), the
    # last round whose outlaws have arrived, and while they move, where the outlaws that already moved now stand.
    # The outlaws themselves stand on the parcels (`Parcel.outlaw`).
    outlaw_strength: int | None = None
    outlaw_round: int = 0
    outlaws_moved: frozenset[int] | None = None
    outlaw_beaten: int | None = None  # the parcel whose outlaw was just beaten, until its winner takes the reward
    defeat: Defeat | None = None  # Gold & Guns: defeated cowboys awaiting the Doctor or the Undertaker (G11)
    sides: Mapping[str, str] = field(default_factory=dict)  # card -> "yellow" | "red"
    cards: tuple[str, ...] = BASE_CARDS  # the personality cards of this game, by number (RULING G1)
    initial_order: tuple[int, ...] = ()
    draft_claims: int = 0  # starting parcels placed so far
    choosing_order: tuple[int, ...] = ()
    placement_order: tuple[int, ...] = ()
    passing_order: tuple[int, ...] = ()
    turn: int | None = None  # whose placement turn it is
    squares: Mapping[str, tuple[Cowboy, ...]] = field(default_factory=dict)
    parcel_cowboys: Mapping[int, tuple[Cowboy, ...]] = field(default_factory=dict)
    white_cowboy: bool = False  # the Sheriff's white cowboy is still to be placed this round
    singer_cowboy: bool = False  # the red Singer's cowboy from the general reserve is still to be placed
    chip_holder: int | None = None  # the 3-guns chip (RULING B14)
    # Gold & Guns, the Auctioneer (RULING G8): the auction under way while the cards are chosen, and whether the
    # red side sold the 3-guns chip this round (Ammunition then has nothing left to win, decision D68).
    auction: Auction | None = None
    chip_sold: bool = False
    card_decision: int | None = None  # seat asked for their personality's decision right now
    work: Construction | None = None
    reserve_done: frozenset[int] = frozenset()
    # Big Box (RULING X6): at Wages, each asked seat's answer (True: a horse for $4) until the wages are paid.
    wages_chosen: Mapping[int, bool] = field(default_factory=dict)
    attacks: Mapping[int, int] = field(default_factory=dict)  # building parcel -> attacker who takes half its income
    # Variants: the per-card vote (secret until all voted), Might Is Right's used pile and the duel being
    # prepared (chosen tiles are secret until revealed together), A New Beginning's baskets (secret until all
    # are done), The River's final road phase.
    votes: Mapping[int, Mapping[str, str]] = field(default_factory=dict)
    used_tiles: tuple[int, ...] = ()
    duel_target: Mapping[str, Any] | None = None
    duel_tiles: Mapping[int, int] = field(default_factory=dict)
    baskets: Mapping[int, Mapping[str, int]] = field(default_factory=dict)
    shopping_done: frozenset[int] = frozenset()
    final_roads_done: frozenset[int] = frozenset()
    winner: int | None = None
    scores: tuple[Mapping[str, int], ...] = ()
    # Dynamite and the red Gunsmith (RULING G7): the mines whose estate income is tripled this round, the seats
    # done with the estate income's dynamite decision; a duel's first throws while the Gunsmith decides whether to
    # roll again (seat -> the throw, `events.Throw`); with Might Is Right the second tiles of dynamite duellists
    # and whether the tiles chosen so far were shown to the Gunsmith, who plays last.
    dynamite_mines: frozenset[int] = frozenset()
    dynamite_done: frozenset[int] = frozenset()
    duel_rolls: Mapping[int, Throw] = field(default_factory=dict)
    reroll_pending: bool = False
    duel_second_tiles: Mapping[int, int] = field(default_factory=dict)
    duel_tiles_revealed: bool = False
    # Per seat, how many events of the log only that seat may know of (`events.private_to`): every other
    # viewer counts the log without them (`view.visible_seq`).
    private_events: Mapping[int, int] = field(default_factory=dict)
    # Answers computed from this (immutable) state, such as the awaited decision and the legal moves (under each
    # seat's number; every other answer under its name); never copied to a new state, never compared.
    memo: dict[Any, Any] = field(default_factory=dict, init=False, compare=False, repr=False)
    # Answers about the parcels alone or the roads alone (`about_parcels`, `about_roads`), each kept with the
    # tuple or set it was worked out from; a new state starts with a copy of its parent's (`replace`) or, in the
    # fold, shares it (`successor`); never compared.
    kept: dict[Any, tuple[Any, Any]] = field(default_factory=dict, init=False, compare=False, repr=False)

    def __new__(cls, *args: Any, **kwargs: Any) -> GameState:
        return own_dict(super().__new__(cls))

    @property
    def status(self) -> str:
        return "finished" if self.step == "finished" else "active"

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

    def side(self, seat: int) -> Side | None:
        """The side whose abilities `seat` has this round: its card's, or the card the Newspaper Boy copies (X2)."""
        p = self.players[seat]
        card = p.copied or p.personality
        if card is None:
            return None
        return PERSONALITIES[card].side(self.sides.get(card, "yellow"))

    def coming_choosing_order(self) -> tuple[int, ...]:
        """Give the coming round's choosing order, as it stands once everyone has passed: the passing order
        (RULING B5), but the Teacher's holder first, whatever the passing order (RULING X3); a Newspaper Boy
        copying the Teacher too, the two in passing order (decision D93). The round's end sets it, and whoever
        acts for "the first player" before that (the City Hall drawn at the refill, RULING G18) reads it here."""
        first = tuple(seat for seat in self.passing_order if (side := self.side(seat)) is not None
                      and side.chooses_first)
        return first + tuple(seat for seat in self.passing_order if seat not in first)

    def holds(self, seat: int, card: str, colour: str | None = None) -> bool:
        """Whether `seat` holds `card` this round, or copies it with the Newspaper Boy (on the given side, if one
        is named)."""
        p = self.players[seat]
        if p.personality != card and p.copied != card:
            return False
        return colour is None or self.sides.get(card, "yellow") == colour

    def holder(self, card: str, colour: str | None = None) -> int | None:
        """The first seat holding `card`; for a card a Newspaper Boy may copy, `holders` names them all."""
        for p in self.players:
            if self.holds(p.seat, card, colour):
                return p.seat
        return None

    def holders(self, card: str, colour: str | None = None) -> tuple[int, ...]:
        """Every seat holding `card` (or copying it, RULING X2), in placement order once it is set."""
        return tuple(seat for seat in self.placement_order or range(len(self.players))
                     if self.holds(seat, card, colour))


def initial_state(config: GameConfig) -> GameState:
    """`GameState(config=config)`, the state before a game's first event, copied from a template: the dataclass's
    own `__init__` writes each of its sixty fields through `object.__setattr__` (a replay starts with it). Each
    field made by a factory gets a value of its own, as `__init__` would give it."""
    values = _INITIAL.copy()
    values["config"] = config
    for name, factory in _FACTORIES:
        values[name] = factory()
    new = _new(GameState)
    _set(new, "__dict__", values)
    return new


def replace_player(p: PlayerState, changes: Mapping[str, Any]) -> PlayerState:
    """`replace(p, **changes)` for a player, the changes handed over as they are (the fold changes a player at
    most events)."""
    values = p.__dict__.copy()
    values.update(changes)
    new = _new(PlayerState)
    _set(new, "__dict__", values)
    return new


def replace(obj: T, **changes: Any) -> T:
    """`dataclasses.replace` for this module's frozen classes, several times faster (the fold calls it for every
    event): a dict-based object is copied with one dict copy, a slotted one field by field. A GameState's memo
    is never carried over; its kept answers are (each is checked against the part it was worked out from)."""
    cls = type(obj)
    new = _new(cls)
    if cls in _SLOTS:
        for name in _SLOTS[cls]:
            _set(new, name, changes[name] if name in changes else getattr(obj, name))
        return new
    values = obj.__dict__.copy()  # the cheapest copy there is: one dict copied in C
    values.update(changes)
    if cls is GameState:
        values["memo"] = {}
        values["kept"] = values["kept"].copy()
    _set(new, "__dict__", values)
    return new


def successor(s: GameState, seq: int) -> GameState:
    """A copy of `s` at `seq`, for the fold to write its event into: `replace(s, seq=seq)` without the generic
    path's look-ups (the fold makes one for every event of every game, so this is the core's most frequent copy).

    The copy shares its parent's kept answers rather than copying them: each answer is checked against the very
    part it was worked out from before it is used, so states of one line of play (or of branches a search
    explores) can share one table; a branch only replaces an answer another branch would work out again."""
    values = s.__dict__.copy()
    values["seq"] = seq
    values["memo"] = {}
    new = _new(GameState)
    _set(new, "__dict__", values)
    return new


def about_parcels(s: GameState, question: Callable[[tuple[Parcel, ...]], T]) -> T:
    """`question(s.parcels)`, worked out once per board: states made one from another share their parcels until
    a parcel changes, so placement, purchases and construction ask their questions of the board once, not at
    every decision. The answer is shared by those states: read it, never change it. (`_kept`, written out: the
    placement and the purchases ask several times a decision.)"""
    parcels = s.parcels
    entry = s.kept.get(question)
    if entry is None or entry[0] is not parcels:
        entry = s.kept[question] = (parcels, question(parcels))
    answer: T = entry[1]
    return answer


def about_roads(s: GameState, question: Callable[[frozenset[Edge]], T]) -> T:
    """`question(s.roads)`, worked out once per road network (see `about_parcels`)."""
    return _kept(s, s.roads, question)


def _kept(s: GameState, part: P, question: Callable[[P], T]) -> T:
    """The answer stored with the very object it was worked out from is still right (the parts are immutable)."""
    entry = s.kept.get(question)
    if entry is None or entry[0] is not part:
        entry = s.kept[question] = (part, question(part))
    answer: T = entry[1]
    return answer


T = TypeVar("T")
P = TypeVar("P")
# `object.__new__` and `object.__setattr__`, looked up once: the copies above are the fold's most frequent calls, and
# each look-up on `object` costs about a quarter of a player's copy.
_new: Final = object.__new__
_set: Final = object.__setattr__
_INITIAL: Final = GameState(config=GameConfig(players=MIN_PLAYERS)).__dict__
_FACTORIES: Final = tuple(
    (f.name, f.default_factory) for f in fields(GameState) if f.default_factory is not MISSING
)
_SLOTS: dict[type, tuple[str, ...]] = {
    cls: tuple(f.name for f in fields(cls)) for cls in (Parcel, Cowboy, PermissionRequest, Construction, Auction)
}
