"""Checks of client input shared by every service: names, page tokens, sizes, and short echoes.

Each check returns the value to use or raises InvalidRequest (INVALID_ARGUMENT) naming the
field. Error messages never carry more of the client's input than `echo` gives.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Collection, Mapping

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
# Characters that render as nothing though their category is a visible one: Hangul fillers,
# braille blank, Mongolian vowel separator, Khmer inherent vowels. With spaces and combining marks
# alone they make a blank name.
_BLANK = frozenset("\u115f\u1160\u3164\uffa0\u2800\u180e\u17b4\u17b5")
_NO_INK = frozenset({"Zs", "Mn", "Mc", "Me"})
# Latin look-alikes (Cyrillic, Greek, digits) folded by `skeleton`, after NFKC and casefold.
_LOOK_ALIKES = str.maketrans(
    "аеорсхуіјѕԁɡοτνκιαβвтмнкпг0135$@|!l",
    "aeopcxyijsdgotvkiabbtmhknroiessaiii",
)
_BOT_MARK = re.compile(r"\(\s*([a-z]+)\s*\)$")  # a server bot's name ends with its policy: "Bot 2 (random)"
_PAGE_TOKEN = re.compile(rf"[0-9]{{1,{MAX_PAGE_DIGITS}}}")
_KIND = re.compile(r"[a-z0-9_]{1,40}")


def echo(value: object, limit: int = ECHO_CHARS) -> str:
    """A short repr of client input for an error message: at most `limit` characters of it."""
    text = value if isinstance(value, str) else str(value)
    if len(text) > limit:
        return repr(text[:limit]) + "…"
    return repr(text)


def display_name(raw: str, field: str = "display_name") -> str:
    """A name other players will read: NFC, trimmed, 1..40 code points, no invisible or control
    characters, and at least one that shows (not only spaces, fillers or combining marks)."""
    if len(raw) > 4 * MAX_NAME:  # no normalisation of megabytes; NFC never shrinks a name that much
        raise InvalidRequest(f"{field} must be 1-{MAX_NAME} characters", field=field)
    name = unicodedata.normalize("NFC", raw).strip()
    if not 1 <= len(name) <= MAX_NAME:
        raise InvalidRequest(f"{field} must be 1-{MAX_NAME} characters", field=field)
    visible_text(name, field)
    if all(char in _BLANK or unicodedata.category(char) in _NO_INK for char in name):
        raise InvalidRequest(f"{field} must show at least one letter, digit or symbol", field=field)
    return name


def skeleton(name: str) -> str:
    """What a name looks like, for telling look-alikes apart: NFKC, case-folded, marks dropped,
    Cyrillic, Greek and digit look-alikes of Latin letters folded, spaces collapsed."""
    folded = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", name).casefold())
    plain = "".join(c for c in folded if not unicodedata.combining(c)).translate(_LOOK_ALIKES)
    return " ".join(plain.split())


def person_name(raw: str, bot_policies: Collection[str], field: str = "display_name") -> str:
    """A person's display name (`display_name`) that does not pass for a bot's: server bots' end
    with their policy in parentheses ("Bot 2 (random)"), bot accounts' with "(bot)"
    (`bot_account_name`), so a person's may not end with either, however spelt."""
    name = display_name(raw, field)
    if _bot_marked(name, bot_policies):
        raise InvalidRequest(f"{field} may not end like a bot's name, e.g. '(bot)' or '(random)'", field=field)
    return name


def bot_account_name(name: str, bot_policies: Collection[str]) -> str:
    """The name a bot account (an API key's) is shown by: marked " (bot)" unless it is already."""
    return name if _bot_marked(name, bot_policies) else f"{name} (bot)"


def _bot_marked(name: str, bot_policies: Collection[str]) -> bool:
    mark = _BOT_MARK.search(skeleton(name))
    return mark is not None and mark.group(1) in {skeleton(word) for word in ("bot", *bot_policies)}


def distinct_name(name: str, others: Collection[str]) -> str:
    """`name`, or `name (2)`, `(3)`... when one of `others` looks the same (same `skeleton`)."""
    taken = {skeleton(other) for other in others}
    candidate, n = name, 1
    while skeleton(candidate) in taken:
        n += 1
        candidate = f"{name} ({n})"
    return candidate


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
