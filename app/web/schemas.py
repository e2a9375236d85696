"""Request and response bodies of the JSON API (they document it in /openapi.json)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StringConstraints

from app.play import chat, notes
from app.play.chat import ChatLine
from app.play.notes import Notes
from app.play.positions import Export, GameSummary, MoveOptions, PendingInvitation, VisibleEvent
from app.play.profiles import PlayerRecord
from app.play.reputation import Reputation
from app.rules.config import MAX_PLAYERS
from app.rules.moves import move_json_schema
from app.web.fields import MAX_INTEGER, LongText, Text, refuse_control_characters

USERNAME_PATTERN = r"^[A-Za-z0-9_.-]+$"


class ErrorBody(BaseModel):
    code: str = Field(examples=["stale_seq"])
    message: str = Field(examples=["The game has moved on since you looked; reload and try again."])


class ErrorResponse(BaseModel):
    """Every error: a stable code for programs and a sentence for people."""

    detail: ErrorBody


NewPassword = Annotated[str, Field(min_length=8, max_length=256)]
# Only bounded here: whether it is an address we can mail is decided in one place for every way in
# (app.play.addresses: 422 `invalid_email` / `unsupported_email`).
EmailAddress = Annotated[Text, Field(max_length=254)]


class RegisterIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Text = Field(min_length=3, max_length=32, pattern=USERNAME_PATTERN)
    email: EmailAddress
    password: NewPassword


class PasswordChangeIn(BaseModel):
    """A new password; every browser and token of the account is signed out."""

    model_config = ConfigDict(extra="forbid")

    current_password: str = Field(max_length=256)
    new_password: NewPassword


class EmailChangeIn(BaseModel):
    """A new address for the account's mails and password resets, confirmed with the password."""

    model_config = ConfigDict(extra="forbid")

    current_password: str = Field(max_length=256)
    email: EmailAddress


class PasswordForgotIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    email: EmailAddress


