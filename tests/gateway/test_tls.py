"""The gateway over TLS and mTLS, with certificates made in the test (trustme): the SDK, `flotilla bot`,
the matchmaker's bots and `flotilla up`'s health wait all connect over it; plaintext and strangers do not."""

from __future__ import annotations

import asyncio
import os
import random
import shutil
import uuid
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, replace
from pathlib import Path

import grpc
import pytest
import trustme
from grpc_health.v1 import health_pb2, health_pb2_grpc

from flotilla.api.game.v1 import game_service_pb2, game_service_pb2_grpc
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla.cli import _wait_for_gateway
from flotilla.gateway.server import Gateway, start_gateway
from flotilla.settings import Settings
from flotilla_client import FlotillaClient, FlotillaError, Seat, Tls, play_random
from forkserver import spawn
from lobby.mm_support import Player, start_matchmaker_env, stop
from support import FLOTILLA, Stack

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


@dataclass(frozen=True)
class Pki:
    """PEM files: a CA, the gateway's certificate, a client certificate of that CA, and a stranger CA
    with a client certificate of its own."""

    ca: str
    server_cert: str
    server_key: str
    client_cert: str
    client_key: str
    other_ca: str
    other_client_cert: str
    other_client_key: str


def _write(directory: Path, name: str, blob: trustme.Blob) -> str:
    path = directory / name
    blob.write_to_path(str(path))
    return str(path)


@pytest.fixture(scope="module")
def pki(tmp_path_factory: pytest.TempPathFactory) -> Pki:
    d = tmp_path_factory.mktemp("pki")
    ca, other = trustme.CA(), trustme.CA()
    server = ca.issue_cert("127.0.0.1", "localhost", "gateway.test")
    client = ca.issue_cert("bot@flotilla.test")
    stranger = other.issue_cert("bot@flotilla.test")
    return Pki(
        _write(d, "ca.pem", ca.cert_pem),
        _write(d, "server.pem", server.cert_chain_pems[0]),
        _write(d, "server-key.pem", server.private_key_pem),
        _write(d, "client.pem", client.cert_chain_pems[0]),
        _write(d, "client-key.pem", client.private_key_pem),
        _write(d, "other-ca.pem", other.cert_pem),
        _write(d, "other-client.pem", stranger.cert_chain_pems[0]),
        _write(d, "other-client-key.pem", stranger.private_key_pem),
    )


def tls_settings(stack: Stack, pki: Pki, *, mutual: bool = False) -> Settings:
    """An in-process gateway on the stack's Redis (whose workers apply its moves), serving TLS."""
    return Settings(
        redis_url=stack.redis_url,
        bind="127.0.0.1:0",
        heartbeat_s=2.0,
        tls_cert=pki.server_cert,
        tls_key=pki.server_key,
        tls_client_ca=pki.ca if mutual else "",
        health_bind="127.0.0.1:0",
    )


@pytest.fixture
async def tls_gateway(stack: Stack, pki: Pki) -> AsyncIterator[Gateway]:
    gateway = await start_gateway(tls_settings(stack, pki))
    yield gateway
    await asyncio.wait_for(gateway.stop(0), 30)


@pytest.fixture
async def mtls_gateway(stack: Stack, pki: Pki) -> AsyncIterator[Gateway]:
    gateway = await start_gateway(tls_settings(stack, pki, mutual=True))
    yield gateway
    await asyncio.wait_for(gateway.stop(0), 30)


def target(gateway: Gateway) -> str:
    return f"127.0.0.1:{gateway.port}"


async def sign_in(channel: grpc.aio.Channel) -> str:
    stub = game_service_pb2_grpc.AuthServiceStub(channel)  # type: ignore[no-untyped-call]
    reply = await stub.SignInAsGuest(game_service_pb2.SignInAsGuestRequest(display_name="ada"), timeout=10)
    return str(reply.user)


async def refused(channel: grpc.aio.Channel) -> grpc.StatusCode:
    """The code of a sign-in over `channel` that must fail (it does not reach the service)."""
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await sign_in(channel)
    return caught.value.code()


