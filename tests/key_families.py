"""The key families documented in `flotilla/store/keys.py` (its table and its `# |` rows), as
patterns: `{g}` a hash tag holding a value, `{party}` a literal tag, `<x>` a value, `[...]` optional."""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from flotilla.store import keys

_ROW = re.compile(r"^(?:# )?\| (flotilla:\S+) \| ([A-Z]+) \|", re.MULTILINE)
_TOKEN = re.compile(r"\{([a-z])\}|<[^>]+>|\[|\]|.")


@dataclass(frozen=True)
class Family:
    text: str  # as documented
    redis_type: str  # HASH, STREAM, ...
    pattern: re.Pattern[str]


def _pattern(text: str) -> re.Pattern[str]:
    out = []
    for m in _TOKEN.finditer(text):
        token = m.group(0)
        if m.group(1):
            out.append(r"\{[^{}]+\}")
        elif token.startswith("<") and len(token) > 1:
            out.append(r"[^{}]+")
        elif token == "[":
            out.append("(?:")
        elif token == "]":
            out.append(")?")
        else:
            out.append(re.escape(token))
    return re.compile("".join(out))


def families() -> list[Family]:
    source = Path(keys.__file__).read_text()
    return [Family(text, kind, _pattern(text)) for text, kind in _ROW.findall(source)]


def matching(key: str, documented: list[Family]) -> list[Family]:
    return [family for family in documented if family.pattern.fullmatch(key)]
