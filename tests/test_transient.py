"""The errors that mean "retry" (store/transient.py), the readers that restart themselves
(store/supervise.py), and what a client gets for a failing-over Redis (gateway/errors.py)."""

from __future__ import annotations

import ast
import asyncio
from pathlib import Path

import grpc
import pytest
from google.rpc import error_details_pb2
from redis._parsers import _RESP2Parser
from redis.exceptions import ConnectionError as RedisConnectionError
from redis.exceptions import (
    CrossSlotTransactionError,
    DataError,
    NoScriptError,
    RedisClusterException,
    RedisClusterUnreachableError,
    ResponseError,
    SlotNotCoveredError,
)
from redis.exceptions import TimeoutError as RedisTimeoutError

from flotilla import metrics
from flotilla.errors import StoreFailed, StoreUnreachable, WorkGroupLost
from flotilla.gateway.errors import STORE_RETRY_S, to_status
from flotilla.store.supervise import supervised
from flotilla.store.transient import ANY_REDIS, REDIS_TRANSIENT, TRANSIENT, group_required, is_transient, own_errors

SERVER = Path(__file__).resolve().parents[1] / "server" / "flotilla"

# What Redis (a Cluster in a failover included) answers while it cannot serve a command now.
FAILOVER_REPLIES = [
    "CLUSTERDOWN The cluster is down",
    "CLUSTERDOWN Hash slot not served",
    "MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.",
    "TRYAGAIN Multiple keys request during rehashing of slot",
    "MOVED 3999 127.0.0.1:6381",
    "ASK 3999 127.0.0.1:6381",
    "READONLY You can't write against a read only replica.",
    "LOADING Redis is loading the dataset in memory",
]


@pytest.mark.parametrize("reply", FAILOVER_REPLIES)
def test_every_failover_reply_is_transient(reply: str) -> None:
    error = _RESP2Parser(65536).parse_error(reply)  # the class redis-py raises for this reply
    assert is_transient(error), type(error).__mro__
    assert isinstance(error, REDIS_TRANSIENT)


@pytest.mark.parametrize(
    "error",
    [
        RedisConnectionError("Connection refused"),
        RedisTimeoutError("Timeout reading from socket"),
        SlotNotCoveredError("slot 3999 is not covered"),
        RedisClusterUnreachableError("no node answers"),
        ConnectionResetError(),
    ],
)
def test_the_cluster_clients_own_failover_errors_are_transient(error: Exception) -> None:
    assert is_transient(error)


@pytest.mark.parametrize(
    "error",
    [
        KeyError("version"),
        AttributeError("a bug"),
        ValueError("a bug"),
        ResponseError("NOGROUP No such key 'x' or consumer group 'y'"),
        ResponseError("ERR Error running script: user_script:12: bad"),
        NoScriptError("NOSCRIPT No matching script"),
        DataError("Invalid input"),
        CrossSlotTransactionError("keys in different slots"),
        RedisClusterException("a misuse of the cluster client"),
    ],
)
def test_bugs_and_lasting_errors_are_not_transient(error: Exception) -> None:
    assert not is_transient(error)


def test_the_tuples_nest() -> None:
    assert set(REDIS_TRANSIENT) < set(TRANSIENT) < set(ANY_REDIS)
    assert OSError not in REDIS_TRANSIENT  # the gateway maps builtin TimeoutError (an OSError) elsewhere


@pytest.mark.parametrize("reply", FAILOVER_REPLIES)
def test_a_client_gets_unavailable_with_a_short_retry_for_a_failover(reply: str) -> None:
    status = to_status(_RESP2Parser(65536).parse_error(reply))
    assert status.code == grpc.StatusCode.UNAVAILABLE.value[0]
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.reason == "ERROR_REASON_STORE_UNAVAILABLE"
    retry = error_details_pb2.RetryInfo()
    assert status.details[1].Unpack(retry)
    assert retry.retry_delay.ToMilliseconds() == int(STORE_RETRY_S * 1000)
    assert "3999" not in status.message
    assert "127.0.0.1" not in status.message


def test_a_bug_still_gets_internal() -> None:
    assert to_status(KeyError("version")).code == grpc.StatusCode.INTERNAL.value[0]


