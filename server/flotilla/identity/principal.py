"""Who is calling, whichever credential they showed."""

from __future__ import annotations

import math
from dataclasses import dataclass


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
    def is_guest(self) -> bool:
        """A guest's token (SignInAsGuest): neither an API key's nor an identity provider's."""
        return not self.api_key and not self.external
