"""Bring your own identity: an external issuer's JWTs (JWKS file and URL), guests off, API keys.

Against gateways of each test's own settings in the test process and the module's in-process worker
(tests/inproc.py). The `flotilla` command line runs as its own process for a test's first command and
for `flotilla bot`; its further commands, whose claim is what they do to Redis and print, run its code
(`flotilla.cli.main`) in this process.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import io
import json
import os
import subprocess
import sys
import threading
import time
import uuid
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any
from unittest import mock

import grpc
import jwt
import pytest
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from flotilla.api.game.v1 import game_service_pb2
from flotilla.cli import main as flotilla_main
from flotilla.identity.external import external_user
from flotilla_client import FlotillaClient, FlotillaError, play_random, rpcs
from inproc import InProcess, own_gateway

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

ISSUER = "https://id.example.test/"
AUDIENCE = "flotilla-lobby"


class Issuer:
    """A test identity provider: key pairs made here, tokens signed with them, a JWKS of their public halves."""

    def __init__(self) -> None:
        self.private: dict[str, Any] = {}
        self.published: list[str] = []

    def add_rsa(self, kid: str) -> None:
        self.private[kid] = rsa.generate_private_key(public_exponent=65537, key_size=2048)
        self.published.append(kid)

    def add_ec(self, kid: str) -> None:
        self.private[kid] = ec.generate_private_key(ec.SECP256R1())
        self.published.append(kid)

    def jwks(self) -> dict[str, Any]:
        keys = []
        for kid in self.published:
            key = self.private[kid]
            if isinstance(key, rsa.RSAPrivateKey):
                jwk = RSAAlgorithm.to_jwk(key.public_key(), as_dict=True)
                jwk["alg"] = "RS256"
            else:
                jwk = ECAlgorithm.to_jwk(key.public_key(), as_dict=True)
                jwk["alg"] = "ES256"
            keys.append({**jwk, "kid": kid, "use": "sig"})
        return {"keys": keys}

    def token(self, kid: str, sub: str = "alice", *, signer: str | None = None, **claims: Any) -> str:
        key = self.private[signer or kid]
        alg = "RS256" if isinstance(key, rsa.RSAPrivateKey) else "ES256"
        now = int(time.time())
        payload = {"iss": ISSUER, "aud": AUDIENCE, "sub": sub, "iat": now, "exp": now + 300, "name": "Alice", **claims}
        return jwt.encode(payload, key, algorithm=alg, headers={"kid": kid})


def issuer_settings(**where: Any) -> dict[str, Any]:
    return {"oidc_issuer": ISSUER, "oidc_audience": AUDIENCE, "guests": False, **where}


async def refused(client: FlotillaClient, token: str) -> FlotillaError:
    client.use_token(token)
    with pytest.raises(FlotillaError) as caught:
        await client.create_game("counter", 2)
    return caught.value


async def test_an_issuers_tokens_act_as_session_tokens_from_a_jwks_file(inproc: InProcess, tmp_path: Path) -> None:
    issuer = Issuer()
    issuer.add_rsa("rsa-1")
    issuer.add_ec("ec-1")
    jwks = tmp_path / "jwks.json"
    jwks.write_text(json.dumps(issuer.jwks()))
    async with own_gateway(inproc.redis_url, **issuer_settings(oidc_jwks_file=str(jwks))) as running:
        client = FlotillaClient(f"127.0.0.1:{running.port}")
        client.use_token(issuer.token("rsa-1", name="Alice\u202e"))  # a bidi override: the name is not used
        game = await client.create_game("counter", 2)
        seat = await client.join(game.name)
        other = FlotillaClient(f"127.0.0.1:{running.port}")
        other.use_token(issuer.token("ec-1", sub="bob", name="Bob"))  # ES256
        await other.join(game.name)
        seats = (await client.get_game(game.name)).seats
        alice = f"users/{external_user(ISSUER, 'alice')}"
        assert [(s.user, s.display_name) for s in seats] == [
            (alice, f"player-{alice.removeprefix('users/')[:8]}"),
            (f"users/{external_user(ISSUER, 'bob')}", "Bob"),
        ]
        assert (await client.submit(game.name, seat, _add())).through_event_id == 2  # its seat token acts
        client.use_token(issuer.token("rsa-1", name="Alice"))  # the same (iss, sub): the same user
        assert (await client.join(game.name)).seat == 0  # already seated: its seat again
        # Refresh is the issuer's business.
        with pytest.raises(FlotillaError) as caught:
            await client.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=client.session_token))
        assert (caught.value.code, caught.value.reason) == (
            grpc.StatusCode.FAILED_PRECONDITION,
            "ERROR_REASON_TOKEN_NOT_REFRESHABLE",
        )
        # Guests are off: a typed refusal.
        with pytest.raises(FlotillaError) as caught:
            await client.sign_in("guest")
        assert (caught.value.code, caught.value.reason) == (
            grpc.StatusCode.PERMISSION_DENIED,
            "ERROR_REASON_GUESTS_DISABLED",
        )
        # Everything a forger or a careless client could send is UNAUTHENTICATED.
        public_pem = (
            issuer.private["rsa-1"]
            .public_key()
            .public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
        )
        stranger = Issuer()
        stranger.add_rsa("rsa-1")
        now = int(time.time())
        bad = {
            "expired": issuer.token("rsa-1", exp=now - 120, iat=now - 600),
            "wrong issuer": issuer.token("rsa-1", iss="https://evil.example.test/"),
            "wrong audience": issuer.token("rsa-1", aud="another-app"),
            "no subject": jwt.encode(
                {"iss": ISSUER, "aud": AUDIENCE, "exp": now + 60}, issuer.private["rsa-1"], "RS256", {"kid": "rsa-1"}
            ),
            "wrong key": stranger.token("rsa-1"),
            "unknown kid": issuer.token("rsa-9", signer="rsa-1"),
            "alg none": jwt.encode({"iss": ISSUER, "aud": AUDIENCE, "sub": "a", "exp": now + 60}, None, "none"),
            "HS256 with the public key": _hs256_with(public_pem, {"iss": ISSUER, "aud": AUDIENCE, "sub": "a"}),
        }
        for what, token in bad.items():
            error = await refused(client, token)
            assert error.code == grpc.StatusCode.UNAUTHENTICATED, what
            assert error.reason in ("ERROR_REASON_UNAUTHENTICATED", "ERROR_REASON_TOKEN_EXPIRED"), what
        assert (await refused(client, bad["expired"])).reason == "ERROR_REASON_TOKEN_EXPIRED"
        # The issuer rotates: a new key in the file is picked up on its first token, without a restart.
        issuer.add_ec("ec-2")
        issuer.published.remove("rsa-1")
        jwks.write_text(json.dumps(issuer.jwks()))
        client.use_token(issuer.token("ec-2"))
        await client.create_game("counter", 2)
        error = await refused(client, issuer.token("rsa-1"))  # that reload dropped the retired key
        assert error.code == grpc.StatusCode.UNAUTHENTICATED
        await client.close()
        await other.close()


def _hs256_with(secret: bytes, claims: dict[str, Any]) -> str:
    """The algorithm-confusion forgery: HMAC keyed with the issuer's public key."""
    import base64
    import hashlib
    import hmac

    def part(data: dict[str, Any]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    body = f"{part({'alg': 'HS256', 'kid': 'rsa-1'})}.{part({**claims, 'exp': int(time.time()) + 60})}"
    mac = base64.urlsafe_b64encode(hmac.new(secret, body.encode(), hashlib.sha256).digest()).rstrip(b"=").decode()
    return f"{body}.{mac}"


def _add() -> Any:
    from flotilla.api.counter.v1 import counter_pb2
    from flotilla.api.game.v1 import game_pb2

    return game_pb2.Action(counter=counter_pb2.Action(add=counter_pb2.Add(n=1)))


@contextlib.contextmanager
def jwks_server(issuer: Issuer) -> Iterator[tuple[str, list[float]]]:
    """The issuer's JWKS over HTTP on 127.0.0.1; yields its URL and the times it was fetched."""
    fetched: list[float] = []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            body = json.dumps(issuer.jwks()).encode()
            fetched.append(time.monotonic())
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def log_message(self, *args: object) -> None:
            pass

    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/.well-known/jwks.json", fetched
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)


