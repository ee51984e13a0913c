"""One connection held from a single Redis's pool, for the gateways' enqueues (store/work_queue.py).

Its commands are packed as RESP bytes (`pack`: arguments bytes, str or numbers, what the work
entries and the rate gate's arguments are) and sent in one write, their replies read in order:
none of redis-py's pipeline (its generic packer, the pool's locks and timeouts on every call,
the per-command hooks). One round trip at a time: the caller serialises them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

import hiredis
from redis.exceptions import ResponseError

Arg = bytes | str | int | float


def pack(args: Iterable[Arg]) -> bytes:
    """One command as RESP (an array of bulk strings), packed by hiredis in one C call: numbers
    as redis-py encodes them (`repr`)."""
    command: Any = tuple(args)
    packed: bytes = hiredis.pack_command(command)  # (its stub types a 1-tuple)
    return packed


async def read_replies(connection: Any, count: int) -> list[Any]:
    """The replies to `count` commands sent on `connection`, in order; an error reply in its place
    as its exception (ResponseError, NoScriptError, ...), as a pipeline's `raise_on_error=False`."""
    replies: list[Any] = []
    for _command in range(count):
        try:
            replies.append(await connection.read_response())
        except ResponseError as exc:
            replies.append(exc)
    return replies


class HeldConnection:
    """A connection taken from `pool` once and kept (given back by `close`)."""

    def __init__(self, pool: Any) -> None:
        self.pool = pool
        self._connection: Any = None

    async def round_trip(self, commands: Sequence[bytes]) -> list[Any]:
        """Send packed `commands` in one write; their replies in order, a Redis error as its
        exception (ResponseError, NoScriptError, ...). A broken connection raises (ConnectionError,
        TimeoutError) and is closed: the next round trip connects again."""
        connection = self._connection
        if connection is None:
            connection = self._connection = await self.pool.get_connection()
        try:
            # What the pool does before giving out a connection: (re)connected, nothing stale on it.
            await self.pool.ensure_connection(connection)
            await connection.send_packed_command(b"".join(commands), check_health=False)
            replies = await read_replies(connection, len(commands))
        except BaseException:
            await connection.disconnect(nowait=True)  # replies may be left unread on it
            raise
        return replies

    async def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await self.pool.release(connection)
