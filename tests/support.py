"""Assertions shared by the platform tests."""

from __future__ import annotations

import httpx


def assert_error(response: httpx.Response, status: int, code: str | None = None) -> dict[str, str]:
    """The response is an error of the documented shape `{"detail": {"code", "message"}}`."""
    assert response.status_code == status, response.text
    detail = response.json()["detail"]
    assert set(detail) == {"code", "message"}, detail
    assert isinstance(detail["message"], str) and detail["message"]
    if code is not None:
        assert detail["code"] == code, detail
    return detail  # type: ignore[no-any-return]
