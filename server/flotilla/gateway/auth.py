"""The caller of an RPC: the bearer token of its metadata, verified (identity/tokens.py)."""

from __future__ import annotations

import grpc

from flotilla.app.errors import Unauthenticated
from flotilla.identity.principal import Principal
from flotilla.identity.tokens import Tokens

__all__ = ["Principal", "Tokens", "bearer", "principal_of", "session_of"]


def bearer(context: grpc.aio.ServicerContext) -> str | None:  # type: ignore[type-arg]
    """The token of the call's `authorization: Bearer <token>` metadata (None when absent)."""
    for key, value in context.invocation_metadata() or ():
        if key == "authorization":
            text = value if isinstance(value, str) else value.decode()
            scheme, _, token = text.partition(" ")
            if scheme.lower() != "bearer" or not token:
                raise Unauthenticated("authorization must be 'Bearer <token>'")
            return token.strip()
    return None


async def principal_of(
    tokens: Tokens,
    context: grpc.aio.ServicerContext,  # type: ignore[type-arg]
    *,
    required: bool = True,
) -> Principal | None:
    """Who is calling (None for an anonymous call when that is allowed)."""
    token = bearer(context)
    if token is None:
        if required:
            raise Unauthenticated("send 'authorization: Bearer <token>' (sign in with AuthService)")
        return None
    return await tokens.verify(token)


async def session_of(tokens: Tokens, context: grpc.aio.ServicerContext) -> Principal:  # type: ignore[type-arg]
    """The user of a call that needs one: a session token or an issuer's JWT, never a seat token
    (a seat token only acts for its seat: it is a capability a user may hand to a bot)."""
    who = await principal_of(tokens, context)
    assert who is not None  # required: Unauthenticated otherwise
    if who.is_seat:
        raise Unauthenticated("this call needs your session token; a seat token only acts for its seat")
    return who