async def test_a_full_game_over_tls(tls_gateway: Gateway, pki: Pki) -> None:
    """Sign in, create, join, submit, watch: every call of the SDK over TLS, the spectator too."""
    tls = Tls(ca_file=pki.ca)
    host, ada, bob = (FlotillaClient(target(tls_gateway), tls=tls) for _ in range(3))
    try:
        await host.sign_in("host")
        game = await host.create_game("counter", seats=2, options={"moves": "6"})
        players = []
        for client, name in ((ada, "ada"), (bob, "bob")):
            await client.sign_in(name)
            players.append(asyncio.create_task(play_random(client, await client.join(game.name), random.Random(1))))
        seen = [e.event_id async for update in host.watch(game.name) for e in update.events]
        await asyncio.wait_for(asyncio.gather(*players), 60)
        final = await host.get_game(game.name)
        assert final.HasField("result")
        assert seen == list(range(seen[0], final.last_event_id + 1))
    finally:
        for client in (host, ada, bob):
            await client.close()


async def test_plaintext_and_untrusting_clients_are_refused(tls_gateway: Gateway, pki: Pki) -> None:
    async with grpc.aio.insecure_channel(target(tls_gateway)) as channel:
        assert await refused(channel) == grpc.StatusCode.UNAVAILABLE
    async with Tls(ca_file=pki.other_ca).aio_channel(target(tls_gateway)) as channel:  # does not trust our CA
        assert await refused(channel) == grpc.StatusCode.UNAVAILABLE
    async with Tls(ca_file=pki.ca, server_name="elsewhere.test").aio_channel(target(tls_gateway)) as channel:
        assert await refused(channel) == grpc.StatusCode.UNAVAILABLE  # the certificate is not for that name
    async with Tls(ca_file=pki.ca, server_name="gateway.test").aio_channel(target(tls_gateway)) as channel:
        assert await sign_in(channel)  # and the gateway still serves


async def test_health_has_a_plaintext_listener_of_its_own(tls_gateway: Gateway) -> None:
    """Probes cannot speak TLS: the TLS gateway answers grpc.health.v1 in plaintext on FLOTILLA_HEALTH_BIND
    (loopback by default), and nothing else there."""
    assert Settings().health_bind.startswith("127.0.0.1:")
    assert tls_gateway.health_port
    async with grpc.aio.insecure_channel(f"127.0.0.1:{tls_gateway.health_port}") as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(), timeout=5)
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        service = "flotilla.api.game.v1.GameService"
        reply = await health_pb2_grpc.HealthStub(channel).Check(health_pb2.HealthCheckRequest(service=service))
        assert reply.status == health_pb2.HealthCheckResponse.SERVING
        assert await refused(channel) == grpc.StatusCode.UNIMPLEMENTED  # only health is served there


async def test_the_health_listener_reports_the_drain(stack: Stack, pki: Pki) -> None:
    """A draining TLS gateway turns NOT_SERVING on its health listener too, so readiness drops first."""
    gateway = await start_gateway(tls_settings(stack, pki))
    stopping: asyncio.Task[None] | None = None
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{gateway.health_port}") as channel:
            watch = health_pb2_grpc.HealthStub(channel).Watch(health_pb2.HealthCheckRequest())
            assert (await asyncio.wait_for(watch.read(), 5)).status == health_pb2.HealthCheckResponse.SERVING
            stopping = asyncio.create_task(gateway.stop(0))
            assert (await asyncio.wait_for(watch.read(), 5)).status == health_pb2.HealthCheckResponse.NOT_SERVING
    finally:
        await asyncio.wait_for(stopping or gateway.stop(0), 30)


async def test_a_plaintext_gateway_has_no_separate_health_listener(stack: Stack) -> None:
    gateway = await start_gateway(Settings(redis_url=stack.redis_url, bind="127.0.0.1:0", health_bind="127.0.0.1:0"))
    try:
        assert gateway.tls is None
        assert gateway.health_port is None
    finally:
        await asyncio.wait_for(gateway.stop(0), 30)


