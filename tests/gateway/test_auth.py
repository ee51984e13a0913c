"""Flotilla's tokens (JWTs, HS256, kid): what verifies and what does not."""

from __future__ import annotations

import base64
import json

import jwt
import pytest

from flotilla.app.errors import TokenExpired, Unauthenticated
from flotilla.identity.keycache import KeySet
from flotilla.identity.tokens import AUDIENCE, ISSUER, Lifetimes, parse_pinned
from support import pinned_tokens

KEYS = KeySet({"k1": b"k" * 32}, current="k1")


async def test_session_and_seat_tokens_round_trip_with_standard_claims() -> None:
    tokens = pinned_tokens(KEYS, Lifetimes(session_s=600, seat_s=300))
    session_token = tokens.session("u1", "Ada")
    session = await tokens.verify(session_token)
    assert (session.user, session.name, session.game, session.seat, session.is_seat) == ("u1", "Ada", None, None, False)
    assert jwt.get_unverified_header(session_token) == {"alg": "HS256", "kid": "k1", "typ": "JWT"}
    claims = jwt.decode(session_token, options={"verify_signature": False})
    assert (claims["iss"], claims["aud"], claims["typ"], claims["sub"]) == (ISSUER, AUDIENCE, "session", "u1")
    assert claims["exp"] - claims["iat"] == 600
    seat_token = tokens.seat("g1", 2, "u1", "Ada")
    seat = await tokens.verify(seat_token)
    assert (seat.user, seat.game, seat.seat, seat.is_seat) == ("u1", "g1", 2, True)
    claims = jwt.decode(seat_token, options={"verify_signature": False})
    assert claims["exp"] - claims["iat"] == 300  # seat tokens expire too


async def test_an_api_keys_tokens_are_short_lived_and_name_the_key() -> None:
    tokens = pinned_tokens(KEYS, Lifetimes(session_s=600, seat_s=300, api_key_session_s=60))
    for token in (tokens.session("u", "bot", api_key="abc"), tokens.seat("g", 0, "u", "bot", api_key="abc")):
        claims = jwt.decode(token, options={"verify_signature": False})
        assert (claims["exp"] - claims["iat"], claims["akid"]) == (60, "abc")
        assert (await tokens.verify(token)).api_key == "abc"


def _unsigned(claims: dict[str, object], alg: str = "none") -> str:
    def part(data: dict[str, object]) -> str:
        return base64.urlsafe_b64encode(json.dumps(data).encode()).rstrip(b"=").decode()

    return f"{part({'alg': alg, 'kid': 'k1'})}.{part(claims)}."


@pytest.mark.parametrize(
    "mangle",
    [
        lambda t: t + "x",
        lambda t: t[:-4] + ("AAAA" if not t.endswith("AAAA") else "BBBB"),  # signature
        lambda t: "garbage",
        lambda t: "",
        lambda t: "a.b.c",
        lambda t: _unsigned(jwt.decode(t, options={"verify_signature": False})),  # alg none
        lambda t: _unsigned(jwt.decode(t, options={"verify_signature": False}), "HS256"),  # no signature
    ],
)
async def test_forged_or_malformed_tokens_are_refused(mangle) -> None:  # type: ignore[no-untyped-def]
    tokens = pinned_tokens(KEYS)
    with pytest.raises(Unauthenticated):
        await tokens.verify(mangle(tokens.seat("g1", 0, "u1", "Ada")))


async def test_a_token_from_another_key_or_an_unknown_kid_is_refused() -> None:
    ours = pinned_tokens(KEYS)
    with pytest.raises(Unauthenticated, match="signing key"):
        await ours.verify(pinned_tokens(KeySet({"k2": b"b" * 32}, "k2")).session("u", "n"))
    with pytest.raises(Unauthenticated, match="signature"):  # same kid, another secret
        await ours.verify(pinned_tokens(KeySet({"k1": b"b" * 32}, "k1")).session("u", "n"))


