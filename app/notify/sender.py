"""Sending a built message: through SMTP (aiosmtplib), into memory (unit tests), or into the log (no SMTP_HOST).

`build_email` turns a composed mail into an RFC 5322 message with a Message-ID derived from the outbox row, so
a retry after an uncertain failure (the server took the mail but the connection dropped before we heard so)
carries the same Message-ID, and mail systems treat it as the same message.
"""

from __future__ import annotations

import logging
from dataclasses import dataclass
from datetime import datetime
from email.message import EmailMessage
from email.policy import Policy
from email.utils import format_datetime, formataddr, parseaddr
from typing import Protocol

import aiosmtplib

from app.notify.messages import Composed, Recipient

log = logging.getLogger(__name__)


class SendFailed(Exception):
    """The mail was not accepted; try again later."""


class Sender(Protocol):
    async def send(self, message: EmailMessage) -> None:
        """Hand `message` on for delivery; raise SendFailed when that did not happen."""


def message_id(outbox_id: int, from_address: str) -> str:
    """The stable Message-ID of the mail queued as outbox row `outbox_id`."""
    domain = parseaddr(from_address)[1].rpartition("@")[2] or "localhost"
    return f"<carson-mail-{outbox_id}@{domain}>"


class Unfolded(str):
    """A header value written exactly as given, on one line, whatever policy flattens the message.

    Why: the email package folds a header longer than 78 characters, and one with no space to fold at (a
    `<https://...>` of a signed link) it turns into RFC 2047 encoded words, `=?utf-8?q?=3Chttps...?=`, which no
    mail client reads as a URL, so one-click unsubscribe (RFC 8058) went unrecognised. aiosmtplib flattens with
    its own policy, so the value itself must refuse folding. RFC 5322 allows lines up to 998 characters."""

    name: str

    @classmethod
    def header(cls, name: str, value: str) -> Unfolded:
        if len(name) + len(value) + 2 > 998 or any(c in value for c in "\r\n"):
            raise ValueError(f"{name} cannot be written on one line")
        header = cls(value)
        header.name = name
        return header

    def fold(self, *, policy: Policy) -> str:
        """The header line, unfolded and unencoded (what the email package's generator asks of a header)."""
        return f"{self.name}: {self}{policy.linesep}"


def build_email(
    composed: Composed,
    recipient: Recipient,
    *,
    outbox_id: int,
    from_address: str,
    unsubscribe_url: str | None,
    date: datetime,
) -> EmailMessage:
    """The mail, text with an HTML alternative, with one-click unsubscribe headers (RFC 2369, RFC 8058) unless
    it is one nobody can unsubscribe from (`unsubscribe_url` None: a password reset)."""
    msg = EmailMessage()
    msg["From"] = from_address
    msg["To"] = formataddr((recipient.username, recipient.email))
    msg["Subject"] = composed.subject
    msg["Date"] = format_datetime(date)
    msg["Message-ID"] = message_id(outbox_id, from_address)
    if unsubscribe_url is not None:
        msg.set_raw("List-Unsubscribe", Unfolded.header("List-Unsubscribe", f"<{unsubscribe_url}>"))
        msg["List-Unsubscribe-Post"] = "List-Unsubscribe=One-Click"
    msg["Auto-Submitted"] = "auto-generated"
    msg.set_content(composed.text)
    msg.add_alternative(composed.html, subtype="html")
    return msg


@dataclass
class SmtpSender:
    """One SMTP conversation per mail; mails are few and far between, a pool would only hold idle sockets."""

    host: str
    port: int = 25
    username: str | None = None
    password: str | None = None
    start_tls: bool = False
    timeout: float = 20.0

    async def send(self, message: EmailMessage) -> None:
        try:
            await aiosmtplib.send(
                message,
                hostname=self.host,
                port=self.port,
                username=self.username,
                password=self.password,
                start_tls=self.start_tls,
                timeout=self.timeout,
            )
        except (aiosmtplib.SMTPException, OSError, TimeoutError) as exc:
            raise SendFailed(f"{type(exc).__name__}: {exc}") from exc


class LogSender:
    """Without SMTP_HOST: log each mail's recipient and subject, so development servers show what they would send."""

    async def send(self, message: EmailMessage) -> None:
        log.info("mail (no SMTP_HOST set) to %s: %s", message["To"], message["Subject"])
