"""Prometheus metrics of every Flotilla process (served on FLOTILLA_METRICS_PORT, see docs/metrics.md).

Names follow Prometheus conventions (`_total` counters, `_seconds` histograms). Labels are
bounded: game kinds, rejection reasons and work streams, never game or user ids.
"""

from __future__ import annotations

import bisect
import gc
import time
from collections.abc import Iterator
from typing import Any

import structlog
from prometheus_client import REGISTRY, Counter, Gauge, Histogram, start_http_server
from prometheus_client.core import GaugeMetricFamily, HistogramMetricFamily, Metric

# Default ports; each process kind has its own so that `flotilla up` can run them side by side.
DEFAULT_PORTS = {"gateway": 9100, "worker": 9101, "matchmaker": 9102}

MOVES_APPLIED = Counter("flotilla_moves_applied_total", "Actions committed by workers", ["game", "by"])
MOVES_REJECTED = Counter("flotilla_moves_rejected_total", "Actions refused by workers", ["game", "reason"])
COMMIT_SECONDS = Histogram(
    "flotilla_commit_seconds",
    "Round trip of one batch of commit scripts (incl. WAIT for replicas when configured)",
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
COMMIT_CONFLICTS = Counter(
    "flotilla_commit_conflicts_total", "Commits refused because the game moved (version compare-and-set)"
)
RETRIES = Counter("flotilla_work_retries_total", "Messages processed again after a conflict or a stale cached state")
DEDUPLICATED = Counter("flotilla_requests_deduplicated_total", "Requests answered from their recorded outcome")
CLOCK_TIMEOUTS = Counter("flotilla_clock_timeouts_total", "Default actions played by the turn clock")
WORK_PENDING = Gauge("flotilla_work_pending", "Messages delivered to workers and not yet acknowledged", ["stream"])
WORK_RECLAIMED = Counter(
    "flotilla_work_reclaimed_total",
    "Messages taken over from another worker: how=dead (its liveness key lapsed), idle (the stuck-worker backstop)",
    ["how"],
)
DEAD_LETTERS = Counter(
    "flotilla_work_dead_letters_total",
    "Work entries set aside in the dead-letter stream: why=engine (the rules failed on it), deliveries "
    "(delivered over FLOTILLA_MAX_DELIVERIES times)",
    ["why"],
)
DEAD_LETTERS_KEPT = Gauge(
    "flotilla_work_dead_letters_kept", "Entries in the dead-letter stream (`flotilla deadletter list`)"
)
HELPER_FAILURES = Counter(
    "flotilla_worker_loop_failures_total",
    "Unexpected exceptions a worker's loop logged (with an incident id) and survived, by loop",
    ["loop"],
)
WORK_LAG = Gauge("flotilla_work_lag", "Messages in a work stream not yet delivered to any worker", ["stream"])
READERS = Gauge(
    "flotilla_store_readers",
    "Long-lived Redis reader tasks running (store/supervise.py), by kind: work (one per work stream on a "
    "Redis Cluster), feed (one per watched game on a cluster), feeds (shared readers), inbox, lobby",
    ["kind"],
)
READER_RESTARTS = Counter(
    "flotilla_store_reader_restarts_total",
    "Long-lived Redis reader tasks restarted after an unexpected exception (logged with an incident id), by kind",
    ["kind"],
)
SUBMIT_SECONDS = Histogram(
    "flotilla_submit_seconds",
    "Gateway: from queueing an action to its outcome",
    buckets=(0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
OPEN_STREAMS = Gauge("flotilla_gateway_open_streams", "Gateway: open WatchGame/Play streams", ["method"])
CALLS_REFUSED = Counter(
    "flotilla_gateway_calls_refused_total",
    "Gateway: calls refused by admission control (RESOURCE_EXHAUSTED, OVERLOADED), by limit",
    ["method", "limit"],
)
STREAMS_IDLE_CLOSED = Counter(
    "flotilla_gateway_streams_idle_closed_total",
    "Gateway: client streams closed for sending no message within FLOTILLA_STREAM_OPEN_TIMEOUT_MS",
    ["method"],
)
CALLS_STARTING = Gauge("flotilla_gateway_calls_starting", "Gateway: unary calls + streams before their 1st message")
CALLS_QUEUED = Gauge("flotilla_gateway_calls_queued", "Gateway: calls queued in grpc core, not yet taken (estimate)")
ADMITTED_STREAMS = Gauge("flotilla_gateway_admitted_streams", "Gateway: open streams of every method")
WATCHED_GAMES = Gauge("flotilla_gateway_watched_games", "Gateway: games with a live feed in this process")
SUBMITS_REQUEUED = Counter(
    "flotilla_gateway_submits_requeued_total",
    "Gateway: actions queued again because Redis was lost while they waited (same request id: applied once)",
)
SUBMIT_DEADLINES = Counter(
    "flotilla_gateway_submit_deadlines_total",
    "Gateway: actions whose outcome did not come within the submit deadline (DEADLINE_EXCEEDED)",
)
FEED_REWINDS = Counter(
    "flotilla_gateway_feed_rewinds_total",
    "Gateway: watched games found behind their feed's cursor (Redis came back behind); watchers resynced",
)
FEED_HELD = Counter(
    "flotilla_gateway_feed_held_total",
    "Gateway: feed reads held back because the replicas had not confirmed their commits (FLOTILLA_WAIT_REPLICAS)",
)
WATCH_RESYNCS = Counter(
    "flotilla_gateway_watch_resyncs_total", "Gateway: full views sent to resync a watcher, by cause", ["cause"]
)
BROWSER_BODY_TIMEOUTS = Counter(
    "flotilla_browser_body_timeouts_total",
    "Gateway: browser requests whose body did not arrive within FLOTILLA_BROWSER_BODY_TIMEOUT (answered 408)",
)
LIMIT_REFUSALS = Counter(
    "flotilla_limit_refusals_total",
    "Gateway: calls refused by a rate limit or quota (RESOURCE_EXHAUSTED, RATE_LIMITED / QUOTA_EXCEEDED), by limit",
    ["limit"],
)
WRONG_JOIN_CODES = Counter(
    "flotilla_gateway_wrong_join_codes_total",
    "Gateway: join codes refused as wrong (PERMISSION_DENIED / WRONG_JOIN_CODE; each counts against code_guess_*)",
)
TICKETS_WAITING = Gauge("flotilla_tickets_waiting", "Matchmaking tickets waiting, by queue", ["queue"])
TOKENS_REFUSED = Counter("flotilla_gateway_tokens_refused_total", "Gateway: tokens refused, by reason", ["reason"])
KEY_LOADS = Counter(
    "flotilla_key_loads_total", "Loads of a verification key set, by set and result", ["keys", "result"]
)

KEY_WAITS_REFUSED = Counter(
    "flotilla_key_waits_refused_total",
    "Tokens with an unknown kid refused at once: as many callers waited for a key reload already",
    ["keys"],
)

RPC_CALLS = Counter(
    "flotilla_rpc_calls_total", "Gateway: calls of every service, by method and status code", ["method", "code"]
)
RPC_SECONDS = Histogram(
    "flotilla_rpc_seconds",
    "Gateway: a unary call's duration, a stream's time to its first message, by method",
    ["method"],
    buckets=(0.0005, 0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10),
)
LOOP_LAG = Histogram(
    "flotilla_event_loop_lag_seconds",
    "How late the event loop ran a timer (flotilla/loop_lag.py): time other callbacks held it",
    buckets=(0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5),
)
LOOP_STALLS = Counter(
    "flotilla_event_loop_stalls_total", "Times the event loop was held longer than FLOTILLA_LOOP_STALL_MS (logged)"
)
BROWSER_CALLS = Counter(
    "flotilla_browser_calls_total",
    "Gateway: calls through the browser listener (also in flotilla_rpc_calls_total), by protocol and codec",
    ["protocol", "codec"],  # connect | grpc_web | grpc, proto | json
)


class GcPauses:
    """`flotilla_gc_pause_seconds` (by generation) and `flotilla_gc_pause_max_seconds`, from
    gc.callbacks. The callback only updates plain counters (no locks: a collection can start inside
    any allocation, also inside a metric's own update); this collector turns them into metrics."""

    BUCKETS = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)

    def __init__(self) -> None:
        self.counts = [[0] * (len(self.BUCKETS) + 1) for _ in range(3)]
        self.sums = [0.0, 0.0, 0.0]
        self.max_s = 0.0
        self._started = 0.0

    def callback(self, phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        pause = time.perf_counter() - self._started
        generation = min(int(info.get("generation", 2)), 2)
        self.counts[generation][bisect.bisect_left(self.BUCKETS, pause)] += 1
        self.sums[generation] += pause
        self.max_s = max(self.max_s, pause)

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(
            "flotilla_gc_pause_seconds",
            "Garbage-collector pauses of this process, by generation",
            labels=["generation"],
        )
        for generation, counts in enumerate(self.counts):
            cumulative, buckets = 0, []
            for bound, count in zip((*map(str, self.BUCKETS), "+Inf"), counts, strict=True):
                cumulative += count
                buckets.append((bound, cumulative))
            family.add_metric([str(generation)], buckets, self.sums[generation])
        yield family
        yield GaugeMetricFamily(
            "flotilla_gc_pause_max_seconds", "The longest garbage-collector pause of this process", value=self.max_s
        )


_gc_pauses: GcPauses | None = None


def watch_gc() -> GcPauses:
    """Measure this process's collector pauses (once per process; later calls return the same)."""
    global _gc_pauses  # noqa: PLW0603
    if _gc_pauses is None:
        _gc_pauses = GcPauses()
        gc.callbacks.append(_gc_pauses.callback)
        REGISTRY.register(_gc_pauses)
    return _gc_pauses


def serve(process: str, addr: str = "127.0.0.1", port: int | None = None) -> int | None:
    """Serve /metrics for this process on `addr` (FLOTILLA_METRICS_ADDR, loopback by default: set
    it to reach metrics from elsewhere) and `port` (FLOTILLA_METRICS_PORT; None: by process kind;
    0 = off)."""
    port = DEFAULT_PORTS.get(process, 0) if port is None else port
    if port <= 0:
        return None
    try:
        start_http_server(port, addr=addr)
    except OSError as exc:  # the port is taken: run without metrics rather than not at all
        structlog.get_logger("flotilla.metrics").warning("metrics.unavailable", addr=addr, port=port, error=str(exc))
        return None
    return port
