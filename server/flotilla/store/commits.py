"""The commit path (hot: issue 26): what a worker reads before a round, and the commit script
run for many moves in one round trip per primary (store/commit_script.py declares its keys,
arguments and result; scripts/commit_transition.lua is the script).

`commit_request` builds one run (`Commits.commit_args` on a store). The commit applies only while
the game is at `expected` of the history `expected_lineage` (and, with `expected_clocks`, has that
status and those seat clocks); it becomes `version` of `lineage` (app/lineage.py); `retain_s` > 0
expires a game that this commit ends (finished or abandoned) after that many seconds. Where
`settles_work` (one Redis, no replica waits), the script also acknowledges the work entry `ack`
(stream, entry id) and answers the inbox `answer_to`, with this outcome or the request's earlier
one: the move's whole write is one script. Without `answer_commit` it answers only the earlier one
(a fresh commit's mover follows the feed).
"""

from __future__ import annotations

import asyncio
import hashlib
from collections.abc import Sequence
from typing import Any

from redis.exceptions import NoScriptError, ResponseError

from flotilla.store import keys
from flotilla.store.client import Script, StoreClient, script_source
from flotilla.store.commit_script import BATCH_MAX, CommitArgs, CommitKeys, CommitRequest, Committed, batch_source
from flotilla.store.connections import run_packed, run_packed_then
from flotilla.store.held import pack
from flotilla.store.meta import META_FIELDS, SEATCLOCK, GameMeta, meta_of
from flotilla.store.script_slots import values_of
from flotilla.store.transient import TRANSIENT, own_errors

_KEYS = values_of(CommitKeys)
_ARGS = values_of(CommitArgs)
BATCH_SOURCE = batch_source(script_source("commit_transition.lua"))
BATCH_SHA = hashlib.sha1(BATCH_SOURCE.encode()).hexdigest()


def evalsha_command(commits: Sequence[CommitRequest]) -> bytes:
    """One call of the batch script (commit_script.batch_source) for `commits`, packed by hiredis
    in one call: no per-argument encoding in Python."""
    keys_list: list[Any] = []
    argv: list[Any] = []
    for commit in commits:
        keys_list += _KEYS(commit.keys)
        argv += _ARGS(commit.args)
    return pack(("EVALSHA", BATCH_SHA, len(keys_list), *keys_list, *argv))


def _calls(commits: Sequence[CommitRequest], together: bool) -> list[Sequence[CommitRequest]]:
    """The script calls for `commits`: up to BATCH_MAX in each where their keys may share a call
    (one Redis), else one call each (a cluster: each game's keys are in its own slot)."""
    size = BATCH_MAX if together else 1
    return [commits[i : i + size] for i in range(0, len(commits), size)]


RELEARN: tuple[type[Exception], ...] = (*TRANSIENT, ResponseError)
"""A cluster pipeline failed this way: the slots may have moved, relearn them (the caller retries)."""


def _commit_keys(game_id: str, seat: int, request_id: str, *, work_stream: str, inbox: str) -> CommitKeys:
    """The commit script's keys; the game's own key stands in for a work stream or inbox it does not touch."""
    game_key = keys.game(game_id)
    return CommitKeys(
        game=game_key,
        events=keys.game_events(game_id),
        actions=keys.game_actions(game_id),
        reply=keys.game_reply(game_id, seat, request_id),
        seats=keys.game_seats(game_id),
        work_stream=work_stream or game_key,
        inbox=inbox or game_key,
    )


