"""Errors and retries: a refused call raises FlotillaError with the gRPC code, a message and the
ErrorInfo reason (a stable ERROR_REASON_* name to branch on). UNAVAILABLE, DEADLINE_EXCEEDED and
OVERLOADED/RATE_LIMITED refusals are retried by the client (after the server's RetryInfo delay,
with jittered backoff, failing over between targets); request ids make retried writes safe.

python errors.py [127.0.0.1:50051]
"""

from __future__ import annotations

import asyncio
import sys

import grpc

from flotilla_client import FlotillaClient, FlotillaError


async def main(target: str) -> None:
    # Several targets: a call that finds one down goes on to the next. `retries` bounds the attempts.
    async with FlotillaClient(target, target, retries=4, backoff_s=0.1, timeout_s=10) as client:
        await client.sign_in("careful")
        try:
            await client.create_game("sail_away", seats=9)
        except FlotillaError as error:
            if error.code != grpc.StatusCode.INVALID_ARGUMENT:
                raise
            print("refused:", error.reason, "-", error.message)
        game = await client.create_game("sail_away", seats=2, request_id="my-game-1")
        again = await client.create_game("sail_away", seats=2, request_id="my-game-1")  # a retry: the same game
        assert again.name == game.name
        async with FlotillaClient(target) as other:  # a game starts once its seats are taken
            await other.sign_in("other")
            seats = [(client, await client.join(game.name)), (other, await other.join(game.name))]
            views = [await c.view(game.name, seat) for c, seat in seats]
            (mover, seat), view = next((s, v) for s, v in zip(seats, views, strict=True) if v.HasField("prompt"))
            action, etag = view.prompt.legal_actions[0], view.prompt.etag
            await mover.submit(game.name, seat, action, etag=etag)
            try:  # the same etag again (a new request id): the game has moved on since
                await mover.submit(game.name, seat, action, etag=etag)
            except FlotillaError as error:  # ABORTED (or FAILED_PRECONDITION): take the next prompt's etag
                print("stale move refused:", error.code.name, error.reason)


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"))
