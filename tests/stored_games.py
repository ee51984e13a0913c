"""Games of random legal moves as their event streams store them (records.Entry's fields), for
in-process tests and benches of what gateways do with entries (no Redis)."""

from __future__ import annotations

import random

import orjson

from flotilla.app.host import GameHost
from flotilla.records import dump_rows
from flotilla.rules import Seat


def stored_fields(host: GameHost, seats: int, moves: int, seed: int) -> list[dict[bytes, bytes]]:
    """The entries of a game of `moves` random legal moves (fewer if it ends), each naming seat 0
    and a request id, and chained by lineage tokens l0, l1, ..."""
    pick = random.Random(seed)
    step = host.start(host.config(seats, {}), seed, {}, 1000)
    out, previous = [], b""
    for n in range(moves + 1):
        lineage = b"l%d" % n
        fields = {b"v": str(step.version).encode(), b"e": dump_rows(step.events), b"p": orjson.dumps(step.prompts)}
        fields |= {b"a": orjson.dumps(step.to_act), b"h": lineage, b"ph": previous, b"s": b"0", b"r": b"req%d" % n}
        out.append(fields)
        if not step.to_act:
            break
        seat = Seat(pick.choice(step.to_act))
        action = pick.choice(host.rules.legal_actions(step.state, seat))
        step, previous = host.step(step.state, seat, action, step.version, 1000 + n), lineage
    return out
