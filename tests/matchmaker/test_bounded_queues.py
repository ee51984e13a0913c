"""Issue 23 (7): the matchmaker cannot be slowed for good.

Attacks through the public API against real gateways (in the test process, tests/inproc.py), Redis
and a matchmaker process:

* spellings of one setting (Unicode digits, signs, padding, `_`, leading zeros) are refused, and
  the spellings the games do take (`yes` for `true`, any case of an enum, a default value
  written out) name the setting's one queue, where a user waits in one ticket;
* queues are pruned once empty: after 2,000 spellings the set of queues is back where it was
  and so is the idle matchmaker's CPU (read from /proc, generous bound);
* the set of queues is bounded (FLOTILLA_MM_MAX_QUEUES, 256): one more setting is refused with
  RESOURCE_EXHAUSTED and nothing is stored, while a kind's default setting still queues.

Defaults everywhere except `ticket_per_user` and `waiting_tickets_per_user`, which are off: the
attack spreads its tickets over many accounts, and a single test user stands in for them (test
stacks raise the per-address rows, `new_queues_per_address` too; test_ticket_quotas.py holds
one address to its share).
"""

from __future__ import annotations

import asyncio
import os
import random
import time
import uuid
from collections.abc import AsyncIterator, Iterator, Sequence
from pathlib import Path

import grpc
import pytest

from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.lobby.tickets import parse_ticket_name, queue_of
from flotilla.store import keys
from flotilla.store.redis_store import RedisStore
from forkserver import Proc
from inproc import InProcess
from lobby.mm_support import Player, refusal, start_matchmaker, stop
from support import stack_limits, until

pytestmark = [pytest.mark.redis, pytest.mark.timeout(240)]

DEFAULT_MAX_QUEUES = 256  # Settings.mm_max_queues
ALREADY_WAITING = "ERROR_REASON_TICKET_ALREADY_WAITING"
INVALID_CONFIG = "ERROR_REASON_INVALID_CONFIG"

# Digits `int()` reads besides ASCII: Arabic-Indic, Devanagari, Thai, fullwidth, mathematical bold.
_DIGIT_ZEROS = (0x0660, 0x0966, 0x0E50, 0xFF10, 0x1D7CE)


def spellings(number: int) -> list[str]:
    """19 spellings of `number` that Python's `int()` reads as it, none of them canonical."""
    text = str(number)
    odd = [f"+{text}", f" {text}", f"{text} ", f"0{text}", f"00{text}", f"{text[0]}_{text[1:]}", f"\t{text}"]
    odd += ["".join(chr(zero + int(d)) for d in text) for zero in _DIGIT_ZEROS]
    odd += [f"+0{text}", f"0_{text}", f" +{text}", f"{text}\n", f"  {text}", f"+{text[0]}_{text[1:]}", f"000{text}"]
    return odd


# The module's gateways and worker (`inproc`, tests/inproc.py; the matchmaker is a process): one
# user makes thousands of tickets here.
INPROC_SETTINGS = {"limits": stack_limits("ticket_per_user=off", "waiting_tickets_per_user=off")}


@pytest.fixture(scope="module")
def matchmaker(inproc: InProcess, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Proc]:
    """Matches (never with bots) and prunes; no bot runner, ratings consumer or room sweeper."""
    proc = start_matchmaker(
        inproc,
        tmp_path_factory.mktemp("mm"),
        "bounded",
        FLOTILLA_MM_BOT_FILL_AFTER="off",
        FLOTILLA_MM_ROLES="match",
    )
    yield proc
    stop(proc)


@pytest.fixture
async def store(inproc: InProcess) -> AsyncIterator[RedisStore]:
    opened = RedisStore.from_url(inproc.redis_url)
    yield opened
    await opened.close()


@pytest.fixture
async def ada(inproc: InProcess) -> AsyncIterator[Player]:
    player = await Player.signed_in(inproc.gateways[0], "ada")
    yield player
    await player.close()


def ticket(kind: str, options: dict[str, str], seats: int = 2) -> pb.CreateTicketRequest:
    return pb.CreateTicketRequest(kind=kind, options=options, seat_counts=[seats], request_id=uuid.uuid4().hex)


async def queues(store: RedisStore) -> set[str]:
    return {q.decode() for q in await store.redis.smembers(keys.MM_QUEUES)}


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far (/proc/<pid>/stat, fields 14 and 15)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


async def idle_cpu(pid: int, seconds: float = 3.0) -> float:
    """The share of a core the process used over `seconds` of wall time."""
    start, began = cpu_seconds(pid), time.monotonic()
    await asyncio.sleep(seconds)  # a measuring window, not a synchronisation
    return (cpu_seconds(pid) - start) / (time.monotonic() - began)


async def cancel_all(player: Player, names: Sequence[str]) -> None:
    gate = asyncio.Semaphore(32)

    async def cancel(name: str) -> None:
        async with gate:
            await player.call(player.mm, "CancelTicket", pb.CancelTicketRequest(ticket=name))

    await asyncio.gather(*(cancel(n) for n in names))


async def until_pruned(store: RedisStore, names: Sequence[str]) -> None:
    mine = {parse_ticket_name(n)[0] for n in names}

    async def gone() -> bool:
        return not mine & await queues(store)

    await until(gone, 60, "the matchmaker to prune the emptied queues", every_s=0.1)


