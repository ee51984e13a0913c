"""Replica confirmations (FLOTILLA_WAIT_REPLICAS > 0): a write and WAIT per primary, so that a
move is given out only once a failover cannot lose it (docs/deploy.md, Durability)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import Any

from flotilla.records import Entry
from flotilla.store import keys
from flotilla.store.client import StoreClient, as_text
from flotilla.store.transient import own_errors

REPLICATED_MARKER_MS = 60_000
"""The TTL of the marker `confirm` and `confirm_heads` write before their WAIT (`keys.game_replicated`)."""


@own_errors
class ReplicaWaits(StoreClient):
    """WAIT for `wait_replicas` replicas, once per primary."""

    def _by_primary(self, game_ids: Iterable[str]) -> dict[Any, list[str]]:
        """The games grouped by the client of the primary that holds them now."""
        groups: dict[Any, list[str]] = {}
        for game_id in game_ids:
            client = self._node_for(keys.game(game_id)).client if self.cluster else self.redis
            groups.setdefault(client, []).append(game_id)
        return groups

    async def _replicated(self, client: Any, game_id: str, reads: Callable[[Any], None]) -> tuple[list[Any], bool]:
        """`reads` queued on a pipeline of `client`, then a write to `game_id`'s slot and WAIT:
        their replies, and whether `wait_replicas` replicas acknowledged.

        WAIT counts the replication offset of the connection's last *propagated* write, so the
        write must always propagate (a no-op such as HSETNX on an existing field does not:
        then WAIT covers nothing, or an older write of that connection). A SET with a TTL always
        does; replication is ordered, so its acknowledgement covers every earlier write of the
        primary, whichever connection made it (docs/deploy.md, Durability)."""
        async with client.pipeline(transaction=False) as pipe:
            reads(pipe)
            pipe.set(keys.game_replicated(game_id), 1, px=REPLICATED_MARKER_MS)
            pipe.execute_command("WAIT", self.wait_replicas, self.wait_timeout_ms)
            replies = await pipe.execute()
        return replies[:-2], int(replies[-1]) >= self.wait_replicas

    async def confirm(self, game_ids: Sequence[str]) -> bool:
        """Wait until every earlier write to these games' primaries is on `wait_replicas` replicas
        (`_replicated`, once per primary)."""
        if not self.wait_replicas or not game_ids:
            return True
        ok = True
        for client, games in self._by_primary(game_ids).items():
            _nothing, acked = await self._replicated(client, games[0], lambda _pipe: None)
            ok = ok and acked
        return ok

    async def confirm_heads(self, heads: Mapping[str, tuple[int, str]]) -> set[str]:
        """The games among `heads` (game -> a version and its lineage, as read) whose commit at
        that version is on `wait_replicas` replicas now (all of them when waits are off).

        Per primary, one pipeline: each game's stored head and its entry at that version, then
        `_replicated`. A commit read earlier (perhaps from another primary, before a failover)
        counts only if the primary that holds the game now has it, as that version's entry or
        as its head, before the WAIT: then the WAIT's acknowledgement covers it."""
        if not self.wait_replicas or not heads:
            return set(heads)
        confirmed: set[str] = set()
        for client, games in self._by_primary(heads).items():

            def reads(pipe: Any, games: list[str] = games) -> None:
                for game_id in games:
                    version = heads[game_id][0]
                    pipe.hmget(keys.game(game_id), (b"version", b"head"))
                    pipe.xrange(keys.game_events(game_id), f"0-{version}", f"0-{version}", count=1)

            replies, acked = await self._replicated(client, games[0], reads)
            if not acked:
                continue
            for i, game_id in enumerate(games):
                version, lineage = heads[game_id]
                (stored, head), rows = replies[2 * i], replies[2 * i + 1]
                at_head = stored is not None and int(stored) == version and as_text(head or b"") == lineage
                if at_head or (rows and Entry.decode(rows[0][1]).lineage == lineage):
                    confirmed.add(game_id)
        return confirmed
