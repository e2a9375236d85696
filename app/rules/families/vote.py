"""The vote on the cards' sides (variant, RULING V1): before the game, every player votes yellow or red for each
card in secret; once all have voted, each card takes the majority's side, a tie drawn at random."""

from __future__ import annotations

from typing import TYPE_CHECKING

from app.rules.catalog import sided_cards
from app.rules.decisions import Awaiting, Decision
from app.rules.draft import replace
from app.rules.events import Event, SidesDecided, SideVoted
from app.rules.model import GameState
from app.rules.registry import Step, handles, lists, move_handler, runs
from app.rules.rng import Rng
from app.rules.steps import completed

if TYPE_CHECKING:  # the move vocabulary's module brings pydantic; the core needs only its types
    from app.rules.moves import Move, VoteSide


@runs("vote")
def _vote_step(s: GameState) -> Step:
    """Secret and simultaneous; majority wins, a tie is drawn (RULING V1)."""
    if s.config.sides != "vote" or s.sides:
        return None
    cards = sided_cards(s.cards)  # not the Doctor / Undertaker, whose holder chooses (decision D73)
    missing = tuple(p.seat for p in s.players if len(s.votes.get(p.seat, {})) < len(cards))
    if missing:
        return Awaiting(Decision.VOTE, missing)

    def count(rng: Rng) -> list[Event]:
        sides: dict[str, str] = {}
        drawn: list[str] = []
        for card in cards:
            red = sum(1 for votes in s.votes.values() if votes[card] == "red")
            yellow = len(s.votes) - red
            if red == yellow:
                drawn.append(card)
                sides[card] = rng.choice(("yellow", "red"))
            else:
                sides[card] = "red" if red > yellow else "yellow"
        votes = {str(seat): dict(v) for seat, v in sorted(s.votes.items())}
        return completed(s, {"type": "sides_decided", "sides": sides, "votes": votes, "drawn": drawn})(rng)

    return count


@lists(Decision.VOTE)
def _vote(s: GameState, seat: int, waiting: Awaiting) -> list[Move]:
    """One small move per card: yellow or red (RULING V1)."""
    voted = s.votes.get(seat, {})
    return [
        {"type": "vote_side", "card": card, "side": side}
        for card in sided_cards(s.cards)
        if card not in voted
        for side in ("yellow", "red")
    ]


@move_handler("vote_side")
def _vote_side(s: GameState, seat: int, move: VoteSide, rng: Rng, kind: Decision) -> list[Event]:
    return [{"type": "side_voted", "seat": seat, "card": move["card"], "side": move["side"]}]


@handles("side_voted")
def _side_voted(s: GameState, e: SideVoted) -> GameState:
    votes = {seat: dict(v) for seat, v in s.votes.items()}
    votes.setdefault(e["seat"], {})[e["card"]] = e["side"]
    return replace(s, votes=votes)


@handles("sides_decided")
def _sides_decided(s: GameState, e: SidesDecided) -> GameState:
    return replace(s, sides=dict(e["sides"]), votes={})  # the votes are public now, in this event
