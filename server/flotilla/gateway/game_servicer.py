"""GameService and AuthService: the wire's side only. Each handler reads the caller's token and
the request, hands app values to `app/` (`Games`, `Access` in app/authorize.py, `submit_move`,
`PlaySession`, app/listing.py) or to identity/sessions.py (sign-in, refresh) and renders what
comes back; errors become statuses by gateway/errors.py's table. Who may do what, paging and the
Play session's order live in `app/`."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Sequence
from functools import partial
from typing import Any

import grpc
import structlog

from flotilla import metrics
from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla.app import inputs, listing
from flotilla.app.authorize import Access, Address, StreamGuard, acting_seat
from flotilla.app.errors import InvalidRequest
from flotilla.app.games import Games, check_request_id, game_id_of
from flotilla.app.host import GameHost
from flotilla.app.moves import submit_move
from flotilla.app.outcome import Outcome
from flotilla.app.play_session import PlaySession
from flotilla.app.watching import Answer, Batch
from flotilla.gateway import interceptors
from flotilla.gateway.auth import Principal, Tokens, principal_of, session_of
from flotilla.gateway.errors import Rejected, maps_errors, maps_stream_errors, to_status
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.render import STATE_NAMES, Renderer, clock_from_pb
from flotilla.gateway.update_bytes import UpdateWire, play_update
from flotilla.identity.sessions import Sessions
from flotilla.rules import Seat
from flotilla.store.auth_store import AuthStore
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.gateway")

Context = grpc.aio.ServicerContext[Any, Any]


class AuthServicer(game_service_pb2_grpc.AuthServiceServicer):
    """Sign-in (guests, API keys) and token refresh (identity/sessions.py); an external issuer's
    tokens need no sign-in."""

    def __init__(
        self,
        store: RedisStore,
        tokens: Tokens,
        limits: CallLimits,
        auth: AuthStore,
        *,
        guests: bool = True,
    ) -> None:
        self.limits = limits
        self.sessions = Sessions(store, tokens, auth, guests=guests)

    @maps_errors
    async def SignInAsGuest(
        self, request: game_service_pb2.SignInAsGuestRequest, context: Context
    ) -> game_service_pb2.SignInAsGuestResponse:
        issued = await self.sessions.sign_in_as_guest(
            request.display_name, partial(self.limits.check, "sign_in", context)
        )
        return game_service_pb2.SignInAsGuestResponse(
            user=f"users/{issued.user}", session_token=issued.token, expires_in=issued.expires_in
        )

    @maps_errors
    async def SignInWithApiKey(
        self, request: game_service_pb2.SignInWithApiKeyRequest, context: Context
    ) -> game_service_pb2.SignInWithApiKeyResponse:
        issued = await self.sessions.sign_in_with_api_key(
            request.api_key, partial(self.limits.check, "sign_in", context)
        )
        return game_service_pb2.SignInWithApiKeyResponse(
            user=f"users/{issued.user}", session_token=issued.token, expires_in=issued.expires_in
        )

    @maps_errors
    async def RefreshToken(
        self, request: game_service_pb2.RefreshTokenRequest, context: Context
    ) -> game_service_pb2.RefreshTokenResponse:
        issued = await self.sessions.refresh(request.token, partial(self.limits.check, "refresh", context))
        return game_service_pb2.RefreshTokenResponse(token=issued.token, expires_in=issued.expires_in)


class GameServicer(game_service_pb2_grpc.GameServiceServicer):
    """The game API of one gateway process: proto in, app values to `Games` and `Access`
    (app/authorize.py), proto out; errors by gateway/errors.py's table."""

    def __init__(self, games: Games, tokens: Tokens, renderer: Renderer, limits: CallLimits, auth: AuthStore) -> None:
        self.games = games
        self.tokens = tokens
        self.limits = limits
        self.auth = auth
        self.render = renderer
        self.updates = UpdateWire(renderer)
        self.access = Access(games, auth, limits.limiter)
        self.catch_up = games.catch_up

    async def principal(self, context: Context, *, required: bool = True) -> Principal | None:
        return await principal_of(self.tokens, context, required=required)

    def address(self, context: Context) -> Address:
        """The client's address, found when the app asks (a join code checked)."""
        return partial(self.limits.address, context)

    def decode_action(self, host: GameHost, action: game_pb2.Action) -> Any:
        """A submitted action as the game's rules action (InvalidRequest over its size limit)."""
        inputs.action_size(action.ByteSize())
        return self.render.action_from_pb(host, action)

    # --- unary -------------------------------------------------------------------------
    @maps_errors
    async def CreateGame(
        self, request: game_service_pb2.CreateGameRequest, context: Context
    ) -> game_service_pb2.CreateGameResponse:
        principal = await session_of(self.tokens, context)
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
        principal = await session_of(self.tokens, context)
        game_id = game_id_of(request.game)
        await self.limits.check("join", context, principal.user, bot=principal.is_bot_account)
        wanted = request.seat if request.HasField("seat") else None
        seat, meta = await self.games.join(game_id, principal.user, principal.name, wanted, principal.kind)
        seats = await self.games.still_seated(game_id, seat, principal.user)  # one that left gets no token
        log.info("game.joined", game=game_id, seat=seat, user=principal.user)
        return game_service_pb2.JoinGameResponse(
            seat=seat,
            seat_token=self.tokens.seat(game_id, seat, principal.user, principal.name, api_key=principal.api_key),
            game=self.render.game(meta, seats),
        )

    @maps_errors
    async def LeaveGame(
        self, request: game_service_pb2.LeaveGameRequest, context: Context
    ) -> game_service_pb2.LeaveGameResponse:
        game_id = game_id_of(request.game)
        principal = await self.principal(context)
        seat = acting_seat(principal, game_id)
        request_id = check_request_id(request.request_id)
        gate = self.limits.submit_gate(context, principal)
        outcome = await self.games.leave(game_id, seat, request_id, gate)
        if not outcome.ok:
            raise Rejected(outcome)
        await self.auth.revoke_seat(game_id, seat, self.tokens.lifetimes.seat_s)
        log.info("game.left", game=game_id, seat=seat)
        return game_service_pb2.LeaveGameResponse(etag=outcome.etag)

    @maps_errors
    async def GetGame(
        self, request: game_service_pb2.GetGameRequest, context: Context
    ) -> game_service_pb2.GetGameResponse:
        game_id = game_id_of(request.game)
        meta = await self.games.meta(game_id)
        principal = await self.principal(context, required=False)
        await self.access.shown(principal, meta, request.join_code, self.address(context))
        return game_service_pb2.GetGameResponse(game=self.render.game(meta, await self.games.seats(game_id)))

    @maps_errors
    async def ListGames(
        self, request: game_service_pb2.ListGamesRequest, context: Context
    ) -> game_service_pb2.ListGamesResponse:
        size = listing.page_size(request.page_size)
        cursor = inputs.page_number(request.page_token)
        kind = inputs.kind_filter(request.kind)
        status = STATE_NAMES.get(request.state) if request.state else None
        metas, cursor = await self.games.listed(kind, cursor, size, status)
        return game_service_pb2.ListGamesResponse(
            games=[self.render.game(meta, {}) for meta in metas],
            next_page_token="" if cursor is None else str(cursor),
        )

    @maps_errors
    async def GetView(
        self, request: game_service_pb2.GetViewRequest, context: Context
    ) -> game_service_pb2.GetViewResponse:
        game_id = game_id_of(request.game)
        principal = await self.principal(context, required=False)
        viewer = await self.access.viewer(principal, game_id, request.join_code, self.address(context))
        batch = await self.games.view(game_id, viewer)
        response = game_service_pb2.GetViewResponse(view=self.render.view(game_id, batch, viewer))
        if (prompt := self.render.batch_prompt(batch, viewer)) is not None:
            response.prompt.CopyFrom(prompt)
        return response

    @maps_errors
    async def SubmitAction(
        self, request: game_service_pb2.SubmitActionRequest, context: Context
    ) -> game_service_pb2.SubmitActionResponse:
        game_id = game_id_of(request.game)
        principal = await self.principal(context)
        seat = acting_seat(principal, game_id)
        remaining = context.time_remaining()  # the client's deadline, if it set one
        gate = self.limits.submit_gate(context, principal)
        host, outcome = await submit_move(self.games, game_id, seat, request, self.decode_action, gate, remaining)
        if not outcome.ok:
            raise Rejected(outcome)
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
        principal = await self.principal(context, required=False)
        await self.access.shown(principal, await self.games.meta(game_id), request.join_code, self.address(context))
        meta, host, seed, log_rows = await self.games.record(game_id)
        actions = [
            game_service_pb2.RecordedAction(
                seat=row.seat,
                action=self.render.action_to_pb(host, host.codec.from_plain(row.action)),
                through_event_id=row.version,
                by_server=bool(row.by),
            )
            for row in log_rows
        ]
        return game_service_pb2.GetGameRecordResponse(
            game=self.render.game(meta, await self.games.seats(game_id)), seed=f"{seed:032x}", actions=actions
        )

    @maps_errors
    async def GetViewAt(
        self, request: game_service_pb2.GetViewAtRequest, context: Context
    ) -> game_service_pb2.GetViewAtResponse:
        game_id = game_id_of(request.game)
        principal = await self.principal(context, required=False)
        await self.limits.check("view_at", context, principal.user if principal else None)
        viewer = await self.access.viewer(principal, game_id, request.join_code, self.address(context))
        batch = await self.games.view_at(game_id, request.event_id, viewer)
        return game_service_pb2.GetViewAtResponse(view=self.render.view(game_id, batch, viewer))

    # --- streams -----------------------------------------------------------------------
    @maps_stream_errors
    async def WatchGame(
        self, request: game_service_pb2.WatchGameRequest, context: Context
    ) -> AsyncIterator[bytes]:  # serialized WatchGameResponses (gateway/update_bytes.py)
        game_id = game_id_of(request.game)
        principal = await self.principal(context, required=False)
        bot = principal is not None and principal.is_bot_account
        async with self.limits.stream(context, principal.user if principal else None, bot=bot):
            viewer = await self.access.viewer(principal, game_id, request.join_code, self.address(context))
            structlog.contextvars.bind_contextvars(seat=viewer)
            guard = StreamGuard(principal, viewer)
            stream = GameStream(self, game_id, viewer)
            with metrics.OPEN_STREAMS.labels("WatchGame").track_inprogress():
                # games.watch's parts in this frame: one generator less per open stream
                watching = await self.games.watching(game_id, viewer, request.after_event_id, request.after_etag)
                async with watching.subscribe() as live:
                    async for batch in watching.batches(live):
                        guard.check(batch)
                        yield await stream.update(batch)

    @maps_stream_errors
    async def Play(
        self, request_iterator: AsyncIterator[game_service_pb2.PlayRequest], context: Context
    ) -> AsyncIterator[game_service_pb2.PlayResponse | bytes]:  # updates serialized (gateway/update_bytes.py)
        first = await anext(aiter(request_iterator), None)
        if first is None or first.WhichOneof("kind") != "open":
            raise InvalidRequest("the first Play message must be `open` (game and resume point)", field="open")
        opened = first.open
        game_id = game_id_of(opened.game)
        interceptors.bind(opened)
        principal = await self.principal(context, required=False)
        user = principal.user if principal else None
        address = self.limits.address(context)  # once per stream: the stream quota and the submit gate
        async with self.limits.stream(
            context, user, bot=principal is not None and principal.is_bot_account, address=address
        ):
            gate = self.limits.submit_gate(context, principal, address)
            seat = await self.access.viewer(principal, game_id, opened.join_code, lambda: address)
            session = PlaySession(self.games, game_id, seat, principal, gate, GameStream(self, game_id, seat))
            async with contextlib.aclosing(
                session.run(request_iterator, opened.after_event_id, opened.after_etag)
            ) as items:
                async for item in items:
                    yield item


