"""Issue 23 (11): guests and bots are marked wherever names are shown, so nobody passes for another kind.

A name alone tells nothing (a guest may call itself what an account is called), so every place
the API sends a display name also sends its `UserKind`: game seats (GetGame), room seats
(GetRoom), party members and leaderboards. Through the public API of a real gateway in the test
process (tests/inproc.py: default settings, plus an identity provider for the accounts), its worker
and Redis, with one user of each kind: an identity provider's account, a guest, an API key's bot
account and a room's server bot; the leaderboard's ratings come from a matchmaker process.
"""

from __future__ import annotations

import json
import os
import random
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from flotilla.api.game.v1 import game_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2 as lobby_pb
from flotilla.identity.external import external_user
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from flotilla.store.users import user_names
from flotilla_client import FlotillaClient, Seat
from forkserver import Proc
from gateway.test_identity import ISSUER, Issuer, issuer_settings
from inproc import InProcess, own_gateway
from lobby.mm_support import Player, ratings_settled, start_matchmaker_env, stop
from matchmaker.test_rated_games import play_together

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]

ACCOUNT, GUEST, BOT_ACCOUNT, SERVER_BOT = (
    game_pb2.USER_KIND_ACCOUNT,
    game_pb2.USER_KIND_GUEST,
    game_pb2.USER_KIND_BOT_ACCOUNT,
    game_pb2.USER_KIND_SERVER_BOT,
)


class Users:
    """One user of each kind a person or a bot signs in as, on one gateway."""

    def __init__(self, target: str, issuer: Issuer) -> None:
        subject = f"ada-{random.getrandbits(32)}"
        self.account = FlotillaClient(target)
        self.account.use_token(issuer.token("idp-1", sub=subject, name="Ada"))
        self.account_user = f"users/{external_user(ISSUER, subject)}"
        self.guest = FlotillaClient(target)
        self.bot: Player | None = None

    async def sign_in(self, target: str, redis_url: str) -> None:
        await self.guest.sign_in("Ada")  # the account's very name
        self.bot = await Player.with_api_key(target, redis_url, "Rob")

    @property
    def bot_account(self) -> FlotillaClient:
        assert self.bot is not None
        return self.bot.client

    async def close(self) -> None:
        for client in (self.account, self.guest, self.bot_account):
            await client.close()


@pytest.fixture(scope="module")
def issuer() -> Issuer:
    made = Issuer()
    made.add_ec("idp-1")
    return made


@pytest.fixture(scope="module")
def jwks(issuer: Issuer, tmp_path_factory: pytest.TempPathFactory) -> Path:
    path = tmp_path_factory.mktemp("idp") / "jwks.json"
    path.write_text(json.dumps(issuer.jwks()))
    return path


@pytest.fixture
async def users(inproc: InProcess, issuer: Issuer, jwks: Path) -> AsyncIterator[tuple[str, Users]]:
    """The users, on a gateway at default settings that also accepts the identity provider's tokens
    (and guests, as a public lobby's does)."""
    async with own_gateway(inproc.redis_url, **issuer_settings(oidc_jwks_file=str(jwks), guests=True)) as running:
        target = f"127.0.0.1:{running.port}"
        made = Users(target, issuer)
        await made.sign_in(target, inproc.redis_url)
        yield target, made
        await made.close()


@pytest.fixture(scope="module")
def ratings(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proc]:
    """A matchmaker process that only rates finished games (those the in-process worker ends)."""
    env = dict(
        os.environ,
        REDIS_URL=inproc.redis_url,
        FLOTILLA_GATEWAY=",".join(inproc.gateways),
        FLOTILLA_METRICS_PORT="0",
        FLOTILLA_LOG_FORMAT="json",
        FLOTILLA_MM_ROLES="ratings",
    )
    proc = start_matchmaker_env(env, tmp_path_factory.mktemp("mm"), "kinds")
    yield proc
    stop(proc)


def kinds(seats: object) -> list[tuple[str, int]]:
    """(display name, user kind) of each seat or member."""
    return [(s.display_name, s.user_kind) for s in seats]  # type: ignore[attr-defined]