async def test_a_reader_that_fails_is_restarted_and_counted() -> None:
    runs: list[bool] = []
    again = asyncio.Event()

    async def reader(restarted: bool) -> None:
        runs.append(restarted)
        if len(runs) == 1:
            raise KeyError("a bug")
        again.set()
        await asyncio.Event().wait()  # reads for ever

    gauge = metrics.READERS.labels("test")
    restarts = metrics.READER_RESTARTS.labels("test")
    before_restarts = restarts._value.get()
    task = asyncio.create_task(supervised("test", reader))
    await asyncio.wait_for(again.wait(), 10)
    assert runs == [False, True]
    assert gauge._value.get() == 1
    assert restarts._value.get() == before_restarts + 1
    task.cancel()  # cancellation ends it: not a failure to restart from
    with pytest.raises(asyncio.CancelledError):
        await task
    assert gauge._value.get() == 0
    assert restarts._value.get() == before_restarts + 1


async def test_a_reader_that_returns_is_not_restarted() -> None:
    runs: list[bool] = []

    async def reader(restarted: bool) -> None:
        runs.append(restarted)

    await asyncio.wait_for(supervised("test", reader), 5)
    assert runs == [False]


def test_a_lost_work_group_is_the_stores_own_error_and_nothing_else_is() -> None:
    with pytest.raises(WorkGroupLost), group_required():
        raise ResponseError("NOGROUP No such key 'x' or consumer group 'y'")
    with pytest.raises(ResponseError, match="user_script"), group_required():
        raise ResponseError("ERR Error running script: user_script:12: bad")


@own_errors
class _Flaky:
    """A store whose methods fail as redis-py would."""

    async def lost(self) -> None:
        raise RedisConnectionError("Connection closed by server.")

    async def reset(self) -> None:
        raise ConnectionResetError("Connection reset by peer")

    async def bug(self) -> None:
        raise ResponseError("ERR Error running script: user_script:12: bad")

    async def lost_group(self) -> None:
        with group_required():
            raise ResponseError("NOGROUP No such key 'x' or consumer group 'y'")


async def test_a_store_method_raises_the_stores_own_error_for_a_lost_redis() -> None:
    with pytest.raises(StoreUnreachable, match="closed by server") as raised:
        await _Flaky().lost()
    assert isinstance(raised.value.__cause__, RedisConnectionError)
    assert is_transient(raised.value)
    with pytest.raises(StoreUnreachable, match="reset by peer"):  # a socket's own error
        await _Flaky().reset()


async def test_a_store_method_raises_its_own_errors_for_every_other_redis_error() -> None:
    with pytest.raises(StoreFailed, match="user_script") as raised:  # not transient
        await _Flaky().bug()
    assert isinstance(raised.value.__cause__, ResponseError)
    assert not is_transient(raised.value)
    with pytest.raises(WorkGroupLost):  # the store's own already: unchanged
        await _Flaky().lost_group()


def test_no_code_outside_the_store_names_redis_errors() -> None:
    """Outside store/, code catches the store's own errors (flotilla/errors.py), never the tuples
    that hold redis-py's classes; only the gateway's last resort (`UNREACHABLE`, for an error that
    passed no store method) may name one."""
    tuples = {"REDIS_TRANSIENT", "TRANSIENT", "ANY_REDIS", "UNREACHABLE"}
    allowed = {("gateway/errors.py", "UNREACHABLE")}
    found = set()
    for path in SERVER.rglob("*.py"):
        where = path.relative_to(SERVER).as_posix()
        if where.startswith("store/"):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom) and node.module == "flotilla.store.transient":
                found |= {(where, alias.name) for alias in node.names if alias.name in tuples}
    assert found <= allowed, sorted(found - allowed)


def test_the_stores_own_error_is_unavailable_with_retry_info() -> None:
    status = to_status(StoreUnreachable("Connection closed by server."))
    assert status.code == grpc.StatusCode.UNAVAILABLE.value[0]
    info = error_details_pb2.ErrorInfo()
    assert status.details[0].Unpack(info)
    assert info.reason == "ERROR_REASON_STORE_UNAVAILABLE"
    assert "closed by server" not in status.message
    assert len(status.details) == 2  # and RetryInfo