async def test_another_issuer_or_audience_is_refused() -> None:
    tokens = pinned_tokens(KEYS)
    for claims in ({"iss": "someone"}, {"aud": "elsewhere"}):
        forged = jwt.encode(
            {
                "iss": ISSUER,
                "aud": AUDIENCE,
                "iat": 0,
                "exp": 2**33,
                "typ": "session",
                "sub": "u",
                "name": "n",
                **claims,
            },
            b"k" * 32,
            headers={"kid": "k1"},
        )
        with pytest.raises(Unauthenticated, match="claims"):
            await tokens.verify(forged)


async def test_expired_tokens_are_refused_as_expired() -> None:
    tokens = pinned_tokens(KEYS, Lifetimes(session_s=-60, seat_s=-60))
    for token in (tokens.session("u", "n"), tokens.seat("g", 0, "u", "n")):
        with pytest.raises(TokenExpired):
            await tokens.verify(token)


async def test_older_keys_still_verify_after_a_rotation() -> None:
    before = pinned_tokens(KeySet({"k1": b"k" * 32}, "k1"))
    after = pinned_tokens(KeySet({"k2": b"j" * 32, "k1": b"k" * 32}, "k2"))
    old = before.session("u", "n")
    assert (await after.verify(old)).user == "u"
    assert jwt.get_unverified_header(after.session("u", "n"))["kid"] == "k2"


@pytest.mark.parametrize(
    "claims",
    [
        {"typ": "session", "name": "Ada"},  # no subject
        {"typ": "session", "sub": 1, "name": "Ada"},
        {"typ": "session", "sub": "u", "name": None},
        {"typ": "session", "sub": "u", "name": "n", "game": "g1", "seat": 0},  # a session naming a seat
        {"typ": "seat", "sub": "u", "name": "n", "game": "g1"},  # no seat
        {"typ": "seat", "sub": "u", "name": "n", "game": "g1", "seat": "0"},
        {"typ": "seat", "sub": "u", "name": "n", "game": "g1", "seat": -1},
        {"typ": "seat", "sub": "u", "name": "n", "game": "g1", "seat": 2**40},
        {"typ": "seat", "sub": "u", "name": "n", "game": "g1", "seat": True},
        {"typ": "seat", "sub": "u", "name": "n", "game": ["g1"], "seat": 0},
        {"typ": "seat", "sub": "u", "name": "n", "game": "../x", "seat": 0},
        {"typ": "admin", "sub": "u", "name": "n"},
        {"typ": "session", "sub": "u", "name": "n", "akid": 5},
    ],
)
async def test_a_well_signed_token_with_malformed_claims_is_refused(claims: dict[str, object]) -> None:
    tokens = pinned_tokens(KEYS)
    with pytest.raises(Unauthenticated, match=r"payload|claims"):
        await tokens.verify(tokens._sign(claims, 60))


def test_pinned_keys_come_as_kid_secret_pairs_or_one_plain_secret() -> None:
    two, one = "secret-two-" + "2" * 21, "secret-one-" + "1" * 21
    pairs = parse_pinned(f"new:{two}, old:{one}")
    assert (pairs.current, dict(pairs.keys)) == ("new", {"new": two.encode(), "old": one.encode()})
    odd = "just a secret: with, odd characters"
    plain = parse_pinned(odd)
    assert plain.current is not None
    assert plain.current.startswith("pinned-")
    assert dict(plain.keys) == {plain.current: odd.encode()}
    assert "secret" not in plain.current


@pytest.mark.parametrize("secret", ["changeme", "new:" + "x" * 32 + ",old:short", "k:" + "y" * 31])
def test_a_pinned_secret_shorter_than_32_bytes_is_refused(secret: str) -> None:
    with pytest.raises(ValueError, match="shorter than 32 bytes") as refused:
        parse_pinned(secret)
    assert "changeme" not in str(refused.value)  # the message names kids, never secrets