class EmailConfirmIn(BaseModel):
    """The token of the link mailed to a new address."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=512)


class PasswordResetIn(BaseModel):
    """The token of a reset link and the new password."""

    model_config = ConfigDict(extra="forbid")

    token: str = Field(max_length=512)
    new_password: NewPassword


class AccountOut(BaseModel):
    id: int
    username: str


class MeOut(AccountOut):
    is_admin: bool


class TokenOut(BaseModel):
    access_token: str
    token_type: Literal["bearer"] = "bearer"


class VariantsIn(BaseModel):
    """Variant settings; every one optional, defaults = the standard base game. Unknown keys reach the rules
    core, which names the setting it cannot play (422 `invalid_variant`). Rules across fields, refused the
    same way: `horses` and `kit_carson` need the `big_box` expansion; `characters` needs `gold_and_guns` or
    `big_box` and lists 7 different card numbers of the game's cards (8 when one is the Newspaper Boy, 0); six
    seats need `big_box`."""

    model_config = ConfigDict(extra="allow")

    sides: Literal["yellow", "red", "random", "vote"] | None = None
    might_is_right: bool | None = None
    river: bool | None = None
    new_beginning: bool | None = None
    expansions: list[Literal["gold_and_guns", "outlaws", "big_box"]] | None = None
    characters: list[int] | None = Field(
        default=None, description="Gold & Guns or Big Box: the 7 cards in play (8 with the Newspaper Boy, 0)."
    )
    horses: bool | None = Field(default=None, description="Big Box: a horse for $4 at Wages, 1 VP at the end.")
    kit_carson: bool | None = Field(
        default=None, description="Big Box: 1 VP per player behind one on the turn-order track at the end."
    )

    def settings(self) -> dict[str, Any]:
        """Only the settings the admin actually gave (unknown ones included, for the rules core to name)."""
        return self.model_dump(exclude_none=True)


class CreateGameIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: Text = Field(min_length=1, max_length=100)
    seats: int = Field(ge=2, le=MAX_PLAYERS, description="2 to 5; 6 with the `big_box` expansion.")
    variants: VariantsIn = Field(default_factory=VariantsIn)
    players: list[Text] | None = Field(
        default=None,
        max_length=MAX_PLAYERS,
        description="An admin's table seats these players (a full list starts the game at once); a player's table "
        "seats its creator and invites these players.",
    )
    seed: int | None = Field(default=None, ge=0, le=2**63 - 1, description="Admins only (403 seed_admin_only).")
    move_timeout_hours: int | None = Field(default=None, ge=1, le=24 * 60)
    public: bool = Field(
        default=True, description="Anyone may join while the table is open; false: only the players invited."
    )
    bots: int = Field(
        default=0, ge=0, le=5,
        description="How many seats the site's bot takes (`bot-1`, `bot-2`, ...): 0 to seats - 1 "
        "(422 `too_many_bots`); it moves by itself within seconds.",
    )
    bot_level: Literal["easy", "normal", "hard"] = Field(
        default="normal",
        description="How strongly the bot seats play: `easy`, `normal` (the heuristic bot) or `hard` (a search, "
        "up to a few seconds a move). A seat whose clock ran out is played at `normal`.",
    )
    start_when_full: bool = Field(
        default=True,
        description="The last seat taken (a join, an accepted invitation, or the bots and players seated at "
        "creation) starts the game in that same request, and every seated player is mailed `game_started`; "
        "false: the creator starts it (POST .../start).",
    )
    invitation_days: int = Field(
        default=7, ge=1, le=60,
        description="An invitation to the table unanswered this many days expires (its seat is free again) and "
        "its inviter is mailed `invitation_expired`.",
    )
    rated: bool = Field(
        default=True, description="The finished game rates its players from their places; false: an unrated table."
    )
    max_timeout_percent: int | None = Field(
        default=None, ge=0, le=100,
        description="Only players whose move clock ran out in at most this share of their games (in %) may join "
        "(403 `reputation_too_low`); invited players are not asked. Null: anyone.",
    )
    pause_weekends: bool = Field(
        default=False,
        description="The move clocks stop from Saturday 00:00 to Monday 00:00 in each player's time zone (their "
        "setting, `PUT /api/v1/me/clock`).",
    )
    vacations: bool = Field(
        default=True,
        description="Vacation days stop the table's clocks, and a clock about to run out takes a day of its "
        "player's yearly budget instead (announced in the table chat); false: the clocks never stop for them.",
    )


class ReputationOut(BaseModel):
    """A player's record of reliability, counted from the results of their games."""

    finished: int = Field(description="Games played to their end.")
    abandoned: int = Field(description="Games left while running (the seat handed to another player).")
    timeouts: int = Field(description="Finished games in which the player's move clock ran out.")

    @classmethod
    def of(cls, r: Reputation) -> ReputationOut:
        return cls(finished=r.finished, abandoned=r.abandoned, timeouts=r.timeouts)


class SeatOut(BaseModel):
    seat: int | None
    username: str
    bot: bool = Field(default=False, description="The site's bot plays this seat (its account is a bot).")
    absent: bool = Field(
        default=False,
        description="The player's clock ran out: the site's bot plays the seat until they move or take it back.",
    )
    reputation: ReputationOut | None = Field(
        default=None,
        description="At an open table (and so in an invitation), the player's reputation; null for a bot, and once "
        "the game has started.",
    )


class DeadlineOut(BaseModel):
    seat: int
    username: str
    deadline: datetime = Field(description="When this seat's move clock runs out (the server then moves for it).")


