"""The gateway process: one grpc.aio server with the game, auth, lobby, matchmaking, rating, catalog,
health and reflection services (registered by gateway/services.py: malformed requests are refused),
and, with FLOTILLA_BROWSER_BIND, the browser listener forwarding to it (gateway/browser.py)."""

from __future__ import annotations

import asyncio
import contextlib
import signal
import socket
from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

import grpc
import structlog
from google.protobuf.descriptor import ServiceDescriptor
from grpc_health.v1 import health, health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection, reflection_pb2

from flotilla import metrics
from flotilla.api.catalog.v1 import catalog_service_pb2
from flotilla.api.game.v1 import game_service_pb2
from flotilla.api.lobby.v1 import lobby_service_pb2
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2
from flotilla.app.games import Games
from flotilla.app.inbox import Inbox
from flotilla.app.limits import Limiter, parse_limits
from flotilla.app.pacing import Budget
from flotilla.app.stream_leases import StreamLeases
from flotilla.gateway.admission import Admission, Limits, core_options, core_server_ids
from flotilla.gateway.auth import Tokens
from flotilla.gateway.browser import Bridge, Browser, listen, start_browser
from flotilla.gateway.catalog_servicer import CatalogServicer
from flotilla.gateway.game_servicer import AuthServicer, GameServicer
from flotilla.gateway.interceptors import CallContext
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.lobby_servicer import LobbyServicer
from flotilla.gateway.matchmaking_servicer import MatchmakingServicer, RatingServicer
from flotilla.gateway.peers import forwarded_header, trusted_networks
from flotilla.gateway.render import Renderer
from flotilla.gateway.services import add_services
from flotilla.gateway.slow_requests import Timeouts
from flotilla.gateway.tls import CertificateFiles
from flotilla.gateway.webconfig import PageConfig
from flotilla.gc_policy import GcPolicy
from flotilla.identity.configure import close_tokens, start_tokens
from flotilla.lobby.parties import Parties
from flotilla.lobby.ratings import Ratings
from flotilla.lobby.rooms import Rooms
from flotilla.lobby.tickets import Tickets
from flotilla.loop_lag import watch_loop
from flotilla.settings import Settings
from flotilla.store.auth_store import AuthStore
from flotilla.store.feeds import Feeds
from flotilla.store.lobby_store import LobbyStore
from flotilla.store.party_store import PartyStore
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.gateway")


def _service(module: ModuleType, name: str) -> ServiceDescriptor:
    service: ServiceDescriptor = module.DESCRIPTOR.services_by_name[name]
    return service


BROWSER_SERVICES = (  # served to browsers too (gateway/browser.py), with grpc.health.v1
    (game_service_pb2, "GameService"),
    (game_service_pb2, "AuthService"),
    (lobby_service_pb2, "LobbyService"),
    (matchmaking_service_pb2, "MatchmakingService"),
    (matchmaking_service_pb2, "RatingService"),
    (catalog_service_pb2, "CatalogService"),
)
SERVICES = tuple(_service(module, name).full_name for module, name in BROWSER_SERVICES)

# Keepalive: ping idle connections so dead clients and proxies are noticed. Clients may ping every
# `MIN_CLIENT_PING_MS` (the SDKs ping every 10 s: half their interval leaves room for timer
# jitter); a client pinging more often than that gets GOAWAY after grpc core's 2 strikes, so no
# client can ping-flood a gateway (grpc core's name for this option's argument is
# GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS).
MIN_CLIENT_PING_MS = 5_000
SERVER_OPTIONS = [
    ("grpc.keepalive_time_ms", 30_000),
    ("grpc.keepalive_timeout_ms", 10_000),
    ("grpc.http2.min_ping_interval_without_data_ms", MIN_CLIENT_PING_MS),
    ("grpc.keepalive_permit_without_calls", 1),
    ("grpc.max_receive_message_length", 4 * 1024 * 1024),
]


class BindError(OSError):
    """The gateway's port (or its health listener's) cannot be bound."""


