"""Bearer tokens: a token checked once is remembered, and a remembered token answers exactly as a fresh check."""

from __future__ import annotations

import time

import pytest

from app.web.security import TokenSigner

KEY = "test-signing-key-0123456789-0123456789"


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The Unix time both the signer and itsdangerous read, set by the test."""
    now = [1_800_000_000.0]
    monkeypatch.setattr(time, "time", lambda: now[0])
    return now


def test_a_remembered_token_expires_when_a_fresh_check_says_so(clock: list[float]) -> None:
    signer = TokenSigner(KEY, max_age_seconds=60)
    token = signer.issue("session-a")
    assert signer.session_id(token) == "session-a"
    for later, expected in ((60, "session-a"), (61, None), (-1, None)):
        clock[0] = 1_800_000_000.0 + later
        fresh = TokenSigner(KEY, max_age_seconds=60)
        assert (signer.session_id(token), fresh.session_id(token)) == (expected, expected), later


def test_only_genuine_tokens_are_remembered(clock: list[float]) -> None:
    signer = TokenSigner(KEY, max_age_seconds=60)
    token = signer.issue("session-a")
    forged = token[:-2] + ("AA" if not token.endswith("AA") else "BB")
    other_key = TokenSigner(KEY + "-other", max_age_seconds=60).issue("session-a")
    assert signer.session_id(forged) is None
    assert signer.session_id(other_key) is None
    assert signer.session_id(forged) is None  # not remembered as genuine
    assert signer.session_id(token) == "session-a"


def test_memory_is_bounded_and_forgotten_tokens_are_checked_again(clock: list[float]) -> None:
    signer = TokenSigner(KEY, max_age_seconds=60, remembered=2)
    tokens = [signer.issue(f"session-{n}") for n in range(3)]
    assert [signer.session_id(t) for t in tokens] == ["session-0", "session-1", "session-2"]
    assert len(signer._checked) == 2
    assert [signer.session_id(t) for t in tokens] == ["session-0", "session-1", "session-2"]