async def test_an_issuers_keys_come_from_a_jwks_url_and_rotate(inproc: InProcess) -> None:
    issuer = Issuer()
    issuer.add_rsa("r1")
    with jwks_server(issuer) as (url, fetched):
        async with own_gateway(inproc.redis_url, **issuer_settings(oidc_jwks_url=url, oidc_keys_ttl_s=3600)) as running:
            client = FlotillaClient(f"127.0.0.1:{running.port}")
            client.use_token(issuer.token("r1"))
            for _ in range(5):
                await client.create_game("counter", 2)
            assert len(fetched) == 1  # cached: one fetch at start
            issuer.add_rsa("r2")  # rotation at the provider
            client.use_token(issuer.token("r2"))
            await client.create_game("counter", 2)
            assert len(fetched) == 2  # the unknown kid fetched the keys once
            # Forged kids: a fetch at most per second, then each is remembered as unknown.
            forged = [issuer.token(f"f{i}", signer="r1") for i in range(3)]
            started = time.monotonic()
            for token in forged * 10:
                assert (await refused(client, token)).code == grpc.StatusCode.UNAUTHENTICATED
            elapsed = time.monotonic() - started
            assert len(fetched) - 2 <= 1 + elapsed  # paced: no fetch per call
            await client.close()


def in_process(env: dict[str, str], *args: str) -> tuple[int, str, str]:
    """`flotilla ARGS` with `env`, by the command's own code in this process (`flotilla.cli.main`, its
    event loop its own: call it from a thread in an async test): its exit code, stdout and stderr."""
    out, err = io.StringIO(), io.StringIO()
    with mock.patch.dict(os.environ, env, clear=True), contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = flotilla_main(list(args))
    return code, out.getvalue(), err.getvalue()


