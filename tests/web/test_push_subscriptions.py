"""Issue 28 "Web push": the site's VAPID key and the devices' subscriptions over the API: safe endpoints (https on a
public address, checked after name resolution), valid keys, at most five devices an account."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest
from conftest import Api, Player

from app.main import create_app
from app.settings import Settings
from app.store.db import to_libpq_url
from tests.notify.push_service import Browser, unb64url
from tests.web.test_pages import csrf_of, signed_in

PUBLIC_ENDPOINT = "https://93.184.215.14/push/abc"  # an address literal on the public internet: no lookup needed


async def subscribe(api: Api, player: Player, endpoint: str, browser: Browser | None = None) -> httpx.Response:
    keys = (browser or Browser()).keys()
    return await api.client.post("/api/v1/push/subscriptions", json={"endpoint": endpoint, "keys": keys},
                                 headers={**player.headers, "User-Agent": "Mozilla/5.0 (X11; Linux x86_64) Chrome/156"})


def rows(settings: Settings, query: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(to_libpq_url(str(settings.database_url))) as conn:
        return conn.execute(query).fetchall()


# --- the key ------------------------------------------------------------------------------------------------------


async def test_the_key_is_a_p256_point_kept_in_the_data_dir(api: Api, settings: Settings) -> None:
    """RFC 8292 section 3.2: the application server key is an uncompressed P-256 point; made once and kept."""
    r = await api.client.get("/api/v1/push/key")
    assert r.status_code == 200
    key = unb64url(r.json()["public_key"])
    assert len(key) == 65 and key[0] == 4
    assert (settings.data_dir / "vapid_private_key").exists()
    again = create_app(settings)
    async with again.router.lifespan_context(again):
        assert again.state.pushes.public_key == r.json()["public_key"]


def test_production_without_a_key_sends_no_push(tmp_path: Path) -> None:
    settings = Settings(_env_file=None, environment="production", secret_key="x" * 40,  # type: ignore[call-arg]
                        data_dir=tmp_path)
    assert settings.vapid_key() is None
    with pytest.raises(ValueError, match="PUSH_ALLOW_PRIVATE_ENDPOINTS"):
        Settings(_env_file=None, environment="production", secret_key="x" * 40,  # type: ignore[call-arg]
                 push_allow_private_endpoints=True)


# --- subscriptions ------------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "endpoint",
    [
        "http://93.184.215.14/push/abc",  # not https
        "https://127.0.0.1/push/abc",  # loopback
        "https://10.1.2.3/push/abc",  # private
        "https://169.254.169.254/latest/meta-data",  # link-local: a cloud's metadata service
        "https://[::1]/push/abc",
        "https://[::ffff:127.0.0.1]/push/abc",  # loopback written as IPv6
        "https://localhost/push/abc",  # a name that resolves to loopback
        "https://user:secret@93.184.215.14/push/abc",
        "https://no-such-host.invalid/push/abc",  # does not resolve
        "ftp://93.184.215.14/x",
    ],
)
async def test_an_endpoint_must_be_https_on_a_public_address(api: Api, endpoint: str, settings: Settings) -> None:
    """Issue 28 "Safe endpoints", checked at subscribing after name resolution (private endpoints not allowed)."""
    player = await api.player("ann")
    r = await subscribe(api, player, endpoint)
    assert r.status_code == 422, r.text
    assert r.json()["detail"]["code"] == "unsafe_push_endpoint" and r.json()["detail"]["message"]
    assert rows(settings, "SELECT count(*) FROM push_subscriptions") == [(0,)]


async def test_keys_must_be_a_p256_point_and_a_16_byte_secret(api: Api, settings: Settings) -> None:
    player = await api.player("ann")
    good = Browser().keys()
    for keys in ({**good, "p256dh": good["auth"]}, {**good, "auth": good["p256dh"][:10]},
                 {**good, "p256dh": "A" * 87}):
        r = await api.client.post("/api/v1/push/subscriptions", json={"endpoint": PUBLIC_ENDPOINT, "keys": keys},
                                  headers=player.headers)
        assert r.status_code == 422 and r.json()["detail"]["code"] == "invalid_push_keys", r.text
    assert rows(settings, "SELECT count(*) FROM push_subscriptions") == [(0,)]


async def test_subscriptions_need_a_sign_in(api: Api) -> None:
    body = {"endpoint": PUBLIC_ENDPOINT, "keys": Browser().keys()}
    r = await api.client.post("/api/v1/push/subscriptions", json=body)
    assert r.status_code == 401


async def test_five_devices_an_account_the_oldest_dropped(api: Api) -> None:
    player = await api.player("ann")
    ids = []
    for n in range(6):
        r = await subscribe(api, player, f"{PUBLIC_ENDPOINT}{n}")
        assert r.status_code == 201, r.text
        ids.append(r.json()["id"])
    listed = (await api.client.get("/api/v1/push/subscriptions", headers=player.headers)).json()["subscriptions"]
    assert [d["id"] for d in listed] == ids[:0:-1]
    assert listed[0]["device"] == "Chrome, Linux" and listed[0]["last_sent_at"] is None


async def test_a_device_is_removed_by_its_owner_only(api: Api) -> None:
    ann, bob = await api.player("ann"), await api.player("bob")
    sub_id = (await subscribe(api, ann, PUBLIC_ENDPOINT)).json()["id"]
    r = await api.client.delete(f"/api/v1/push/subscriptions/{sub_id}", headers=bob.headers)
    assert r.status_code == 404 and r.json()["detail"]["code"] == "push_subscription_not_found"
    assert (await api.client.delete(f"/api/v1/push/subscriptions/{sub_id}", headers=ann.headers)).status_code == 204
    assert (await api.client.get("/api/v1/push/subscriptions", headers=ann.headers)).json()["subscriptions"] == []


async def test_the_same_endpoint_again_moves_to_the_new_account(api: Api) -> None:
    """A shared computer: the browser's one endpoint belongs to whoever subscribed last."""
    ann, bob = await api.player("ann"), await api.player("bob")
    first = (await subscribe(api, ann, PUBLIC_ENDPOINT)).json()["id"]
    second = (await subscribe(api, bob, PUBLIC_ENDPOINT)).json()["id"]
    assert first == second
    assert (await api.client.get("/api/v1/push/subscriptions", headers=ann.headers)).json()["subscriptions"] == []
    assert len((await api.client.get("/api/v1/push/subscriptions", headers=bob.headers)).json()["subscriptions"]) == 1




