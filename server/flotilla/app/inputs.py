"""Checks of client input shared by every service: names, page tokens, sizes, and short echoes.

Each check returns the value to use or raises InvalidRequest (INVALID_ARGUMENT) naming the
field. Error messages never carry more of the client's input than `echo` gives.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Mapping

from flotilla.app.errors import InvalidRequest

ECHO_CHARS = 32
MAX_NAME = 40  # code points of a display name
MAX_OPTIONS = 32  # entries of an options map
MAX_OPTION_CHARS = 64  # characters of an option key or value
MAX_ACTION_BYTES = 64 * 1024  # an action, encoded as a client sent it and as it is stored
MAX_PAGE_DIGITS = 18  # page tokens are non-negative integers below 10**18
# Control, format (bidi overrides, zero-width joiners), private-use, surrogate, unassigned,
# line and paragraph separators: none of them belongs in a name another player reads.
_REFUSED_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp"})
_PAGE_TOKEN = re.compile(rf"[0-9]{{1,{MAX_PAGE_DIGITS}}}")
_KIND = re.compile(r"[a-z0-9_]{1,40}")


def echo(value: object, limit: int = ECHO_CHARS) -> str:
    """A short repr of client input for an error message: at most `limit` characters of it."""
    text = value if isinstance(value, str) else str(value)
    if len(text) > limit:
        return repr(text[:limit]) + "…"
    return repr(text)


def display_name(raw: str, field: str = "display_name") -> str:
    """A name other players will read: NFC, trimmed, 1..40 code points, no invisible or control characters."""
    if len(raw) > 4 * MAX_NAME:  # no normalisation of megabytes; NFC never shrinks a name that much
        raise InvalidRequest(f"{field} must be 1-{MAX_NAME} characters", field=field)
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidRequest(f"{field} must be 1-{MAX_NAME} characters", field=field)
    return visible_text(name, field)


def visible_text(text: str, field: str) -> str:
    """`text` unchanged if every character of it is one a reader sees (no control, format such as
    bidi overrides or zero-width, private-use, unassigned or separator characters)."""
    for char in text:
        if unicodedata.category(char) in _REFUSED_CATEGORIES:
            raise InvalidRequest(
                f"{field} may not contain U+{ord(char):04X} (control, format, private-use, unassigned "
                "or separator characters)",
                field=field,
            )
    return text


def page_number(token: str, field: str = "page_token") -> int | None:
    """The number in a page token this server issued (None when empty); ASCII digits only."""
    if not token:
        return None
    if _PAGE_TOKEN.fullmatch(token) is None:
        raise InvalidRequest(f"{field} is not one this server issued", field=field)
    return int(token)


def kind_filter(kind: str, field: str = "kind") -> str:
    """A game kind used as a filter ("" for any): lower-case letters, digits and `_`, at most 40."""
    if kind and _KIND.fullmatch(kind) is None:
        raise InvalidRequest(f"{field} is not a game kind: {echo(kind)}", field=field)
    return kind


def options(raw: Mapping[str, str], field: str = "options") -> dict[str, str]:
    """A client's options map, bounded: at most 32 entries of at most 64 visible characters each."""
    if len(raw) > MAX_OPTIONS:
        raise InvalidRequest(f"{field} may have at most {MAX_OPTIONS} entries", field=field)
    for key, value in raw.items():
        if len(key) > MAX_OPTION_CHARS or len(value) > MAX_OPTION_CHARS:
            raise InvalidRequest(
                f"{field} keys and values are at most {MAX_OPTION_CHARS} characters: {echo(key)}", field=field
            )
        visible_text(key + value, field)  # shown to other players with rooms and tickets
    return dict(raw)


def action_size(size: int, field: str = "action") -> None:
    """Refuse an action whose encoding is larger than MAX_ACTION_BYTES."""
    if size > MAX_ACTION_BYTES:
        raise InvalidRequest(f"{field} is larger than {MAX_ACTION_BYTES} bytes", field=field)
