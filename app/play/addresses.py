"""Mail addresses as they enter the site (sign-up, a change of address, create-admin, "forgot your password"):
checked with email-validator and normalised, in one place, so every path accepts the same addresses.

Why a maintained library: a loose pattern took `a;b@example.com` (the invitation went to `a`), `z@example.com>`
and addresses no mail of ours ever reached. email-validator checks the syntax of RFC 5322 as mail systems apply
it (no quoted local parts, no domain literals, no reserved names like `.invalid`), without any DNS lookup (this
server may have no resolver; deliverability shows when the link mailed to a new address is followed).

Our mail goes out through aiosmtplib to whatever SMTP server is configured, with no guarantee of SMTPUTF8, so a
local part (before the @) with non-ASCII letters is refused: no mail could be delivered to it. An international
domain is fine: it is stored in its ASCII (IDNA) form, which every mail server takes. The whole address is stored
in lower case, as before, so one mailbox cannot hold two accounts by writing its name in other letters.
"""

from __future__ import annotations

from email_validator import EmailNotValidError, validate_email

from app.play.errors import Invalid

MAX_LENGTH = 254  # RFC 5321's limit on a forward path, less its angle brackets
# The domain of the address an admin made without one gets (`create-admin NAME` without --email, ADMIN_USERNAME):
# reserved by RFC 2606, so it is nobody's mailbox; it is made here, never typed, so it is not checked.
PLACEHOLDER_DOMAIN = "admin.invalid"


def normalised(email: str) -> str:
    """`email` as the site stores it (ASCII, lower case, international domains in IDNA form); Invalid
    `invalid_email` when it is no valid address, `unsupported_email` when our mail cannot reach it."""
    address = email.strip()
    if not address or len(address) > MAX_LENGTH:
        raise _invalid()
    local = address.rpartition("@")[0]
    if not local.isascii():
        raise Invalid(
            "unsupported_email",
            "Our mail cannot reach addresses with accents or other non-ASCII letters before the @; "
            "please give another address.",
        )
    try:
        checked = validate_email(address, check_deliverability=False, allow_smtputf8=False)
    except EmailNotValidError as exc:
        raise _invalid() from exc
    if checked.ascii_email is None:  # (only with SMTPUTF8 allowed, which it is not)
        raise _invalid()
    return checked.ascii_email.lower()


def placeholder(username: str) -> str:
    """The address of an admin created without one: it reaches no mailbox."""
    return f"{username.lower()}@{PLACEHOLDER_DOMAIN}"


def _invalid() -> Invalid:
    return Invalid("invalid_email", "Please give a valid email address.")
