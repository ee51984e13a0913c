"""Rooms: players gather, ready up, add bots, and the host starts a game. No grpc here.

A room is one JSON document in Redis with a version; every change is computed here from the
document as read and written with a compare-and-set script (retried a few times when another
request changed the room meanwhile). Each version is also appended to the room's change
stream, which `watch` follows.

The room document and the pure checks on it: lobby/room_document.py (its names are re-exported
here); WatchRoom's stream: lobby/room_watch.py; who watches: lobby/presence.py.
"""

from __future__ import annotations

import asyncio
import copy
import secrets
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from typing import Any

import structlog

from flotilla.app import join_codes
from flotilla.app.clocks import ClockConfig
from flotilla.app.errors import (
    AppError,
    GuestsDisabled,
    InvalidRequest,
    RoomBusy,
    RoomFull,
    RoomNotFound,
    RoomNotReady,
    RulesVersionUnavailable,
    StaleVersion,
    StoreUnavailable,
    WrongJoinCode,
)
from flotilla.app.games import MAX_SEATS, Games
from flotilla.app.inputs import distinct_name
from flotilla.app.limits import bot_cost
from flotilla.bots import POLICIES
from flotilla.clock import SYSTEM, Clock, now_ms
from flotilla.identity.principal import GUEST
from flotilla.lobby import room_options
from flotilla.lobby.presence import Presence
from flotilla.lobby.room_document import (
    CLOSED,
    OPEN,
    STARTED,
    STARTING,
    Room,
    RoomFilter,
    bot_user,
    check_join_code,
    code_matches,
    listing,
    require_host,
    require_open,
    room_clock,
    room_id_of,
    seat_of,
)
from flotilla.lobby.room_watch import watch_room
from flotilla.records import BotSeat, RoomRow
from flotilla.rules.errors import RulesError
from flotilla.store.lobby_store import LISTING_STEP, LobbyStore

MAX_BOT_DIFFICULTY = 9  # AddBot's difficulty range is 0..this (each policy documents what it does with it)
CAS_RETRIES = 8
START_ERROR_CHARS = 200  # a failed start's reason, as the room shows it
# A start failing with these stays `starting` and is finished by a retry; any other AppError reopens the room.
RETRIED_START_ERRORS = (StoreUnavailable, RulesVersionUnavailable, StaleVersion)
RATED_ROOM_NO_GUESTS = (
    "a rated room seats signed-in accounts only, not guests: sign in with an API key or the"
    " operator's identity provider, or play a casual (unrated) room"
)
CODE_TRIES = 8  # fresh codes tried when one is taken by another live room (1 in 2**40 per room)

log = structlog.get_logger("flotilla.lobby")


