"""The tables. PostgreSQL is the one stateful component; every game is its append-only event log.

`games` also carries a small projection of the log (`seq`, `status`, `to_act`) kept in the same transaction as
each append, so listings need no replay and `seq` doubles as the optimistic-concurrency guard. The seed lives
only here, never in an event a client can read.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, ClassVar

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Computed,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    func,
    text,
)
from sqlalchemy.dialects.postgresql import ARRAY, JSONB
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

# `app.rules.fairness.commitment` in SQL: the hex SHA-256 of the seed's 32 bytes.
SEED_COMMITMENT = "encode(sha256(seed), 'hex')"
# Stable constraint names make Alembic migrations reproducible across databases.
NAMING_CONVENTION = {
    "ix": "ix_%(column_0_label)s",
    "uq": "uq_%(table_name)s_%(column_0_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}


class Base(DeclarativeBase):
    """Declarative base carrying the naming convention."""

    metadata = MetaData(naming_convention=NAMING_CONVENTION)
    type_annotation_map: ClassVar[dict[Any, Any]] = {dict[str, Any]: JSONB}


def _now() -> Any:
    return mapped_column(DateTime(timezone=True), server_default=func.now(), nullable=False)


class User(Base):
    """An account: a player, an admin when `is_admin`, or one of the site's bots when `is_bot` (no address, no
    password: nobody signs in as a bot)."""

    __tablename__ = "users"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    username: Mapped[str] = mapped_column(String(32))
    email: Mapped[str | None] = mapped_column(String(254), unique=True)
    password_hash: Mapped[str] = mapped_column(String(200))
    is_admin: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    is_bot: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    created_at: Mapped[datetime] = _now()
    # The language of the account's pages and mails ("fr"); NULL: the browser's, and English for mails.
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)
    # Invitations only from players who shared a running or finished game with this account (app.play.invitations).
    invitations_from_played_with: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # Where the player's weekend falls (an IANA name): a table that pauses on weekends stops their clock then.
    time_zone: Mapped[str] = mapped_column(String(64), server_default="UTC")
    # The hours left on a move clock at which the player is reminded, at most two (app.play.clocks.remind).
    reminder_hours: Mapped[list[int]] = mapped_column(ARRAY(Integer), server_default=text("'{12,1}'"))
    # Deleted by its owner (app.play.your_data): no address, no password, named `deleted-<id>`.
    deleted_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    # Suspended by an admin (app.play.moderation): its sign-ins and requests are refused, the bot plays its seats.
    suspended_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    suspension_reason: Mapped[str | None] = mapped_column(String(500))
    # Answers given ahead of time (issue 26, `app.rules.automatic`): the standing answer to permission requests in
    # every game without one of its own ("ask", "allow", "deny"), and how cash above the limit is given up ("ask",
    # "least", "round_up").
    permission_answer: Mapped[str] = mapped_column(String(8), server_default="ask")
    cash_limit_answer: Mapped[str] = mapped_column(String(8), server_default="ask")

    # Names are unique regardless of case, so "Ann" cannot impersonate "ann".
    __table_args__ = (Index("uq_users_username_lower", func.lower(username), unique=True),)


class Game(Base):
    """A game: its configuration and secrets, plus the log's head (`seq`, `status`, `to_act`)."""

    __tablename__ = "games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100))
    status: Mapped[str] = mapped_column(String(16), server_default="open", index=True)
    seat_count: Mapped[int] = mapped_column(Integer)
    variants: Mapped[dict[str, Any]] = mapped_column(JSONB)
    # The secret seed (32 bytes, `app.rules.fairness`), never shown before the game is over; the SHA-256 of it
    # that every summary publishes from the start, computed by the database so that it cannot disagree with the
    # seed; `seed_chosen` when an admin gave the seed.
    seed: Mapped[bytes] = mapped_column(LargeBinary)
    seed_commitment: Mapped[str] = mapped_column(String(64), Computed(SEED_COMMITMENT, persisted=True))
    seed_chosen: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))

    __table_args__ = (
        CheckConstraint("octet_length(seed) = 32", name="seed_bytes"),
        CheckConstraint("bot_level IN ('easy', 'normal', 'hard')", name="bot_level_known"),
    )
    move_timeout_hours: Mapped[int | None] = mapped_column(Integer)
    seq: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    to_act: Mapped[list[int]] = mapped_column(ARRAY(Integer), server_default=text("'{}'"))
    # The last move, when its player may still take it back (app.rules.undo): the seat and how many events it
    # made; NULL once anything else is recorded (another seat's secret basket edits aside, D85).
    undo_seat: Mapped[int | None] = mapped_column(Integer)
    undo_events: Mapped[int | None] = mapped_column(Integer)
    created_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = _now()
    updated_at: Mapped[datetime] = _now()
    # An open table anyone may join; otherwise only the players invited to it (`invitations`).
    public: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    # Its finished game rates its players (app.play.ratings); false for a table opened unrated.
    rated: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    # The last seat taken starts the game (a join, an accepted invitation, bots at creation); false: its creator.
    start_when_full: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    # Days an invitation to the table waits for its answer before it expires (app.play.invitations.expire).
    invitation_days: Mapped[int] = mapped_column(Integer, server_default=text("7"))
    # Only players whose clock ran out in at most this share of their games (in %) may join; NULL: anyone
    # (app.play.reputation.check_join).
    max_timeout_percent: Mapped[int | None] = mapped_column(Integer)
    # The clocks stop from Saturday 00:00 to Monday 00:00 in each player's time zone (`clock_deadline` in SQL).
    pause_weekends: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # Vacation days stop the table's clocks, and a clock about to run out takes one from the budget; false: never.
    vacations: Mapped[bool] = mapped_column(Boolean, server_default=text("true"))
    # How strongly the site's bot plays the table's bot seats (`app.bots.LEVELS`); an absent player's seat is
    # played at `normal` whatever it says.
    bot_level: Mapped[str] = mapped_column(String(8), server_default=text("'normal'"))


