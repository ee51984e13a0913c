"""The game catalogue clients draw with (CatalogService): the kinds this server plays and, per kind and
rules version, the game's static data.

Each game's `flotilla.games.<kind>.catalogue` builds its catalogue as plain data from the engine's own
tables (field names as in `<kind>_catalog.proto`, enum members by name); the gateway encodes it
(gateway/catalog_servicer.py). Kinds, modes, seat counts and options come from the game's `GameRules`
and `Config`, asking the config which seat counts it accepts. A rules version's catalogue never
changes, so everything here is built once per process. Every served rules version of a kind
(flotilla.games.served) has a catalogue; the game's tables are shared by its versions today.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import typing
from dataclasses import dataclass
from functools import cache
from types import ModuleType
from typing import Any

from flotilla.app import inputs
from flotilla.app.errors import CatalogNotFound, InvalidRequest
from flotilla.games import REGISTRY, rules_at, served
from flotilla.rules import InvalidConfig
from flotilla.rules.options import config_from_options, option_names, spelled

MAX_SEATS = 16  # seat counts asked of each Config (every game's largest table is well below)
_VERSION_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


@dataclass(frozen=True, slots=True)
class Mode:
    """A mode (the `mode` option's value, "" for a game without modes) and the seat counts it takes."""

    name: str
    seat_counts: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class Option:
    """An option of CreateGame.options: "bool", "int", "string" or "enum" (one of `values`)."""

    name: str
    type: str
    default_value: str
    values: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Kind:
    """A game kind as CreateGame takes it."""

    kind: str
    display_name: str
    rules_version: str
    modes: tuple[Mode, ...]
    options: tuple[Option, ...]


def _module(kind: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"flotilla.games.{kind}.catalogue")
    except ModuleNotFoundError:
        return None


def data(kind: str) -> dict[str, Any] | None:
    """The game's catalogue as plain data (None for a game without one: the counter)."""
    module = _module(kind)
    if module is None:
        return None
    built: dict[str, Any] = module.catalogue()
    return built


def _display_name(kind: str) -> str:
    name = getattr(_module(kind), "DISPLAY_NAME", None)
    return name if isinstance(name, str) else kind.replace("_", " ").title()


def _options(config_type: type) -> tuple[Option, ...]:
    hints = typing.get_type_hints(config_type)
    fields = {f.name: f for f in dataclasses.fields(config_type)}
    out = []
    for name in option_names(config_type):
        hint, default = hints[name], spelled(fields[name].default)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            out.append(Option(name, "enum", default, tuple(m.name.lower() for m in hint)))
        else:
            out.append(Option(name, "bool" if hint is bool else "int" if hint is int else "string", default))
    return tuple(out)


def _modes(config_type: type) -> tuple[Mode, ...]:
    hint = typing.get_type_hints(config_type).get("mode")
    names = [m.name.lower() for m in hint] if isinstance(hint, type) and issubclass(hint, enum.Enum) else [""]
    out = []
    for name in names:
        options = {"mode": name} if name else {}
        seats = []
        for n in range(1, MAX_SEATS + 1):
            try:
                config_from_options(config_type, n, options)
            except InvalidConfig:
                continue
            seats.append(n)
        out.append(Mode(name, tuple(seats)))
    return tuple(out)


@cache
def kinds() -> tuple[Kind, ...]:
    """Every kind this server plays, sorted by name."""
    return tuple(
        Kind(kind, _display_name(kind), rules.version, _modes(rules.config_type), _options(rules.config_type))
        for kind, rules in sorted(REGISTRY.items())
    )


def requested(kind: str, rules_version: str) -> tuple[str, str]:
    """The kind and rules version a GetCatalog request names ("": the current one): InvalidRequest
    for a malformed kind or version, CatalogNotFound for a kind or version this server does not serve."""
    if not kind:
        raise InvalidRequest("kind is required: a game kind such as port_royal (ListGameKinds)", field="kind")
    inputs.kind_filter(kind)
    if not set(rules_version) <= _VERSION_CHARS:  # its length is checked on arrival (gateway/field_limits.py)
        msg = f"rules_version is not a rules version: {inputs.echo(rules_version)}"
        raise InvalidRequest(msg, field="rules_version")
    rules = REGISTRY.get(kind)
    if rules is None:
        raise CatalogNotFound(f"no game kind {inputs.echo(kind)} here; ListGameKinds lists them", kind=kind)
    if rules_version and rules_at(kind, rules_version) is None:
        versions = ", ".join(repr(r.version) for r in served(kind))
        msg = f"{kind} has rules versions {versions} here, not {inputs.echo(rules_version)}"
        raise CatalogNotFound(msg, kind=kind, rules_version=rules_version)
    return kind, rules_version or rules.version
