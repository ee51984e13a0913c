"""GameService and AuthService: authenticate, convert, delegate to `app.games`; no rules here."""

from __future__ import annotations

import asyncio
import contextlib
import time
import uuid
from collections.abc import AsyncGenerator, AsyncIterator
from functools import partial
from typing import Any

import grpc
import structlog
from google.rpc import code_pb2, status_pb2

from flotilla import metrics
from flotilla.api.game.v1 import game_pb2, game_service_pb2, game_service_pb2_grpc
from flotilla.app import inputs, join_codes
from flotilla.app.errors import (
    ApiKeyInvalid,
    GuestsDisabled,
    InvalidRequest,
    NotSeated,
    SeatTokenRequired,
    TokenExpired,
    TokenNotRefreshable,
    TokenRevoked,
    Unauthenticated,
    WrongJoinCode,
)
from flotilla.app.games import Games, check_request_id, game_id_of, still_seated
from flotilla.app.host import GameHost
from flotilla.app.host_events import ABSENT, LEFT
from flotilla.app.limits import Gate
from flotilla.app.outcome import Outcome
from flotilla.app.watching import Batch
from flotilla.bots import POLICIES
from flotilla.gateway import interceptors
from flotilla.gateway.auth import Principal, Tokens, principal_of, session_of
from flotilla.gateway.errors import Rejected, maps_errors, maps_stream_errors, to_status
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.render import STATE_NAMES, Renderer, clock_from_pb
from flotilla.identity.principal import BOT_ACCOUNT, GUEST
from flotilla.rules import RulesError, Seat
from flotilla.store.auth_store import AuthStore
from flotilla.store.meta import GameMeta
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.gateway")

Context = grpc.aio.ServicerContext[Any, Any]
MAX_PAGE = 500
PLAY_QUEUE = 8  # Play responses waiting for the transport, per stream


class StreamGuard:
    """Ends a stream once the token it was opened with expires (resume it with a refreshed one), and a
    seat token's stream after the batch that tells its seat left (its tokens are revoked)."""

    __slots__ = ("left", "principal", "seat")

    def __init__(self, principal: Principal | None, seat: Seat | None) -> None:
        self.principal = principal
        self.seat = seat if principal is not None and principal.is_seat else None
        self.left = False

    def check(self, batch: Batch) -> None:
        """Before sending `batch`."""
        if self.principal is not None and self.principal.expires <= time.time():
            raise TokenExpired("the token this stream was opened with expired; resume with a refreshed token")
        if self.left:
            raise TokenRevoked("this seat left the game: its tokens are revoked")
        if self.seat is not None:
            self.left = any(
                row.tag == ABSENT and row.payload.get("seat") == self.seat and row.payload.get("reason") == LEFT
                for row in batch.events
            )


class AuthServicer(game_service_pb2_grpc.AuthServiceServicer):
    """Sign-in (guests, API keys) and token refresh; an external issuer's tokens need no sign-in."""

    def __init__(
        self,
        store: RedisStore,
        tokens: Tokens,
        limits: CallLimits,
        auth: AuthStore,
        *,
        guests: bool = True,
    ) -> None:
        self.store = store
        self.tokens = tokens
        self.limits = limits
        self.auth = auth
        self.guests = guests

    @maps_errors
    async def SignInAsGuest(
        self, request: game_service_pb2.SignInAsGuestRequest, context: Context
    ) -> game_service_pb2.SignInAsGuestResponse:
        if not self.guests:
            raise GuestsDisabled("guest sign-in is off here: use the operator's identity provider or an API key")
        await self.limits.check("sign_in", context, None)
        name = inputs.person_name(request.display_name, POLICIES)
        user = uuid.uuid4().hex
        await self.store.create_user(user, name, int(time.time() * 1000), kind=GUEST)
        log.info("auth.guest_signed_in", user=user)
        return game_service_pb2.SignInAsGuestResponse(
            user=f"users/{user}", session_token=self.tokens.session(user, name), expires_in=self.tokens.session_ttl_s
        )

    @maps_errors
    async def SignInWithApiKey(
        self, request: game_service_pb2.SignInWithApiKeyRequest, context: Context
    ) -> game_service_pb2.SignInWithApiKeyResponse:
        await self.limits.check("sign_in", context, None)
        key = await self.auth.check_api_key(request.api_key)
        if key is None:
            raise ApiKeyInvalid("unknown or revoked API key (keys look like flk_<id>_<secret>)")
        name = inputs.bot_account_name(key.name, POLICIES)
        await self.store.create_user(key.user, name, int(time.time() * 1000), kind=BOT_ACCOUNT)
        log.info("auth.api_key_signed_in", user=key.user, api_key=key.key_id)
        return game_service_pb2.SignInWithApiKeyResponse(
            user=f"users/{key.user}",
            session_token=self.tokens.session(key.user, name, api_key=key.key_id),
            expires_in=self.tokens.session_ttl_for(key.key_id),
        )

    @maps_errors
    async def RefreshToken(
        self, request: game_service_pb2.RefreshTokenRequest, context: Context
    ) -> game_service_pb2.RefreshTokenResponse:
        who = await self.tokens.verify(request.token)
        await self.limits.check("refresh", context, who.user)
        if who.external:
            raise TokenNotRefreshable("an identity provider's token is refreshed with that provider")
        if who.api_key and await self.auth.api_key(who.api_key) is None:
            raise ApiKeyInvalid("the API key of this token was revoked")
        if not who.api_key and not self.guests:
            raise GuestsDisabled("guest sessions are off here: sign in with the operator's identity provider")
        if who.game is None or who.seat is None:
            if not who.api_key:
                await self.store.keep_user(who.user)
            token = self.tokens.session(who.user, who.name, api_key=who.api_key)
            ttl = self.tokens.session_ttl_for(who.api_key)
        else:
            await self._still_seated(who.game, who.seat, who.user)
            token = self.tokens.seat(who.game, who.seat, who.user, who.name, api_key=who.api_key)
            ttl = self.tokens.seat_ttl_for(who.api_key)
        return game_service_pb2.RefreshTokenResponse(token=token, expires_in=ttl)

    async def _still_seated(self, game_id: str, seat: int, user: str) -> None:
        """A seat token is refreshed only while its user holds the seat: taken, not left, not absent."""
        if await self.auth.seat_revoked(game_id, seat):
            raise TokenRevoked("this seat left the game: its tokens are revoked", game=f"games/{game_id}")
        await still_seated(self.store, game_id, seat, user)


