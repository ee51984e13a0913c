"""How many seeded random games a conformance test plays per configuration.

The suite plays `default` games (what keeps it within CI's budget); set
`FLOTILLA_CONFORMANCE_SEEDS=N` for a longer run, e.g. before changing an engine:
`FLOTILLA_CONFORMANCE_SEEDS=1000 ./scripts/test tests/games -k conformance`.
"""

from __future__ import annotations

import os


def conformance_seeds(default: int) -> int:
    """The number of seeds to play per configuration (FLOTILLA_CONFORMANCE_SEEDS overrides `default`)."""
    raw = os.environ.get("FLOTILLA_CONFORMANCE_SEEDS", "")
    return int(raw) if raw else default
