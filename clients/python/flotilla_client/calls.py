"""A method written once for both clients: it builds a `Call`, each client runs it its own way.

`@operation` turns `def create_game(self, ...) -> Call[Game]` into `create_game(...)` that returns
`Game` on the sync client and an awaitable of `Game` on the async one (typed for mypy by the
overloads of `operation.__get__`).
"""

from __future__ import annotations

import abc
import functools
import uuid
from collections.abc import AsyncIterator, Callable, Coroutine, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Concatenate, Generic, ParamSpec, TypeVar, overload

from google.protobuf.message import Message

from flotilla_client.rpcs import Req, Resp, Unary

if TYPE_CHECKING:
    from flotilla_client.streams import Resume

T = TypeVar("T")
B = TypeVar("B")
M = TypeVar("M", bound=Message)  # a streamed message
P = ParamSpec("P")


@dataclass(frozen=True, slots=True)
class Call(Generic[T]):
    """One unary call to make: the RPC, its request, the token to send (as first given; the
    client sends its latest refresh) and what to make of the response."""

    rpc: Unary[Any, Any]
    request: Any
    token: str
    then: Callable[[Any], T]
    retry: bool = True


def call(rpc: Unary[Req, Resp], request: Req, token: str, then: Callable[[Resp], T], *, retry: bool = True) -> Call[T]:
    """A `Call`, type-checked: `request` is the RPC's request and `then` takes its response."""
    return Call(rpc, request, token, then, retry)


def fresh_request_id(given: str = "") -> str:
    """`given`, or a fresh request id (32 hex characters): made once per call, so that its
    retries reuse it and the server applies the call once."""
    return given or uuid.uuid4().hex


def same(reply: Resp) -> Resp:
    """The response as it is (for calls whose result is the whole response)."""
    return reply


class AsyncRunner(abc.ABC):
    """A client that runs calls in asyncio."""

    @abc.abstractmethod
    async def _run(self, call: Call[T]) -> T: ...

    @abc.abstractmethod
    def _resumed(self, stream: Resume[Any, M]) -> AsyncIterator[M]: ...


class SyncRunner(abc.ABC):
    """A client that runs calls blocking."""

    @abc.abstractmethod
    def _run(self, call: Call[T]) -> T: ...

    @abc.abstractmethod
    def _resumed(self, stream: Resume[Any, M]) -> Iterator[M]: ...


class _Method(Generic[P, B]):
    """A method of both clients made from `build`; the client's `runner` method runs what it builds."""

    runner = "_run"

    def __init__(self, build: Callable[Concatenate[Any, P], B]) -> None:
        self.build = build
        self.__doc__ = build.__doc__

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name

    def _bind(self, client: AsyncRunner | SyncRunner) -> Any:
        """The method bound to `client`, kept in its __dict__ (later lookups find it there)."""
        build, run = self.build, getattr(client, self.runner)

        @functools.wraps(build)
        def bound(*args: P.args, **kwargs: P.kwargs) -> Any:
            return run(build(client, *args, **kwargs))

        client.__dict__[self.name] = bound
        return bound


class operation(_Method[P, Call[T]]):  # noqa: N801 (a decorator, like property)
    """A unary method: returns `T` on the sync client, an awaitable of `T` on the async one."""

    @overload
    def __get__(self, client: None, owner: type) -> operation[P, T]: ...
    @overload
    def __get__(self, client: AsyncRunner, owner: type) -> Callable[P, Coroutine[Any, Any, T]]: ...
    @overload
    def __get__(self, client: SyncRunner, owner: type) -> Callable[P, T]: ...
    def __get__(self, client: AsyncRunner | SyncRunner | None, owner: type) -> Any:
        return self if client is None else self._bind(client)


class streaming(_Method[P, "Resume[Any, M]"]):  # noqa: N801 (a decorator, like property)
    """A server stream, resumed by the client: an async iterator of `M` on the async client, an
    iterator on the sync one."""

    runner = "_resumed"

    @overload
    def __get__(self, client: None, owner: type) -> streaming[P, M]: ...
    @overload
    def __get__(self, client: AsyncRunner, owner: type) -> Callable[P, AsyncIterator[M]]: ...
    @overload
    def __get__(self, client: SyncRunner, owner: type) -> Callable[P, Iterator[M]]: ...
    def __get__(self, client: AsyncRunner | SyncRunner | None, owner: type) -> Any:
        return self if client is None else self._bind(client)