class GameServicer(game_service_pb2_grpc.GameServiceServicer):
    """The game API of one gateway process."""

    def __init__(self, games: Games, tokens: Tokens, renderer: Renderer, limits: CallLimits, auth: AuthStore) -> None:
        self.games = games
        self.tokens = tokens
        self.limits = limits
        self.auth = auth
        self.render = renderer
        self.catch_up = games.catch_up

    # --- helpers -----------------------------------------------------------------------
    async def principal(self, context: Context, *, required: bool = True) -> Principal | None:
        return await principal_of(self.tokens, context, required=required)

    async def session(self, context: Context) -> Principal:
        return await session_of(self.tokens, context)

    @staticmethod
    def acting_seat(principal: Principal | None, game_id: str) -> Seat:
        """The seat a call acts for: only that seat's token may act (a session token only reads)."""
        if principal is None:
            raise Unauthenticated("acting needs a seat token: 'authorization: Bearer <seat_token>'")
        if principal.game is None or principal.seat is None:
            raise SeatTokenRequired(
                "acting needs this seat's token (JoinGame's seat_token); a session token only reads",
                game=f"games/{game_id}",
            )
        if principal.game != game_id:
            raise NotSeated(f"this seat token is for games/{principal.game}", game=f"games/{game_id}")
        return Seat(principal.seat)

    async def viewing_seat(self, principal: Principal | None, game_id: str) -> Seat | None:
        """The seat whose view the caller reads (None: spectator). A seat token reads its seat (refused
        once the seat left: its tokens are revoked); a session token reads the seat its user holds."""
        if principal is None:
            return None
        if principal.game is not None and principal.seat is not None:
            if principal.game != game_id:
                raise NotSeated(f"this seat token is for games/{principal.game}", game=f"games/{game_id}")
            if await self.auth.seat_revoked(game_id, principal.seat):
                raise TokenRevoked("this seat left the game: its tokens are revoked", game=f"games/{game_id}")
            return Seat(principal.seat)
        seat = await self.games.seat_of(game_id, principal.user)
        if seat is not None and await self.auth.seat_revoked(game_id, seat):
            return None  # the user left that seat: a spectator now
        return seat

    async def viewer(self, context: Context, principal: Principal | None, game_id: str, join_code: str) -> Seat | None:
        """The caller's seat, or None for a spectator; a private room's game needs its join code."""
        seat = await self.viewing_seat(principal, game_id)
        if seat is None:
            await self.check_code(context, principal, await self.games.meta(game_id), join_code)
        return seat

    async def shown(self, context: Context, principal: Principal | None, meta: GameMeta, join_code: str) -> None:
        """Refuse a private room's game to a caller without a seat in it or the room's code."""
        if meta.private_code and await self.viewing_seat(principal, meta.game_id) is None:
            await self.check_code(context, principal, meta, join_code)

    async def check_code(self, context: Context, principal: Principal | None, meta: GameMeta, join_code: str) -> None:
        """A spectator of a private room's game shows the room's code; a wrong one counts against
        the code_guess limits (a locked caller is refused whatever its code)."""
        if not meta.private_code:
            return
        async with self.limits.guessing(context, principal.user if principal else None, join_code):
            if not join_codes.matches(join_code, meta.private_code):
                raise WrongJoinCode("this game is private: show its room's join code", game=f"games/{meta.game_id}")

    # --- unary -------------------------------------------------------------------------
    @maps_errors
    async def CreateGame(
        self, request: game_service_pb2.CreateGameRequest, context: Context
    ) -> game_service_pb2.CreateGameResponse:
        principal = await self.session(context)
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
        principal = await self.session(context)
        game_id = game_id_of(request.game)
        await self.limits.check("join", context, principal.user, bot=principal.is_bot_account)
        wanted = request.seat if request.HasField("seat") else None
        seat, meta = await self.games.join(game_id, principal.user, principal.name, wanted, principal.kind)
        seats = await still_seated(self.games.store, game_id, seat, principal.user)  # one that left gets no token
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
        seat = self.acting_seat(principal, game_id)
        assert principal is not None
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
        await self.shown(context, await self.principal(context, required=False), meta, request.join_code)
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
        viewer = await self.viewer(context, await self.principal(context, required=False), game_id, request.join_code)
        batch = await self.games.view(game_id, viewer)
        response = game_service_pb2.GetViewResponse(view=self.render.view(game_id, batch, viewer))
        if (prompt := self.render.batch_prompt(batch, viewer)) is not None:
            response.prompt.CopyFrom(prompt)
        return response

    async def _submit(
        self,
        game_id: str,
        seat: Seat,
        request: game_service_pb2.SubmitActionRequest,
        gate: Gate,
        deadline_s: float | None = None,
        *,
        request_id: str | None = None,
        follows: bool = False,
    ) -> tuple[GameHost, Outcome]:
        """Queue the move and wait for its outcome: all of it within FLOTILLA_SUBMIT_TIMEOUT (or
        the client's `deadline_s`, if shorter), the game's record read first included (a Redis
        cut off never answers it), else DEADLINE_EXCEEDED, retried with the same request id."""
        bound = self.games.submit_timeout_s if deadline_s is None else min(deadline_s, self.games.submit_timeout_s)
        started = time.monotonic()
        host = await asyncio.wait_for(self.games.host(game_id), bound)
        inputs.action_size(request.action.ByteSize())
        action = self.render.action_from_pb(host, request.action)
        request_id = request_id or check_request_id(request.request_id)
        structlog.contextvars.bind_contextvars(seat=int(seat), request_id=request_id)  # game: the interceptor
        outcome = await self.games.submit(
            game_id,
            seat,
            action,
            etag=request.etag,
            request_id=request_id,
            timeout_s=bound - (time.monotonic() - started),
            gate=gate,
            follows=follows,
        )
        if not outcome.ok:
            raise Rejected(outcome)
        return host, outcome

    @maps_errors
    async def SubmitAction(
        self, request: game_service_pb2.SubmitActionRequest, context: Context
    ) -> game_service_pb2.SubmitActionResponse:
        game_id = game_id_of(request.game)
        principal = await self.principal(context)
        seat = self.acting_seat(principal, game_id)
        assert principal is not None
        remaining = context.time_remaining()  # the client's deadline, if it set one
        gate = self.limits.submit_gate(context, principal)
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
        principal = await self.principal(context, required=False)
        await self.shown(context, principal, await self.games.meta(game_id), request.join_code)
        meta, host, seed, log_rows = await self.games.record(game_id)
        actions = []
        for row in log_rows:
            recorded = game_service_pb2.RecordedAction(
                seat=row.seat,
                action=self.render.action_to_pb(host, host.codec.from_plain(row.action)),
                through_event_id=row.version,
                by_server=bool(row.by),
            )
            actions.append(recorded)
        return game_service_pb2.GetGameRecordResponse(
            game=self.render.game(meta, await self.games.store.seats(game_id)), seed=f"{seed:032x}", actions=actions
        )

    @maps_errors
    async def GetViewAt(
        self, request: game_service_pb2.GetViewAtRequest, context: Context
    ) -> game_service_pb2.GetViewAtResponse:
        game_id = game_id_of(request.game)
        principal = await self.principal(context, required=False)
        await self.limits.check("view_at", context, principal.user if principal else None)
        viewer = await self.viewer(context, principal, game_id, request.join_code)
        batch = await self.games.view_at(game_id, request.event_id, viewer)
        return game_service_pb2.GetViewAtResponse(view=self.render.view(game_id, batch, viewer))

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
        principal = await self.principal(context, required=False)
        bot = principal is not None and principal.is_bot_account
        async with self.limits.stream(context, principal.user if principal else None, bot=bot):
            viewer = await self.viewer(context, principal, game_id, request.join_code)
            structlog.contextvars.bind_contextvars(seat=viewer)
            guard = StreamGuard(principal, viewer)
            with metrics.OPEN_STREAMS.labels("WatchGame").track_inprogress():
                async for batch in self.games.watch(game_id, viewer, request.after_event_id, request.after_etag):
                    guard.check(batch)
                    yield await self.update(game_id, batch, viewer)

    @maps_stream_errors
    async def Play(
        self, request_iterator: AsyncIterator[game_service_pb2.PlayRequest], context: Context
    ) -> AsyncIterator[game_service_pb2.PlayResponse]:
        first = await anext(aiter(request_iterator), None)
        if first is None or first.WhichOneof("kind") != "open":
            raise InvalidRequest("the first Play message must be `open` (game and resume point)", field="open")
        game_id = game_id_of(first.open.game)
        interceptors.bind(first.open)
        principal = await self.principal(context, required=False)
        user = principal.user if principal else None
        async with self.limits.stream(context, user, bot=principal is not None and principal.is_bot_account):
            gate = self.limits.submit_gate(context, principal)
            async with contextlib.aclosing(
                self._play(context, first.open, game_id, request_iterator, principal, gate)
            ) as items:
                async for item in items:
                    yield item

    async def _play(
        self,
        context: Context,
        first: game_service_pb2.WatchGameRequest,
        game_id: str,
        request_iterator: AsyncIterator[game_service_pb2.PlayRequest],
        principal: Principal | None,
        gate: Gate,
    ) -> AsyncGenerator[game_service_pb2.PlayResponse]:
        seat = await self.viewer(context, principal, game_id, first.join_code)
        # Bounded: the watch waits while the client is not reading (flow control reaches the store reads).
        out: asyncio.Queue[game_service_pb2.PlayResponse | None] = asyncio.Queue(PLAY_QUEUE)
        idle = asyncio.Event()
        idle.set()
        waiting: set[str] = set()  # request ids submitted on this stream and not answered yet

        guard = StreamGuard(principal, seat)

        async def watch() -> None:
            try:
                async for batch in self.games.watch(game_id, seat, first.after_event_id, first.after_etag):
                    guard.check(batch)
                    update = await self.update(game_id, batch, seat)
                    mine = [a for a in batch.answers if a.seat == seat and a.request_id in waiting]
                    update.answered_request_ids.extend(a.request_id for a in mine)
                    await out.put(game_service_pb2.PlayResponse(update=update))
                    self.games.answer(game_id, mine)  # after the update: it tells the client first
                    if batch.view is not None and waiting and seat is not None:
                        await self.games.answer_from_store(game_id, seat, sorted(waiting))
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
                    outcome = await self._outcome(game_id, principal, message.submit, gate, waiting)
                    if outcome is not None:
                        await out.put(game_service_pb2.PlayResponse(outcome=outcome))
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
        self,
        game_id: str,
        principal: Principal | None,
        request: game_service_pb2.SubmitActionRequest,
        gate: Gate,
        waiting: set[str],
    ) -> game_service_pb2.ActionOutcome | None:
        """One Play submission; errors become the outcome's status, the stream goes on. None when
        the update that carries the action's events answered it (`waiting`: the ids in flight)."""
        outcome = game_service_pb2.ActionOutcome(request_id=request.request_id[:128])  # valid ids are shorter
        request_id = request.request_id
        try:
            if request.game and request.game != f"games/{game_id}":
                raise InvalidRequest("a Play stream acts on the game it was opened for", field="game")
            if principal is not None and principal.expires <= time.time():
                raise TokenExpired("the token this stream was opened with expired; reopen it with a refreshed one")
            seat = self.acting_seat(principal, game_id)
            request_id = check_request_id(request_id)
            waiting.add(request_id)
            try:
                _host, accepted = await self._submit(game_id, seat, request, gate, request_id=request_id, follows=True)
            finally:
                waiting.discard(request_id)
        except (RulesError, InvalidRequest, NotSeated, Unauthenticated, TimeoutError) as exc:
            outcome.status.CopyFrom(to_status(exc))
            return outcome
        except Exception as exc:
            outcome.status.CopyFrom(to_status(exc))
            return outcome
        if accepted.announced:
            return None
        outcome.request_id = request_id
        outcome.status.CopyFrom(status_pb2.Status(code=code_pb2.OK))
        outcome.etag = accepted.etag
        outcome.through_event_id = accepted.version
        return outcome
