"""Every process serves Prometheus metrics; the figures move when games are played."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from flotilla.redis_server import RedisServer
from flotilla.settings import Settings
from support import Stack, listening_on, play_full_game, scrape, start_stack

pytestmark = [pytest.mark.redis, pytest.mark.timeout(120)]


@pytest.fixture(scope="module")
def measured(redis_server: RedisServer, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Stack]:
    running = start_stack(redis_server.url, tmp_path_factory.mktemp("metrics"), gateways=1, workers=1, metrics=True)
    yield running
    running.stop()


async def test_gateway_and_worker_metrics_count_the_moves(measured: Stack) -> None:
    await play_full_game(measured, "counter", 2, {"moves": "20"})
    ports = dict(measured.metrics)
    worker = scrape(ports["worker"])
    gateway = scrape(ports["gateway"])
    assert worker["flotilla_moves_applied_total{by=seat,game=counter}"] >= 20
    assert worker["flotilla_commit_seconds_count{}"] >= 1
    assert gateway["flotilla_submit_seconds_count{}"] >= 20
    assert "flotilla_gateway_open_streams{method=WatchGame}" in gateway


def test_metrics_listen_on_loopback_by_default(measured: Stack) -> None:
    assert Settings().metrics_addr == "127.0.0.1"
    assert measured.metrics
    for process, port in measured.metrics:
        assert listening_on(port) == {"127.0.0.1"}, process
