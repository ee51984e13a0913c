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
    session_ttl_s: int = 7 * 24 * 3600  # [FLOTILLA_SESSION_TTL] guest session lifetime
    log_format: str = "auto"  # [FLOTILLA_LOG_FORMAT] auto | json | console
    wait_replicas: int = 0  # [FLOTILLA_WAIT_REPLICAS] replicas each commit waits for (WAIT) before confirming
    wait_timeout_ms: int = 1000  # [FLOTILLA_WAIT_TIMEOUT_MS] how long a commit waits for them
    finished_ttl_s: int = 30 * 24 * 3600  # [FLOTILLA_FINISHED_TTL] keep ended games this long (0: forever)
    max_starting_calls: int = 1000  # [FLOTILLA_MAX_STARTING_CALLS] gateway: unary calls + streams not yet open
    max_open_streams: int = 20_000  # [FLOTILLA_MAX_OPEN_STREAMS] gateway: open streams of all kinds
    max_queue_wait_ms: int = 2000  # [FLOTILLA_MAX_QUEUE_WAIT_MS] gateway: wait of calls queued in grpc core
    overload_retry_ms: int = 500  # [FLOTILLA_OVERLOAD_RETRY_MS] RetryInfo delay of a call refused as OVERLOADED
    grpc_max_pending: int = 50_000  # [FLOTILLA_GRPC_MAX_PENDING] grpc core's queue of calls not yet taken, per method
    redis_max_connections: int = 128  # [FLOTILLA_REDIS_MAX_CONNECTIONS] pooled connections per process and Redis node
    redis_pool_timeout_s: float = 5.0  # [FLOTILLA_REDIS_POOL_TIMEOUT] wait for a pooled connection, then UNAVAILABLE

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
            session_ttl_s=_int("FLOTILLA_SESSION_TTL", d.session_ttl_s),
            log_format=os.environ.get("FLOTILLA_LOG_FORMAT", d.log_format),
            wait_replicas=_int("FLOTILLA_WAIT_REPLICAS", d.wait_replicas),
            wait_timeout_ms=_int("FLOTILLA_WAIT_TIMEOUT_MS", d.wait_timeout_ms),
            finished_ttl_s=_int("FLOTILLA_FINISHED_TTL", d.finished_ttl_s),
            max_starting_calls=_int("FLOTILLA_MAX_STARTING_CALLS", d.max_starting_calls),
            max_open_streams=_int("FLOTILLA_MAX_OPEN_STREAMS", d.max_open_streams),
            max_queue_wait_ms=_int("FLOTILLA_MAX_QUEUE_WAIT_MS", d.max_queue_wait_ms),
            overload_retry_ms=_int("FLOTILLA_OVERLOAD_RETRY_MS", d.overload_retry_ms),
            grpc_max_pending=_int("FLOTILLA_GRPC_MAX_PENDING", d.grpc_max_pending),
            redis_max_connections=_int("FLOTILLA_REDIS_MAX_CONNECTIONS", d.redis_max_connections),
            redis_pool_timeout_s=float(os.environ.get("FLOTILLA_REDIS_POOL_TIMEOUT", d.redis_pool_timeout_s)),
        )