@dataclass
class Gateway:
    """A started gateway: the server, its port and the pieces to stop."""

    server: grpc.aio.Server
    port: int
    store: RedisStore
    inbox: Inbox
    feeds: Feeds
    health: health.aio.HealthServicer
    admission: Admission
    lobby: LobbyStore
    tokens: Tokens
    limits: CallLimits
    tls: CertificateFiles | None = None
    health_server: grpc.aio.Server | None = None  # the plaintext health listener (TLS gateways)
    health_port: int | None = None
    browser: Browser | None = None  # the browser listener (FLOTILLA_BROWSER_BIND)

    async def stop(self, grace: float = 5.0) -> None:
        """Stop taking calls, let running ones finish for `grace` seconds, release Redis."""
        for service in ("", *SERVICES):
            await self.health.set(service, health_pb2.HealthCheckResponse.NOT_SERVING)
        if self.browser is not None:
            self.browser.stop_serving.set()  # no new browser connections; its calls end with the server's
        await self.server.stop(grace)
        if self.browser is not None:
            await self.browser.stop(grace=1.0)
        if self.health_server is not None:
            await self.health_server.stop(0)
        await _release(self.admission, self.limits, self.lobby, self.feeds, self.inbox, self.tokens, self.store)


@dataclass
class _App:
    """The app's pieces a gateway serves, built over one store before any port is bound."""

    store: RedisStore
    tokens: Tokens
    auth: AuthStore
    inbox: Inbox
    feeds: Feeds
    games: Games
    limits: CallLimits
    admission: Admission
    lobby: LobbyStore
    ratings: Ratings
    rooms: Rooms
    tickets: Tickets

    async def close(self) -> None:
        """Release what the pieces hold (Redis connections, the inbox, token key caches)."""
        await _release(self.admission, self.limits, self.lobby, self.feeds, self.inbox, self.tokens, self.store)


@dataclass
class _Listeners:
    """Where a gateway listens: its port, and the browser bridge and health listener if any."""

    port: int
    bridge: Bridge | None = None
    browser_socket: socket.socket | None = None
    health_server: grpc.aio.Server | None = None
    health_port: int | None = None


async def start_gateway(settings: Settings, store: RedisStore | None = None) -> Gateway:
    """Build and start a gateway bound to `settings.bind` (port 0 picks a free one)."""
    page = PageConfig.from_settings(settings) if settings.browser_bind != "off" else None  # ValueError: bad web sign-in
    metrics.watch_gc()
    app = await _build_app(settings, store or RedisStore.from_settings(settings))
    known_servers = core_server_ids()
    server = grpc.aio.server(  # the call context first: it counts refused calls too
        interceptors=[CallContext(), app.admission],
        options=[*SERVER_OPTIONS, *core_options(settings), bind_option(settings)],
    )
    health_servicer = health.aio.HealthServicer()
    _add_services(server, app, health_servicer, settings)
    tls = CertificateFiles.from_settings(settings)
    try:
        listeners = _listen(settings, server, tls, app.limits, health_servicer)
    except BindError:  # release what started, so the process exits with the error instead of hanging
        await app.close()
        raise
    if listeners.health_server is not None:
        await listeners.health_server.start()
    await server.start()
    browser = None
    if listeners.bridge is not None and listeners.browser_socket is not None:
        browser = await start_browser(
            listeners.browser_socket,
            listeners.bridge,
            (*(_service(m, n) for m, n in BROWSER_SERVICES), _service(health_pb2, "Health")),
            settings.browser_cors_origins,
            tls,
            page,
            Timeouts(settings.browser_header_timeout_s, settings.browser_body_timeout_s),
        )
    app.admission.watch_queue(max(core_server_ids() - known_servers, default=None))
    for service in ("", *SERVICES):
        await health_servicer.set(service, health_pb2.HealthCheckResponse.SERVING)
    _log_started(settings, listeners, tls, browser)
    return Gateway(
        server,
        listeners.port,
        app.store,
        app.inbox,
        app.feeds,
        health_servicer,
        app.admission,
        app.lobby,
        app.tokens,
        app.limits,
        tls,
        listeners.health_server,
        listeners.health_port,
        browser,
    )


