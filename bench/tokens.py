"""Cost of checking a token: a full PyJWT decode (HS256, and an external issuer's RS256/ES256)
and a remembered token (what the move path pays). Run: .venv/bin/python bench/tokens.py"""

from __future__ import annotations

import asyncio
import json
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import jwt
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from jwt.algorithms import ECAlgorithm, RSAAlgorithm

from flotilla.identity.external import ExternalIssuer, IssuerConfig
from flotilla.identity.keycache import KeyCache, KeySet
from flotilla.identity.tokens import Tokens

N = 5000


async def per_call_us(check: Callable[[], Awaitable[object]]) -> float:
    for _ in range(200):
        await check()
    started = time.perf_counter()
    for _ in range(N):
        await check()
    return (time.perf_counter() - started) / N * 1e6


async def main() -> None:
    keys = KeySet({"k1": b"k" * 32}, "k1")

    async def load() -> KeySet[bytes]:
        return keys

    cache: KeyCache[bytes] = KeyCache(load, name="bench", refresh_s=0)
    await cache.start()
    rsa_key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    ec_key = ec.generate_private_key(ec.SECP256R1())
    jwks = Path(tempfile.mkdtemp()) / "jwks.json"
    published = [
        {**RSAAlgorithm.to_jwk(rsa_key.public_key(), as_dict=True), "kid": "r", "alg": "RS256"},
        {**ECAlgorithm.to_jwk(ec_key.public_key(), as_dict=True), "kid": "e", "alg": "ES256"},
    ]
    jwks.write_text(json.dumps({"keys": published}))
    issuer = ExternalIssuer(IssuerConfig("https://id.test/", "bench", jwks_file=str(jwks), keys_ttl_s=3600))
    await issuer.start()
    tokens = Tokens(cache, external=issuer)
    seat = tokens.seat("g1", 0, "u1", "Ada")
    now = int(time.time())
    claims = {"iss": "https://id.test/", "aud": "bench", "sub": "s", "exp": now + 600, "name": "X"}
    rs256 = jwt.encode(claims, rsa_key, "RS256", {"kid": "r"})
    es256 = jwt.encode(claims, ec_key, "ES256", {"kid": "e"})
    sign = await per_call_us(lambda: asyncio.sleep(0, tokens.seat("g", 0, "u", "n")))
    print(f"sign a seat token (HS256):      {sign:7.1f} us")
    for name, token in (("seat token (HS256)", seat), ("issuer token (RS256)", rs256), ("issuer token (ES256)", es256)):
        print(f"full check, {name}: {await per_call_us(lambda t=token: tokens._verify(t)):7.1f} us")  # type: ignore[misc]
    print(f"remembered token (move path):   {await per_call_us(lambda: tokens.verify(seat)):7.1f} us")
    await issuer.close()
    await cache.close()


if __name__ == "__main__":
    asyncio.run(main())