async def test_mtls_refuses_clients_without_a_certificate_of_its_ca(mtls_gateway: Gateway, pki: Pki) -> None:
    where = target(mtls_gateway)
    async with Tls(ca_file=pki.ca).aio_channel(where) as channel:  # no client certificate
        assert await refused(channel) == grpc.StatusCode.UNAVAILABLE
    stranger = Tls(ca_file=pki.ca, cert_file=pki.other_client_cert, key_file=pki.other_client_key)
    async with stranger.aio_channel(where) as channel:  # a certificate, from another CA
        assert await refused(channel) == grpc.StatusCode.UNAVAILABLE
    good = Tls(ca_file=pki.ca, cert_file=pki.client_cert, key_file=pki.client_key)
    async with good.aio_channel(where) as channel:
        assert await sign_in(channel)
    async with FlotillaClient(where, tls=good) as client:
        await client.sign_in("ada")
        assert (await client.create_game("counter", seats=2)).name.startswith("games/")


def swap_in(cert: trustme.LeafCert, cert_file: Path, key_file: Path) -> None:
    """Replace the files atomically, as a Kubernetes Secret volume swaps its files."""
    for blob, path in ((cert.cert_chain_pems[0], cert_file), (cert.private_key_pem, key_file)):
        blob.write_to_path(str(path.with_suffix(".new")))
        os.replace(path.with_suffix(".new"), path)


def renew(cert_file: Path, key_file: Path) -> str:
    """A certificate of a new CA in place of the old one; the new CA's file."""
    renewed_ca = trustme.CA()
    swap_in(renewed_ca.issue_cert("127.0.0.1"), cert_file, key_file)
    ca_file = cert_file.with_name("renewed-ca.pem")
    renewed_ca.cert_pem.write_to_path(str(ca_file))
    return str(ca_file)


async def test_a_renewed_certificate_is_served_to_new_connections(stack: Stack, pki: Pki, tmp_path: Path) -> None:
    cert, key = tmp_path / "tls.crt", tmp_path / "tls.key"
    for source, path in ((pki.server_cert, cert), (pki.server_key, key)):
        await asyncio.to_thread(shutil.copy, source, path)
    settings = replace(tls_settings(stack, pki), tls_cert=str(cert), tls_key=str(key))
    gateway = await start_gateway(settings)
    try:
        async with Tls(ca_file=pki.ca).aio_channel(target(gateway)) as channel:
            assert await sign_in(channel)
        ca_file = await asyncio.to_thread(renew, cert, key)
        async with Tls(ca_file=ca_file).aio_channel(target(gateway)) as channel:
            assert await sign_in(channel)
        async with Tls(ca_file=pki.ca).aio_channel(target(gateway)) as channel:
            assert await refused(channel) == grpc.StatusCode.UNAVAILABLE  # the old certificate is gone
        assert gateway.tls is not None
        assert gateway.tls.reloads == 1
        await asyncio.to_thread(key.write_text, "not a key")  # a broken renewal keeps the certificate served
        async with Tls(ca_file=ca_file).aio_channel(target(gateway)) as channel:
            assert await sign_in(channel)
    finally:
        await asyncio.wait_for(gateway.stop(0), 30)


def test_half_a_tls_configuration_is_refused(pki: Pki) -> None:
    from flotilla.gateway.tls import CertificateFiles

    with pytest.raises(ValueError, match="FLOTILLA_TLS_KEY"):
        CertificateFiles.from_settings(Settings(tls_cert=pki.server_cert))
    with pytest.raises(ValueError, match="FLOTILLA_TLS_CLIENT_CA"):
        CertificateFiles.from_settings(Settings(tls_client_ca=pki.ca))
    with pytest.raises(ValueError, match="no PEM"):
        CertificateFiles(pki.server_cert, pki.server_cert)  # a certificate where the key belongs
    with pytest.raises(ValueError, match="key_file"):
        Tls(ca_file=pki.ca, cert_file=pki.client_cert)