async def test_api_keys_minted_and_revoked_with_the_cli(inproc: InProcess) -> None:
    env = dict(os.environ, REDIS_URL=inproc.redis_url, FLOTILLA_SECRET="")

    async def cli(*args: str) -> str:
        code, out, err = await asyncio.to_thread(in_process, env, *args)
        assert code == 0, err
        return out

    name = f"bot-{uuid.uuid4().hex[:6]}"
    command = [sys.executable, "-m", "flotilla.cli", "apikey", "create", "--name", name]
    run = functools.partial(subprocess.run, check=False, env=env, capture_output=True, text=True, timeout=60)
    created = await asyncio.to_thread(run, command)
    assert created.returncode == 0, created.stderr
    key = created.stdout.strip().splitlines()[-1]
    key_id = key.split("_")[1]
    listed = await cli("apikey", "list")
    assert key_id in listed
    assert key not in listed  # shown once
    async with own_gateway(inproc.redis_url, api_key_session_ttl_s=120) as running:
        target = f"127.0.0.1:{running.port}"
        bot = FlotillaClient(target)
        await bot.sign_in_with_api_key(key)
        claims = jwt.decode(bot.session_token, options={"verify_signature": False})
        assert claims["exp"] - claims["iat"] == 120
        again = FlotillaClient(target)
        await again.sign_in_with_api_key(key)
        assert again.user == bot.user  # one stable bot user per key
        game = await bot.create_game("counter", 2, {"moves": "6"})
        host = FlotillaClient(target)
        await host.sign_in("host")
        seat = await host.join(game.name)
        # `flotilla bot --api-key` (from the environment) plays the other seat.
        player = await asyncio.create_subprocess_exec(
            *[sys.executable, "-m", "flotilla.cli", "bot", "--game-id", game.name, "--target", target],
            env=dict(env, FLOTILLA_API_KEY=key),
            stdout=asyncio.subprocess.PIPE,
            stderr=asyncio.subprocess.PIPE,
        )
        try:
            await play_random(host, seat)
            _, err = await asyncio.wait_for(player.communicate(), 60)
        finally:
            if player.returncode is None:
                player.kill()
                await player.communicate()
        assert player.returncode == 0, err.decode()[-2000:]
        final = await host.get_game(game.name)
        assert final.seats[1].user == bot.user
        assert final.seats[1].display_name == f"{name} (bot)"  # bot accounts are marked (issue 23)
        await cli("apikey", "revoke", key_id)
        assert key_id not in await cli("apikey", "list")
        for call in (
            bot.sign_in_with_api_key(key),
            bot.unary(rpcs.REFRESH_TOKEN, game_service_pb2.RefreshTokenRequest(token=bot.session_token)),
            bot.sign_in_with_api_key("flk_not-a-key"),
        ):
            with pytest.raises(FlotillaError) as caught:
                await call
            assert (caught.value.code, caught.value.reason) == (
                grpc.StatusCode.UNAUTHENTICATED,
                "ERROR_REASON_API_KEY_INVALID",
            )
        for client in (bot, again, host):
            await client.close()


def test_keys_rotate_and_list_with_the_cli(inproc: InProcess) -> None:
    env = dict(os.environ, REDIS_URL=inproc.redis_url, FLOTILLA_SECRET="")
    run = [sys.executable, "-m", "flotilla.cli", "keys"]
    rotated = subprocess.run([*run, "rotate"], env=env, capture_output=True, text=True, timeout=60, check=True)
    kid = rotated.stdout.split()[2]
    code, listed, _err = in_process(env, "keys", "list")
    assert code == 0
    signing = [line for line in listed.splitlines() if line.endswith("signs")]
    assert [line.split()[0] for line in signing] == [kid]
    assert len(listed.splitlines()) >= 2  # the previous key still verifies
    code, _out, err = in_process(dict(env, FLOTILLA_SECRET="a:" + "b" * 32), "keys", "rotate")
    assert code == 2
    assert "pinned" in err
