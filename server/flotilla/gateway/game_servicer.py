"""GameService and AuthService: authenticate, convert, delegate to `app.games`; no rules here."""

from __future__ import annotations

import asyncio
import contextlib
import secrets
import time
import uuid
from collections import OrderedDict
from collections.abc import AsyncGenerator, AsyncIterator
from functools import partial
from typing import Any

import grpc
import structlog
from google.rpc import code_pb2, status_pb2

from flotilla import metrics
from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla.app import inputs
from flotilla.app.errors import InvalidRequest, NotSeated, Unauthenticated, WrongJoinCode
from flotilla.app.games import Games, check_request_id, game_id_of
from flotilla.app.host import GameHost, host_for
from flotilla.app.limits import Gate
from flotilla.app.outcome import Outcome
from flotilla.app.watching import Batch
from flotilla.gateway.auth import Principal, Tokens, principal_of
from flotilla.gateway.errors import maps_errors, maps_stream_errors, to_status
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.render import STATE_NAMES, Renderer, clock_from_pb
from flotilla.rules import RulesError, Seat
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.gateway")

Context = grpc.aio.ServicerContext[Any, Any]
MAX_PAGE = 500
PLAY_QUEUE = 8  # Play responses waiting for the transport, per stream


class AuthServicer(game_service_pb2_grpc.AuthServiceServicer):
    """Guest sign-in."""

    def __init__(self, store: RedisStore, tokens: Tokens, limits: CallLimits) -> None:
        self.store = store
        self.tokens = tokens
        self.limits = limits

    @maps_errors
    async def SignInAsGuest(
        self, request: game_service_pb2.SignInAsGuestRequest, context: Context
    ) -> game_service_pb2.SignInAsGuestResponse:
        await self.limits.check("sign_in", context, None)
        name = inputs.display_name(request.display_name)
        user = uuid.uuid4().hex
        await self.store.create_user(user, name, int(time.time() * 1000))
        log.info("auth.guest_signed_in", user=user)
        return game_service_pb2.SignInAsGuestResponse(
            user=f"users/{user}", session_token=self.tokens.session(user, name), expires_in=self.tokens.session_ttl_s
        )


