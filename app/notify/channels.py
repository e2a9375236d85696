"""Each kind's channels as one choice, "mail", "push", "both" or "none": the mail's mode (app.notify.preferences)
and the push choice (app.notify.push_devices) seen together, and set together."""

from __future__ import annotations

from collections.abc import Mapping

from sqlalchemy.ext.asyncio import AsyncSession

from app.notify import preferences, push_devices

CHANNELS: Mapping[tuple[bool, bool], str] = {
    (True, False): "mail",
    (False, True): "push",
    (True, True): "both",
    (False, False): "none",
}
PARTS: Mapping[str, tuple[bool, bool]] = {channel: parts for parts, channel in CHANNELS.items()}


def channels(modes: Mapping[str, str], pushed: Mapping[str, bool]) -> dict[str, str]:
    """Each kind's channels from its mail mode (anything but "off" mails it) and whether it is pushed."""
    return {kind: CHANNELS[mode != "off", pushed.get(kind, False)] for kind, mode in modes.items()}


async def set_channels(session: AsyncSession, user_id: int, chosen: Mapping[str, str]) -> None:
    """Set each kind's channels: mail turned on keeps the kind's mode if it had one (at once or in the digest), or
    mails it at once; turned off, the mode is "off". The caller commits."""
    current = await preferences.modes(session, user_id)
    modes = {}
    for kind, channel in chosen.items():
        mailed, _ = PARTS[channel]
        modes[kind] = ("immediately" if current[kind] == "off" else current[kind]) if mailed else "off"
    await preferences.set_modes(session, user_id, modes)
    await push_devices.set_push(session, user_id, {kind: PARTS[channel][1] for kind, channel in chosen.items()})