class GameStream:
    """The messages of one game stream for one viewer (WatchGame's, and Play's: a PlayWire of
    app/play_session.py)."""

    __slots__ = ("catch_up", "decode", "game_id", "seat", "updates")

    def __init__(self, servicer: GameServicer, game_id: str, seat: Seat | None) -> None:
        self.game_id = game_id
        self.seat = seat
        self.updates = servicer.updates
        self.catch_up = servicer.catch_up
        self.decode = servicer.decode_action

    async def update(self, batch: Batch) -> bytes:
        """One stream message, serialized; catch-up messages are rendered within the catch-up budget."""
        if not batch.catch_up:
            return self.updates.update(self.game_id, batch, self.seat)
        async with self.catch_up.slot():
            return self.updates.update(self.game_id, batch, self.seat)

    @staticmethod
    def move(message: game_service_pb2.PlayRequest) -> game_service_pb2.SubmitActionRequest:
        if message.WhichOneof("kind") != "submit":
            raise InvalidRequest("after `open`, Play messages must be `submit`", field="submit")
        return message.submit

    @staticmethod
    def answered(update: bytes, answers: Sequence[Answer]) -> game_service_pb2.PlayResponse | bytes:
        return play_update(update, answers)

    @staticmethod
    def outcome(request_id: str, result: Outcome | Exception) -> game_service_pb2.PlayResponse:
        outcome = game_service_pb2.ActionOutcome(request_id=request_id)
        if isinstance(result, Exception):
            outcome.status.CopyFrom(to_status(result))
        elif not result.ok:
            outcome.status.CopyFrom(to_status(Rejected(result)))
        else:
            outcome.status.SetInParent()  # OK: code 0
            outcome.etag = result.etag
            outcome.through_event_id = result.version
        return game_service_pb2.PlayResponse(outcome=outcome)
