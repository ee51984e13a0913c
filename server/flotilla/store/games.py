"""Games: creating one, its description, seats, action log and the listings (`Store` protocol)."""

from __future__ import annotations

import secrets
from collections.abc import Mapping, Sequence

import orjson

from flotilla.records import ActionRecord
from flotilla.store import keys
from flotilla.store.client import Script, StoreClient
from flotilla.store.create_script import CreateArgs, CreateCode, CreateKeys, create_call
from flotilla.store.meta import META_FIELDS, GameMeta, meta_of
from flotilla.store.transient import own_errors
from flotilla.store.users import user_names


@own_errors
class GameRecords(StoreClient):
    """A game's hash, seats and action list, and the listing indexes (keys.GAMES, by kind)."""

    _create = Script("create_game.lua")
    _join = Script("join_seat.lua")

    async def create_game(
        self,
        game_id: str,
        *,
        kind: str,
        rules_version: str,
        seat_count: int,
        options: Mapping[str, str],
        created_ms: int,
        version: int,
        state: bytes,
        events: bytes,
        prompts: bytes,
        to_act: bytes,
        seed_sha256: str,
        clock: bytes = b"",
        seatclock: bytes = b"",
        private_code: str = "",
        lineage: str = "",
        seated: Sequence[tuple[str, str]] = (),
    ) -> bool | None:
        """Store a new game and its first stream entry; False if the id exists already (None: with
        other holders than `seated`).

        The game expires after `lifetimes.unstarted_game_s` unless every seat gets taken. `seated`:
        every seat's (user, name) in seat order; the game starts with them seated and nobody else
        may join it (create_game.lua).
        """
        created_us = created_ms * 1000 + secrets.randbelow(1000)  # listing order; unique in practice
        call = create_call(
            CreateKeys(keys.game(game_id), keys.game_events(game_id), keys.game_seats(game_id)),
            CreateArgs(
                version=version,
                state=state,
                events=events,
                prompts=prompts,
                to_act=to_act,
                kind=kind,
                rules_version=rules_version,
                seat_count=seat_count,
                options=orjson.dumps(dict(options)),
                created_ms=created_ms,
                seed_sha256=seed_sha256,
                clock=clock,
                seatclock=seatclock,
                private_code=private_code,
                lineage=lineage,
                unstarted_ttl_s=self.lifetimes.unstarted_game_s,
                holders=orjson.dumps(await self._holders(seated)) if seated else "",
            ),
        )
        created = CreateCode(await self._create(**call))
        if created is CreateCode.HELD_BY_OTHERS:
            return None
        if created is CreateCode.CREATED:
            async with self.redis.pipeline(transaction=False) as pipe:
                pipe.zadd(keys.GAMES, {game_id: created_us})
                pipe.zadd(keys.games_of_kind(kind), {game_id: created_us})
                await pipe.execute()
        return created is CreateCode.CREATED

    async def _holders(self, seated: Sequence[tuple[str, str]]) -> list[dict[str, str]]:
        """Game seats' holders for `seated` (user, name), each with the user's kind from their record."""
        found = await user_names(self.redis, [user for user, _ in seated])
        return [
            {"user": user, "name": name, "kind": kind} for (user, name), (_, kind) in zip(seated, found, strict=True)
        ]

    async def expires_in_ms(self, game_id: str, margin_ms: int) -> int:
        """Milliseconds until the game expires, plus `margin_ms`; 0 when it is kept for good."""
        left = int(await self.redis.pttl(keys.game(game_id)))
        return left + margin_ms if left > 0 else 0

    async def game_meta(self, game_id: str) -> GameMeta | None:
        return meta_of(game_id, await self.redis.hmget(keys.game(game_id), META_FIELDS))

    async def load(self, game_id: str) -> tuple[GameMeta, bytes] | None:
        """The game's description and state snapshot, read together."""
        values = await self.redis.hmget(keys.game(game_id), (*META_FIELDS, b"state"))
        meta = meta_of(game_id, values[:-1])
        if meta is None:
            return None
        return meta, values[-1]

    async def metas(self, game_ids: Sequence[str]) -> list[GameMeta | None]:
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id in game_ids:
                pipe.hmget(keys.game(game_id), META_FIELDS)
            rows = await pipe.execute()
        return [meta_of(g, r) for g, r in zip(game_ids, rows, strict=True)]

    async def list_games(self, kind: str, before: int | None, count: int) -> list[tuple[str, int]]:
        """(game id, listing score) newest first, scores strictly below the cursor `before`."""
        key = keys.games_of_kind(kind) if kind else keys.GAMES
        top = "+inf" if before is None else f"({before}"
        rows = await self.redis.zrevrangebyscore(key, top, "-inf", start=0, num=count, withscores=True)
        return [(game_id.decode(), int(score)) for game_id, score in rows]

    async def join(self, game_id: str, user: str, name: str, seat: int | None, kind: str = "") -> tuple[int, bool]:
        """Take a seat: (seat, whether this join started the game), or seat -1 no game, -2 taken/full,
        -3 no seat, -4 the user holds another seat, -5 reserved for other players (join_seat.lua).
        `kind`: the user's (identity/principal.py), kept with the seat."""
        holder = orjson.dumps({"user": user, "name": name, "kind": kind})
        reply = await self._join(keys=keys.game_keys(game_id), args=[user, holder, "" if seat is None else seat])
        taken = int(reply[0])
        return taken, taken >= 0 and len(reply) > 1 and int(reply[1]) == 1

    async def seats(self, game_id: str) -> dict[int, dict[str, str]]:
        raw = await self.redis.hgetall(keys.game_seats(game_id))
        return {int(k): orjson.loads(v) for k, v in raw.items()}

    async def actions_log(self, game_id: str) -> list[ActionRecord]:
        rows = await self.redis.lrange(keys.game_actions(game_id), 0, -1)
        return [ActionRecord.decode(r) for r in rows]