class GameServicer(game_service_pb2_grpc.GameServiceServicer):
    """The game API of one gateway process."""

    def __init__(self, games: Games, tokens: Tokens, renderer: Renderer, limits: CallLimits) -> None:
        self.games = games
        self.tokens = tokens
        self.limits = limits
        self.render = renderer
        self.catch_up = games.catch_up
        self._kinds: OrderedDict[str, tuple[str, str]] = OrderedDict()  # game id -> (kind, rules version)

    # --- helpers -----------------------------------------------------------------------
    def principal(self, context: Context, *, required: bool = True) -> Principal | None:
        return principal_of(self.tokens, context, required=required)

    async def host(self, game_id: str) -> GameHost:
        """The rules host of a game; its kind and rules version never change, so they are cached."""
        known = self._kinds.get(game_id)
        if known is None:
            meta = await self.games.meta(game_id)
            known = (meta.kind, meta.rules_version)
            self._kinds[game_id] = known
            if len(self._kinds) > 100_000:
                self._kinds.popitem(last=False)
        return host_for(*known)

    async def seat(self, principal: Principal | None, game_id: str, *, required: bool) -> Seat | None:
        """The seat the caller acts for in this game (None: spectator, when allowed)."""
        if principal is None:
            if required:
                raise Unauthenticated("acting needs a seat token: 'authorization: Bearer <seat_token>'")
            return None
        if principal.game is not None:
            if principal.game != game_id:
                raise NotSeated(f"this seat token is for games/{principal.game}", game=f"games/{game_id}")
            return Seat(principal.seat or 0)
        seat = await self.games.seat_of(game_id, principal.user)
        if seat is None and required:
            raise NotSeated("you hold no seat in this game; JoinGame first", game=f"games/{game_id}")
        return seat

    async def viewer(self, context: Context, game_id: str, join_code: str) -> Seat | None:
        """The caller's seat, or None for a spectator; a private room's game needs its join code."""
        seat = await self.seat(self.principal(context, required=False), game_id, required=False)
        if seat is None:
            meta = await self.games.meta(game_id)
            given = join_code.strip().upper().encode()
            if meta.private_code and not secrets.compare_digest(given, meta.private_code.encode()):
                raise WrongJoinCode("this game is private: watch it with its room's join code", game=f"games/{game_id}")
        return seat

    # --- unary -------------------------------------------------------------------------
    @maps_errors
    async def CreateGame(
        self, request: game_service_pb2.CreateGameRequest, context: Context
    ) -> game_service_pb2.CreateGameResponse:
        principal = self.principal(context)
        assert principal is not None
        await self.limits.check("create_game", context, principal.user)
        clock = clock_from_pb(request.clock) if request.HasField("clock") else None
        hold = partial(self.limits.limiter.hold, "games", principal.user, still_open=self.games.still_open)
        meta = await self.games.create(
            request.kind,
            request.seat_count,
            inputs.options(request.options),
            check_request_id(request.request_id),
            clock,
            creator=principal.user,
            hold=hold,
        )
        log.info("game.created", game=meta.game_id, kind=meta.kind, seats=meta.seat_count)
        return game_service_pb2.CreateGameResponse(game=self.render.game(meta, {}))

    @maps_errors
    async def JoinGame(
        self, request: game_service_pb2.JoinGameRequest, context: Context
    ) -> game_service_pb2.JoinGameResponse:
        principal = self.principal(context)
        assert principal is not None
        game_id = game_id_of(request.game)
        await self.limits.check("join", context, principal.user)
        wanted = request.seat if request.HasField("seat") else None
        seat, meta = await self.games.join(game_id, principal.user, principal.name, wanted)
        seats = await self.games.store.seats(game_id)
        log.info("game.joined", game=game_id, seat=seat, user=principal.user)
        return game_service_pb2.JoinGameResponse(
            seat=seat,
            seat_token=self.tokens.seat(game_id, seat, principal.user, principal.name),
            game=self.render.game(meta, seats),
        )

    @maps_errors
    async def LeaveGame(
        self, request: game_service_pb2.LeaveGameRequest, context: Context
    ) -> game_service_pb2.LeaveGameResponse:
        game_id = game_id_of(request.game)
        principal = self.principal(context)
        seat = await self.seat(principal, game_id, required=True)
        assert seat is not None
        assert principal is not None
        host = await self.host(game_id)
        request_id = check_request_id(request.request_id)
        gate = self.limits.gate("submit", context, principal.user)
        outcome = await self.games.leave(game_id, host.rules.name, host.rules.version, seat, request_id, gate)
        if not outcome.ok:
            raise outcome.error()
        log.info("game.left", game=game_id, seat=seat)
        return game_service_pb2.LeaveGameResponse(etag=outcome.etag)

    @maps_errors
    async def GetGame(
        self, request: game_service_pb2.GetGameRequest, context: Context
    ) -> game_service_pb2.GetGameResponse:
        game_id = game_id_of(request.game)
        meta = await self.games.meta(game_id)
        return game_service_pb2.GetGameResponse(game=self.render.game(meta, await self.games.store.seats(game_id)))

    @maps_errors
    async def ListGames(
        self, request: game_service_pb2.ListGamesRequest, context: Context
    ) -> game_service_pb2.ListGamesResponse:
        size = request.page_size or 50
        if not 0 < size <= MAX_PAGE:
            raise InvalidRequest(f"page_size must be 1..{MAX_PAGE}", field="page_size")
        cursor = inputs.page_number(request.page_token)
        kind = inputs.kind_filter(request.kind)
        wanted = STATE_NAMES.get(request.state) if request.state else None
        games: list[game_pb2.Game] = []
        for _ in range(20):  # bounded scan when a state filter skips many games
            rows = await self.games.store.list_games(kind, cursor, size)
            if not rows:
                cursor = None
                break
            metas = await self.games.store.metas([g for g, _ in rows])
            for (_game_id, score), meta in zip(rows, metas, strict=True):
                cursor = score
                if meta is not None and not meta.private_code and (wanted is None or meta.status == wanted):
                    games.append(self.render.game(meta, {}))
                    if len(games) == size:
                        break
            if len(games) == size or len(rows) < size:
                if len(rows) < size and len(games) < size:
                    cursor = None
                break
        return game_service_pb2.ListGamesResponse(games=games, next_page_token="" if cursor is None else str(cursor))

    @maps_errors
    async def GetView(
        self, request: game_service_pb2.GetViewRequest, context: Context
    ) -> game_service_pb2.GetViewResponse:
        game_id = game_id_of(request.game)
        viewer = await self.viewer(context, game_id, request.join_code)
        batch = await self.games.view(game_id, viewer)
        response = game_service_pb2.GetViewResponse(view=self.render.view(game_id, batch, viewer))
        if batch.prompt is not None and viewer is not None:
            response.prompt.CopyFrom(self.render.prompt(batch.host, viewer, batch.prompt, batch.version, batch.lineage))
        return response

    async def _submit(
        self,
        game_id: str,
        seat: Seat,
        request: game_service_pb2.SubmitActionRequest,
        gate: Gate,
        deadline_s: float | None = None,
    ) -> tuple[GameHost, Outcome]:
        host = await self.host(game_id)
        inputs.action_size(request.action.ByteSize())
        action = self.render.action_from_pb(host, request.action)
        plain = host.dumps(action)
        inputs.action_size(len(plain))
        request_id = check_request_id(request.request_id)
        structlog.contextvars.bind_contextvars(game=game_id, seat=int(seat), request_id=request_id)
        outcome = await self.games.submit(
            game_id,
            host.rules.name,
            host.rules.version,
            seat,
            plain,
            etag=request.etag,
            request_id=request_id,
            timeout_s=deadline_s,
            gate=gate,
        )
        if not outcome.ok:
            raise outcome.error()
        return host, outcome

    @maps_errors
    async def SubmitAction(
        self, request: game_service_pb2.SubmitActionRequest, context: Context
    ) -> game_service_pb2.SubmitActionResponse:
        game_id = game_id_of(request.game)
        principal = self.principal(context)
        seat = await self.seat(principal, game_id, required=True)
        assert seat is not None
        assert principal is not None
        remaining = context.time_remaining()  # the client's deadline, if it set one
        gate = self.limits.gate("submit", context, principal.user)
        host, outcome = await self._submit(game_id, seat, request, gate, remaining)
        return game_service_pb2.SubmitActionResponse(
            etag=outcome.etag,
            through_event_id=outcome.version,
            events=self.render.events(game_id, host, outcome.events, seat, [outcome.lineage]),
        )

    @maps_errors
    async def GetGameRecord(
        self, request: game_service_pb2.GetGameRecordRequest, context: Context
    ) -> game_service_pb2.GetGameRecordResponse:
        game_id = game_id_of(request.game)
        meta, host, seed, log_rows = await self.games.record(game_id)
        actions = []
        for seat, plain, version, *by in log_rows:
            recorded = game_service_pb2.RecordedAction(
                seat=seat,
                action=self.render.action_to_pb(host, host.codec.from_plain(plain)),
                through_event_id=version,
                by_server=bool(by and by[0]),
            )
            actions.append(recorded)
        return game_service_pb2.GetGameRecordResponse(
            game=self.render.game(meta, await self.games.store.seats(game_id)), seed=f"{seed:032x}", actions=actions
        )

    # --- streams -----------------------------------------------------------------------
    async def update(self, game_id: str, batch: Batch, viewer: Seat | None) -> game_service_pb2.WatchGameResponse:
        """One stream message; catch-up messages are rendered within the catch-up budget."""
        if not batch.catch_up:
            return self.render.watch_response(game_id, batch, viewer)
        async with self.catch_up.slot():
            return self.render.watch_response(game_id, batch, viewer)

    @maps_stream_errors
    async def WatchGame(
        self, request: game_service_pb2.WatchGameRequest, context: Context
    ) -> AsyncIterator[game_service_pb2.WatchGameResponse]:
        game_id = game_id_of(request.game)
        who = self.principal(context, required=False)
        async with self.limits.stream(context, who.user if who else None):
            viewer = await self.viewer(context, game_id, request.join_code)
            structlog.contextvars.bind_contextvars(game=game_id, seat=viewer)
            with metrics.OPEN_STREAMS.labels("WatchGame").track_inprogress():
                async for batch in self.games.watch(game_id, viewer, request.after_event_id, request.after_etag):
                    yield await self.update(game_id, batch, viewer)

    @maps_stream_errors
    async def Play(
        self, request_iterator: AsyncIterator[game_service_pb2.PlayRequest], context: Context
    ) -> AsyncIterator[game_service_pb2.PlayResponse]:
        first = await anext(aiter(request_iterator), None)
        if first is None or first.WhichOneof("kind") != "open":
            raise InvalidRequest("the first Play message must be `open` (game and resume point)", field="open")
        game_id = game_id_of(first.open.game)
        who = self.principal(context, required=False)
        async with self.limits.stream(context, who.user if who else None):
            gate = self.limits.gate("submit", context, who.user if who else None)
            async with contextlib.aclosing(self._play(first.open, game_id, request_iterator, context, gate)) as items:
                async for item in items:
                    yield item

    async def _play(
        self,
        first: game_service_pb2.WatchGameRequest,
        game_id: str,
        request_iterator: AsyncIterator[game_service_pb2.PlayRequest],
        context: Context,
        gate: Gate,
    ) -> AsyncGenerator[game_service_pb2.PlayResponse]:
        seat = await self.viewer(context, game_id, first.join_code)
        # Bounded: the watch waits while the client is not reading (flow control reaches the store reads).
        out: asyncio.Queue[game_service_pb2.PlayResponse | None] = asyncio.Queue(PLAY_QUEUE)
        idle = asyncio.Event()
        idle.set()

        async def watch() -> None:
            try:
                async for batch in self.games.watch(game_id, seat, first.after_event_id, first.after_etag):
                    await out.put(game_service_pb2.PlayResponse(update=await self.update(game_id, batch, seat)))
            finally:
                await out.put(None)

        async def submits() -> None:
            async for message in request_iterator:
                if message.WhichOneof("kind") != "submit":
                    error = InvalidRequest("after `open`, Play messages must be `submit`", field="submit")
                    await out.put(
                        game_service_pb2.PlayResponse(outcome=game_service_pb2.ActionOutcome(status=to_status(error)))
                    )
                    continue
                idle.clear()
                try:
                    await out.put(
                        game_service_pb2.PlayResponse(outcome=await self._outcome(game_id, seat, message.submit, gate))
                    )
                finally:
                    idle.set()

        watcher = asyncio.create_task(watch())
        submitter = asyncio.create_task(submits())
        metrics.OPEN_STREAMS.labels("Play").inc()
        try:
            while True:
                item = await out.get()
                if item is not None:
                    yield item
                    continue
                watcher.result()  # re-raises what ended the watch
                # The game is over: answer a submission still in flight, then close.
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(idle.wait(), self.games.submit_timeout_s)
                while not out.empty():
                    rest = out.get_nowait()
                    if rest is not None:
                        yield rest
                return
        finally:
            metrics.OPEN_STREAMS.labels("Play").dec()
            for task in (watcher, submitter):
                task.cancel()
            for task in (watcher, submitter):
                with contextlib.suppress(asyncio.CancelledError, Exception):
                    await task

    async def _outcome(
        self, game_id: str, seat: Seat | None, request: game_service_pb2.SubmitActionRequest, gate: Gate
    ) -> game_service_pb2.ActionOutcome:
        """One Play submission; errors become the outcome's status, the stream goes on."""
        outcome = game_service_pb2.ActionOutcome(request_id=request.request_id[:128])  # valid ids are shorter
        try:
            if request.game and request.game != f"games/{game_id}":
                raise InvalidRequest("a Play stream acts on the game it was opened for", field="game")
            if seat is None:
                raise NotSeated("you hold no seat in this game; open Play with a seat token")
            _host, accepted = await self._submit(game_id, seat, request, gate)
        except (RulesError, InvalidRequest, NotSeated, Unauthenticated, TimeoutError) as exc:
            outcome.status.CopyFrom(to_status(exc))
            return outcome
        except Exception as exc:
            outcome.status.CopyFrom(to_status(exc))
            return outcome
        outcome.status.CopyFrom(status_pb2.Status(code=code_pb2.OK))
        outcome.etag = accepted.etag
        outcome.through_event_id = accepted.version
        return outcome