class Rooms:
    """The room use cases over one store; shared by every RPC of a gateway process."""

    def __init__(self, store: LobbyStore, games: Games, *, heartbeat_s: float = 10.0, clock: Clock = SYSTEM) -> None:
        self.store = store
        self.games = games
        self.heartbeat_s = heartbeat_s
        self.clock = clock  # the time source of presence and its grace (flotilla/clock.py; not a turn clock)
        self.presence = Presence(store, heartbeat_s, clock)

    async def get(self, room_id: str, viewer: str | None = None, join_code: str = "") -> RoomRow:
        """The room as stored; with a `viewer`, only if it may see it (`check_join_code`)."""
        row = await self.store.room(room_id)
        if row is None:
            raise RoomNotFound(f"no room rooms/{room_id}", room=f"rooms/{room_id}")
        if viewer is not None:
            check_join_code(row.room, viewer, join_code)
        return row

    async def _change(self, room_id: str, change: Callable[[Room], None]) -> tuple[int, Room]:
        """Apply `change` (raises to refuse) to the room as stored; compare-and-set, retried."""
        for _ in range(CAS_RETRIES):
            version, room = await self.get(room_id)
            after = copy.deepcopy(room)
            change(after)
            if after == room:
                return version, room
            written = await self.store.write_room(room_id, version, after, listing(after))
            if written is not None:
                return written, after
            await asyncio.sleep(secrets.randbelow(20) / 1000)
        raise RoomBusy("the room kept changing; retry", room=f"rooms/{room_id}")

    # --- use cases ---------------------------------------------------------------------
    async def create(
        self,
        user: str,
        name: str,
        kind: str,
        seat_count: int,
        options: Mapping[str, str],
        *,
        public: bool,
        request_id: str,
        hold: Callable[[str], Awaitable[None]] | None = None,
        display_name: str = "",
        clock: ClockConfig | None = None,
        rated: bool = False,
        user_kind: str = "",
    ) -> tuple[int, Room]:
        """A new room with the creator as host in seat 0; the same request id returns the same room.
        `hold`: called with the new room's id before it is stored (the creator's quota; raises to refuse).
        `clock`: the turn clock its game gets (None: none). `rated`: its game moves ratings (the
        caller checked that the creator is no guest; `join` keeps guests out). `user_kind`: the creator's
        (identity/principal.py), shown with their seat."""
        if not 1 <= seat_count <= MAX_SEATS:
            raise InvalidRequest(f"seat_count must be 1..{MAX_SEATS}, got {seat_count}", field="seat_count")
        options = room_options.stored(kind, seat_count, options)  # refused before anything is stored
        room_id = uuid.uuid5(uuid.NAMESPACE_URL, f"flotilla:room:{user}:{request_id}").hex
        existing = await self.store.room(room_id)
        if existing is not None:
            return existing
        if hold is not None:
            await hold(room_id)
        seats: list[dict[str, Any] | None] = [None] * seat_count
        seats[0] = {"user": user, "name": name, "ready": False, "bot": "", "kind": user_kind}
        room: Room = {
            "id": room_id,
            "display_name": display_name,
            "kind": kind,
            "seat_count": seat_count,
            "options": options,
            "public": public,
            "code": "" if public else await self._new_code(room_id),
            "host": user,
            "seats": seats,
            "status": OPEN,
            "game": "",
            "seq": await self.store.next_room_seq(),
            "created_ms": int(time.time() * 1000),
        }
        if rated:
            room["rated"] = True
        if clock is not None:
            room["clock"] = clock.plain()
        written = await self.store.write_room(room_id, 0, room, listing(room))
        if written is None:  # a concurrent retry of the same request created it
            return await self.get(room_id)
        return written, room

    async def _new_code(self, room_id: str) -> str:
        """A join code no other live room has, which now finds `room_id` (`find`)."""
        for _ in range(CODE_TRIES):
            code = join_codes.new_code()
            if await self.store.claim_room_code(code, room_id):
                return code
        raise RoomBusy("no free join code was found; retry")

    async def find(self, name: str, code: str) -> str:
        """The room id of `name` (rooms/<id>), or when `name` is empty, of the room whose join code
        `code` is (WrongJoinCode when none is)."""
        if name or not code:
            return room_id_of(name)
        found = await self.store.room_of_code(join_codes.normal(code)) if join_codes.looks_like_code(code) else None
        if found is None:
            raise WrongJoinCode("no room has this join code (codes are 8 letters and digits)")
        return found

    async def still_open(self, room_ids: list[str]) -> list[bool]:
        """For each room: whether it still exists and is open, starting, or started with its game
        not over (what open_rooms_per_user and bot_cost_per_user count)."""
        return [row is not None for row in await self._live(room_ids)]

    async def bot_costs(self, room_ids: list[str]) -> int:
        """The cost (app/limits.py, bot_cost) of the server bots of those rooms still live."""
        rooms = [row.room for row in await self._live(room_ids) if row is not None]
        return sum(bot_cost(s["bot"], s.get("difficulty")) for r in rooms for s in r["seats"] if s and s["bot"])

    async def _live(self, room_ids: list[str]) -> list[RoomRow | None]:
        rows = await self.store.rooms(room_ids) if room_ids else []
        games = [row.room["game"] for row in rows if row is not None and row.room["status"] == STARTED]
        playing = dict(zip(games, await self.games.still_open(games), strict=True))
        return [
            row
            if row is not None and (row.room["status"] in (OPEN, STARTING) or playing.get(row.room.get("game"), False))
            else None
            for row in rows
        ]

    async def join(
        self, room_id: str, user: str, name: str, code: str, seat: int | None, *, user_kind: str = ""
    ) -> tuple[int, Room]:
        """Take a seat (`user_kind`: the caller's, identity/principal.py, shown with the seat; a rated
        room refuses a guest)."""

        def change(room: Room) -> None:
            if seat_of(room, user) is not None:
                return
            if not room["public"] and not code_matches(room, code):
                raise WrongJoinCode("this private room needs its join code", room=f"rooms/{room_id}")
            if user_kind == GUEST and room.get("rated"):
                raise GuestsDisabled(RATED_ROOM_NO_GUESTS)
            require_open(room)
            if seat is not None:
                if not 0 <= seat < room["seat_count"]:
                    raise InvalidRequest(f"no seat {seat} in this room", field="seat")
                if room["seats"][seat] is not None:
                    raise RoomFull(f"seat {seat} is taken", room=f"rooms/{room_id}")
                wanted = seat
            else:
                free = [i for i, s in enumerate(room["seats"]) if s is None]
                if not free:
                    raise RoomFull("every seat is taken", room=f"rooms/{room_id}")
                wanted = free[0]
            others = [s["name"] for s in room["seats"] if s is not None]
            room["seats"][wanted] = {
                "user": user,
                "name": distinct_name(name, others),
                "ready": False,
                "bot": "",
                "kind": user_kind,
            }

        return await self._change(room_id, change)

    async def leave(self, room_id: str, user: str) -> tuple[int, Room]:
        def change(room: Room) -> None:
            mine = seat_of(room, user)
            if mine is None:
                return
            require_open(room)
            room["seats"][mine] = None
            if room["host"] == user:
                humans = [s for s in room["seats"] if s is not None and not s["bot"]]
                if humans:
                    room["host"] = humans[0]["user"]
                else:
                    room["status"] = CLOSED

        return await self._change(room_id, change)

    async def ready(self, room_id: str, user: str, ready: bool) -> tuple[int, Room]:
        def change(room: Room) -> None:
            mine = seat_of(room, user)
            if mine is None:
                raise InvalidRequest("you hold no seat in this room; JoinRoom first", field="room")
            require_open(room)
            room["seats"][mine]["ready"] = ready

        return await self._change(room_id, change)

    async def kick(self, room_id: str, user: str, seat: int) -> tuple[int, Room]:
        def change(room: Room) -> None:
            require_host(room, user)
            require_open(room)
            if not 0 <= seat < room["seat_count"]:
                raise InvalidRequest(f"no seat {seat} in this room", field="seat")
            if room["seats"][seat] is not None and room["seats"][seat]["user"] == user:
                raise InvalidRequest("the host cannot kick itself; LeaveRoom or hand over first", field="seat")
            room["seats"][seat] = None

        return await self._change(room_id, change)

    async def hand_over(self, room_id: str, user: str, new_host: str) -> tuple[int, Room]:
        def change(room: Room) -> None:
            require_host(room, user)
            require_open(room)
            target = seat_of(room, new_host)
            if target is None or room["seats"][target]["bot"]:
                raise InvalidRequest("the new host must be a player seated in the room", field="user")
            room["host"] = new_host

        return await self._change(room_id, change)

    async def add_bot(
        self,
        room_id: str,
        user: str,
        seat: int | None,
        policy: str,
        difficulty: int | None = None,
        budget: Callable[[int], Awaitable[None]] | None = None,
    ) -> tuple[int, Room]:
        """A bot of `policy` (flotilla.bots.POLICIES; "" is "random") at `difficulty` (0 to
        MAX_BOT_DIFFICULTY; None: the bot runner's default) in `seat` (None: the lowest open one).
        `budget`: called with the bot's cost (app/limits.py, bot_cost) once the request is valid."""
        policy = policy or "random"
        if policy not in POLICIES:
            raise InvalidRequest(f"bot policy must be one of {sorted(POLICIES)}", field="policy")
        if difficulty is not None and not 0 <= difficulty <= MAX_BOT_DIFFICULTY:
            raise InvalidRequest(f"bot difficulty must be 0..{MAX_BOT_DIFFICULTY}", field="difficulty")
        if budget is not None:
            await budget(bot_cost(policy, difficulty))

        def change(room: Room) -> None:
            require_host(room, user)
            require_open(room)
            free = [i for i, s in enumerate(room["seats"]) if s is None]
            if seat is not None:
                if not 0 <= seat < room["seat_count"]:
                    raise InvalidRequest(f"no seat {seat} in this room", field="seat")
                if seat not in free:
                    raise RoomFull(f"seat {seat} is taken", room=f"rooms/{room_id}")
                wanted = seat
            elif free:
                wanted = free[0]
            else:
                raise RoomFull("every seat is taken", room=f"rooms/{room_id}")
            room["seats"][wanted] = {
                "user": bot_user(room_id, wanted),
                "name": f"Bot {wanted + 1} ({policy})",
                "ready": True,
                "bot": policy,
                "difficulty": difficulty,
            }

        return await self._change(room_id, change)

    async def start(self, room_id: str, user: str) -> tuple[int, Room]:
        """open -> starting (membership frozen, the game's random id drawn) -> the game created with
        every player seated, bots queued -> started; or, when the game cannot be made, back to open
        with the reason in the room (`start_error`) and that error raised.

        Every step after `starting` is idempotent, so the host may retry a start that failed midway.
        """

        def freeze(room: Room) -> None:
            require_host(room, user)
            if room["status"] in (STARTING, STARTED):
                return
            require_open(room)
            if any(s is None for s in room["seats"]):
                raise RoomNotReady("every seat must be taken (add bots to fill it)", room=f"rooms/{room_id}")
            waiting = [s["name"] for s in room["seats"] if not s["ready"] and s["user"] != user]
            if waiting:
                raise RoomNotReady(f"not ready yet: {', '.join(waiting)}", room=f"rooms/{room_id}")
            room["status"] = STARTING
            room["game_key"] = secrets.token_hex(16)  # the game's id derives from it: never from a public id
            room.pop("start_error", None)

        _version, room = await self.get(room_id)
        freeze(copy.deepcopy(room))  # a refused start (not the host, not ready) writes nothing
        await self.store.mark_starting(room_id, int(time.time() * 1000))  # first: a crash after it is healed
        version, room = await self._change(room_id, freeze)
        if room["status"] == STARTED:
            return version, room
        return await self.finish_start(room_id, room)

    async def finish_start(self, room_id: str, room: Room) -> tuple[int, Room]:
        """The idempotent rest of a start: the game with every player seated (all or none), the
        bots, then `started`. A refusal (an AppError not worth retrying) reopens the room."""
        try:
            meta = await self.games.create(
                room["kind"],
                room["seat_count"],
                room["options"],
                f"room:{room.get('game_key') or room_id}",  # rooms that began starting before game keys
                room_clock(room),
                private_code="" if room["public"] else str(room["code"]),
                seated=[(seat["user"], seat["name"]) for seat in room["seats"]],
            )
        except RETRIED_START_ERRORS:
            raise  # the room stays `starting`: a retry (or finish_stuck_starts) finishes it
        except (AppError, RulesError) as exc:  # e.g. a quota, or options these rules no longer take
            await self._reopen(room_id, exc)
            raise
        if room.get("rated"):  # before any move: it cannot have ended yet
            await self.store.mark_rated_game(meta.game_id)
        bots = [
            BotSeat(meta.game_id, i, seat["user"], seat["name"], seat["bot"], seat.get("difficulty"))
            for i, seat in enumerate(room["seats"])
            if seat["bot"]
        ]
        await self.store.request_bots(bots)

        def started(room: Room) -> None:
            if room["status"] == STARTING:
                room["status"] = STARTED
                room["game"] = meta.game_id

        done = await self._change(room_id, started)
        await self.store.done_starting(room_id)
        return done

    async def _reopen(self, room_id: str, error: AppError | RulesError) -> None:
        """A start that cannot succeed: the room is open again, showing why (`start_error`)."""

        def reopen(room: Room) -> None:
            if room["status"] == STARTING:
                room["status"] = OPEN
                room.pop("game_key", None)
                room["start_error"] = f"ERROR_REASON_{error.reason}: {error.message}"[:START_ERROR_CHARS]

        await self._change(room_id, reopen)
        await self.store.done_starting(room_id)
        log.warning("rooms.start_failed", room=room_id, reason=error.reason, error=error.message)

    async def finish_stuck_starts(self, lease_s: float, count: int = 100) -> int:
        """Finish starts whose starter vanished midway (the room stayed `starting` for `lease_s`)."""
        finished = 0
        for room_id in await self.store.stale_starting(int((time.time() - lease_s) * 1000), count):
            row = await self.store.room(room_id)
            if row is None or row.room["status"] != STARTING:
                await self.store.done_starting(room_id)  # started, or the start was refused: nothing to do
                continue
            try:
                await self.finish_start(room_id, row.room)
            except (AppError, RulesError):
                continue  # retried on the next pass, or reopened with the reason in the room
            finished += 1
        return finished

    async def list(self, where: RoomFilter, after: float | None, size: int) -> tuple[list[RoomRow], float | None]:
        """A page of open public rooms (fewest open seats first, then oldest) and the next cursor."""
        if where.kind and where.options:
            room_options.check_filter(where.kind, where.options)
        low = float(where.min_open_seats * LISTING_STEP)
        out: list[RoomRow] = []
        cursor = after
        for _ in range(20):  # bounded scan when an options filter skips many rooms
            rows = await self.store.listed_rooms(where.kind, low, cursor, size)
            if not rows:
                return out, None
            for (room_id, score), row in zip(rows, await self.store.rooms([r for r, _ in rows]), strict=True):
                cursor = score
                # An index entry that disagrees with its room (a crash between the two writes, or a
                # race with a writer): repair it from the room as read and skip it on this page.
                if row is None:
                    await self.store.unlist(room_id, where.kind)
                    continue
                if listing(row.room) != score:
                    await self.store.relist(room_id, row.room["kind"], listing(row.room))
                    continue
                if where.accepts(row.room):
                    out.append(row)
                    if len(out) == size:
                        return out, cursor
            if len(rows) < size:
                return out, None
        return out, cursor

    def watch(
        self,
        room_id: str,
        after_version: int,
        user: str = "",
        admit: Callable[[Room], None] | None = None,
        *,
        join_code: str | None = None,
    ) -> AsyncIterator[tuple[int, Room] | None]:
        """Room versions after `after_version` (0: the current one first); None is a heartbeat
        (lobby/room_watch.py, `watch_room`)."""
        return watch_room(self.store, self.presence, self.heartbeat_s, room_id, after_version, user, admit, join_code)

    async def free_absent(self, grace_s: float, count: int = 100) -> int:
        """Free the seats of players whose WatchRoom stream has been gone for `grace_s`; returns how many."""
        freed = 0
        for room_id, user, handle in await self.store.stale_presence(now_ms(self.clock) - int(grace_s * 1000), count):
            if not await self.store.take_presence(handle):
                continue  # the player came back meanwhile
            row = await self.store.room(room_id)
            if row is None or row.room["status"] != OPEN or seat_of(row.room, user) is None:
                continue
            try:
                await self.leave(room_id, user)
            except AppError:
                continue
            freed += 1
        return freed
