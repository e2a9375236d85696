"""The live streams of one process share each change's message: worked out once per kind of viewer."""

from __future__ import annotations

import asyncio
import json
from typing import Any, cast

import pytest
from sse_starlette import ServerSentEvent

from app.play.bus import Change
from app.play.positions import Positions, Seen
from app.web.stream import SharedMessages, _message


class CountingPositions:
    """`seen_by` as the streams call it, counting the calls; it waits for `release` like a state still landing."""

    def __init__(self) -> None:
        self.calls: list[tuple[int, int | None, bool]] = []
        self.release = asyncio.Event()
        self.fail = False

    def seen_now(self, change: Change, seat: int | None, *, offer: bool = False) -> Seen | None:
        return None  # never at hand: every message is worked out by `seen_by`

    async def seen_by(self, change: Change, seat: int | None, *, offer: bool = False) -> Seen:
        self.calls.append((change.seq, seat, offer))
        await self.release.wait()
        if self.fail:
            raise RuntimeError("the database is away")
        return Seen(change, [{"type": "pass"}] if offer and seat is not None else None)


def _data(message: bytes) -> dict[str, Any]:
    line = next(line for line in message.decode().splitlines() if line.startswith("data: "))
    data: dict[str, Any] = json.loads(line.removeprefix("data: "))
    return data


async def test_streams_of_one_kind_of_viewer_share_one_worked_out_message() -> None:
    fake = CountingPositions()
    positions = cast(Positions, fake)
    messages = SharedMessages()
    change = Change(7, 12, (1,), "active")
    waiting = [asyncio.ensure_future(messages.shown(positions, change, None, False)) for _ in range(5)]
    seated = asyncio.ensure_future(messages.shown(positions, change, 1, True))
    await asyncio.sleep(0)
    fake.release.set()
    shown = await asyncio.gather(*waiting)
    assert fake.calls == [(12, None, False), (12, 1, True)]
    assert all(message is shown[0][1] for _, message in shown)  # the same bytes for every spectator
    assert _data(shown[0][1]) == {"seq": 12, "to_act": [1], "status": "active"}
    assert _data((await seated)[1])["moves"] == [{"type": "pass"}]
    await messages.shown(positions, change, None, False)  # later streams: from the memo
    assert len(fake.calls) == 2


async def test_a_stream_that_leaves_does_not_cancel_the_others_and_failures_are_not_kept() -> None:
    fake = CountingPositions()
    positions = cast(Positions, fake)
    messages = SharedMessages()
    change = Change(7, 13, (0,), "active")
    leaving = asyncio.ensure_future(messages.shown(positions, change, None, False))
    staying = asyncio.ensure_future(messages.shown(positions, change, None, False))
    await asyncio.sleep(0)
    leaving.cancel()
    fake.release.set()
    assert (await staying)[0].change == change
    other = Change(7, 14, (1,), "active")
    fake.fail = True
    with pytest.raises(RuntimeError):
        await messages.shown(positions, other, None, False)
    fake.fail = False
    assert (await messages.shown(positions, other, None, False))[0].change == other
    assert fake.calls.count((14, None, False)) == 2  # the failure was worked out again


async def test_the_memo_keeps_the_newest_changes_only() -> None:
    fake = CountingPositions()
    fake.release.set()
    messages = SharedMessages(size=2)
    for seq in (1, 2, 3, 1):
        await messages.shown(cast(Positions, fake), Change(7, seq, (0,), "active"), None, False)
    assert [seq for seq, _, _ in fake.calls] == [1, 2, 3, 1]


def test_a_turn_message_is_framed_as_sse_starlette_frames_it_with_compact_json() -> None:
    seen = Seen(Change(7, 12, (1,), "active"), [{"type": "buy_parcel", "x": 3, "y": 4}, {"type": "pass"}])
    data = '{"seq":12,"to_act":[1],"status":"active","moves":[{"type":"buy_parcel","x":3,"y":4},{"type":"pass"}]}'
    assert _message(seen) == ServerSentEvent(data=data, event="turn", id="12").encode()
    assert json.loads(data) == {"seq": 12, "to_act": [1], "status": "active", "moves": seen.moves}


def test_a_turn_message_stays_one_data_line_whatever_its_strings_hold() -> None:
    seen = Seen(Change(7, 3, (0,), "active"), [{"type": "say", "text": "a\nb\r\nc\u2028d é"}])
    lines = _message(seen).split(b"\r\n")
    assert [line.split(b":")[0] for line in lines] == [b"id", b"event", b"data", b"", b""]
    assert json.loads(lines[2].removeprefix(b"data: "))["moves"] == seen.moves


class AtHandPositions(CountingPositions):
    """A process that has every state cached: `seen_now` answers, `seen_by` is never needed."""

    def seen_now(self, change: Change, seat: int | None, *, offer: bool = False) -> Seen | None:
        return Seen(change, [{"type": "pass"}] if offer and seat is not None else None)


async def test_a_state_at_hand_is_shown_at_once_and_shared_like_the_others() -> None:
    fake = AtHandPositions()
    messages = SharedMessages()
    change = Change(7, 14, (1,), "active")
    seen, message = await messages.shown(cast(Positions, fake), change, 1, True)
    assert fake.calls == []  # nothing awaited: seen_by was not asked
    assert seen.moves == [{"type": "pass"}] and _data(message)["moves"] == [{"type": "pass"}]
    assert (await messages.shown(cast(Positions, fake), change, 1, True))[1] is message
