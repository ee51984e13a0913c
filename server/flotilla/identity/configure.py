"""Tokens as the settings say: pinned keys or the key set in Redis, and the external issuer if any."""

from __future__ import annotations

import time

from flotilla.identity.external import ExternalIssuer, IssuerConfig
from flotilla.identity.keycache import KeyCache, KeySet
from flotilla.identity.tokens import Lifetimes, Tokens, parse_pinned
from flotilla.settings import Settings
from flotilla.store.auth_store import AuthStore
from flotilla.store.redis_store import RedisStore


def lifetimes(settings: Settings) -> Lifetimes:
    """The token lifetimes the settings give."""
    return Lifetimes(settings.session_ttl_s, settings.seat_token_ttl_s, settings.api_key_session_ttl_s)


def issuer_config(settings: Settings) -> IssuerConfig | None:
    """The external issuer the settings name (None without FLOTILLA_OIDC_ISSUER); ValueError if incomplete."""
    if not settings.oidc_issuer:
        return None
    return IssuerConfig(
        issuer=settings.oidc_issuer,
        audience=settings.oidc_audience,
        jwks_url=settings.oidc_jwks_url,
        jwks_file=settings.oidc_jwks_file,
        algorithms=tuple(a.strip() for a in settings.oidc_algorithms.split(",") if a.strip()),
        keys_ttl_s=settings.oidc_keys_ttl_s,
        name_claim=settings.oidc_name_claim,
    )


async def start_tokens(settings: Settings, store: RedisStore, *, external: bool = True) -> Tokens:
    """Started Tokens (keys loaded, refreshes running); `close_tokens` stops them."""
    if settings.secret:
        pinned = parse_pinned(settings.secret)

        async def load() -> KeySet[bytes]:
            return pinned

        keys = KeyCache(load, name="pinned", refresh_s=0)
    else:
        auth = AuthStore.of(store)

        async def load() -> KeySet[bytes]:
            stored = await auth.key_set()
            return KeySet(stored.keys, current=stored.current)

        keys = KeyCache(load, name="redis", refresh_s=settings.keys_refresh_s)
    await keys.start()
    issuer = None
    config = issuer_config(settings) if external else None
    if config is not None:

        async def remember(user: str, name: str) -> None:
            await store.create_user(user, name, int(time.time() * 1000))

        issuer = ExternalIssuer(config, remember)
        await issuer.start()
    return Tokens(keys, lifetimes(settings), issuer)


async def close_tokens(tokens: Tokens) -> None:
    """Stop the key refreshes `start_tokens` started."""
    await tokens.keys.close()
    if tokens.external is not None:
        await tokens.external.close()
