"""The seed commitment check any client can make without a rules engine (docs/fairness.md).

A game publishes `Game.seed_sha256` when it is created: the SHA-256 of its seed's 16 raw bytes
(big-endian), not of the hex text. Its record reveals the seed (hex) once it is over.
`flotilla_client.fairness` recomputes the deal from it.
"""

from __future__ import annotations

from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client import fairness


class VerificationFailed(Exception):
    """The server's record does not match what it announced."""


def seed_sha256(seed_hex: str) -> str:
    """The commitment to a seed given as 32 hex digits: SHA-256 of its 16 bytes, as hex."""
    return fairness.commitment(seed_hex)


def check_commitment(record: g.GetGameRecordResponse, commitment: str = "") -> None:
    """Raise VerificationFailed unless the record's revealed seed matches `commitment` (what the
    caller saw when the game began; without it, the one in the record)."""
    try:
        matches = fairness.commitment_matches(record.seed, commitment or record.game.seed_sha256)
    except ValueError as exc:  # not 32 hex digits
        raise VerificationFailed(f"the revealed seed is malformed: {exc}") from exc
    if not matches:
        raise VerificationFailed("the revealed seed does not match the commitment")
