"""Room options in one spelling (docs/games.md, "Options"), as tickets have them (lobby/tickets.py).

A room stores the options its creator named, each spelled canonically (`explicit_options`: a value
equal to the default is kept, so a client shows what the host chose). A ListRooms filter compares
settings, not spellings: each filter value is spelled for the room's game (`spelled_option`) and
checked against the room's value, its default when the room did not name it. Rooms stored before
this (any spelling `int()` and the flag words took) are read the same way and shown canonically.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from flotilla.app.errors import AppError
from flotilla.app.host import host_for
from flotilla.rules.errors import RulesError
from flotilla.rules.options import explicit_options, option_names, spelled_option

_CACHED = 1024  # distinct (kind, seats, options) settings parsed once per process
Options = tuple[tuple[str, str], ...]


def stored(kind: str, seat_count: int, options: Mapping[str, str]) -> dict[str, str]:
    """The options a new room (or game) stores; UnknownGameKind / InvalidConfig when refused."""
    return explicit_options(host_for(kind).config(seat_count, options), options)


@lru_cache(maxsize=_CACHED)
def _settings(kind: str, seat_count: int, options: Options) -> Mapping[str, str] | None:
    try:
        config = host_for(kind).config(seat_count, dict(options))
    except (AppError, RulesError):  # a kind no longer served, or a value these rules no longer take
        return None
    return explicit_options(config, option_names(type(config)))


def _key(options: Mapping[str, str]) -> Options:
    return tuple(sorted(options.items()))


def shown(kind: str, seat_count: int, options: Mapping[str, str]) -> dict[str, str]:
    """A stored room's options as it shows them: canonical spelling, as stored if unreadable."""
    every = _settings(kind, seat_count, _key(options))
    return dict(options) if every is None else {name: every[name] for name in options}


@lru_cache(maxsize=_CACHED)
def _wanted(kind: str, options: Options) -> Mapping[str, str] | None:
    try:
        config_type = host_for(kind).rules.config_type
        return {name: spelled_option(config_type, name, raw) for name, raw in options}
    except (AppError, RulesError):
        return None


def check_filter(kind: str, options: Mapping[str, str]) -> None:
    """Refuse (InvalidConfig, UnknownGameKind) a filter no room of `kind` could match."""
    config_type = host_for(kind).rules.config_type
    for name, raw in options.items():
        spelled_option(config_type, name, raw)


def matches(kind: str, seat_count: int, stored_options: Mapping[str, str], wanted: Mapping[str, str]) -> bool:
    """Whether a room's setting has every `wanted` option (any spelling) at the wanted value."""
    if not wanted:
        return True
    spelled = _wanted(kind, _key(wanted))
    every = _settings(kind, seat_count, _key(stored_options))
    if spelled is None or every is None:
        return False
    return all(every.get(name) == value for name, value in spelled.items())