# --- the settings page --------------------------------------------------------------------------------------------


async def test_the_settings_page_saves_what_is_pushed_and_removes_a_device(client: httpx.AsyncClient) -> None:
    """Issue 28 item 3: a "Push" box per kind beside the mail's modes (an unticked box turns the kind's push off),
    the devices listed, each removed with its button."""
    token = await signed_in(client, "anna")
    page = await client.get("/settings/notifications")
    assert 'name="push:your_turn" value="on"' in page.text and 'id="push-on"' in page.text
    assert "No device gets your notifications yet." in page.text
    r = await client.post("/settings/notifications", data={"csrf_token": token, "push_shown": "1",
                                                            "push:your_turn": "on", "push:chat": "on"})
    assert r.status_code == 200
    channels = (await client.get("/api/v1/me/notifications")).json()["channels"]
    assert channels["your_turn"] == "both" and channels["chat"] == "push" and channels["game_started"] == "mail"
    r = await client.post("/api/v1/push/subscriptions", json={"endpoint": PUBLIC_ENDPOINT, "keys": Browser().keys()},
                          headers={"User-Agent": "Mozilla/5.0 (Linux; Android 14) Chrome/156 Mobile Safari/537"})
    assert r.status_code == 201, r.text
    page = await client.get("/settings/notifications")
    assert "Chrome, Android, since" in page.text
    r = await client.post(f"/settings/push/{r.json()['id']}/delete", data={"csrf_token": csrf_of(page.text)})
    assert r.status_code == 200 and "That device gets no more notifications." in r.text
    assert (await client.get("/api/v1/push/subscriptions")).json()["subscriptions"] == []


async def test_removing_a_device_needs_the_csrf_token(client: httpx.AsyncClient) -> None:
    await signed_in(client, "anna")
    r = await client.post("/api/v1/push/subscriptions", json={"endpoint": PUBLIC_ENDPOINT, "keys": Browser().keys()})
    r = await client.post(f"/settings/push/{r.json()['id']}/delete", data={})
    assert r.status_code == 403
    assert len((await client.get("/api/v1/push/subscriptions")).json()["subscriptions"]) == 1