class Seat(Base):
    """A player in a game; `seat` (0-based, the rules core's index) is drawn when the game starts."""

    __tablename__ = "seats"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    seat: Mapped[int | None] = mapped_column(Integer)
    joined_at: Mapped[datetime] = _now()
    # The move clock (app.play.clocks): set while the seat is awaited in a game with a move timeout.
    deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)
    reminded: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # The reminders of the current turn (at most two); counted only while `reminded` is set, which a fresh clock
    # clears (app.play.record), so the recording statement need not know of it.
    reminders_sent: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    timeouts_in_row: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    # The clock as it was before the seat's row last changed with a move (app.play.record): what an undo of that
    # move gives back, so that a move and its undo never restart the clock.
    undo_deadline: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    undo_reminded: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # The seat's clock ran out and its player has not moved since nor taken the seat back: the bot plays it.
    absent: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # When the admins hear that the absent player has not come back (two more move clocks after the timeout);
    # None when not due, or told already (app.play.clocks.report_absences).
    absence_alert_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), index=True)

    __table_args__ = (Index("uq_seats_game_id_seat", "game_id", "seat", unique=True),)


class StandingAnswer(Base):
    """A player's standing answer to permission requests in one game (`PUT .../permission-answer`): it outlives a
    seat handed to someone else, whose own answer (or account default) then counts."""

    __tablename__ = "standing_answers"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    permission: Mapped[str] = mapped_column(String(8))


class GameResult(Base):
    """How a finished game ended for one of its players, written by the statement that records its end
    (app.play.record): their place (1 the best, ties shared; a player who left the game is behind everyone who
    finished it), their score parts (None for a player who left), whether their clock never ran out, and
    whether the game counts for ratings (its table was rated and it was played out)."""

    __tablename__ = "game_results"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer)
    place: Mapped[int] = mapped_column(Integer)
    score: Mapped[dict[str, Any] | None] = mapped_column(JSONB)
    on_time: Mapped[bool] = mapped_column(Boolean)
    left_game: Mapped[bool] = mapped_column(Boolean)
    rated: Mapped[bool] = mapped_column(Boolean)
    finished_at: Mapped[datetime] = _now()

    __table_args__ = (Index("ix_game_results_user_id_finished_at", "user_id", "finished_at"),)


class RatedGame(Base):
    """A game whose results changed the ratings, in the order they did (`id`): the order a rebuild follows."""

    __tablename__ = "rated_games"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), unique=True)
    rated_at: Mapped[datetime] = _now()


class RatingHistory(Base):
    """A player's rating after a rated game (for a bot: its level's rating identity, app.play.ratings)."""

    __tablename__ = "rating_history"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)


