"""The seed commitment check any client can make without a rules engine.

A game publishes `Game.seed_sha256` when it is created: the SHA-256 of its seed's 16 raw bytes
(big-endian), not of the hex text. Its record reveals the seed (hex) once it is over.
"""

from __future__ import annotations

import hashlib

from flotilla_client.api.game.v1 import game_service_pb2 as g


class VerificationFailed(Exception):
    """The server's record does not match what it announced."""


def seed_sha256(seed_hex: str) -> str:
    """The commitment to a seed given as hex: SHA-256 of its 16 bytes, big-endian, as hex."""
    return hashlib.sha256(int(seed_hex, 16).to_bytes(16, "big")).hexdigest()


def check_commitment(record: g.GetGameRecordResponse, commitment: str = "") -> None:
    """Raise VerificationFailed unless the record's revealed seed matches `commitment` (what the
    caller saw when the game began; without it, the one in the record)."""
    if seed_sha256(record.seed) != (commitment or record.game.seed_sha256):
        raise VerificationFailed("the revealed seed does not match the commitment")
