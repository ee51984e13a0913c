"""`flotilla worker` with bugs planted in the counter game's rules, for tests/worker/test_rules_bugs.py.

A real worker process (settings from the environment, `flotilla.cli.main(["worker"])`), except
that counter's `apply`, on a seat's `Add(n)`:

* n = 13: raises KeyError (a worker once reported that as the client's "malformed action");
* n = 666: raises RuntimeError;
* n = 999: ends the process at once (`os._exit`), as a segfault or the OOM killer would;
* n = 777: never returns (the worker's watchdog, FLOTILLA_WORKER_STALL_S, ends the process).

    REDIS_URL=... FLOTILLA_WORKER_PROCESSES=1 python tests/worker/faulty_worker.py
"""

from __future__ import annotations

import dataclasses
import os
import sys
from typing import Any

from flotilla import games
from flotilla.cli import main
from flotilla.games import counter
from flotilla.rules import Seat, Transition

KEY_ERROR, RUNTIME_ERROR, CRASH, HANG = 13, 666, 999, 777


def faulty_apply(state: Any, seat: Seat, action: Any) -> Transition[Any, Any]:
    if isinstance(action, counter.Add):
        if action.n == KEY_ERROR:
            raise KeyError("a planted KeyError")
        if action.n == RUNTIME_ERROR:
            msg = "a planted bug"
            raise RuntimeError(msg)
        if action.n == CRASH:
            os._exit(70)
        while action.n == HANG:
            pass
    return counter.apply(state, seat, action)


def plant() -> None:
    """Serve counter with `faulty_apply` (before any host is made: `host_for` caches them)."""
    games._REGISTRY.load()["counter"] = (dataclasses.replace(counter.RULES, apply=faulty_apply),)


if __name__ == "__main__":
    plant()
    sys.exit(main(["worker"]))
