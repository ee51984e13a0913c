"""The game catalogue clients draw with (CatalogService): the kinds this server plays and, per kind and
rules version, the game's static data as a typed message.

Each game's `flotilla.games.<kind>.catalogue` builds its catalogue as plain data from the engine's own
tables (field names as in `<kind>_catalog.proto`, enum members by name); `encode` turns that into the
message (a key or enum member the proto lacks is a bug, and raises). Kinds, modes, seat counts and
options come from the game's `GameRules` and `Config`, asking the config which seat counts it accepts.
Everything is built once per process and kept: a rules version's catalogue never changes.
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import importlib
import typing
from collections.abc import Mapping
from functools import cache
from types import ModuleType
from typing import Any

from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message

from flotilla.api.catalog.v1 import catalog_service_pb2 as pb
from flotilla.app import inputs
from flotilla.app.errors import CatalogNotFound, InvalidRequest
from flotilla.games import REGISTRY
from flotilla.rules import InvalidConfig
from flotilla.rules.options import config_from_options, option_names

MAX_VERSION = 40  # characters of GetCatalogRequest.rules_version
MAX_SEATS = 16  # seat counts asked of each Config (every game's largest table is well below)
_VERSION_CHARS = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-")


def encode(data: Mapping[str, Any], message: Message) -> Message:
    """Fill `message` from plain data: nested dicts, lists, scalars, None (unset) and enum members (by
    name: a member `RED` of a field of proto enum `Border` is `BORDER_RED`)."""
    descriptor: Descriptor = message.DESCRIPTOR
    for key, value in data.items():
        field = descriptor.fields_by_name[key]
        if value is None:
            continue
        if field.message_type is not None:
            if field.is_repeated:
                for item in value:
                    encode(item, getattr(message, key).add())
            else:
                encode(value, getattr(message, key))
        elif field.is_repeated:
            getattr(message, key).extend(_scalar(field, v) for v in value)
        else:
            setattr(message, key, _scalar(field, value))
    return message


def _scalar(field: FieldDescriptor, value: Any) -> Any:
    if field.enum_type is None:
        return value
    if not isinstance(value, enum.Enum):
        msg = f"{field.full_name} takes an enum member, not {value!r}"
        raise TypeError(msg)
    prefix = "".join("_" + c if c.isupper() and i else c for i, c in enumerate(field.enum_type.name)).upper()
    return field.enum_type.values_by_name[f"{prefix}_{value.name}"].number


def _module(kind: str) -> ModuleType | None:
    try:
        return importlib.import_module(f"flotilla.games.{kind}.catalogue")
    except ModuleNotFoundError:
        return None


@cache
def catalog(kind: str) -> pb.Catalog:
    """The catalogue of `kind` at its current rules version (built once; do not modify it)."""
    rules = REGISTRY[kind]
    out = pb.Catalog(kind=kind, rules_version=rules.version)
    module = _module(kind)
    if module is not None:
        encode(module.catalogue(), getattr(out, kind))
    out.etag = hashlib.sha256(out.SerializeToString(deterministic=True)).hexdigest()[:32]
    return out


def display_name(kind: str) -> str:
    """The game's English name (its catalogue module's DISPLAY_NAME, else from the kind)."""
    module = _module(kind)
    name = getattr(module, "DISPLAY_NAME", None)
    return name if isinstance(name, str) else kind.replace("_", " ").title()


def _spelled(value: Any) -> str:
    """An option value as CreateGame.options spells it (rules/options.py parses it back)."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return value.name.lower()
    return str(value)


def _options(config_type: type) -> list[pb.GameOption]:
    hints = typing.get_type_hints(config_type)
    fields = {f.name: f for f in dataclasses.fields(config_type)}
    out = []
    for name in option_names(config_type):
        hint, default = hints[name], fields[name].default
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            values = [m.name.lower() for m in hint]
            out.append(pb.GameOption(name=name, type="enum", default_value=_spelled(default), values=values))
        else:
            kind = "bool" if hint is bool else "int" if hint is int else "string"
            out.append(pb.GameOption(name=name, type=kind, default_value=_spelled(default)))
    return out


def _modes(config_type: type) -> list[pb.GameMode]:
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
        out.append(pb.GameMode(name=name, seat_counts=seats))
    return out


@cache
def kinds() -> pb.ListGameKindsResponse:
    """Every kind this server plays (built once; do not modify it)."""
    out = pb.ListGameKindsResponse()
    for kind, rules in sorted(REGISTRY.items()):
        out.kinds.append(
            pb.GameKind(
                kind=kind,
                display_name=display_name(kind),
                rules_version=rules.version,
                catalog_etag=catalog(kind).etag,
                modes=_modes(rules.config_type),
                options=_options(rules.config_type),
            )
        )
    return out


@cache
def _response(kind: str) -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(catalog=catalog(kind))


def get_catalog(kind: str, rules_version: str) -> pb.GetCatalogResponse:
    """The response to GetCatalog: InvalidRequest for a malformed kind or version, CatalogNotFound for
    a kind or version this server does not have."""
    if not kind:
        raise InvalidRequest("kind is required: a game kind such as port_royal (ListGameKinds)", field="kind")
    inputs.kind_filter(kind)
    if len(rules_version) > MAX_VERSION or not set(rules_version) <= _VERSION_CHARS:
        msg = f"rules_version is not a rules version: {inputs.echo(rules_version)}"
        raise InvalidRequest(msg, field="rules_version")
    rules = REGISTRY.get(kind)
    if rules is None:
        msg = f"no game kind {inputs.echo(kind)} here; ListGameKinds lists them"
        raise CatalogNotFound(msg, kind=kind)
    if rules_version and rules_version != rules.version:
        msg = f"{kind} has rules version {rules.version!r} here, not {inputs.echo(rules_version)}"
        raise CatalogNotFound(msg, kind=kind, rules_version=rules_version)
    return _response(kind)
