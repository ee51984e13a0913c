"""CatalogService: translate the app layer's kinds and catalogues (flotilla/app/catalogue.py) into the
wire messages, once per process: a rules version's catalogue never changes, so each response is built
on first use and kept.

No token is needed: everything here is public and the same for every caller.
"""

from __future__ import annotations

import enum
import hashlib
from collections.abc import Mapping
from functools import cache
from typing import Any

import grpc
from google.protobuf.message import Message

from flotilla.api.catalog.v1 import catalog_service_pb2 as pb
from flotilla.api.catalog.v1 import catalog_service_pb2_grpc as pb_grpc
from flotilla.app import catalogue
from flotilla.convert import snake
from flotilla.games import REGISTRY
from flotilla.gateway.errors import maps_errors

Context = grpc.aio.ServicerContext[Any, Any]


def encode(data: Mapping[str, Any], message: Message) -> Message:
    """Fill `message` from plain data: nested dicts, lists, scalars, None (unset) and enum members (by
    name: member `RED` of a field of proto enum `Border` is `BORDER_RED`). A key the message lacks is a
    KeyError, a value that is not an enum member for an enum field a TypeError: bugs, caught by tests."""
    fields = message.DESCRIPTOR.fields_by_name
    for key, value in data.items():
        field = fields[key]
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


def _scalar(field: Any, value: Any) -> Any:  # a FieldDescriptor (upb or Python)
    if field.enum_type is None:
        return value
    if not isinstance(value, enum.Enum):
        msg = f"{field.full_name} takes an enum member, not {value!r}"
        raise TypeError(msg)
    return field.enum_type.values_by_name[f"{snake(field.enum_type.name).upper()}_{value.name}"].number


@cache
def catalog(kind: str, rules_version: str = "") -> pb.Catalog:
    """The Catalog of `kind` at a served rules version ("": the current one), with its etag (do not
    modify it)."""
    out = pb.Catalog(kind=kind, rules_version=rules_version or REGISTRY[kind].version)
    data = catalogue.data(kind)
    if data is not None:
        encode(data, getattr(out, kind))
    out.etag = hashlib.sha256(out.SerializeToString(deterministic=True)).hexdigest()[:32]
    return out


@cache
def _catalog_response(kind: str, rules_version: str) -> pb.GetCatalogResponse:
    return pb.GetCatalogResponse(catalog=catalog(kind, rules_version))


@cache
def kinds_response() -> pb.ListGameKindsResponse:
    """The ListGameKinds answer (do not modify it)."""
    return pb.ListGameKindsResponse(
        kinds=[
            pb.GameKind(
                kind=k.kind,
                display_name=k.display_name,
                rules_version=k.rules_version,
                catalog_etag=catalog(k.kind).etag,
                modes=[pb.GameMode(name=m.name, seat_counts=m.seat_counts) for m in k.modes],
                options=[
                    pb.GameOption(name=o.name, type=o.type, default_value=o.default_value, values=o.values)
                    for o in k.options
                ],
            )
            for k in catalogue.kinds()
        ]
    )


class CatalogServicer(pb_grpc.CatalogServiceServicer):
    """The catalogue API of one gateway process."""

    @maps_errors
    async def ListGameKinds(self, request: pb.ListGameKindsRequest, context: Context) -> pb.ListGameKindsResponse:
        return kinds_response()

    @maps_errors
    async def GetCatalog(self, request: pb.GetCatalogRequest, context: Context) -> pb.GetCatalogResponse:
        return _catalog_response(*catalogue.requested(request.kind, request.rules_version))
