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


@pytest.mark.parametrize(
    ("kind", "payload"),
    [
        ("s1", {"u": "u1", "n": "Ada"}),  # no expiry
        ("s1", {"u": "u1", "n": "Ada", "x": "soon"}),
        ("s1", {"u": "u1", "n": "Ada", "x": True}),
        ("s1", {"u": 1, "n": "Ada", "x": 2**40}),
        ("s1", {"n": "Ada", "x": 2**40}),
        ("s1", [1, 2, 3]),
        ("s1", "u1"),
        ("s1", None),
        ("t1", {"u": "u1", "n": "Ada", "g": "g1"}),  # no seat
        ("t1", {"u": "u1", "n": "Ada", "g": "g1", "s": "0"}),
        ("t1", {"u": "u1", "n": "Ada", "g": "g1", "s": -1}),
        ("t1", {"u": "u1", "n": "Ada", "g": "g1", "s": 2**40}),
        ("t1", {"u": "u1", "n": "Ada", "g": ["g1"], "s": 0}),
        ("t1", {"u": "u1", "n": None, "g": "g1", "s": 0}),
    ],
)
def test_a_well_signed_token_with_a_malformed_payload_is_refused(kind: str, payload: object) -> None:
    tokens = Tokens(b"k" * 32)
    with pytest.raises(Unauthenticated, match="payload"):
        tokens.verify(tokens._sign(kind, payload))  # type: ignore[arg-type]
