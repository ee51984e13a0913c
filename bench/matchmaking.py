"""Matchmaking and lobby benchmark: tickets matched per second, enqueue->seated latency, room-list latency.

1. Tickets: K matchmaker processes (K = 1, then 3) run against a fresh Redis; 10,000 tickets of
   mixed games (counter: 2 seats; Sail Away: 2-4 seats, parties of 1-2) and ratings (normal,
   mean 25, sd 8) are enqueued as fast as one client can (straight into Redis, as CreateTicket
   would store them; the parties' invitations and acceptances, `lobby.parties`, are not part
   of what is measured). Reported: tickets seated per second (first enqueue -> last seated), and per ticket
   the time from enqueue to its game existing with the ticket's players seated (the `matched`
   entry of the ticket's change stream), p50/p99.
2. Rooms: 10,000 open public rooms (4 kinds of seat filling, 2 game kinds); a gateway process
   serves ListRooms(kind=sail_away, min_open_seats=2, page_size=50) over gRPC, following page
   tokens from random starting pages; p50/p99 per page.

    python bench/matchmaking.py [--tickets 10000] [--rooms 10000] [--no-record]

Prints the figures and appends them to bench/RESULTS-matchmaking.md.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import platform
import random
import statistics
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "server"))
sys.path.insert(0, str(ROOT / "clients" / "python"))

import orjson  # noqa: E402

from flotilla.cli import _wait_for_gateway  # noqa: E402
from flotilla.lobby.rooms import Rooms  # noqa: E402
from flotilla.lobby.tickets import MATCHED, queue_of  # noqa: E402
from flotilla.redis_server import RedisServer, free_port  # noqa: E402
from flotilla.store import keys  # noqa: E402
from flotilla.store.lobby_store import LobbyStore  # noqa: E402
from flotilla.store.redis_store import RedisStore  # noqa: E402


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else float("nan")


def ticket_data(rng: random.Random, i: int, now_ms: int) -> tuple[str, dict[str, Any]]:
    if i % 2:
        kind, options, counts, party = "counter", {}, [2], 1
    else:
        kind, options = "sail_away", {}
        counts = rng.choice(([2], [3], [4], [2, 3], [3, 4], [2, 3, 4]))
        party = 2 if rng.random() < 0.25 else 1
    data = {
        "kind": kind,
        "options": options,
        "seat_counts": counts,
        "party": [{"user": uuid.uuid4().hex, "name": f"p{i}.{m}"} for m in range(party)],
        "rating": rng.gauss(25, 8),
        "owner": "",
        "enqueued_ms": now_ms,
    }
    return queue_of(kind, options), data


async def run_tickets(redis_url: str, count: int, matchmakers: int, workdir: Path, rate: float = 0.0) -> dict[str, Any]:
    """Enqueue `count` tickets at once (`rate` 0) or at `rate` per second, and measure the matchmakers."""
    store = RedisStore.from_url(redis_url)
    await store.redis.flushall()
    lobby = LobbyStore(store.redis)
    env = dict(
        os.environ,
        REDIS_URL=redis_url,
        FLOTILLA_LOG_FORMAT="json",
        FLOTILLA_MM_ROLES="match",
        FLOTILLA_MM_BOT_FILL_AFTER="off",
    )
    log = (workdir / f"mm-{matchmakers}.log").open("ab")
    procs = [
        subprocess.Popen([sys.executable, "-m", "flotilla.cli", "matchmaker"], env=env, stdout=log, stderr=log)  # noqa: ASYNC220
        for _ in range(matchmakers)
    ]
    try:
        await asyncio.sleep(4.0)  # let them start and make a first (empty) pass
        rng = random.Random(7)
        tickets: dict[str, tuple[str, int]] = {}
        started = time.time()
        step = max(1, int(rate / 10)) if rate else 200
        for chunk in range(0, count, step):
            if rate:
                await asyncio.sleep(max(0.0, started + chunk / rate - time.time()))
            async with store.redis.pipeline(transaction=False) as pipe:
                for i in range(chunk, min(count, chunk + step)):
                    now_ms = int(time.time() * 1000)
                    queue, data = ticket_data(rng, i, now_ms)
                    ticket_id = uuid.uuid4().hex
                    pipe.sadd(keys.MM_QUEUES, queue)
                    await lobby._ticket_create(
                        keys=[
                            keys.mm_waiting(queue),
                            keys.mm_ticket(queue, ticket_id),
                            keys.mm_ticket_changes(queue, ticket_id),
                        ],
                        args=[ticket_id, orjson.dumps(data), now_ms, 3600],
                        client=pipe,
                    )
                    tickets[ticket_id] = (queue, now_ms)
                await pipe.execute()
        enqueued_s = time.time() - started
        queues = sorted({q for q, _ in tickets.values()})
        last, stable = -1, time.monotonic()
        deadline = time.monotonic() + 300
        while time.monotonic() < deadline:
            waiting = sum([await lobby.waiting_count(q) for q in queues])
            pending = sum([int(await store.redis.zcard(keys.mm_pending(q))) for q in queues])
            if waiting != last:
                last, stable = waiting, time.monotonic()
            elif pending == 0 and waiting < count and time.monotonic() - stable > 3:
                break
            await asyncio.sleep(0.1)
        latencies: list[float] = []
        seated_at: list[float] = []
        items = list(tickets.items())
        for chunk in range(0, len(items), 500):
            async with store.redis.pipeline(transaction=False) as pipe:
                for ticket_id, (queue, _) in items[chunk : chunk + 500]:
                    pipe.hget(keys.mm_ticket(queue, ticket_id), "state")
                    pipe.xrevrange(keys.mm_ticket_changes(queue, ticket_id), count=1)
                rows = await pipe.execute()
            for (_ticket_id, (_queue, enq_ms)), state, change in zip(
                items[chunk : chunk + 500], rows[0::2], rows[1::2], strict=True
            ):
                if state is not None and state.decode() == MATCHED and change:
                    at_ms = int(change[0][0].split(b"-")[0])
                    latencies.append((at_ms - enq_ms) / 1000)
                    seated_at.append(at_ms / 1000)
        # Throughput over the first 95% seated: rating outliers wait for their window to widen (by design),
        # and a few such stragglers would otherwise decide the figure.
        span = pct(seated_at, 0.95) - started if seated_at else float("nan")
        return {
            "arrival": f"{rate:.0f}/s" if rate else "all at once",
            "matchmakers": matchmakers,
            "tickets": count,
            "seated": len(latencies),
            "enqueue_s": enqueued_s,
            "per_s": 0.95 * len(latencies) / span,
            "p50": pct(latencies, 0.5),
            "p99": pct(latencies, 0.99),
        }
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(15)
        await store.close()


async def run_grpc_tickets(redis_url: str, count: int, rate: float, workdir: Path) -> dict[str, Any]:
    """Players over gRPC: sign in, CreateTicket (counter), WatchTicket until MATCHED; the client's clock."""
    from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mpb  # noqa: PLC0415
    from flotilla.api.matchmaking.v1 import matchmaking_service_pb2_grpc  # noqa: PLC0415
    from flotilla_client import FlotillaClient  # noqa: PLC0415

    store = RedisStore.from_url(redis_url)
    await store.redis.flushall()
    await store.close()
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, FLOTILLA_BIND=f"127.0.0.1:{port}", FLOTILLA_LOG_FORMAT="json")
    env["FLOTILLA_LIMITS"] = "off"  # hundreds of guests from 127.0.0.1; the limits' cost: bench/limits_cost.py
    log = (workdir / "grpc.log").open("ab")
    procs = [
        subprocess.Popen([sys.executable, "-m", "flotilla.cli", "gateway"], env=env, stdout=log, stderr=log),  # noqa: ASYNC220
        subprocess.Popen(  # noqa: ASYNC220
            [sys.executable, "-m", "flotilla.cli", "matchmaker"],
            env=dict(env, FLOTILLA_MM_ROLES="match", FLOTILLA_MM_BOT_FILL_AFTER="off"),
            stdout=log,
            stderr=log,
        ),
    ]
    try:
        _wait_for_gateway(f"127.0.0.1:{port}")
        await asyncio.sleep(2.0)
        async with FlotillaClient(f"127.0.0.1:{port}") as client:
            stub = matchmaking_service_pb2_grpc.MatchmakingServiceStub(client.channel)  # type: ignore[no-untyped-call]
            auth = client.auth
            from flotilla.api.game.v1 import game_service_pb2 as gpb  # noqa: PLC0415

            tokens = [
                (await auth.SignInAsGuest(gpb.SignInAsGuestRequest(display_name=f"p{i}"))).session_token
                for i in range(count)
            ]
            latencies: list[float] = []

            async def player(i: int) -> None:
                md = (("authorization", f"Bearer {tokens[i]}"),)
                t0 = time.perf_counter()
                request = mpb.CreateTicketRequest(kind="counter", seat_counts=[2], request_id=uuid.uuid4().hex)
                ticket = (await stub.CreateTicket(request, metadata=md, timeout=30)).ticket
                async for update in stub.WatchTicket(mpb.WatchTicketRequest(ticket=ticket.name), metadata=md):
                    if update.ticket.state == mpb.TICKET_STATE_MATCHED and update.ticket.seat_token:
                        latencies.append(time.perf_counter() - t0)
                        return

            started = time.perf_counter()
            tasks = []
            for i in range(count):
                await asyncio.sleep(max(0.0, started + i / rate - time.perf_counter()))
                tasks.append(asyncio.create_task(player(i)))
            await asyncio.wait_for(asyncio.gather(*tasks, return_exceptions=True), 120)
        return {
            "tickets": count,
            "rate": rate,
            "matched": len(latencies),
            "p50": pct(latencies, 0.5),
            "p99": pct(latencies, 0.99),
        }
    finally:
        for proc in procs:
            proc.terminate()
        for proc in procs:
            proc.wait(15)


