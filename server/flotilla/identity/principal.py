"""Who is calling, whichever credential they showed."""

from __future__ import annotations

import math
from dataclasses import dataclass

from flotilla.records import ACCOUNT, BOT_ACCOUNT, GUEST  # what kind of user someone is (stored values)

__all__ = ["ACCOUNT", "BOT_ACCOUNT", "GUEST", "Principal"]


@dataclass(frozen=True, slots=True)
class Principal:
    """A user, and for seat tokens the game and seat they act for."""

    user: str
    name: str
    game: str | None = None
    seat: int | None = None
    expires: float = math.inf  # the token's exp (unix seconds)
    api_key: str = ""  # the API key id of a bot's token
    external: bool = False  # an external issuer's token (refreshed with that issuer)

    @property
    def is_seat(self) -> bool:
        return self.game is not None

    @property
    def is_bot_account(self) -> bool:
        """A bot account's token (an API key's): held to the `_per_bot` limits."""
        return bool(self.api_key)

    @property
    def is_guest(self) -> bool:
        """A guest's token (SignInAsGuest): neither an API key's nor an identity provider's."""
        return not self.api_key and not self.external

    @property
    def kind(self) -> str:
        """ACCOUNT, GUEST or BOT_ACCOUNT: what players are shown beside this user's name."""
        if self.api_key:
            return BOT_ACCOUNT
        return GUEST if self.is_guest else ACCOUNT
