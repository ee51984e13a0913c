"""One frozen Settings object read from the environment (every knob has a default)."""

from __future__ import annotations

import os
from dataclasses import dataclass


def _int(name: str, default: int) -> int:
    raw = os.environ.get(name)
    return int(raw) if raw else default


@dataclass(frozen=True, slots=True)
class Settings:
    """Process settings. Environment variables in brackets."""

    redis_url: str = "redis://127.0.0.1:6379/0"  # [REDIS_URL] redis://, rediss:// (TLS), user:password@
    secret: str = ""  # [FLOTILLA_SECRET] pinned token keys `kid:secret,...` (first signs); empty: keys in Redis
    bind: str = "127.0.0.1:50051"  # [FLOTILLA_BIND] gateway listen address
    shards: int = 4  # [FLOTILLA_SHARDS] work streams per game kind
    submit_timeout_s: float = 10.0  # [FLOTILLA_SUBMIT_TIMEOUT] wait for a worker's outcome
    heartbeat_s: float = 10.0  # [FLOTILLA_HEARTBEAT] idle WatchGame/Play checkpoint
    catch_up_share: float = 0.25  # [FLOTILLA_CATCH_UP_SHARE] most of a gateway's loop time catch-ups may take
    session_ttl_s: int = 7 * 24 * 3600  # [FLOTILLA_SESSION_TTL] guest session lifetime
    log_format: str = "auto"  # [FLOTILLA_LOG_FORMAT] auto | json | console
    wait_replicas: int = 0  # [FLOTILLA_WAIT_REPLICAS] replicas each commit waits for (WAIT) before confirming
    wait_timeout_ms: int = 1000  # [FLOTILLA_WAIT_TIMEOUT_MS] how long a commit waits for them
    finished_ttl_s: int = 30 * 24 * 3600  # [FLOTILLA_FINISHED_TTL] keep ended games this long (0: forever)
    unstarted_ttl_s: int = 15 * 60  # [FLOTILLA_UNSTARTED_TTL] a game whose seats never all fill expires (0: never)
    outcome_ttl_s: int = 24 * 3600  # [FLOTILLA_OUTCOME_TTL] a request id's recorded outcome (idempotent retries)
    inbox_ttl_s: int = 30  # [FLOTILLA_INBOX_TTL] a gateway's reply stream outlives a dead gateway this long
    worker_ttl_ms: int = 500  # [FLOTILLA_WORKER_TTL_MS] a worker's liveness key; once gone, its work is taken over
    worker_refresh_ms: int = 100  # [FLOTILLA_WORKER_REFRESH_MS] how often a worker renews its liveness key
    reclaim_sweep_ms: int = 100  # [FLOTILLA_RECLAIM_SWEEP_MS] how often workers look for dead workers' work
    reclaim_idle_ms: int = 10_000  # [FLOTILLA_RECLAIM_IDLE_MS] backstop: take over work a live worker held this long
    janitor_interval_s: int = 60  # [FLOTILLA_JANITOR_INTERVAL] a pass dropping listing entries of expired games
    timer_lease_ms: int = 2000  # [FLOTILLA_TIMER_LEASE_MS] a worker firing a turn clock holds it this long
    max_deliveries: int = 5  # [FLOTILLA_MAX_DELIVERIES] a work entry delivered more often goes to the dead letters
    dead_letter_maxlen: int = 10_000  # [FLOTILLA_DEAD_LETTER_MAXLEN] dead letters kept (the oldest are trimmed)
    worker_stall_s: float = (
        60.0  # [FLOTILLA_WORKER_STALL_S] a worker whose event loop is blocked this long exits; 0: never
    )
    max_starting_calls: int = 1000  # [FLOTILLA_MAX_STARTING_CALLS] gateway: unary calls + streams not yet open
    max_starting_per_connection: int = 100  # [FLOTILLA_MAX_STARTING_PER_CONNECTION] gateway: of those, per connection
    max_starting_per_address: int = 250  # [FLOTILLA_MAX_STARTING_PER_ADDRESS] gateway: of those, per client address
    stream_open_timeout_ms: int = 5000  # [FLOTILLA_STREAM_OPEN_TIMEOUT_MS] gateway: a Play stream's 1st message in
    max_open_streams: int = 20_000  # [FLOTILLA_MAX_OPEN_STREAMS] gateway: open streams of all kinds
    max_queue_wait_ms: int = 2000  # [FLOTILLA_MAX_QUEUE_WAIT_MS] gateway: wait of calls queued in grpc core
    overload_retry_ms: int = 500  # [FLOTILLA_OVERLOAD_RETRY_MS] RetryInfo delay of a call refused as OVERLOADED
    grpc_max_pending: int = 50_000  # [FLOTILLA_GRPC_MAX_PENDING] grpc core's queue of calls not yet taken, per method
    redis_max_connections: int = 128  # [FLOTILLA_REDIS_MAX_CONNECTIONS] pooled connections per process and Redis node
    redis_pool_timeout_s: float = 5.0  # [FLOTILLA_REDIS_POOL_TIMEOUT] wait for a pooled connection, then UNAVAILABLE
    redis_tcp_timeout_ms: int = (
        5000  # [FLOTILLA_REDIS_TCP_TIMEOUT_MS] a Redis connection silent this long is closed (0: the OS's)
    )
    store_lost_s: float = 10.0  # [FLOTILLA_STORE_LOST_S] gateway: Redis unanswered this long ends its watch streams
    # --- transport (docs/security.md) ---
    tls_cert: str = ""  # [FLOTILLA_TLS_CERT] gateway: PEM certificate chain file; with the key it serves TLS only
    tls_key: str = ""  # [FLOTILLA_TLS_KEY] gateway: PEM private key file (both files re-read when they change)
    tls_client_ca: str = ""  # [FLOTILLA_TLS_CLIENT_CA] gateway: PEM CA bundle; set: clients need a cert it signed
    health_bind: str = "127.0.0.1:50052"  # [FLOTILLA_HEALTH_BIND] gateway with TLS: plaintext health listener; off
    metrics_addr: str = "127.0.0.1"  # [FLOTILLA_METRICS_ADDR] where /metrics listens (port: FLOTILLA_METRICS_PORT)
    gateway_tls: bool = False  # [FLOTILLA_GATEWAY_TLS] gateway clients (matchmaker, bot, up): 1 = TLS, system roots
    gateway_ca: str = ""  # [FLOTILLA_GATEWAY_CA] gateway clients: PEM CA bundle to verify the gateway (implies TLS)
    gateway_cert: str = ""  # [FLOTILLA_GATEWAY_CERT] gateway clients: PEM client certificate for mTLS (implies TLS)
    gateway_key: str = ""  # [FLOTILLA_GATEWAY_KEY] gateway clients: its private key
    gateway_server_name: str = ""  # [FLOTILLA_GATEWAY_SERVER_NAME] gateway clients: name its certificate must carry
    party_ttl_s: int = 4 * 3600  # [FLOTILLA_PARTY_TTL] a matchmaking party's lifetime from its creation
    party_invite_ttl_s: int = 300  # [FLOTILLA_PARTY_INVITE_TTL] an invitation to a party lapses unless accepted
    mm_max_queues: int = 256  # [FLOTILLA_MM_MAX_QUEUES] matchmaking queues at once (default settings' never refused)
    # --- bots (issue 15): policy names from flotilla.bots.POLICIES ---
    bot_policy: str = "random"  # [FLOTILLA_BOT_POLICY] matchmaker: policy of the bots filling open seats
    bot_difficulty: int = 1  # [FLOTILLA_BOT_DIFFICULTY] matchmaker: their difficulty (also AddBot's default)
    takeover_policy: str = "auto"  # [FLOTILLA_TAKEOVER_POLICY] worker: plays absent seats (auto, default, a policy)
    takeover_difficulty: int = 0  # [FLOTILLA_TAKEOVER_DIFFICULTY] worker: its difficulty
    # --- tokens and identity (docs/security.md)
    seat_token_ttl_s: int = 24 * 3600  # [FLOTILLA_SEAT_TOKEN_TTL] seat-token lifetime (and of a left seat's revocation)
    api_key_session_ttl_s: int = 900  # [FLOTILLA_API_KEY_SESSION_TTL] session (and seat) tokens of an API key
    keys_refresh_s: float = 60.0  # [FLOTILLA_KEYS_REFRESH] how often processes re-read the signing keys
    guests: bool = True  # [FLOTILLA_GUESTS] on | off: whether SignInAsGuest works
    oidc_issuer: str = ""  # [FLOTILLA_OIDC_ISSUER] an external issuer (`iss`) whose JWTs act as session tokens
    oidc_audience: str = ""  # [FLOTILLA_OIDC_AUDIENCE] the `aud` its tokens must name (required with an issuer)
    oidc_jwks_url: str = ""  # [FLOTILLA_OIDC_JWKS_URL] its keys over HTTP(S) ...
    oidc_jwks_file: str = ""  # [FLOTILLA_OIDC_JWKS_FILE] ... or in a file (re-read when it changes)
    oidc_algorithms: str = "RS256,ES256"  # [FLOTILLA_OIDC_ALGORITHMS] accepted signature algorithms
    oidc_keys_ttl_s: float = 300.0  # [FLOTILLA_OIDC_KEYS_TTL] how long its keys are cached before a refresh
    oidc_name_claim: str = "name"  # [FLOTILLA_OIDC_NAME_CLAIM] the claim holding the display name
    limits: str = ""  # [FLOTILLA_LIMITS] changes to the table of rate limits and quotas (app/limits.py); off: none
    trusted_proxies: str = ""  # [FLOTILLA_TRUSTED_PROXIES] CIDRs whose forwarded header names the client
    forwarded_header: str = "x-forwarded-for"  # [FLOTILLA_FORWARDED_HEADER] the one they write: or `forwarded`
    # --- gateway garbage collector (flotilla/gc_policy.py)
    gc_budget_ms: float = 50.0  # [FLOTILLA_GC_BUDGET_MS] longest full-collection pause allowed; 0: Python's own policy
    gc_max_age_s: float = 21_600.0  # [FLOTILLA_GC_MAX_AGE] a full collection at least this often anyway; 0: never
    # --- processes per host (docs/deploy.md, flotilla/cores.py) ---
    gateway_processes: int = 1  # [FLOTILLA_GATEWAY_PROCESSES] `flotilla gateway` runs N on one port; 0: per cores
    gateway_reuseport: bool = False  # [FLOTILLA_GATEWAY_REUSEPORT] bind with SO_REUSEPORT (set for those N)
    worker_processes: int = 1  # [FLOTILLA_WORKER_PROCESSES] `flotilla worker` runs N workers; 0: per cores
    # --- browsers (gateway/browser.py, docs/browser-transport.md) ---
    browser_bind: str = "off"  # [FLOTILLA_BROWSER_BIND] gateway: Connect + gRPC-Web listener (HTTP/1.1, h2c); off
    browser_cors_origins: str = ""  # [FLOTILLA_BROWSER_CORS_ORIGINS] origins allowed cross-origin calls (`*`: any)
    up_browser_bind: str = "127.0.0.1:8080"  # `flotilla up`'s FLOTILLA_BROWSER_BIND when unset: the web client
    browser_header_timeout_s: float = (
        5.0  # [FLOTILLA_BROWSER_HEADER_TIMEOUT] a request's headers (and TLS) arrive within
    )
    browser_body_timeout_s: float = 10.0  # [FLOTILLA_BROWSER_BODY_TIMEOUT] a request's whole body arrives within
    # --- event loop (flotilla/loop_lag.py) ---
    loop_stall_ms: float = 100.0  # [FLOTILLA_LOOP_STALL_MS] a callback holding the loop longer is logged
    web_oidc_client_id: str = ""  # [FLOTILLA_WEB_OIDC_CLIENT_ID] web client's public OAuth client id at the OIDC issuer
    web_oidc_scopes: str = "openid profile"  # [FLOTILLA_WEB_OIDC_SCOPES] scopes the web client asks for (openid needed)
    web_oidc_provider: str = ""  # [FLOTILLA_WEB_OIDC_PROVIDER] "Sign in with <this>"; empty: the issuer's host name

    @classmethod
    def from_env(cls) -> Settings:
        d = cls()
        return cls(
            redis_url=os.environ.get("REDIS_URL", d.redis_url),
            secret=os.environ.get("FLOTILLA_SECRET", ""),
            bind=os.environ.get("FLOTILLA_BIND", d.bind),
            shards=_int("FLOTILLA_SHARDS", d.shards),
            submit_timeout_s=float(os.environ.get("FLOTILLA_SUBMIT_TIMEOUT", d.submit_timeout_s)),
            heartbeat_s=float(os.environ.get("FLOTILLA_HEARTBEAT", d.heartbeat_s)),
            catch_up_share=float(os.environ.get("FLOTILLA_CATCH_UP_SHARE", d.catch_up_share)),
            session_ttl_s=_int("FLOTILLA_SESSION_TTL", d.session_ttl_s),
            log_format=os.environ.get("FLOTILLA_LOG_FORMAT", d.log_format),
            wait_replicas=_int("FLOTILLA_WAIT_REPLICAS", d.wait_replicas),
            wait_timeout_ms=_int("FLOTILLA_WAIT_TIMEOUT_MS", d.wait_timeout_ms),
            finished_ttl_s=_int("FLOTILLA_FINISHED_TTL", d.finished_ttl_s),
            unstarted_ttl_s=_int("FLOTILLA_UNSTARTED_TTL", d.unstarted_ttl_s),
            outcome_ttl_s=_int("FLOTILLA_OUTCOME_TTL", d.outcome_ttl_s),
            inbox_ttl_s=_int("FLOTILLA_INBOX_TTL", d.inbox_ttl_s),
            worker_ttl_ms=_int("FLOTILLA_WORKER_TTL_MS", d.worker_ttl_ms),
            worker_refresh_ms=_int("FLOTILLA_WORKER_REFRESH_MS", d.worker_refresh_ms),
            reclaim_sweep_ms=_int("FLOTILLA_RECLAIM_SWEEP_MS", d.reclaim_sweep_ms),
            reclaim_idle_ms=_int("FLOTILLA_RECLAIM_IDLE_MS", d.reclaim_idle_ms),
            janitor_interval_s=_int("FLOTILLA_JANITOR_INTERVAL", d.janitor_interval_s),
            timer_lease_ms=_int("FLOTILLA_TIMER_LEASE_MS", d.timer_lease_ms),
            max_deliveries=_int("FLOTILLA_MAX_DELIVERIES", d.max_deliveries),
            dead_letter_maxlen=_int("FLOTILLA_DEAD_LETTER_MAXLEN", d.dead_letter_maxlen),
            worker_stall_s=float(os.environ.get("FLOTILLA_WORKER_STALL_S", d.worker_stall_s)),
            max_starting_calls=_int("FLOTILLA_MAX_STARTING_CALLS", d.max_starting_calls),
            max_starting_per_connection=_int("FLOTILLA_MAX_STARTING_PER_CONNECTION", d.max_starting_per_connection),
            max_starting_per_address=_int("FLOTILLA_MAX_STARTING_PER_ADDRESS", d.max_starting_per_address),
            stream_open_timeout_ms=_int("FLOTILLA_STREAM_OPEN_TIMEOUT_MS", d.stream_open_timeout_ms),
            max_open_streams=_int("FLOTILLA_MAX_OPEN_STREAMS", d.max_open_streams),
            max_queue_wait_ms=_int("FLOTILLA_MAX_QUEUE_WAIT_MS", d.max_queue_wait_ms),
            overload_retry_ms=_int("FLOTILLA_OVERLOAD_RETRY_MS", d.overload_retry_ms),
            grpc_max_pending=_int("FLOTILLA_GRPC_MAX_PENDING", d.grpc_max_pending),
            redis_max_connections=_int("FLOTILLA_REDIS_MAX_CONNECTIONS", d.redis_max_connections),
            redis_pool_timeout_s=float(os.environ.get("FLOTILLA_REDIS_POOL_TIMEOUT", d.redis_pool_timeout_s)),
            redis_tcp_timeout_ms=_int("FLOTILLA_REDIS_TCP_TIMEOUT_MS", d.redis_tcp_timeout_ms),
            store_lost_s=float(os.environ.get("FLOTILLA_STORE_LOST_S", d.store_lost_s)),
            tls_cert=os.environ.get("FLOTILLA_TLS_CERT", d.tls_cert),
            tls_key=os.environ.get("FLOTILLA_TLS_KEY", d.tls_key),
            tls_client_ca=os.environ.get("FLOTILLA_TLS_CLIENT_CA", d.tls_client_ca),
            health_bind=os.environ.get("FLOTILLA_HEALTH_BIND") or d.health_bind,
            metrics_addr=os.environ.get("FLOTILLA_METRICS_ADDR") or d.metrics_addr,
            gateway_tls=os.environ.get("FLOTILLA_GATEWAY_TLS", "").lower() in ("1", "true", "on", "yes"),
            gateway_ca=os.environ.get("FLOTILLA_GATEWAY_CA", d.gateway_ca),
            gateway_cert=os.environ.get("FLOTILLA_GATEWAY_CERT", d.gateway_cert),
            gateway_key=os.environ.get("FLOTILLA_GATEWAY_KEY", d.gateway_key),
            gateway_server_name=os.environ.get("FLOTILLA_GATEWAY_SERVER_NAME", d.gateway_server_name),
            party_ttl_s=_int("FLOTILLA_PARTY_TTL", d.party_ttl_s),
            party_invite_ttl_s=_int("FLOTILLA_PARTY_INVITE_TTL", d.party_invite_ttl_s),
            mm_max_queues=_int("FLOTILLA_MM_MAX_QUEUES", d.mm_max_queues),
            bot_policy=os.environ.get("FLOTILLA_BOT_POLICY") or d.bot_policy,
            bot_difficulty=_int("FLOTILLA_BOT_DIFFICULTY", d.bot_difficulty),
            takeover_policy=os.environ.get("FLOTILLA_TAKEOVER_POLICY") or d.takeover_policy,
            takeover_difficulty=_int("FLOTILLA_TAKEOVER_DIFFICULTY", d.takeover_difficulty),
            seat_token_ttl_s=_int("FLOTILLA_SEAT_TOKEN_TTL", d.seat_token_ttl_s),
            api_key_session_ttl_s=_int("FLOTILLA_API_KEY_SESSION_TTL", d.api_key_session_ttl_s),
            keys_refresh_s=float(os.environ.get("FLOTILLA_KEYS_REFRESH", d.keys_refresh_s)),
            guests=os.environ.get("FLOTILLA_GUESTS", "on").strip().lower() not in ("off", "0", "false", "no"),
            oidc_issuer=os.environ.get("FLOTILLA_OIDC_ISSUER", ""),
            oidc_audience=os.environ.get("FLOTILLA_OIDC_AUDIENCE", ""),
            oidc_jwks_url=os.environ.get("FLOTILLA_OIDC_JWKS_URL", ""),
            oidc_jwks_file=os.environ.get("FLOTILLA_OIDC_JWKS_FILE", ""),
            oidc_algorithms=os.environ.get("FLOTILLA_OIDC_ALGORITHMS", d.oidc_algorithms),
            oidc_keys_ttl_s=float(os.environ.get("FLOTILLA_OIDC_KEYS_TTL", d.oidc_keys_ttl_s)),
            oidc_name_claim=os.environ.get("FLOTILLA_OIDC_NAME_CLAIM", d.oidc_name_claim),
            limits=os.environ.get("FLOTILLA_LIMITS", d.limits),
            trusted_proxies=os.environ.get("FLOTILLA_TRUSTED_PROXIES", d.trusted_proxies),
            forwarded_header=os.environ.get("FLOTILLA_FORWARDED_HEADER") or d.forwarded_header,
            gc_budget_ms=float(os.environ.get("FLOTILLA_GC_BUDGET_MS", d.gc_budget_ms)),
            gc_max_age_s=float(os.environ.get("FLOTILLA_GC_MAX_AGE", d.gc_max_age_s)),
            gateway_processes=_int("FLOTILLA_GATEWAY_PROCESSES", d.gateway_processes),
            gateway_reuseport=os.environ.get("FLOTILLA_GATEWAY_REUSEPORT", "").lower() in ("1", "true", "on", "yes"),
            worker_processes=_int("FLOTILLA_WORKER_PROCESSES", d.worker_processes),
            browser_bind=os.environ.get("FLOTILLA_BROWSER_BIND") or d.browser_bind,
            browser_cors_origins=os.environ.get("FLOTILLA_BROWSER_CORS_ORIGINS", d.browser_cors_origins),
            browser_header_timeout_s=float(
                os.environ.get("FLOTILLA_BROWSER_HEADER_TIMEOUT", d.browser_header_timeout_s)
            ),
            browser_body_timeout_s=float(os.environ.get("FLOTILLA_BROWSER_BODY_TIMEOUT", d.browser_body_timeout_s)),
            loop_stall_ms=float(os.environ.get("FLOTILLA_LOOP_STALL_MS", d.loop_stall_ms)),
            web_oidc_client_id=os.environ.get("FLOTILLA_WEB_OIDC_CLIENT_ID", d.web_oidc_client_id),
            web_oidc_scopes=os.environ.get("FLOTILLA_WEB_OIDC_SCOPES") or d.web_oidc_scopes,
            web_oidc_provider=os.environ.get("FLOTILLA_WEB_OIDC_PROVIDER", d.web_oidc_provider),
        )