async def run_rooms(redis_url: str, count: int, samples: int, workdir: Path) -> dict[str, Any]:
    from flotilla.api.lobby.v1 import lobby_service_pb2 as pb  # noqa: PLC0415
    from flotilla.api.lobby.v1 import lobby_service_pb2_grpc  # noqa: PLC0415
    from flotilla_client import FlotillaClient  # noqa: PLC0415

    store = RedisStore.from_url(redis_url)
    await store.redis.flushall()
    rooms = Rooms(LobbyStore(store.redis), None)  # type: ignore[arg-type]  # no room is started here
    rng = random.Random(3)
    gate = asyncio.Semaphore(64)

    async def make(i: int) -> None:
        async with gate:
            kind, seats = ("sail_away", rng.choice((2, 3, 4))) if i % 2 else ("counter", 2)
            _, room = await rooms.create(uuid.uuid4().hex, f"h{i}", kind, seats, {}, public=True, request_id=str(i))
            for _ in range(rng.randint(0, seats - 1)):
                await rooms.join(room["id"], uuid.uuid4().hex, "guest", "", None)

    started = time.time()
    await asyncio.gather(*(make(i) for i in range(count)))
    created_s = time.time() - started
    port = free_port()
    env = dict(os.environ, REDIS_URL=redis_url, FLOTILLA_BIND=f"127.0.0.1:{port}", FLOTILLA_LOG_FORMAT="json")
    env["FLOTILLA_LIMITS"] = "off"  # hundreds of guests from 127.0.0.1; the limits' cost: bench/limits_cost.py
    log = (workdir / "gateway.log").open("ab")
    gateway = subprocess.Popen([sys.executable, "-m", "flotilla.cli", "gateway"], env=env, stdout=log, stderr=log)  # noqa: ASYNC220
    try:
        _wait_for_gateway(f"127.0.0.1:{port}")
        async with FlotillaClient(f"127.0.0.1:{port}") as client:
            await client.sign_in("bench")
            stub = lobby_service_pb2_grpc.LobbyServiceStub(client.channel)  # type: ignore[no-untyped-call]
            md = (("authorization", f"Bearer {client.session_token}"),)
            times: list[float] = []
            token = ""
            sizes = []
            for _ in range(samples):
                request = pb.ListRoomsRequest(kind="sail_away", min_open_seats=2, page_size=50, page_token=token)
                t0 = time.perf_counter()
                reply = await stub.ListRooms(request, metadata=md, timeout=30)
                times.append(time.perf_counter() - t0)
                sizes.append(len(reply.rooms))
                token = reply.next_page_token if rng.random() < 0.8 else ""
        return {
            "rooms": count,
            "create_s": created_s,
            "samples": samples,
            "page": statistics.mean(sizes),
            "p50_ms": pct(times, 0.5) * 1000,
            "p99_ms": pct(times, 0.99) * 1000,
        }
    finally:
        gateway.terminate()
        gateway.wait(15)
        await store.close()