async def test_spellings_of_one_setting_are_refused_or_share_its_queue(
    matchmaker: Proc, ada: Player, store: RedisStore
) -> None:
    before = await queues(store)
    moves = random.randint(10_000, 99_999)
    for odd in spellings(moves):
        code, reason, _ = await refusal(ada.call(ada.mm, "CreateTicket", ticket("counter", {"moves": odd})))
        assert code == grpc.StatusCode.INVALID_ARGUMENT, odd
        assert reason in (INVALID_CONFIG, "ERROR_REASON_INVALID_REQUEST"), odd  # the latter: control characters
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await ada.call(ada.mm, "CreateTicket", ticket("counter", {"moves": "٢٠"}))
    assert "ASCII digits" in str(caught.value.details())

    # Spellings a game takes are one setting: one queue, one waiting ticket per user.
    made = []
    for kind, seats, spelled in (
        ("navegador", 3, [{"random_colours": v} for v in ("true", "TRUE", "yes", "On", "1")]),
        ("port_royal", 2, [{"mode": v} for v in ("base_plus", "BASE_PLUS", "Base_Plus")]),
        ("counter", 2, [{"moves": str(moves)}, {"moves": str(moves)}]),
        ("sail_away", 2, [{}, {"max_rounds": "50"}]),  # a value equal to the default is the default setting
    ):
        first = (await ada.call(ada.mm, "CreateTicket", ticket(kind, spelled[0], seats))).ticket
        made.append(first.name)
        for options in spelled[1:]:
            code, reason, meta = await refusal(ada.call(ada.mm, "CreateTicket", ticket(kind, options, seats)))
            assert (code, reason, meta["ticket"]) == (grpc.StatusCode.FAILED_PRECONDITION, ALREADY_WAITING, first.name)
    colours = (await ada.call(ada.mm, "GetTicket", pb.GetTicketRequest(ticket=made[0]))).ticket
    assert dict(colours.options) == {"random_colours": "true"}  # stored as the canonical spelling
    assert await queues(store) - before <= {parse_ticket_name(n)[0] for n in made}
    await cancel_all(ada, made)
    await until_pruned(store, made)


async def test_after_2000_spellings_the_queues_and_the_idle_matchmakers_cpu_are_back(
    matchmaker: Proc, ada: Player, store: RedisStore
) -> None:
    """100 settings, each in 20 spellings (2,000 calls; before, 2,000 queues that stayed for good)."""
    baseline_queues = await queues(store)
    baseline_cpu = await idle_cpu(matchmaker.pid)
    first = random.randint(10_000, 90_000)
    calls = [(n, s) for n in range(first, first + 100) for s in (str(n), *spellings(n))]
    random.shuffle(calls)
    gate = asyncio.Semaphore(32)

    async def create(spelled: str) -> pb.Ticket | grpc.StatusCode:
        async with gate:
            try:
                return (await ada.call(ada.mm, "CreateTicket", ticket("counter", {"moves": spelled}))).ticket
            except grpc.aio.AioRpcError as refused:
                return refused.code()

    began = time.monotonic()
    results = await asyncio.gather(*(create(s) for _, s in calls))
    assert time.monotonic() - began < 120
    made = [r.name for r in results if isinstance(r, pb.Ticket)]
    refused = [r for r in results if not isinstance(r, pb.Ticket)]
    assert len(made) == 100
    assert set(refused) == {grpc.StatusCode.INVALID_ARGUMENT}
    assert len(await queues(store) - baseline_queues) <= 100  # one queue per setting, none per spelling

    await cancel_all(ada, made)
    await until_pruned(store, made)
    assert await queues(store) <= baseline_queues  # back where it was (or fewer)
    after_cpu = await idle_cpu(matchmaker.pid)
    assert after_cpu < baseline_cpu + 0.15, (baseline_cpu, after_cpu)  # 1,892 queues took 0.69 of a core


async def test_the_number_of_queues_is_bounded_and_a_refusal_stores_nothing(
    matchmaker: Proc, ada: Player, store: RedisStore
) -> None:
    made: list[str] = []
    moves = random.randint(10_000, 80_000)
    try:
        for attempt in range(DEFAULT_MAX_QUEUES + 1):  # new settings until the set of queues is full
            request = ticket("counter", {"moves": str(moves + attempt)})
            try:
                made.append((await ada.call(ada.mm, "CreateTicket", request)).ticket.name)
            except grpc.aio.AioRpcError:
                break
        assert len(made) <= DEFAULT_MAX_QUEUES
        held = await queues(store)
        code, reason, meta = await refusal(ada.call(ada.mm, "CreateTicket", request))
        assert (code, reason, meta["limit"]) == (
            grpc.StatusCode.RESOURCE_EXHAUSTED,
            "ERROR_REASON_QUOTA_EXCEEDED",
            "matchmaking_queues",
        )
        assert len(held) >= DEFAULT_MAX_QUEUES
        # Nothing stored for the refused setting: no queue, no ticket, no user key.
        queue = queue_of("counter", dict(request.options))
        assert queue not in await queues(store)
        assert not [k async for k in store.redis.scan_iter(match=f"{keys.PREFIX}:mm:{{{queue}}}*", count=1000)]
        # A kind's default setting is never refused.
        made.append((await ada.call(ada.mm, "CreateTicket", ticket("counter", {}))).ticket.name)
    finally:
        await cancel_all(ada, made)
    await until_pruned(store, made)