class Rating(Base):
    """A player's newest rating (Plackett-Luce's mu and sigma) and how many rated games it rests on."""

    __tablename__ = "ratings"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    mu: Mapped[float] = mapped_column(Float)
    sigma: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated_at: Mapped[datetime] = _now()

    # The leaderboard's order over the players it ranks (app.play.standing: ORDINAL, RANKED), as it writes them.
    __table_args__ = (
        Index("ix_ratings_leaderboard", text("(mu - 3 * sigma) DESC"), postgresql_where=text("games >= 10")),
    )


class Invitation(Base):
    """A player invited to an open table, until they accept (join) or decline; it holds a seat for them."""

    __tablename__ = "invitations"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True, index=True)
    invited_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    created_at: Mapped[datetime] = _now()


class ChatMessage(Base):
    """A message of a game's table chat: talk around the game, not part of its event log."""

    __tablename__ = "chat_messages"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    text: Mapped[str] = mapped_column(String(1000))
    created_at: Mapped[datetime] = _now()
    # A line the site wrote about `user_id` (a vacation day used): its kind and figures, told in each reader's
    # language; `text` then holds the English sentence for clients that do not know the kind.
    notice: Mapped[dict[str, Any] | None] = mapped_column(JSONB, nullable=True)
    # Removed by an admin: shown to everyone as removed, its text kept out of every answer.
    removed_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    removed_by: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))

    __table_args__ = (
        Index("ix_chat_messages_game_id_id", "game_id", "id"),
        Index("ix_chat_messages_user_id_created_at", "user_id", "created_at"),
    )


class ChatReport(Base):
    """A player's report of a chat message to the admins (one per message and reporter)."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    message_id: Mapped[int] = mapped_column(ForeignKey("chat_messages.id", ondelete="CASCADE"))
    reporter_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = _now()

    __table_args__ = (Index("uq_chat_reports_message_id_reporter_id", "message_id", "reporter_id", unique=True),)


class AdminAction(Base):
    """The audit trail of the admins' actions (suspending, removing a chat message ...): who, when, on what, why.
    Rows are never changed; a deleted account's rows stay, naming it by id."""

    __tablename__ = "admin_actions"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    admin_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    action: Mapped[str] = mapped_column(String(32))
    target_user_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="SET NULL"))
    message_id: Mapped[int | None] = mapped_column(BigInteger)
    reason: Mapped[str] = mapped_column(String(500))
    created_at: Mapped[datetime] = _now()

    __table_args__ = (Index("ix_admin_actions_created_at", "created_at"),)


class Note(Base):
    """A player's private notes on a game, read and written by that player alone."""

    __tablename__ = "notes"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    text: Mapped[str] = mapped_column(String(10000))
    updated_at: Mapped[datetime] = _now()


class GameEvent(Base):
    """One event of a game's log; `(game_id, seq)` is the key and the concurrency control."""

    __tablename__ = "game_events"

    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"), primary_key=True)
    seq: Mapped[int] = mapped_column(Integer, primary_key=True)
    type: Mapped[str] = mapped_column(String(64))
    data: Mapped[dict[str, Any]] = mapped_column(JSONB)
    actor: Mapped[int | None] = mapped_column(Integer)
    # True when the server made this move for `actor` because the seat's clock ran out.
    timed_out: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    # True when the site's bot made this move for `actor`, whose player is absent (then `timed_out` too).
    by_bot: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    created_at: Mapped[datetime] = _now()

    # A move's moves-per-minute check counts its seat's recent events in the game (app.play.record, app.play.head):
    # this index keeps that count to the last minute's events, however long the game.
    __table_args__ = (Index("ix_game_events_game_id_actor_created_at", "game_id", "actor", "created_at"),)


class Outbox(Base):
    """Work for the notification worker, written in the same transaction as the events it is about."""

    __tablename__ = "outbox"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    seq: Mapped[int | None] = mapped_column(Integer)
    kind: Mapped[str] = mapped_column(String(32))
    payload: Mapped[dict[str, Any]] = mapped_column(JSONB)
    attempts: Mapped[int] = mapped_column(Integer, server_default=text("0"))
    next_attempt_at: Mapped[datetime] = _now()
    sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))
    created_at: Mapped[datetime] = _now()
    # Mail rows (kind "mail" or "digest_item", see app.notify.worker) name their recipient and how they ended.
    recipient_id: Mapped[int | None] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    outcome: Mapped[str | None] = mapped_column(String(24))
    last_error: Mapped[str | None] = mapped_column(String(500))
    # Whether the worker has made the push rows of this mail row (app.notify.push_outbox): every mail is looked at
    # once for the recipient's devices, whatever becomes of the mail itself.
    push_planned: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))

    __table_args__ = (
        Index("ix_outbox_pending", "next_attempt_at", postgresql_where=text("sent_at IS NULL")),
        Index("ix_outbox_recipient", "recipient_id", "kind", "created_at"),
        Index(
            "ix_outbox_push_unplanned",
            "id",
            postgresql_where=text("NOT push_planned AND kind IN ('mail', 'digest_item')"),
        ),
    )


