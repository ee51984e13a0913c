"""Support for lobby and matchmaker tests: matchmaker processes and thin gRPC callers."""

from __future__ import annotations

import asyncio
import subprocess
import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import grpc

from flotilla.api.lobby.v1 import lobby_service_pb2_grpc
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm_pb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2_grpc
from flotilla.store import keys
from flotilla.store.auth_store import AuthStore
from flotilla.store.redis_store import RedisStore
from flotilla_client import FlotillaClient, Tls
from forkserver import Proc, spawn
from inproc import InProcess
from support import FLOTILLA, Stack


def start_matchmaker(stack: Stack | InProcess, log_dir: Path, name: str, **env: str) -> Proc:
    """A `flotilla matchmaker` process against the stack's Redis, bots playing through its gateways
    (a stack's processes, or gateways in the test process)."""
    return start_matchmaker_env(dict(stack.env, FLOTILLA_GATEWAY=",".join(stack.gateways), **env), log_dir, name)


def stop(proc: Proc) -> None:
    if proc.poll() is None:
        proc.terminate()
    try:
        proc.wait(15)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(5)


class Player:
    """A signed-in user with lobby, matchmaking and rating stubs on one gateway."""

    def __init__(self, target: str, tls: Tls | None = None) -> None:
        self.client = FlotillaClient(target, tls=tls)
        channel = self.client.channel
        self.lobby = lobby_service_pb2_grpc.LobbyServiceStub(channel)  # type: ignore[no-untyped-call]
        self.mm = matchmaking_service_pb2_grpc.MatchmakingServiceStub(channel)  # type: ignore[no-untyped-call]
        self.ratings = matchmaking_service_pb2_grpc.RatingServiceStub(channel)  # type: ignore[no-untyped-call]
        self.user = ""

    @classmethod
    async def signed_in(cls, target: str, name: str) -> Player:
        player = cls(target)
        await player.client.sign_in(name)
        player.user = player.client.user
        return player

    @classmethod
    async def with_api_key(cls, target: str, redis_url: str, name: str) -> Player:
        """A signed-in account that is not a guest (only those have ratings): an API key's,
        minted as the operator's `flotilla apikey create` does."""
        store = RedisStore.from_url(redis_url)
        try:
            _key, secret = await AuthStore(store.redis).create_api_key(name)
        finally:
            await store.close()
        player = cls(target)
        await player.client.sign_in_with_api_key(secret)
        player.user = player.client.user
        return player

    @property
    def md(self) -> tuple[tuple[str, str], ...]:
        return (("authorization", f"Bearer {self.client.session_token}"),)

    async def call(self, stub: Any, method: str, request: Any) -> Any:
        return await getattr(stub, method)(request, metadata=self.md, timeout=30)

    async def close(self) -> None:
        await self.client.close()


def reason_of(error: grpc.aio.AioRpcError) -> str:
    from google.rpc import error_details_pb2, status_pb2

    for key, value in error.trailing_metadata() or ():
        if key == "grpc-status-details-bin":
            status = status_pb2.Status.FromString(value)  # type: ignore[arg-type]
            for detail in status.details:
                info = error_details_pb2.ErrorInfo()
                if detail.Unpack(info):
                    return str(info.reason)
    return ""


async def refusal(call: object) -> tuple[grpc.StatusCode, str, dict[str, str]]:
    """(code, ErrorInfo reason, ErrorInfo metadata) of a call that must be refused."""
    from google.rpc import error_details_pb2, status_pb2

    try:
        await call  # type: ignore[misc]
    except grpc.aio.AioRpcError as error:
        for key, value in error.trailing_metadata() or ():
            if key == "grpc-status-details-bin":
                for detail in status_pb2.Status.FromString(value).details:  # type: ignore[arg-type]
                    info = error_details_pb2.ErrorInfo()
                    if detail.Unpack(info):
                        return error.code(), info.reason, dict(info.metadata)
        return error.code(), "", {}
    raise AssertionError("the call was not refused")


async def form_party(leader: Player, *members: Player) -> str:
    """A party led by `leader` that each of `members` was invited to and accepted; its name."""
    create = mm_pb.CreatePartyRequest(request_id=uuid.uuid4().hex)
    party = (await leader.call(leader.mm, "CreateParty", create)).party
    for member in members:
        await leader.call(leader.mm, "InviteToParty", mm_pb.InviteToPartyRequest(party=party.name, user=member.user))
        await member.call(member.mm, "AcceptPartyInvite", mm_pb.AcceptPartyInviteRequest(party=party.name))
    return str(party.name)


def options(**values: str | int) -> Mapping[str, str]:
    return {k: str(v) for k, v in values.items()}


def start_matchmaker_env(env: Mapping[str, str], log_dir: Path, name: str) -> Proc:
    return spawn([*FLOTILLA, "matchmaker"], dict(env), log_dir / f"matchmaker-{name}.log")


async def ratings_settled(redis_url: str) -> None:
    """Wait until the ratings consumer has read and acknowledged everything on the finished stream."""
    store = RedisStore.from_url(redis_url)
    try:
        for _ in range(300):
            groups = await store.redis.xinfo_groups(keys.FINISHED)
            group = next((g for g in groups if g["name"] == keys.RATINGS_GROUP.encode()), None)
            last = (await store.redis.xinfo_stream(keys.FINISHED))["last-generated-id"]
            if group is not None and group["pending"] == 0 and group["last-delivered-id"] == last:
                return
            await asyncio.sleep(0.1)
        raise AssertionError("the ratings consumer did not catch up")
    finally:
        await store.close()
