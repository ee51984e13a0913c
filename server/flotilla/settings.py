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
    secret: str = ""  # [FLOTILLA_SECRET] token key; empty: a key kept in Redis
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
    unstarted_ttl_s: int = 24 * 3600  # [FLOTILLA_UNSTARTED_TTL] a game whose seats never all fill expires (0: never)
    outcome_ttl_s: int = 24 * 3600  # [FLOTILLA_OUTCOME_TTL] a request id's recorded outcome (idempotent retries)
    inbox_ttl_s: int = 30  # [FLOTILLA_INBOX_TTL] a gateway's reply stream outlives a dead gateway this long
    worker_ttl_ms: int = 500  # [FLOTILLA_WORKER_TTL_MS] a worker's liveness key; once gone, its work is taken over
    worker_refresh_ms: int = 100  # [FLOTILLA_WORKER_REFRESH_MS] how often a worker renews its liveness key
    reclaim_sweep_ms: int = 100  # [FLOTILLA_RECLAIM_SWEEP_MS] how often workers look for dead workers' work
    reclaim_idle_ms: int = 10_000  # [FLOTILLA_RECLAIM_IDLE_MS] backstop: take over work a live worker held this long
    janitor_interval_s: int = 60  # [FLOTILLA_JANITOR_INTERVAL] a pass dropping listing entries of expired games
    timer_lease_ms: int = 2000  # [FLOTILLA_TIMER_LEASE_MS] a worker firing a turn clock holds it this long
    max_starting_calls: int = 1000  # [FLOTILLA_MAX_STARTING_CALLS] gateway: unary calls + streams not yet open
    max_open_streams: int = 20_000  # [FLOTILLA_MAX_OPEN_STREAMS] gateway: open streams of all kinds
    max_queue_wait_ms: int = 2000  # [FLOTILLA_MAX_QUEUE_WAIT_MS] gateway: wait of calls queued in grpc core
    overload_retry_ms: int = 500  # [FLOTILLA_OVERLOAD_RETRY_MS] RetryInfo delay of a call refused as OVERLOADED
    grpc_max_pending: int = 50_000  # [FLOTILLA_GRPC_MAX_PENDING] grpc core's queue of calls not yet taken, per method
    redis_max_connections: int = 128  # [FLOTILLA_REDIS_MAX_CONNECTIONS] pooled connections per process and Redis node
    redis_pool_timeout_s: float = 5.0  # [FLOTILLA_REDIS_POOL_TIMEOUT] wait for a pooled connection, then UNAVAILABLE
    limits: str = ""  # [FLOTILLA_LIMITS] changes to the table of rate limits and quotas (app/limits.py); off: none
    trusted_proxies: str = ""  # [FLOTILLA_TRUSTED_PROXIES] CIDRs whose x-forwarded-for / forwarded name the client

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
            max_starting_calls=_int("FLOTILLA_MAX_STARTING_CALLS", d.max_starting_calls),
            max_open_streams=_int("FLOTILLA_MAX_OPEN_STREAMS", d.max_open_streams),
            max_queue_wait_ms=_int("FLOTILLA_MAX_QUEUE_WAIT_MS", d.max_queue_wait_ms),
            overload_retry_ms=_int("FLOTILLA_OVERLOAD_RETRY_MS", d.overload_retry_ms),
            grpc_max_pending=_int("FLOTILLA_GRPC_MAX_PENDING", d.grpc_max_pending),
            redis_max_connections=_int("FLOTILLA_REDIS_MAX_CONNECTIONS", d.redis_max_connections),
            redis_pool_timeout_s=float(os.environ.get("FLOTILLA_REDIS_POOL_TIMEOUT", d.redis_pool_timeout_s)),
            limits=os.environ.get("FLOTILLA_LIMITS", d.limits),
            trusted_proxies=os.environ.get("FLOTILLA_TRUSTED_PROXIES", d.trusted_proxies),
        )
