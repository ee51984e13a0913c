"""Join codes of private rooms (and their games): made, normalised and compared here only.

A code is `LENGTH` characters of `ALPHABET` (no 0/O, 1/I: it is read aloud and typed), so
32 ** 8 = 2 ** 40 codes; guesses are bounded by the `code_guess_*` limits (app/limits.py), which
docs/security.md turns into years per guesser. Codes stored before they were 8 long (6) still match.
"""

from __future__ import annotations

import secrets

ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ"
LENGTH = 8
_IGNORED = str.maketrans("", "", " -")


def new_code() -> str:
    """A fresh random code (40 bits)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(LENGTH))


def normal(given: str) -> str:
    """A code as typed (any case, spaces and dashes as in "K7MQ-2XWD") in its stored form."""
    return given.translate(_IGNORED).upper()


def looks_like_code(given: str) -> bool:
    """Whether `given` could be a code at all (so a lookup by code is worth a Redis read)."""
    code = normal(given)
    return len(code) == LENGTH and all(c in ALPHABET for c in code)


def matches(given: str, stored: str) -> bool:
    """Whether `given` is the code `stored` (compared in constant time); no code matches ""."""
    return bool(stored) and secrets.compare_digest(normal(given).encode(), stored.encode())
