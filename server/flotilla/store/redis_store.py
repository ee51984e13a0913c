"""`RedisStore`: the one implementation of the `Store` protocol (store/protocol.py), and the worker's
commit path, composed of the store's subjects, each a module of its own:

| subject | module | class |
|---|---|---|
| the client, its URL, pools, the cluster's primaries | client.py | `StoreClient` |
| games: create, describe, seats, action log, listings | games.py | `GameRecords` |
| the commit path: prefetch, commit scripts, outcomes | commits.py | `Commits` |
| replica confirmations (WAIT) | replicas.py | `ReplicaWaits` |
| a game's history: event streams, heads | history.py | `History` |
| the work queue: enqueue, worker reads, settling | work_queue.py | `WorkQueue` |
| the workers: group stats, liveness registry, dead workers' work | workers.py | `WorkerRegistry` |
| the gateways' inboxes | inboxes.py | `Inboxes` |
| turn clocks: the timer index | timers.py | `Timers` |
| the janitor's lease and listing sweeps | sweeps.py | `Sweeps` |
| user records | users.py | `UserRecords` |

Each public method raises the store's own errors (flotilla/errors.py `StoreError`), never its
Redis client's (store/transient.py `own_errors`).
"""

from __future__ import annotations

from flotilla.store.client import Lifetimes
from flotilla.store.commits import Commits
from flotilla.store.games import GameRecords
from flotilla.store.history import History
from flotilla.store.inboxes import Inboxes
from flotilla.store.protocol import Store
from flotilla.store.replicas import ReplicaWaits
from flotilla.store.sweeps import Sweeps
from flotilla.store.timers import Timers
from flotilla.store.users import UserRecords
from flotilla.store.work_queue import WorkQueue
from flotilla.store.workers import WorkerRegistry

__all__ = ["Lifetimes", "RedisStore"]


class RedisStore(
    GameRecords, Commits, ReplicaWaits, History, WorkQueue, WorkerRegistry, Inboxes, Timers, Sweeps, UserRecords
):
    """Games, event streams, work, inboxes, timers and users in Redis (redis.asyncio): every
    subject of the store on one client (`StoreClient`)."""


_IMPLEMENTS: type[Store] = RedisStore  # mypy: RedisStore implements every method of the protocol
