"""Lineage: which history a game version belongs to, and the etags that name a version.

Every commit gets a fresh random lineage token, stored with its stream entry (beside the
token of the commit before it) and as the game's `head`. Two histories that reach the same
version by different moves (a Redis that came back behind and was then played on) differ in
their tokens, so a watcher, a resuming client, a worker's cache or a stale prompt can tell
that the version it holds is not the game's any more.

An etag is `<version>.<lineage>` (bare `<version>` for games stored before lineages existed).
Clients treat it as opaque. A bare etag is refused on a game whose etags carry a lineage
(`check`): a version alone cannot tell the game's history from a Redis that came back behind.
"""

from __future__ import annotations

import re
import secrets

from flotilla.app.errors import InvalidRequest, StaleVersion

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
    """Whether an etag (wanted) names this version of this history. An etag without a lineage
    names only a version of a game stored without lineages; a lineage on such a game is ignored."""
    return version == wanted_version and (wanted_lineage == lineage or not lineage)


def check(version: int, lineage: str, text: str) -> None:
    """Refuse a submitted etag `text` that does not name this version of this history: a bare
    version on a game with a lineage is InvalidRequest (the client built it, the server never
    issues one), any other mismatch StaleVersion (with the current etag). The gateway parsed the
    etag already; one that does not parse here names no version (stale)."""
    try:
        wanted_version, wanted_lineage = parse_etag(text)
    except InvalidRequest:
        wanted_version, wanted_lineage = -1, "?"
    current = etag(version, lineage)
    if lineage and not wanted_lineage:
        msg = f"etag {text[:20]!r} has no lineage; send an etag as the server returned it, e.g. {current!r}"
        raise InvalidRequest(msg, field="etag")
    if not matches(version, lineage, wanted_version, wanted_lineage):
        raise StaleVersion(f"etag {text[:40]} is stale; the game is at {current}", etag=text, current=current)
