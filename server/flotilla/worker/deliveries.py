"""A worker's entries as read from the work streams: parsed into work (a malformed one dropped),
applied together or alone by how often they were delivered, and set aside in the dead letters when
delivered too often or when the rules failed on them."""

from __future__ import annotations

import uuid

from flotilla import metrics
from flotilla.app.errors import EngineFailure
from flotilla.app.outcome import Outcome
from flotilla.records import InboxReply, WorkItem
from flotilla.store.deadletter import DELIVERIES, ENGINE, DeadLetter
from flotilla.worker.base import WorkerBase, log
from flotilla.worker.plan import Work

Message = tuple[str, bytes, dict[bytes, bytes]]  # (work stream, message id, fields) as read

ISOLATE_FROM = 3
"""A reclaimed entry delivered this many times or more is applied in a batch of its own: when one
entry of a batch kills its worker, the batch's other entries are redelivered with it; alone, they
are acknowledged before the entry that kills, so only that one reaches the dead letters."""


def parse_work(stream: str, msg_id: bytes, fields: dict[bytes, bytes]) -> Work:
    """A work entry as read (raises KeyError, ValueError or UnicodeDecodeError when malformed)."""
    return Work(**WorkItem.decode_fields(fields), stream=stream, msg_id=msg_id)


class Deliveries(WorkerBase):
    """Applying what was read, and the dead letters (a part of `Worker`, worker/base.py)."""

    async def handle_messages(
        self, fresh: list[Message], reclaimed: list[Message], *, read_ahead: bool = False
    ) -> None:
        """Apply new messages and reclaimed ones (delivered before, to this or another consumer).

        A reclaimed message delivered more than `max_deliveries` times is set aside in the dead
        letters (it took a worker down each time); one delivered `ISOLATE_FROM` times or more is
        applied alone, after the others. `read_ahead`: the work loop's next read may go with the
        last commits (`Worker.round`)."""
        alone: list[Message] = []
        if reclaimed:
            counts = await self.dead_letters.deliveries([(stream, msg_id) for stream, msg_id, _f in reclaimed])
            together: list[Message] = []
            doomed: list[tuple[Message, int]] = []
            for message, count in zip(reclaimed, counts, strict=True):
                if count > self.max_deliveries:
                    doomed.append((message, count))
                elif count >= ISOLATE_FROM:
                    alone.append(message)
                else:
                    together.append(message)
            await self.bury(doomed)
            fresh = fresh + together
        if fresh:
            await self.handle(await self.parsed(fresh), read_ahead=read_ahead and not alone)
        for message in alone:
            await self.handle(await self.parsed([message]))

    async def bury(self, doomed: list[tuple[Message, int]]) -> None:
        """Set aside messages delivered too often: dead letters, an INTERNAL answer to whoever still
        waits (never recorded as the request's outcome), then acknowledged."""
        if not doomed:
            return
        letters, replies, acks = [], [], []
        for (stream, msg_id, fields), count in doomed:
            incident = uuid.uuid4().hex[:12]
            letters.append(DeadLetter(stream, msg_id.decode(), fields, DELIVERIES, incident, count))
            acks.append((stream, msg_id))
            try:
                work = parse_work(stream, msg_id, fields)
            except (KeyError, ValueError, UnicodeDecodeError):  # malformed: nobody to answer
                log.error("worker.dead_lettered", incident=incident, stream=stream, deliveries=count)
                continue
            log.error(
                "worker.dead_lettered",
                incident=incident,
                stream=stream,
                deliveries=count,
                game=work.game_id,
                seat=work.seat,
                request_id=work.request_id,
            )
            message = f"this request was delivered {count} times without an answer (incident {incident}); set aside"
            outcome = Outcome.rejected(EngineFailure(message, incident=incident))
            if work.inbox:
                replies.append((work.inbox, InboxReply(work.game_id, work.seat, work.request_id, outcome.dumps())))
        await self.dead_letters.add(letters)
        metrics.DEAD_LETTERS.labels(DELIVERIES).inc(len(letters))
        await self.store.finish_work(rejections=[], replies=replies, acks=acks)

    async def parsed(self, messages: list[Message]) -> list[Work]:
        """The messages as work; a malformed one (not written by a gateway) is acknowledged and dropped."""
        works, bad = [], []
        for stream, msg_id, fields in messages:
            try:
                works.append(parse_work(stream, msg_id, fields))
            except (KeyError, ValueError, UnicodeDecodeError):
                log.warning("worker.malformed_message", stream=stream, message=msg_id.decode())
                bad.append((stream, msg_id))
        if bad:
            await self.store.finish_work(rejections=[], replies=[], acks=bad)
        return works

    async def set_aside(self, failed: list[tuple[Work, EngineFailure]]) -> None:
        """The work entries the rules failed on, into the dead letters (before they are acknowledged)."""
        letters = [
            DeadLetter(work.stream, work.msg_id.decode(), _raw(work), ENGINE, error.metadata["incident"], 1)
            for work, error in failed
            if work.stream
        ]
        await self.dead_letters.add(letters)
        metrics.DEAD_LETTERS.labels(ENGINE).inc(len(letters))


def _raw(work: Work) -> dict[bytes, bytes]:
    """A work entry's fields as read from its stream (what `flotilla deadletter retry` queues again)."""
    return {
        name.encode(): value if isinstance(value, bytes) else str(value).encode()
        for name, value in work.fields().items()
    }
