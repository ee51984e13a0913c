"""Who may see a room, and a room member's seat token for the room's game.

A private room shows itself to a user who does not sit in it only with its join code, and checking
a code is a guess against the `code_guess` limits (app/authorize.py `guessing`). A member of a
started room is given its seat's token for the game while the seat is still its own: not left, not
absent (app/games.py `still_seated`), so no token outlives its seat's revocation.
"""

from __future__ import annotations

from flotilla.app.authorize import Address, guessing
from flotilla.app.errors import GameNotFound, NotSeated, SeatAbsent
from flotilla.app.limits import Limiter
from flotilla.identity.principal import Principal
from flotilla.identity.tokens import Tokens
from flotilla.lobby.room_document import STARTED, Room, needs_code, room_id_of, seat_of
from flotilla.lobby.rooms import Rooms
from flotilla.records import RoomRow


async def admitted(rooms: Rooms, limiter: Limiter, who: Principal, name: str, code: str, address: Address) -> RoomRow:
    """The room `name` (or, when it is empty, the one whose join code `code` is), if `who` may see
    it: a private room it does not sit in needs its code, and checking one is a guess (a wrong code
    counts, a locked caller is refused whatever its code)."""
    if name:
        row = await rooms.get(room_id_of(name))
        if not needs_code(row.room, who.user):
            return row
    async with guessing(limiter, who.user, code, address):
        return await rooms.get(await rooms.find(name, code), who.user, code)


async def seat_token(rooms: Rooms, tokens: Tokens, room: Room, who: Principal) -> str:
    """The caller's seat token for the room's game once it started ("" for none, or once the seat
    left or went absent)."""
    mine = seat_of(room, who.user)
    if room["status"] != STARTED or mine is None:
        return ""
    try:
        await rooms.games.still_seated(room["game"], mine, who.user)
    except (NotSeated, GameNotFound, SeatAbsent):
        return ""
    return tokens.seat(room["game"], mine, who.user, who.name, api_key=who.api_key)
