"""Issue 23, the limits part: hostile clients against real gateways and a real Redis.

Forwarded headers under one rule, bot accounts' move limits, per-seat move limits, etags without a
lineage, display names. Helpers come from test_limits.py (fresh addresses sent as forwarded
headers, which these gateways trust from 127.0.0.1).
"""

from __future__ import annotations

import grpc
import pytest
import redis.asyncio as aioredis

from flotilla.store import keys
from flotilla_client.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from gateway.test_limits import (
    GENEROUS,
    HOUR,
    Player,
    _version,
    add,
    assert_rate_limited,
    fresh_address,
    gateways,
    refused,
    seated_game,
    worker,
)

pytestmark = [pytest.mark.redis, pytest.mark.timeout(60)]


@pytest.fixture
async def redis(redis_url: str) -> aioredis.Redis:
    client = aioredis.Redis.from_url(redis_url)
    yield client  # type: ignore[misc]
    await client.aclose()


# --- forwarded headers: one rule ----------------------------------------------------------
async def _sign_in(target: list[str], metadata: list[tuple[str, str]]) -> None:
    stub = game_service_pb2_grpc.AuthServiceStub(Player(target, "").channel())
    await stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="p"), metadata=metadata)


def _bucket(address: str) -> str:
    return keys.limit_bucket("sign_in_per_address", address.rsplit("::", 1)[0] + "::/64")


@pytest.mark.parametrize("header", ["x-forwarded-for", "forwarded"])
async def test_a_clients_own_forwarded_header_never_picks_its_address(
    redis_url: str, redis: aioredis.Redis, header: str
) -> None:
    """Behind a trusted proxy (127.0.0.1) that writes `header`, a client's own header of the other
    kind, before or after the proxy's, is ignored, and its own copy of `header` (left of what the
    proxy appended) too: the call counts against the address the proxy saw, never a victim's."""
    async with gateways(redis_url, f"sign_in_per_address={HOUR}:1", count=1, forwarded_header=header) as started:
        target = [f"127.0.0.1:{started[0].port}"]
        client, victim = fresh_address(), fresh_address()

        def written(address: str) -> str:  # what the trusted proxy appends
            return address if header == "x-forwarded-for" else f'for="[{address}]";proto=http'

        other = "forwarded" if header == "x-forwarded-for" else "x-forwarded-for"
        other_value = f'for="[{victim}]"' if other == "forwarded" else victim
        await _sign_in(target, [(header, written(client))])  # the client's one sign-in
        chains = (
            [(header, written(client)), (other, other_value)],  # the finding: the client's header after the proxy's
            [(other, other_value), (header, written(client))],
            [(header, written(victim)), (header, written(client))],  # its own copy, then the proxy's line
            [(header, f"{written(victim)}, {written(client)}")],  # the same in one line
        )
        for chain in chains:
            assert_rate_limited(await refused(_sign_in(target, chain)), "sign_in_per_address")
        assert not await redis.exists(_bucket(victim))  # the victim was never charged


async def test_a_chain_of_trusted_proxies_is_walked_to_the_first_untrusted_hop(redis_url: str) -> None:
    """Proxies 127.0.0.0/8 in a row: the right-most hop that is not one of them is the client; a
    malformed hop ends the walk there (nothing left of it is believed)."""
    async with gateways(redis_url, f"sign_in_per_address={HOUR}:1", count=1, trusted_proxies="127.0.0.0/8") as started:
        target = [f"127.0.0.1:{started[0].port}"]
        client, spoofed = fresh_address(), fresh_address()
        await _sign_in(target, [("x-forwarded-for", f"{spoofed}, {client}, 127.0.0.9, 127.0.0.3")])
        assert_rate_limited(
            await refused(_sign_in(target, [("x-forwarded-for", f"{client}, 127.0.0.2")])), "sign_in_per_address"
        )
        await _sign_in(target, [("x-forwarded-for", spoofed)])  # the spoofed hop was not charged
        # A malformed hop: the address is the trusted proxy right of it (127.0.0.7), once.
        await _sign_in(target, [("x-forwarded-for", f"{fresh_address()}, nonsense, 127.0.0.7")])
        assert_rate_limited(
            await refused(_sign_in(target, [("x-forwarded-for", f"{fresh_address()}, junk, 127.0.0.7")])),
            "sign_in_per_address",
        )


# --- etags: a bare version is refused where the game's etags carry a lineage -----------------
async def test_a_bare_version_etag_is_refused_and_changes_nothing(redis_url: str, redis: aioredis.Redis) -> None:
    """`"1"` names version 1 of no history: refused INVALID_ARGUMENT naming the field and showing
    what an etag looks like; the move is not applied. The etag as returned still works."""
    async with gateways(redis_url, GENEROUS) as started, worker(redis_url):
        targets = [f"127.0.0.1:{g.port}" for g in started]
        async with seated_game(targets, "user") as (players, tokens, game):
            p, token = players[0], tokens[0]
            first = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id="m0")
            etag = (await p.games().SubmitAction(first, metadata=p.md(token), timeout=20)).etag
            p, token = players[1], tokens[1]
            version, _, lineage = etag.partition(".")
            assert lineage, etag  # this game's etags carry a lineage
            for bare in (version, f'"{version}"'):
                request = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id="m1", etag=bare)
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await p.games().SubmitAction(request, metadata=p.md(token), timeout=20)
                assert caught.value.code() == grpc.StatusCode.INVALID_ARGUMENT
                details = caught.value.details() or ""
                assert "no lineage" in details
                assert etag in details
                assert await _version(p, game) == int(version)
            request = game_service_pb2.SubmitActionRequest(game=game, action=add(1), request_id="m2", etag=etag)
            reply = await p.games().SubmitAction(request, metadata=p.md(token), timeout=20)
            assert reply.etag.startswith(f"{int(version) + 1}.")