def commit_request(
    game_id: str,
    seat: int,
    request_id: str,
    *,
    expected: int,
    version: int,
    state: bytes,
    events: bytes,
    prompts: bytes,
    to_act: bytes,
    status: str,
    result: bytes,
    record: bytes,
    outcome: bytes,
    seatclock: bytes = b"",
    retain_s: int = 0,
    expected_lineage: str = "",
    lineage: str = "",
    expected_clocks: tuple[str, bytes] | None = None,
    ack: tuple[str, bytes] | None = None,
    answer_to: str = "",
    answer_commit: bool = True,
    outcome_ttl_s: int,
    settles_work: bool,
) -> CommitRequest:
    """One run of the commit script for a move (what each argument means: the module docstring)."""
    was_status, was_seatclock = expected_clocks or ("", b"")
    stream, entry = ack if settles_work and ack else ("", b"")
    inbox = answer_to if settles_work else ""
    return CommitRequest(
        _commit_keys(game_id, seat, request_id, work_stream=stream, inbox=inbox),
        CommitArgs(
            expected_version=expected,
            version=version,
            state=state,
            events=events,
            prompts=prompts,
            to_act=to_act,
            status=status,
            result=result,
            record=record,
            outcome=outcome,
            outcome_ttl_s=outcome_ttl_s,
            seatclock=seatclock,
            retain_s=retain_s,
            expected_lineage=expected_lineage,
            lineage=lineage,
            seat=seat,
            request_id=request_id,
            compare_clocks="1" if expected_clocks is not None else "0",
            expected_status=was_status,
            expected_seatclock=was_seatclock,
            ack="1" if stream else "0",
            group=keys.WORKER_GROUP,
            entry_id=entry,
            answer=("1" if answer_commit else "2") if inbox else "0",
            game_id=game_id,
        ),
    )


