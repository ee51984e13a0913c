"""Build a game's `Config` dataclass from a seat count and string options (the wire form).

The wire forms (docs/games.md): a whole number is ASCII digits with no sign, spaces, separators
or leading zeros (`0`, `12`); a flag is `true`/`false` (also `1`/`0`, `yes`/`no`, `on`/`off`, any
case); an enum is a member name (any case). `canonical_options` spells a parsed config back in
one form, leaving out values equal to the default: two spellings of one setting give one map.
`explicit_options` keeps the options a client named (defaults too), spelled the same way: what a
room or a game stores and shows; `spelled_option` spells one value for one game (a room filter).
"""

from __future__ import annotations

import dataclasses
import enum
import re
import typing
from collections.abc import Iterable, Mapping
from typing import Any, TypeVar

from flotilla.rules.errors import InvalidConfig

C = TypeVar("C")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}
_WHOLE = re.compile(r"0|[1-9][0-9]{0,17}")  # ASCII only: `int()` also takes "٢", "+2", " 2", "2_0"
_ECHO = 24  # characters of a refused value quoted back


def _shown(raw: str) -> str:
    return repr(raw[:_ECHO]) + ("…" if len(raw) > _ECHO else "")


def _parse(name: str, hint: Any, raw: str) -> Any:
    if hint is bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        msg = f"option {name!r} takes true or false, got {_shown(raw)}"
        raise InvalidConfig(msg, option=name)
    if hint is int:
        if _WHOLE.fullmatch(raw) is None:
            msg = (
                f"option {name!r} takes a whole number in ASCII digits (like 12: no sign, spaces,"
                f" separators or leading zeros), got {_shown(raw)}"
            )
            raise InvalidConfig(msg, option=name)
        return int(raw)
    if hint is str:
        return raw
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        by_name = {m.name.lower(): m for m in hint}
        member = by_name.get(raw.lower())
        if member is None:
            msg = f"option {name!r} takes one of {sorted(by_name)}, got {_shown(raw)}"
            raise InvalidConfig(msg, option=name)
        return member
    msg = f"option {name!r} cannot be set from the wire"
    raise InvalidConfig(msg, option=name)


def option_names(config_type: type) -> tuple[str, ...]:
    """The options a game accepts besides the seat count."""
    return tuple(f.name for f in dataclasses.fields(config_type) if f.name != "seats" and f.init)


def _known(config_type: type, names: Iterable[str]) -> None:
    known = set(option_names(config_type))
    unknown = sorted(set(names) - known)
    if unknown:
        msg = f"unknown option(s) {unknown}; this game takes {sorted(known)}"
        raise InvalidConfig(msg, option=unknown[0])


def config_from_options(config_type: type[C], seats: int, options: Mapping[str, str]) -> C:
    """A `Config` for `seats` players with `options` applied; InvalidConfig on anything unknown."""
    hints = typing.get_type_hints(config_type)
    _known(config_type, options)
    kwargs = {name: _parse(name, hints[name], raw) for name, raw in options.items()}
    try:
        return config_type(seats=seats, **kwargs)  # type: ignore[call-arg]
    except (TypeError, ValueError) as exc:
        raise InvalidConfig(str(exc)) from exc


def spelled(value: Any) -> str:
    """An option value in its one canonical wire form (`_parse` reads it back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return value.name.lower()
    return str(value)


def canonical_options(config: Any) -> dict[str, str]:
    """The options that make `config` (a game's `Config`), each spelled canonically, without
    those at their default: equal for every spelling of one setting."""
    defaults = {f.name: f.default for f in dataclasses.fields(config)}
    return {
        name: spelled(getattr(config, name))
        for name in option_names(type(config))
        if getattr(config, name) != defaults[name]
    }


def explicit_options(config: Any, named: Iterable[str]) -> dict[str, str]:
    """The options `named` (those a client gave, defaults included) as `config` holds them, each
    spelled canonically: what a room or a game stores and shows."""
    return {name: spelled(getattr(config, name)) for name in sorted(named)}


def spelled_option(config_type: type, name: str, raw: str) -> str:
    """`raw` for option `name` of `config_type` in its canonical spelling; InvalidConfig when the
    game has no such option or the value is malformed."""
    _known(config_type, [name])
    return spelled(_parse(name, typing.get_type_hints(config_type)[name], raw))
