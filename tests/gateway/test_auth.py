"""Tokens: what verifies and what does not."""

from __future__ import annotations

import pytest

from flotilla.app.errors import Unauthenticated
from flotilla.gateway.auth import Tokens


def test_session_and_seat_tokens_round_trip() -> None:
    tokens = Tokens(b"k" * 32)
    session = tokens.verify(tokens.session("u1", "Ada"))
    assert (session.user, session.name, session.game, session.seat) == ("u1", "Ada", None, None)
    seat = tokens.verify(tokens.seat("g1", 2, "u1", "Ada"))
    assert (seat.user, seat.game, seat.seat) == ("u1", "g1", 2)


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t + "x",
        lambda t: t.replace("t1.", "s1.", 1),
        lambda t: "garbage",
        lambda t: "",
        lambda t: "a.b.c",
    ],
)
def test_forged_or_malformed_tokens_are_refused(mangle) -> None:  # type: ignore[no-untyped-def]
    tokens = Tokens(b"k" * 32)
    with pytest.raises(Unauthenticated):
        tokens.verify(mangle(tokens.seat("g1", 0, "u1", "Ada")))


def test_a_token_from_another_key_is_refused() -> None:
    with pytest.raises(Unauthenticated):
        Tokens(b"a" * 32).verify(Tokens(b"b" * 32).session("u", "n"))


def test_expired_sessions_are_refused() -> None:
    tokens = Tokens(b"k" * 32, session_ttl_s=-1)
    with pytest.raises(Unauthenticated):
        tokens.verify(tokens.session("u", "n"))
