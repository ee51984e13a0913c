"""Lineage: which history a game version belongs to, and the etags that name a version.

Every commit gets a fresh random lineage token, stored with its stream entry (beside the
token of the commit before it) and as the game's `head`. Two histories that reach the same
version by different moves (a Redis that came back behind and was then played on) differ in
their tokens, so a watcher, a resuming client, a worker's cache or a stale prompt can tell
that the version it holds is not the game's any more.

An etag is `<version>.<lineage>` (bare `<version>` for games stored before lineages existed).
Clients treat it as opaque.
"""

from __future__ import annotations

import re
import secrets

from flotilla.app.errors import InvalidRequest

_ETAG = re.compile(r"^([0-9]{1,18})(?:\.([0-9a-f]{1,16}))?$")


def new_lineage() -> str:
    """A fresh token for one commit (32 random bits, as 8 hex digits)."""
    return secrets.token_hex(4)


def etag(version: int, lineage: str) -> str:
    """The etag naming `version` of the history `lineage`."""
    return f"{version}.{lineage}" if lineage else str(version)


def parse_etag(text: str, field: str = "etag") -> tuple[int, str]:
    """(version, lineage or "") of an etag the server issued; InvalidRequest otherwise.

    Surrounding double quotes (HTTP style) are accepted.
    """
    match = _ETAG.match(text.strip().strip('"'))
    if match is None:
        raise InvalidRequest(f"{field} must be an etag as returned by the server", field=field)
    return int(match.group(1)), match.group(2) or ""


def matches(version: int, lineage: str, wanted_version: int, wanted_lineage: str) -> bool:
    """Whether an etag (wanted) names this version; an etag without lineage checks the version only."""
    return version == wanted_version and (not wanted_lineage or not lineage or wanted_lineage == lineage)