@own_errors
class Commits(StoreClient):
    """Prefetch, commit scripts, recorded outcomes and seat-clock updates."""

    _update_clock = Script("update_clock.lua")

    @property
    def settles_work(self) -> bool:
        """Whether the commit script also acknowledges the work and answers the gateway (one
        Redis, where every key is on the one server, and no replica waits, after which alone
        an outcome may be given out)."""
        return not self.cluster and not self.wait_replicas

    async def prefetch(
        self, requests: Sequence[tuple[str, int, str]]
    ) -> list[tuple[bytes | None, GameMeta | None, bytes | None, bytes]]:
        """For each (game, seat, request id): the request's earlier outcome, the game's description,
        its state and its seat clocks as stored, in one round trip (what a worker needs to apply
        a round of actions)."""
        async with self.redis.pipeline(transaction=False) as pipe:
            for game_id, seat, request_id in requests:
                pipe.get(keys.game_reply(game_id, seat, request_id))
                pipe.hmget(keys.game(game_id), (*META_FIELDS, b"state"))
            replies = await pipe.execute()
        out = []
        for i, (game_id, _seat, _request_id) in enumerate(requests):
            values = replies[2 * i + 1]
            out.append((replies[2 * i], meta_of(game_id, values[:-1]), values[-1], values[SEATCLOCK] or b""))
        return out

    async def outcomes(self, game_id: str, seat: int, request_ids: Sequence[str]) -> list[bytes | None]:
        """The recorded outcomes of a seat's request ids (None where there is none yet)."""
        if not request_ids:
            return []
        found: list[bytes | None] = await self.redis.mget([keys.game_reply(game_id, seat, r) for r in request_ids])
        return found

    def commit_args(self, game_id: str, seat: int, request_id: str, **move: Any) -> CommitRequest:
        """One run of the commit script for a move on this store (`commit_request`'s keyword arguments)."""
        return commit_request(
            game_id,
            seat,
            request_id,
            outcome_ttl_s=self.lifetimes.outcome_s,
            settles_work=self.settles_work,
            **move,
        )

    async def commit_many(self, commits: Sequence[CommitRequest]) -> list[Committed]:
        """Run several commits in one round trip per primary (each is atomic on its own; on one
        Redis, up to BATCH_MAX share a script call)."""
        if not commits:
            return []
        if not self.cluster:
            replies, durable = await self._commit_on(self.redis, commits, together=True)
            durability = [durable] * len(commits)
        else:  # a cluster pipeline cannot run scripts: one plain pipeline per primary, concurrently
            await self.redis.initialize()  # the slot map (a fresh client has none; at once after)
            by_node: dict[tuple[str, int], list[int]] = {}
            for i, commit in enumerate(commits):
                node = self._node_for(commit.keys.game)
                by_node.setdefault(node.address, []).append(i)
            try:
                results = await asyncio.gather(
                    *(
                        self._commit_on(self._nodes[address].client, [commits[i] for i in idx], together=False)
                        for address, idx in by_node.items()
                    )
                )
            except RELEARN:
                # A primary failed over (or a slot moved): relearn the slots; the caller retries.
                self._nodes.clear()
                await self.redis.nodes_manager.initialize()
                raise
            replies = [None] * len(commits)
            durability = [True] * len(commits)
            for idx, (node_replies, durable) in zip(by_node.values(), results, strict=True):
                for i, reply in zip(idx, node_replies, strict=True):
                    replies[i] = reply
                    durability[i] = durable
        out = []
        for reply, durable in zip(replies, durability, strict=True):
            assert reply is not None
            out.append(Committed.decode(reply, durable))
        return out

    async def commit_then_read(
        self, commits: Sequence[CommitRequest], read: bytes
    ) -> tuple[list[Committed], asyncio.Future[Any]]:
        """`commit_many` on a store that `settles_work`, with `read` (a packed XREADGROUP,
        `WorkQueue.read_command`) in the same write after the commits: a worker's next read
        costs no write of its own. Returns the commits' results and the read's reply to come
        (`WorkQueue.read_reply`). Calls that met NOSCRIPT are sent again on another connection."""
        assert self.settles_work, "one Redis, no replica waits"
        calls = _calls(commits, True)
        replies, reading = await run_packed_then(self.redis, [evalsha_command(call) for call in calls], read)
        try:
            flat, _acked = await self._settled(self.redis, calls, replies)
        except BaseException:
            reading.cancel()  # its connection closed: what it delivered waits as this consumer's own pending
            raise
        return [Committed.decode(one, True) for one in flat], reading

    async def _commit_on(
        self, client: Any, commits: Sequence[CommitRequest], *, together: bool
    ) -> tuple[list[Any], bool]:
        """Commits in one write on one connection (script calls: `_calls`), then WAIT for replicas
        if asked: a reply per commit, and whether the replicas confirmed them.

        Each call goes as a plain EVALSHA, packed here (`evalsha_command`; a registered script in a
        redis-py pipeline would send a SCRIPT EXISTS first, a round trip per worker round). A Redis
        that lost its scripts (restarted) answers NOSCRIPT and runs nothing: those calls are sent
        again once the script is loaded."""
        calls = _calls(commits, together)
        replies, acked = await self._run_calls(client, calls)
        flat, acked_again = await self._settled(client, calls, replies)
        return flat, min(acked, acked_again) >= self.wait_replicas

    async def _settled(
        self, client: Any, calls: Sequence[Sequence[CommitRequest]], replies: list[Any]
    ) -> tuple[list[Any], int]:
        """The calls' replies (one per call) as one reply per commit, once the calls that met
        NOSCRIPT were sent again after loading the script (and the replicas those acked); any
        other error raised."""
        missing = [i for i, reply in enumerate(replies) if isinstance(reply, NoScriptError)]
        acked = self.wait_replicas
        if missing:
            await client.script_load(BATCH_SOURCE)
            again, acked = await self._run_calls(client, [calls[i] for i in missing])
            for i, reply in zip(missing, again, strict=True):
                replies[i] = reply
        for reply in replies:
            if isinstance(reply, Exception):
                raise reply
        return [one for call in replies for one in call], acked

    async def _run_calls(self, client: Any, calls: Sequence[Sequence[CommitRequest]]) -> tuple[list[Any], int]:
        """One write of script calls (and the WAIT): a reply per call (the list of its commits'
        replies, or the error), and the replicas acked."""
        packed = [evalsha_command(call) for call in calls]
        if self.wait_replicas:
            wait: Any = ("WAIT", self.wait_replicas, self.wait_timeout_ms)
            packed.append(pack(wait))
        replies = await run_packed(client, packed)
        if not self.wait_replicas:
            return replies, 0
        acked = replies.pop()
        if isinstance(acked, Exception):
            raise acked
        return replies, int(acked)

    async def update_clock(self, game_id: str, version: int, seatclock: bytes) -> bool:
        return bool(await self._update_clock(keys=[keys.game(game_id)], args=[version, seatclock]))
