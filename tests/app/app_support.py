"""The app layer's parts as a gateway builds them (tests/app/conftest.py makes them)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.app.authorize import Access
from flotilla.app.games import Games
from flotilla.app.limits import Limiter
from flotilla.store.auth_store import AuthStore
from flotilla.store.redis_store import RedisStore


@dataclass
class App:
    """What a gateway builds for its game servicer, minus the wire."""

    store: RedisStore
    games: Games
    access: Access
    auth: AuthStore
    limiter: Limiter