async def test_flotilla_bot_plays_over_mtls(mtls_gateway: Gateway, pki: Pki, tmp_path: Path) -> None:
    """`flotilla bot` (a process forked from the preloaded fork server, tests/forkserver.py) with
    the connection flags of mTLS."""
    tls = Tls(ca_file=pki.ca, cert_file=pki.client_cert, key_file=pki.client_key)
    async with FlotillaClient(target(mtls_gateway), tls=tls) as ada:
        await ada.sign_in("ada")
        game = await ada.create_game("counter", seats=2, options={"moves": "4"})
        seat = await ada.join(game.name, 0)
        flags = ["--ca", pki.ca, "--cert", pki.client_cert, "--key", pki.client_key, "--seat", "1"]
        command = [*FLOTILLA, "bot", "--game-id", game.name, "--target", target(mtls_gateway), *flags]
        bot = spawn(command, dict(os.environ), tmp_path / "bot.log")
        try:
            await asyncio.wait_for(play_random(ada, seat, random.Random(2)), 60)
            code = await asyncio.to_thread(bot.wait, 60)
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait()
        out = (tmp_path / "bot.log").read_text()
        assert code == 0, out
        assert "game over" in out
        assert (await ada.get_game(game.name)).HasField("result")


async def test_the_health_wait_of_flotilla_up_speaks_tls(tls_gateway: Gateway, pki: Pki) -> None:
    await asyncio.to_thread(_wait_for_gateway, target(tls_gateway), 10, Tls(ca_file=pki.ca))
    with pytest.raises(TimeoutError):
        await asyncio.to_thread(_wait_for_gateway, target(tls_gateway), 1)  # plaintext never gets an answer


@pytest.fixture
def matchmaker_over_mtls(mtls_gateway: Gateway, stack: Stack, pki: Pki) -> Iterator[None]:
    env = dict(
        os.environ,
        REDIS_URL=stack.redis_url,
        FLOTILLA_GATEWAY=target(mtls_gateway),
        FLOTILLA_GATEWAY_CA=pki.ca,
        FLOTILLA_GATEWAY_CERT=pki.client_cert,
        FLOTILLA_GATEWAY_KEY=pki.client_key,
        FLOTILLA_MM_BOT_FILL_AFTER="0",
        FLOTILLA_MM_ROLES="match,bots",
        FLOTILLA_METRICS_PORT="0",
        FLOTILLA_LOG_FORMAT="json",
    )
    proc = start_matchmaker_env(env, stack.log_dir, "mtls")
    yield
    stop(proc)


@pytest.mark.usefixtures("matchmaker_over_mtls")
async def test_the_matchmakers_bots_play_through_an_mtls_gateway(mtls_gateway: Gateway, pki: Pki) -> None:
    tls = Tls(ca_file=pki.ca, cert_file=pki.client_cert, key_file=pki.client_key)
    player = Player(target(mtls_gateway), tls=tls)
    try:
        await player.client.sign_in("ada")
        options = {"moves": str(random.randint(5, 40))}  # short, and most likely a queue of its own
        request = mm.CreateTicketRequest(kind="counter", options=options, seat_counts=[2], request_id=uuid.uuid4().hex)
        ticket = (await player.call(player.mm, "CreateTicket", request)).ticket
        async for change in player.mm.WatchTicket(mm.WatchTicketRequest(ticket=ticket.name), metadata=player.md):
            if change.ticket.state == mm.TICKET_STATE_MATCHED:
                ticket = change.ticket
                break
        seat = Seat(ticket.game, ticket.seat, ticket.seat_token)
        await asyncio.wait_for(play_random(player.client, seat, random.Random(3)), 60)  # the bot plays the other seat
        game = await player.client.get_game(ticket.game)
        assert game.HasField("result")
    except FlotillaError as error:
        raise AssertionError(error) from None
    finally:
        await player.close()