async def _build_app(settings: Settings, store: RedisStore) -> _App:
    """Tokens, the inbox, feeds, games, limits, admission, rooms, ratings and tickets over `store`."""
    tokens = await start_tokens(settings, store)
    inbox = Inbox(store, ttl_s=settings.inbox_ttl_s)
    await inbox.start()
    feeds = Feeds(
        store, block_ms=int(settings.heartbeat_s * 1000), check_s=settings.heartbeat_s, lost_s=settings.store_lost_s
    )
    games = Games(
        store,
        inbox,
        feeds,
        shards=settings.shards,
        submit_timeout_s=settings.submit_timeout_s,
        heartbeat_s=settings.heartbeat_s,
        catch_up=Budget(settings.catch_up_share),
    )
    rows = parse_limits(settings.limits)
    limits = CallLimits(
        Limiter(store.limits, rows, held_ttl_s=settings.finished_ttl_s),
        StreamLeases(store.limits, rows, inbox.key.partition("{")[2].rstrip("}")),
        trusted_networks(settings.trusted_proxies),
        forwarded_header(settings.forwarded_header),
    )
    admission = Admission(Limits.from_settings(settings), limits.subjects)
    lobby_store = LobbyStore.of(store, feeds.reach)
    ratings = Ratings(lobby_store, store)
    parties = Parties(PartyStore.of(store), ttl_s=settings.party_ttl_s, invite_ttl_s=settings.party_invite_ttl_s)
    tickets = Tickets(
        lobby_store,
        ratings,
        parties=parties,
        heartbeat_s=settings.heartbeat_s,
        max_queues=settings.mm_max_queues,
        limiter=limits.limiter,
    )
    rooms = Rooms(lobby_store, games, heartbeat_s=settings.heartbeat_s)
    auth = AuthStore.of(store)
    return _App(store, tokens, auth, inbox, feeds, games, limits, admission, lobby_store, ratings, rooms, tickets)


def _add_services(
    server: grpc.aio.Server, app: _App, health_servicer: health.aio.HealthServicer, settings: Settings
) -> None:
    """Every service's servicer on `server` (gateway/services.py refuses malformed requests)."""
    tokens, limits = app.tokens, app.limits
    add_services(
        server,
        [
            (_service(game_service_pb2, "GameService"), GameServicer(app.games, tokens, Renderer(), limits, app.auth)),
            (
                _service(game_service_pb2, "AuthService"),
                AuthServicer(app.store, tokens, limits, app.auth, guests=settings.guests),
            ),
            (_service(lobby_service_pb2, "LobbyService"), LobbyServicer(app.rooms, tokens, limits)),
            (_service(matchmaking_service_pb2, "MatchmakingService"), MatchmakingServicer(app.tickets, tokens, limits)),
            (_service(matchmaking_service_pb2, "RatingService"), RatingServicer(app.ratings, tokens)),
            (_service(catalog_service_pb2, "CatalogService"), CatalogServicer()),
            (_service(health_pb2, "Health"), health_servicer),
            (
                _service(reflection_pb2, "ServerReflection"),
                reflection.aio.ReflectionServicer((*SERVICES, health.SERVICE_NAME, reflection.SERVICE_NAME)),
            ),
        ],
    )


def _listen(
    settings: Settings,
    server: grpc.aio.Server,
    tls: CertificateFiles | None,
    limits: CallLimits,
    health_servicer: health.aio.HealthServicer,
) -> _Listeners:
    """Bind FLOTILLA_BIND, the browser bridge and listener (FLOTILLA_BROWSER_BIND), and with TLS the
    plaintext health listener; BindError (after closing what it opened) when one cannot be bound."""
    listeners = _Listeners(_bind(settings.bind, "FLOTILLA_BIND", lambda: _add_port(server, settings.bind, tls)))
    try:
        if settings.browser_bind != "off":  # the browser bridge: a private unix socket, and its key
            bridge = listeners.bridge = Bridge.make()
            _bind(bridge.target, "the browser bridge", lambda: server.add_insecure_port(bridge.target))
            limits.bridge_key = bridge.key
            listeners.browser_socket = _listen_browser(settings)
        if tls is not None and settings.health_bind != "off":
            listeners.health_server, listeners.health_port = _health_listener(
                health_servicer, settings.health_bind, bind_option(settings)
            )
    except BindError:
        if listeners.browser_socket is not None:
            listeners.browser_socket.close()
        if listeners.bridge is not None:
            listeners.bridge.remove()
        raise
    return listeners


