"""Sign-in and token refresh: who gets which token (AuthService's rules, without the wire).

A guest signs in with a display name (unless the operator turned guests off); a bot account with
an API key (its user is the key's). A token is refreshed while what it stands for still holds: not
an identity provider's (refreshed with that provider), its API key not revoked, guests still on
for a guest's, and for a seat token its seat still held (app/authorize.py `seat_kept`). Each call
takes `admit`, the edge's rate limit for the caller (None: anonymous), checked where the rules
above say: after a refusal that costs nothing, before any work.
"""

from __future__ import annotations

import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass

import structlog

from flotilla.app import inputs
from flotilla.app.authorize import seat_kept
from flotilla.app.errors import ApiKeyInvalid, GuestsDisabled, TokenNotRefreshable
from flotilla.bots import POLICIES
from flotilla.identity.principal import BOT_ACCOUNT, GUEST
from flotilla.identity.tokens import Tokens
from flotilla.store.auth_store import AuthStore
from flotilla.store.redis_store import RedisStore

log = structlog.get_logger("flotilla.gateway")  # the logger these lines always had (AuthService)

Admit = Callable[[str | None], Awaitable[None]]
"""The edge's rate limit for a caller (its user, None for anonymous): raises RateLimited."""


@dataclass(frozen=True, slots=True)
class Issued:
    """A token given out, for `user`, and its lifetime in seconds."""

    user: str
    token: str
    expires_in: int


class Sessions:
    """Sign-in and refresh over one store."""

    def __init__(self, store: RedisStore, tokens: Tokens, auth: AuthStore, *, guests: bool = True) -> None:
        self.store = store
        self.tokens = tokens
        self.auth = auth
        self.guests = guests

    async def sign_in_as_guest(self, display_name: str, admit: Admit) -> Issued:
        """A new guest user and its session token (GuestsDisabled when guests are off)."""
        if not self.guests:
            raise GuestsDisabled("guest sign-in is off here: use the operator's identity provider or an API key")
        await admit(None)
        name = inputs.person_name(display_name, POLICIES)
        user = uuid.uuid4().hex
        await self.store.create_user(user, name, int(time.time() * 1000), kind=GUEST)
        log.info("auth.guest_signed_in", user=user)
        return Issued(user, self.tokens.session(user, name), self.tokens.session_ttl_s)

    async def sign_in_with_api_key(self, api_key: str, admit: Admit) -> Issued:
        """The session token of an API key's bot account (ApiKeyInvalid: unknown or revoked)."""
        await admit(None)
        key = await self.auth.check_api_key(api_key)
        if key is None:
            raise ApiKeyInvalid("unknown or revoked API key (keys look like flk_<id>_<secret>)")
        name = inputs.bot_account_name(key.name, POLICIES)
        await self.store.create_user(key.user, name, int(time.time() * 1000), kind=BOT_ACCOUNT)
        log.info("auth.api_key_signed_in", user=key.user, api_key=key.key_id)
        token = self.tokens.session(key.user, name, api_key=key.key_id)
        return Issued(key.user, token, self.tokens.session_ttl_for(key.key_id))

    async def refresh(self, token: str, admit: Admit) -> Issued:
        """A fresh token standing for what `token` stands for, while that still holds."""
        who = await self.tokens.verify(token)
        await admit(who.user)
        if who.external:
            raise TokenNotRefreshable("an identity provider's token is refreshed with that provider")
        if who.api_key and await self.auth.api_key(who.api_key) is None:
            raise ApiKeyInvalid("the API key of this token was revoked")
        if not who.api_key and not self.guests:
            raise GuestsDisabled("guest sessions are off here: sign in with the operator's identity provider")
        if who.game is None or who.seat is None:
            if not who.api_key:
                await self.store.keep_user(who.user)
            fresh = self.tokens.session(who.user, who.name, api_key=who.api_key)
            return Issued(who.user, fresh, self.tokens.session_ttl_for(who.api_key))
        await seat_kept(self.store, self.auth, who.game, who.seat, who.user)
        fresh = self.tokens.seat(who.game, who.seat, who.user, who.name, api_key=who.api_key)
        return Issued(who.user, fresh, self.tokens.seat_ttl_for(who.api_key))
