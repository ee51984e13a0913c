"""One connection held from a single Redis's pool, for the gateways' enqueues (store/work_queue.py).

Its commands are packed here as RESP bytes (arguments bytes, str or numbers: what the work
entries and the rate gate's arguments are) and sent in one write, their replies read in order:
none of redis-py's pipeline (its generic packer, the pool's locks and timeouts on every call,
the per-command hooks). One round trip at a time: the caller serialises them.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from redis.exceptions import ResponseError

Arg = bytes | str | int | float


def _arg(value: Arg) -> bytes:
    if type(value) is bytes:
        return value
    if type(value) is str:
        return value.encode()
    if type(value) is int or type(value) is float:
        return repr(value).encode()  # redis-py's encoding of numbers
    raise TypeError(f"a Redis argument must be bytes, str, int or float, not {type(value).__name__}")


def pack(args: Iterable[Arg]) -> bytes:
    """One command as RESP: an array of bulk strings."""
    parts = [b"$%d\r\n%s\r\n" % (len(raw), raw) for raw in map(_arg, args)]
    return b"*%d\r\n%s" % (len(parts), b"".join(parts))


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
            replies: list[Any] = []
            for _command in commands:
                try:
                    replies.append(await connection.read_response())
                except ResponseError as exc:
                    replies.append(exc)
        except BaseException:
            await connection.disconnect(nowait=True)  # replies may be left unread on it
            raise
        return replies

    async def close(self) -> None:
        if self._connection is not None:
            connection, self._connection = self._connection, None
            await self.pool.release(connection)