def machine() -> str:
    model = ""
    try:
        for line in subprocess.run(["lscpu"], capture_output=True, text=True, check=False).stdout.splitlines():
            if line.startswith("Model name:"):
                model = line.split(":", 1)[1].strip()
    except OSError:
        pass
    return f"nproc {os.cpu_count()}, {model or platform.processor()}, Python {platform.python_version()}"


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--tickets", type=int, default=10_000)
    parser.add_argument("--rooms", type=int, default=10_000)
    parser.add_argument("--samples", type=int, default=500)
    parser.add_argument("--matchmakers", default="1,3")
    parser.add_argument("--rate", type=float, default=150.0, help="arrival rate of the steady runs (tickets/s)")
    parser.add_argument("--steady", type=int, default=3000, help="tickets of the steady runs (0: none)")
    parser.add_argument("--grpc", type=int, default=1000, help="players of the gRPC run (0: none)")
    parser.add_argument("--no-record", action="store_true")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        workdir = Path(tmp)
        redis = RedisServer(workdir / "redis", aof=False).start()
        try:
            ticket_rows = [
                await run_tickets(redis.url, args.tickets, int(k), workdir) for k in args.matchmakers.split(",")
            ]
            if args.steady:
                ticket_rows += [
                    await run_tickets(redis.url, args.steady, int(k), workdir, args.rate)
                    for k in args.matchmakers.split(",")
                ]
            grpc_row = await run_grpc_tickets(redis.url, args.grpc, 100.0, workdir) if args.grpc else None
            room_row = await run_rooms(redis.url, args.rooms, args.samples, workdir)
        finally:
            redis.stop()
    lines = [
        f"## {time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime())}",
        "",
        f"`python bench/matchmaking.py --tickets {args.tickets} --rooms {args.rooms} --samples {args.samples}"
        f" --matchmakers {args.matchmakers} --steady {args.steady} --rate {args.rate:.0f} --grpc {args.grpc}`"
        f" on {machine()}"
        " (shared with other jobs). Tickets go straight into Redis (the CreateTicket script);"
        " seated = the ticket's game exists with its players seated (Redis clock).",
        "",
        "| arrival | matchmakers | tickets | seated | enqueue (s) | seated/s (to 95%)"
        " | enqueue->seated p50 (s) | p99 |",
        "|---|---|---|---|---|---|---|---|",
        *(
            f"| {r['arrival']} | {r['matchmakers']} | {r['tickets']} | {r['seated']} | {r['enqueue_s']:.2f}"
            f" | {r['per_s']:.0f}"
            f" | {r['p50']:.3f} | {r['p99']:.3f} |"
            for r in ticket_rows
        ),
        "",
        *(
            [
                f"Over gRPC (one gateway, one matchmaker): {grpc_row['tickets']} players at"
                f" {grpc_row['rate']:.0f}/s, CreateTicket -> WatchTicket says MATCHED with a seat token:"
                f" {grpc_row['matched']} matched, p50 {grpc_row['p50']:.3f} s, p99 {grpc_row['p99']:.3f} s.",
                "",
            ]
            if grpc_row
            else []
        ),
        "| open rooms | ListRooms(kind, min_open_seats=2, 50/page) calls | mean page | p50 (ms) | p99 (ms) |",
        "|---|---|---|---|---|",
        f"| {room_row['rooms']} | {room_row['samples']} | {room_row['page']:.0f} | {room_row['p50_ms']:.2f}"
        f" | {room_row['p99_ms']:.2f} |",
        "",
    ]
    text = "\n".join(lines)
    print(text)
    if not args.no_record:
        results = ROOT / "bench" / "RESULTS-matchmaking.md"
        if not results.exists():
            results.write_text("# Matchmaking and lobby benchmark results\n\nAppended by `bench/matchmaking.py`.\n\n")
        with results.open("a") as out:
            out.write(text + "\n")


if __name__ == "__main__":
    asyncio.run(main())
