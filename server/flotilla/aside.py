"""A call's admission place, given back while the call waits on something shared and slow.

The gateway's admission control (gateway/admission.py) holds a place for every call doing work
and sets `PLACE` in the call's context. Code deep inside a call that must wait for something not
its own (the signing-key cache waiting for a paced reload, identity/keycache.py) wraps the wait
in `aside()`: the place is free for other callers meanwhile and taken back after (without a
check: the caller was admitted already). Outside a gateway call `aside()` does nothing.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from contextvars import ContextVar
from typing import Protocol


class Place(Protocol):
    """What a call holds while admitted."""

    def release(self) -> bool:
        """Give the place back; False when it was not held (the call's start is over)."""
        ...

    def retake(self) -> None: ...


PLACE: ContextVar[Place | None] = ContextVar("flotilla_admission_place", default=None)


@contextlib.contextmanager
def aside() -> Iterator[None]:
    """Give the current call's place back for the block (see the module docstring)."""
    place = PLACE.get()
    if place is None or not place.release():
        yield
        return
    try:
        yield
    finally:
        place.retake()