async def test_a_guest_named_like_an_account_is_told_apart_by_its_kind(users: tuple[str, Users]) -> None:
    """A table joined seat by seat (JoinGame): the same name twice, two kinds."""
    _, u = users
    table = await u.account.create_game("counter", 2)
    await u.account.join(table.name, 0)
    await u.guest.join(table.name, 1)
    for viewer in (u.account, u.guest, u.bot_account):
        game = await viewer.get_game(table.name)
        assert kinds(game.seats) == [("Ada", ACCOUNT), ("Ada", GUEST)]
    assert (await u.bot_account.create_game("counter", 2)).seats[0].user_kind == game_pb2.USER_KIND_UNSPECIFIED


async def test_every_kind_is_shown_in_a_room_its_game_and_a_party(users: tuple[str, Users]) -> None:
    _, u = users
    room = await u.account.create_room("sail_away", 4, {}, visibility=lobby_pb.ROOM_VISIBILITY_PRIVATE)
    code = room.join_code
    await u.guest.join_room(room.name, join_code=code)
    await u.bot_account.join_room(room.name, join_code=code)
    await u.account.add_bot(room.name, policy="random")
    want = [("Ada", ACCOUNT), ("Ada (2)", GUEST), ("Rob (bot)", BOT_ACCOUNT), ("Bot 4 (random)", SERVER_BOT)]
    for viewer in (u.account, u.guest, u.bot_account):
        assert kinds((await viewer.get_room(room.name, join_code=code)).room.seats) == want
    for player in (u.guest, u.bot_account):
        await player.set_ready(room.name)
    started = await u.account.start_room(room.name)
    game = await u.guest.get_game(started.room.game)
    # the game's names are the room's (a look-alike suffix included), each with its kind
    assert kinds(game.seats) == want
    assert [s.user for s in game.seats] == [s.user for s in started.room.seats]

    party = await u.guest.create_party()
    await u.guest.invite_to_party(party.name, u.account_user)
    await u.account.accept_party_invite(party.name)
    shown = await u.account.get_party(party.name)
    assert [(m.user, m.user_kind) for m in shown.members] == [(u.guest.user, GUEST), (u.account_user, ACCOUNT)]


async def test_the_leaderboard_shows_accounts_and_bot_accounts_by_kind(
    ratings: Proc, inproc: InProcess, users: tuple[str, Users]
) -> None:
    """A rated room of an account and a bot account (guests are never rated), played to its end."""
    _, u = users
    room = await u.account.create_room("counter", 2, {"moves": "2"}, rated=True)
    await u.bot_account.join_room(room.name)
    await u.bot_account.set_ready(room.name)
    started = await u.account.start_room(room.name)
    joined = await u.bot_account.get_room(room.name)
    game = started.room.game
    seats = (Seat(game, 0, started.seat_token), Seat(game, 1, joined.seat_token))
    await play_together(u.account, u.bot_account, seats)
    await ratings_settled(inproc.redis_url)
    board: dict[str, tuple[str, int]] = {}
    token = ""
    for _ in range(50):  # the leaderboard holds other modules' players too: page through it
        page = await u.guest.list_leaderboard("counter", 100, token)
        board.update((r.user, (r.display_name, r.user_kind)) for r in page.ratings)
        token = page.next_page_token
        if not token or {u.account_user, u.bot_account.user} <= board.keys():
            break
    assert board[u.account_user] == ("Ada", ACCOUNT)
    assert board[u.bot_account.user] == ("Rob (bot)", BOT_ACCOUNT)
    mine = await u.bot_account.get_rating("counter")
    assert (mine.display_name, mine.user_kind) == ("Rob (bot)", BOT_ACCOUNT)


async def test_records_made_before_kinds_were_kept_still_tell_guests(inproc: InProcess) -> None:
    """A guest's record of the earlier shape (field `guest` only) reads as a guest; a record that
    says nothing, or none, as not known."""
    store = RedisStore.from_url(inproc.redis_url)
    try:
        old_guest, old_account, gone = (uuid.uuid4().hex for _ in range(3))
        await store.redis.hset(keys.user(old_guest), mapping={"name": "Old", "created_ms": 1, "guest": 1})
        await store.redis.hset(keys.user(old_account), mapping={"name": "Acc", "created_ms": 1})
        found = await user_names(store.redis, [old_guest, old_account, gone])
        assert found == [("Old", "guest"), ("Acc", ""), ("", "")]
    finally:
        await store.close()