def _log_started(
    settings: Settings, listeners: _Listeners, tls: CertificateFiles | None, browser: Browser | None
) -> None:
    mtls = bool(tls and tls.mutual)
    if mtls and browser is not None:  # browsers present no client certificate: only their tokens count
        log.warning("gateway.browser_without_mtls", browser_port=browser.port)
    log.info(
        "gateway.started",
        bind=settings.bind,
        port=listeners.port,
        tls=tls is not None,
        mtls=mtls,
        health_port=listeners.health_port,
        browser_port=browser.port if browser else None,
    )


async def _release(
    admission: Admission,
    limits: CallLimits,
    lobby: LobbyStore,
    feeds: Feeds,
    inbox: Inbox,
    tokens: Tokens,
    store: RedisStore,
) -> None:
    """Close what a gateway's pieces hold, in order: admission, stream leases, lobby, feeds, inbox,
    token key caches, then the store."""
    await admission.close()
    await limits.streams.close()
    await lobby.close()
    await feeds.close()
    await inbox.stop()
    await close_tokens(tokens)
    await store.close()


def bind_option(settings: Settings) -> tuple[str, int]:
    """SO_REUSEPORT only for the gateway processes of one `flotilla gateway` (FLOTILLA_GATEWAY_REUSEPORT,
    set by flotilla/processes.py); otherwise a port another process holds is an error."""
    return ("grpc.so_reuseport", 1 if settings.gateway_reuseport else 0)


def _health_listener(
    servicer: health.aio.HealthServicer, bind: str, reuse: tuple[str, int]
) -> tuple[grpc.aio.Server, int]:
    """A plaintext server with only grpc.health.v1 (probes cannot speak TLS); it reports what the
    gateway reports (one servicer), so a draining gateway turns NOT_SERVING there too."""
    server = grpc.aio.server(options=[reuse])
    health_pb2_grpc.add_HealthServicer_to_server(servicer, server)
    return server, _bind(bind, "FLOTILLA_HEALTH_BIND (the health listener)", lambda: server.add_insecure_port(bind))


def _listen_browser(settings: Settings) -> socket.socket:
    try:
        return listen(settings.browser_bind, settings.gateway_reuseport)
    except (OSError, ValueError) as exc:
        msg = f"cannot bind FLOTILLA_BROWSER_BIND={settings.browser_bind}: {exc}"
        raise BindError(msg) from exc


def _add_port(server: grpc.aio.Server, bind: str, tls: CertificateFiles | None) -> int:
    return server.add_secure_port(bind, tls.credentials()) if tls else server.add_insecure_port(bind)


def _bind(bind: str, what: str, add: Callable[[], int]) -> int:
    """The port `add()` bound, or BindError naming the setting: grpc returns 0 or raises RuntimeError
    when the address is taken (without FLOTILLA_GATEWAY_REUSEPORT, by any other process) or not local."""
    try:
        port = add()
    except RuntimeError:
        port = 0
    if port == 0:
        msg = f"cannot bind {what}={bind}: the address is in use or not available here"
        raise BindError(msg)
    return port


async def serve(settings: Settings) -> None:
    """Run a gateway until SIGTERM/SIGINT, then drain gracefully."""
    policy = GcPolicy(settings.gc_budget_ms / 1000, max_age_s=settings.gc_max_age_s) if settings.gc_budget_ms else None
    if policy is not None:
        policy.start()  # its first full collection before the gateway listens; what startup makes is frozen
    gateway = await start_gateway(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        with contextlib.suppress(NotImplementedError):
            loop.add_signal_handler(sig, stop.set)
    async with watch_loop(settings.loop_stall_ms):
        await stop.wait()
    log.info("gateway.stopping")
    await gateway.stop()
    if policy is not None:
        await policy.stop()
