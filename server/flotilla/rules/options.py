"""Build a game's `Config` dataclass from a seat count and string options (the wire form)."""

from __future__ import annotations

import dataclasses
import enum
import typing
from collections.abc import Mapping
from typing import Any, TypeVar

from flotilla.rules.errors import InvalidConfig

C = TypeVar("C")

_TRUE = {"true", "1", "yes", "on"}
_FALSE = {"false", "0", "no", "off"}


def _parse(name: str, hint: Any, raw: str) -> Any:
    if hint is bool:
        if raw.lower() in _TRUE:
            return True
        if raw.lower() in _FALSE:
            return False
        msg = f"option {name!r} takes true or false, got {raw!r}"
        raise InvalidConfig(msg, option=name)
    if hint is int:
        try:
            return int(raw)
        except ValueError:
            msg = f"option {name!r} takes a whole number, got {raw!r}"
            raise InvalidConfig(msg, option=name) from None
    if hint is str:
        return raw
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        by_name = {m.name.lower(): m for m in hint}
        member = by_name.get(raw.lower())
        if member is None:
            msg = f"option {name!r} takes one of {sorted(by_name)}, got {raw!r}"
            raise InvalidConfig(msg, option=name)
        return member
    msg = f"option {name!r} cannot be set from the wire"
    raise InvalidConfig(msg, option=name)


def option_names(config_type: type) -> tuple[str, ...]:
    """The options a game accepts besides the seat count."""
    return tuple(f.name for f in dataclasses.fields(config_type) if f.name != "seats" and f.init)


def config_from_options(config_type: type[C], seats: int, options: Mapping[str, str]) -> C:
    """A `Config` for `seats` players with `options` applied; InvalidConfig on anything unknown."""
    hints = typing.get_type_hints(config_type)
    known = set(option_names(config_type))
    unknown = sorted(set(options) - known)
    if unknown:
        msg = f"unknown option(s) {unknown}; this game takes {sorted(known)}"
        raise InvalidConfig(msg, option=unknown[0])
    kwargs = {name: _parse(name, hints[name], raw) for name, raw in options.items()}
    try:
        return config_type(seats=seats, **kwargs)  # type: ignore[call-arg]
    except (TypeError, ValueError) as exc:
        raise InvalidConfig(str(exc)) from exc
