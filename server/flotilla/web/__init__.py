"""The reference web client's built bundle (clients/web, `npm run build` writes `static/`), served by
the gateway's browser listener (gateway/static.py)."""

from __future__ import annotations

from importlib import resources
from importlib.resources.abc import Traversable


def static_root() -> Traversable:
    """The bundle's directory inside the installed package."""
    return resources.files(__name__) / "static"
