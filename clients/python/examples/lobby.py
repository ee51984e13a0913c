"""Rooms: a host opens a room, a friend joins and says ready, the host starts it; both get
their seat tokens. Then a matchmaking ticket, a party and the leaderboard.

python lobby.py [127.0.0.1:50051]
"""

from __future__ import annotations

import asyncio
import sys

from flotilla_client import FlotillaClient, Seat


async def main(target: str) -> None:
    async with FlotillaClient(target) as host, FlotillaClient(target) as friend:
        await host.sign_in("host")
        await friend.sign_in("friend")
        room = await host.create_room("sail_away", seats=2, options={"max_rounds": "2"}, display_name="Friday game")
        await friend.join_room(room.name)
        await friend.set_ready(room.name)
        started = await host.start_room(room.name)
        async for update in friend.watch_room(room.name):  # ends when the room has started
            friend_token = update.seat_token
        seats = [Seat(started.room.game, 0, started.seat_token), Seat(started.room.game, 1, friend_token)]
        print("started", started.room.game, "seats", [s.seat for s in seats])

        ticket = await host.create_ticket("sail_away", seat_counts=[2, 3])  # a matchmaker forms games
        print("ticket", (await host.get_ticket(ticket.name)).name)
        await host.cancel_ticket(ticket.name)

        party = await host.create_party()
        await host.invite_to_party(party.name, friend.user)
        await friend.accept_party_invite(party.name)
        print("party of", len((await host.get_party(party.name)).members))
        await host.leave_party(party.name)

        board = await host.list_leaderboard("sail_away", page_size=10)
        print("leaderboard rows", len(board.ratings))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1] if len(sys.argv) > 1 else "127.0.0.1:50051"))
