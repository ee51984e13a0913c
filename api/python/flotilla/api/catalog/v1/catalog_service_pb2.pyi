from flotilla.api.navegador.v1 import navegador_catalog_pb2 as _navegador_catalog_pb2
from flotilla.api.pirates_of_nassau.v1 import pirates_of_nassau_catalog_pb2 as _pirates_of_nassau_catalog_pb2
from flotilla.api.port_royal.v1 import port_royal_catalog_pb2 as _port_royal_catalog_pb2
from flotilla.api.sail_away.v1 import sail_away_catalog_pb2 as _sail_away_catalog_pb2
from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class ListGameKindsRequest(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ListGameKindsResponse(_message.Message):
    __slots__ = ("kinds",)
    KINDS_FIELD_NUMBER: _ClassVar[int]
    kinds: _containers.RepeatedCompositeFieldContainer[GameKind]
    def __init__(self, kinds: _Optional[_Iterable[_Union[GameKind, _Mapping]]] = ...) -> None: ...

class GameKind(_message.Message):
    __slots__ = ("kind", "display_name", "rules_version", "catalog_etag", "modes", "options")
    KIND_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    CATALOG_ETAG_FIELD_NUMBER: _ClassVar[int]
    MODES_FIELD_NUMBER: _ClassVar[int]
    OPTIONS_FIELD_NUMBER: _ClassVar[int]
    kind: str
    display_name: str
    rules_version: str
    catalog_etag: str
    modes: _containers.RepeatedCompositeFieldContainer[GameMode]
    options: _containers.RepeatedCompositeFieldContainer[GameOption]
    def __init__(self, kind: _Optional[str] = ..., display_name: _Optional[str] = ..., rules_version: _Optional[str] = ..., catalog_etag: _Optional[str] = ..., modes: _Optional[_Iterable[_Union[GameMode, _Mapping]]] = ..., options: _Optional[_Iterable[_Union[GameOption, _Mapping]]] = ...) -> None: ...

class GameMode(_message.Message):
    __slots__ = ("name", "seat_counts")
    NAME_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNTS_FIELD_NUMBER: _ClassVar[int]
    name: str
    seat_counts: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, name: _Optional[str] = ..., seat_counts: _Optional[_Iterable[int]] = ...) -> None: ...

class GameOption(_message.Message):
    __slots__ = ("name", "type", "default_value", "values")
    NAME_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    DEFAULT_VALUE_FIELD_NUMBER: _ClassVar[int]
    VALUES_FIELD_NUMBER: _ClassVar[int]
    name: str
    type: str
    default_value: str
    values: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, name: _Optional[str] = ..., type: _Optional[str] = ..., default_value: _Optional[str] = ..., values: _Optional[_Iterable[str]] = ...) -> None: ...

class GetCatalogRequest(_message.Message):
    __slots__ = ("kind", "rules_version")
    KIND_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    kind: str
    rules_version: str
    def __init__(self, kind: _Optional[str] = ..., rules_version: _Optional[str] = ...) -> None: ...

class GetCatalogResponse(_message.Message):
    __slots__ = ("catalog",)
    CATALOG_FIELD_NUMBER: _ClassVar[int]
    catalog: Catalog
    def __init__(self, catalog: _Optional[_Union[Catalog, _Mapping]] = ...) -> None: ...

class Catalog(_message.Message):
    __slots__ = ("kind", "rules_version", "etag", "port_royal", "sail_away", "pirates_of_nassau", "navegador")
    KIND_FIELD_NUMBER: _ClassVar[int]
    RULES_VERSION_FIELD_NUMBER: _ClassVar[int]
    ETAG_FIELD_NUMBER: _ClassVar[int]
    PORT_ROYAL_FIELD_NUMBER: _ClassVar[int]
    SAIL_AWAY_FIELD_NUMBER: _ClassVar[int]
    PIRATES_OF_NASSAU_FIELD_NUMBER: _ClassVar[int]
    NAVEGADOR_FIELD_NUMBER: _ClassVar[int]
    kind: str
    rules_version: str
    etag: str
    port_royal: _port_royal_catalog_pb2.PortRoyalCatalog
    sail_away: _sail_away_catalog_pb2.SailAwayCatalog
    pirates_of_nassau: _pirates_of_nassau_catalog_pb2.PiratesOfNassauCatalog
    navegador: _navegador_catalog_pb2.NavegadorCatalog
    def __init__(self, kind: _Optional[str] = ..., rules_version: _Optional[str] = ..., etag: _Optional[str] = ..., port_royal: _Optional[_Union[_port_royal_catalog_pb2.PortRoyalCatalog, _Mapping]] = ..., sail_away: _Optional[_Union[_sail_away_catalog_pb2.SailAwayCatalog, _Mapping]] = ..., pirates_of_nassau: _Optional[_Union[_pirates_of_nassau_catalog_pb2.PiratesOfNassauCatalog, _Mapping]] = ..., navegador: _Optional[_Union[_navegador_catalog_pb2.NavegadorCatalog, _Mapping]] = ...) -> None: ...