class PushSubscription(Base):
    """A browser's push subscription (RFC 8030): where to post, and the keys its messages are encrypted to (RFC
    8291). At most five per account (app.notify.push_devices); deleted when the push service says it is gone."""

    __tablename__ = "push_subscriptions"

    id: Mapped[int] = mapped_column(BigInteger, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    endpoint: Mapped[str] = mapped_column(String(2048), unique=True)
    p256dh: Mapped[str] = mapped_column(String(100))
    auth: Mapped[str] = mapped_column(String(40))
    device: Mapped[str] = mapped_column(String(80))
    created_at: Mapped[datetime] = _now()
    last_sent_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_push_subscriptions_user_id", "user_id", "created_at"),)


class PushPreference(Base):
    """Whether a user wants one kind of notice pushed to their devices; without a row, the kind's default
    (app.notify.messages.default_push)."""

    __tablename__ = "push_preferences"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    push: Mapped[bool] = mapped_column(Boolean)


class NotificationPreference(Base):
    """How a user wants one kind of mail: "immediately", "digest" or "off"; without a row, the kind's default
    (app.notify.messages.default_mode: "immediately", but "off" for chat)."""

    __tablename__ = "notification_preferences"

    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(32), primary_key=True)
    mode: Mapped[str] = mapped_column(String(16))


class Watcher(Base):
    """An open live connection to a game's page: while one lives, its user gets no "your turn" mail for that
    game. Rows are refreshed while the connection lasts and ignored once `expires_at` passed (a crashed
    instance cannot leave a user muted)."""

    __tablename__ = "watchers"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    game_id: Mapped[int] = mapped_column(ForeignKey("games.id", ondelete="CASCADE"))
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"))
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))

    __table_args__ = (Index("ix_watchers_game_id_user_id", "game_id", "user_id"),)


class Vacation(Base):
    """Days a player is away: their move clocks stand still. Declared ahead, or `automatic`: a day taken because
    the clock of `game_id` would have run out. Both come from one yearly budget (app.play.clocks)."""

    __tablename__ = "vacations"

    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    starts_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    ends_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    days: Mapped[int] = mapped_column(Integer)
    created_at: Mapped[datetime] = _now()
    automatic: Mapped[bool] = mapped_column(Boolean, server_default=text("false"))
    game_id: Mapped[int | None] = mapped_column(ForeignKey("games.id", ondelete="SET NULL"))


class LoginSession(Base):
    """A sign-in that can be revoked: a browser's session cookie or an API bearer token.

    The cookie and the token carry only a signed random id; this row decides whether it still signs anybody in,
    so signing out, signing out everywhere and changing one's password take effect at once in every instance.
    `id` is the SHA-256 of that random id, so a copy of this table alone signs nobody in.
    """

    __tablename__ = "sessions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    user_id: Mapped[int] = mapped_column(ForeignKey("users.id", ondelete="CASCADE"), index=True)
    kind: Mapped[str] = mapped_column(String(8))  # "cookie" or "token"
    created_at: Mapped[datetime] = _now()
    expires_at: Mapped[datetime] = mapped_column(DateTime(timezone=True))
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True))

    __table_args__ = (CheckConstraint("kind IN ('cookie', 'token')", name="kind"),)


class SignInLimit(Base):
    """Failed sign-ins counted in a fixed window, per account name (`scope` "account") and per client address
    (`scope` "address"); kept in PostgreSQL so that the limit holds across instances (app.play.sign_in_limits)."""

    __tablename__ = "sign_in_limits"

    scope: Mapped[str] = mapped_column(String(8), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    window_start: Mapped[datetime] = mapped_column(DateTime(timezone=True), index=True)
    failures: Mapped[int] = mapped_column(Integer)