class GameOut(BaseModel):
    id: int
    name: str
    status: Literal["open", "active", "finished"]
    seats: list[SeatOut]
    seat_count: int
    variants: dict[str, Any]
    seq: int = Field(description="The head of the log as a spectator counts it (without any seat's secret edits).")
    to_act: list[int]
    move_timeout_hours: int | None
    created_at: datetime
    deadlines: list[DeadlineOut] = Field(
        default_factory=list, description="The running move clocks: one entry per awaited seat of a timed game."
    )
    public: bool = Field(default=True, description="Anyone may join while it is open; false: by invitation only.")
    start_when_full: bool = Field(
        default=True, description="The last seat taken starts the game; false: its creator starts it."
    )
    invitation_days: int = Field(default=7, description="Days an invitation to the table waits for its answer.")
    rated: bool = Field(default=True, description="Its finished game rates its players; false: an unrated table.")
    max_timeout_percent: int | None = Field(
        default=None, description="Joins only players whose clock ran out in at most this share (%) of their games."
    )
    pause_weekends: bool = Field(default=False, description="The clocks stop on each player's weekend.")
    vacations: bool = Field(default=True, description="Vacation days stop the clocks; false: forbidden here.")
    creator: str | None = Field(default=None, description="Who opened the table (starts it, invites to it).")
    invited: list[str] = Field(default_factory=list, description="Players invited who have not answered yet.")
    seed_commitment: str = Field(
        description="The SHA-256 (64 hex characters) of the game's secret seed, published when the game was created "
        "and before any random draw (see /fairness)."
    )
    seed: str | None = Field(
        description="The secret seed (32 bytes as 64 hex characters) once the game is finished; null before. Its "
        "SHA-256 is `seed_commitment`; `python -m app verify` replays an export from it."
    )
    seed_chosen: bool = Field(description="True when an admin chose the seed instead of the server drawing it.")

    @classmethod
    def of(cls, g: GameSummary) -> GameOut:
        return cls(
            id=g.id,
            name=g.name,
            status=g.status,  # type: ignore[arg-type]
            seats=[SeatOut(seat=s.seat, username=s.username, bot=s.bot, absent=s.absent,
                           reputation=ReputationOut.of(s.reputation) if s.reputation is not None else None)
                   for s in g.seats],
            seat_count=g.seat_count,
            variants=g.variants,
            seq=g.seq,
            to_act=list(g.to_act),
            move_timeout_hours=g.move_timeout_hours,
            created_at=g.created_at,
            deadlines=[
                DeadlineOut(seat=s.seat, username=s.username, deadline=s.deadline)
                for s in g.seats
                if s.seat is not None and s.deadline is not None
            ],
            public=g.public,
            start_when_full=g.start_when_full,
            invitation_days=g.invitation_days,
            rated=g.rated,
            max_timeout_percent=g.max_timeout_percent,
            pause_weekends=g.pause_weekends,
            vacations=g.vacations,
            creator=g.creator,
            invited=list(g.invited),
            seed_commitment=g.seed_commitment,
            seed=g.seed,
            seed_chosen=g.seed_chosen,
        )


class ResultOut(BaseModel):
    """How one finished game ended for the player."""

    game: GameOut
    won: bool
    place: int = Field(description="1 for the winner; the others by points, then money.")
    points: int
    winner: str = Field(description="The winner's username.")


class RatingOut(BaseModel):
    value: int = Field(description="The rating shown (Plackett-Luce's mu - 3 sigma, scaled; a newcomer's is 1000).")
    games: int = Field(description="The rated games it rests on.")
    provisional: bool = Field(description="Fewer than 10 rated games: shown with a '?'.")


class RankedOut(BaseModel):
    username: str
    rating: int
    games: int


class LeaderboardOut(BaseModel):
    players: list[RankedOut] = Field(description="Best first; provisional players left out.")
    count: int = Field(description="How many players the whole leaderboard (with its filter) holds.")
    offset: int = Field(description="The place, counted from 0, of the first player listed.")


class PlayerOut(BaseModel):
    """A player's record, as their page `/players/{name}` shows it."""

    username: str
    finished: list[ResultOut] = Field(description="Their newest finished games (at most 50), newest first.")
    finished_total: int = Field(description="All their finished games, of which `finished` lists the newest.")
    wins: int = Field(description="Wins among the games `finished` lists.")
    win_rate: float | None = Field(description="`wins` per game `finished` lists; null before the first.")
    running: list[GameOut] = Field(description="The games they play now (at most 50).")
    rating: RatingOut = Field(description="Their rating (a bot's: its level's).")
    reputation: ReputationOut

    @classmethod
    def of(cls, record: PlayerRecord) -> PlayerOut:
        skill, reputation = record.skill, record.reputation
        return cls(
            rating=RatingOut(value=skill.value, games=skill.games, provisional=skill.provisional),
            reputation=ReputationOut.of(reputation),
            username=record.username,
            finished=[ResultOut(game=GameOut.of(r.game), won=r.won, place=r.place, points=r.points, winner=r.winner)
                      for r in record.finished],
            finished_total=record.finished_total,
            wins=record.wins,
            win_rate=record.win_rate,
            running=[GameOut.of(g) for g in record.running],
        )


class GameListOut(BaseModel):
    data: list[GameOut]
    count: int


class MovesOut(BaseModel):
    seq: int = Field(description="The head of the log as the caller counts it: the seq to send with a move.")
    seat: int | None
    moves: list[dict[str, Any]] = Field(
        description="Each move exactly in the shape POST .../moves accepts.",
        json_schema_extra={"items": move_json_schema()},
    )

    @classmethod
    def of(cls, m: MoveOptions) -> MovesOut:
        return cls(seq=m.seq, seat=m.seat, moves=m.moves)


class MoveIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: int = Field(
        ge=0,
        le=MAX_INTEGER,
        description="The sequence number the client saw (events it may not know of, such as another seat's "
        "secret edits, are not counted).",
    )
    move: dict[str, Any] = Field(
        description='A move: {"type": ..., ...fields}, as listed by GET .../moves. The vocabulary: one shape per '
        '"type" below; which of them are legal now is what GET .../moves lists.',
        json_schema_extra=move_json_schema(),
    )


class MoveOut(BaseModel):
    seq: int


class UndoIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    seq: int = Field(
        ge=0,
        le=MAX_INTEGER,
        description="The sequence number the client saw, as for a move (409 `stale_seq` if the game moved on).",
    )


class EventOut(BaseModel):
    seq: int
    type: str
    data: dict[str, Any]
    at: datetime
    timed_out: bool = Field(
        default=False,
        description="Made by the server because the seat's clock ran out (or its player has been absent since).",
    )
    by_bot: bool = Field(default=False, description="Made by the site's bot for the seat's absent player.")

    @classmethod
    def of(cls, e: VisibleEvent) -> EventOut:
        return cls(seq=e.seq, type=e.type, data=e.data, at=e.at, timed_out=e.timed_out, by_bot=e.by_bot)


class EventsOut(BaseModel):
    events: list[EventOut]


class InviteIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    username: Text = Field(min_length=1, max_length=32)


class InvitationOut(BaseModel):
    game: GameOut
    invited_by: str | None

    @classmethod
    def of(cls, i: PendingInvitation) -> InvitationOut:
        return cls(game=GameOut.of(i.game), invited_by=i.invited_by)


class InvitationsOut(BaseModel):
    invitations: list[InvitationOut]


class NextGameOut(BaseModel):
    """The game awaiting the caller whose clock runs out first (`GET /api/v1/me/next`)."""

    game_id: int
    url: str = Field(description="The table page's path, /games/{id}.")
    deadline: datetime | None = Field(description="When the caller's move clock there runs out; null: no clock.")


# Stripped first, so a message of spaces alone is empty; then checked like every other text.
ChatText = Annotated[
    str,
    StringConstraints(strip_whitespace=True, min_length=1, max_length=chat.MAX_LENGTH),
    AfterValidator(refuse_control_characters),
]


class ChatIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: ChatText


class ChatMessageOut(BaseModel):
    id: int
    username: str
    text: str = Field(description="Empty once an admin removed the message.")
    at: datetime
    notice: dict[str, Any] | None = Field(
        default=None,
        description="Set on a line the site wrote about `username` rather than one they wrote: `{\"kind\": "
        "\"vacation_day\", \"until\", \"days_left\"}` (a vacation day their clock took); `text` says it in English.",
    )
    removed: bool = Field(description="Removed by an admin: shown as removed to everyone.")

    @classmethod
    def of(cls, line: ChatLine) -> ChatMessageOut:
        return cls(
            id=line.id, username=line.username, text=line.text, at=line.at, notice=line.notice, removed=line.removed
        )


class ChatOut(BaseModel):
    messages: list[ChatMessageOut]


class NotesIn(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: LongText = Field(max_length=notes.MAX_LENGTH, description="Line breaks and tabs are kept.")


class NotesOut(BaseModel):
    text: str
    updated_at: datetime | None = Field(description="When the notes were last saved; null before the first time.")

    @classmethod
    def of(cls, n: Notes) -> NotesOut:
        return cls(text=n.text, updated_at=n.updated_at)


class ExportOut(BaseModel):
    """A game's record: redacted for the caller while it runs; once finished, every event unredacted and the seed,
    so that `python -m app verify` can replay it."""

    game: GameOut
    events: list[EventOut] = Field(description="The whole log as the caller counts it (a finished game's whole).")
    seed: str | None = Field(description="The secret seed in hex once the game is finished; null before.")
    state: dict[str, Any] = Field(description="The caller's view of the state at the end of `events`.")

    @classmethod
    def of(cls, e: Export) -> ExportOut:
        return cls(game=GameOut.of(e.summary), events=[EventOut.of(v) for v in e.events], seed=e.seed, state=e.view)
