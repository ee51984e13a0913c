from flotilla.api.navegador.v1 import navegador_pb2 as _navegador_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class NavegadorCatalog(_message.Message):
    __slots__ = ("regions", "colonies", "buildings", "rondel", "market", "knight_prices", "purchase_costs", "setups", "numbers")
    REGIONS_FIELD_NUMBER: _ClassVar[int]
    COLONIES_FIELD_NUMBER: _ClassVar[int]
    BUILDINGS_FIELD_NUMBER: _ClassVar[int]
    RONDEL_FIELD_NUMBER: _ClassVar[int]
    MARKET_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_PRICES_FIELD_NUMBER: _ClassVar[int]
    PURCHASE_COSTS_FIELD_NUMBER: _ClassVar[int]
    SETUPS_FIELD_NUMBER: _ClassVar[int]
    NUMBERS_FIELD_NUMBER: _ClassVar[int]
    regions: _containers.RepeatedCompositeFieldContainer[NavegadorRegion]
    colonies: _containers.RepeatedCompositeFieldContainer[NavegadorColony]
    buildings: _containers.RepeatedCompositeFieldContainer[NavegadorBuilding]
    rondel: _containers.RepeatedCompositeFieldContainer[NavegadorRondelSpace]
    market: _containers.RepeatedCompositeFieldContainer[NavegadorPriceTrack]
    knight_prices: _containers.RepeatedScalarFieldContainer[int]
    purchase_costs: _containers.RepeatedScalarFieldContainer[int]
    setups: _containers.RepeatedCompositeFieldContainer[NavegadorSetup]
    numbers: NavegadorNumbers
    def __init__(self, regions: _Optional[_Iterable[_Union[NavegadorRegion, _Mapping]]] = ..., colonies: _Optional[_Iterable[_Union[NavegadorColony, _Mapping]]] = ..., buildings: _Optional[_Iterable[_Union[NavegadorBuilding, _Mapping]]] = ..., rondel: _Optional[_Iterable[_Union[NavegadorRondelSpace, _Mapping]]] = ..., market: _Optional[_Iterable[_Union[NavegadorPriceTrack, _Mapping]]] = ..., knight_prices: _Optional[_Iterable[int]] = ..., purchase_costs: _Optional[_Iterable[int]] = ..., setups: _Optional[_Iterable[_Union[NavegadorSetup, _Mapping]]] = ..., numbers: _Optional[_Union[NavegadorNumbers, _Mapping]] = ...) -> None: ...

class NavegadorRegion(_message.Message):
    __slots__ = ("id", "name", "exploration_bonus", "neighbours", "x", "y")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    EXPLORATION_BONUS_FIELD_NUMBER: _ClassVar[int]
    NEIGHBOURS_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    exploration_bonus: int
    neighbours: _containers.RepeatedScalarFieldContainer[str]
    x: float
    y: float
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., exploration_bonus: _Optional[int] = ..., neighbours: _Optional[_Iterable[str]] = ..., x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class NavegadorColony(_message.Message):
    __slots__ = ("id", "name", "good", "region", "x", "y")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    good: _navegador_pb2.Good
    region: str
    x: float
    y: float
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., good: _Optional[_Union[_navegador_pb2.Good, str]] = ..., region: _Optional[str] = ..., x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class NavegadorBuilding(_message.Message):
    __slots__ = ("id", "name", "space", "rules_text")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    space: _navegador_pb2.Space
    rules_text: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., space: _Optional[_Union[_navegador_pb2.Space, str]] = ..., rules_text: _Optional[str] = ...) -> None: ...

class NavegadorRondelSpace(_message.Message):
    __slots__ = ("space", "position", "name", "rules_text")
    SPACE_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    space: _navegador_pb2.Space
    position: int
    name: str
    rules_text: str
    def __init__(self, space: _Optional[_Union[_navegador_pb2.Space, str]] = ..., position: _Optional[int] = ..., name: _Optional[str] = ..., rules_text: _Optional[str] = ...) -> None: ...

class NavegadorPriceTrack(_message.Message):
    __slots__ = ("good", "prices")
    GOOD_FIELD_NUMBER: _ClassVar[int]
    PRICES_FIELD_NUMBER: _ClassVar[int]
    good: _navegador_pb2.Good
    prices: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, good: _Optional[_Union[_navegador_pb2.Good, str]] = ..., prices: _Optional[_Iterable[int]] = ...) -> None: ...

class NavegadorSetup(_message.Message):
    __slots__ = ("seat_count", "money", "workers", "ships", "knights", "market_cubes")
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    MONEY_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    MARKET_CUBES_FIELD_NUMBER: _ClassVar[int]
    seat_count: int
    money: int
    workers: int
    ships: int
    knights: int
    market_cubes: int
    def __init__(self, seat_count: _Optional[int] = ..., money: _Optional[int] = ..., workers: _Optional[int] = ..., ships: _Optional[int] = ..., knights: _Optional[int] = ..., market_cubes: _Optional[int] = ...) -> None: ...

class NavegadorNumbers(_message.Message):
    __slots__ = ("free_rondel_steps", "knight_passing_bonus", "exploration_min_ships", "exploration_ship_loss", "knight_phases", "points_building", "points_colony", "points_tile", "points_lisbon_worker", "points_ship", "money_per_point")
    FREE_RONDEL_STEPS_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_PASSING_BONUS_FIELD_NUMBER: _ClassVar[int]
    EXPLORATION_MIN_SHIPS_FIELD_NUMBER: _ClassVar[int]
    EXPLORATION_SHIP_LOSS_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_PHASES_FIELD_NUMBER: _ClassVar[int]
    POINTS_BUILDING_FIELD_NUMBER: _ClassVar[int]
    POINTS_COLONY_FIELD_NUMBER: _ClassVar[int]
    POINTS_TILE_FIELD_NUMBER: _ClassVar[int]
    POINTS_LISBON_WORKER_FIELD_NUMBER: _ClassVar[int]
    POINTS_SHIP_FIELD_NUMBER: _ClassVar[int]
    MONEY_PER_POINT_FIELD_NUMBER: _ClassVar[int]
    free_rondel_steps: int
    knight_passing_bonus: int
    exploration_min_ships: int
    exploration_ship_loss: int
    knight_phases: int
    points_building: int
    points_colony: int
    points_tile: int
    points_lisbon_worker: int
    points_ship: int
    money_per_point: int
    def __init__(self, free_rondel_steps: _Optional[int] = ..., knight_passing_bonus: _Optional[int] = ..., exploration_min_ships: _Optional[int] = ..., exploration_ship_loss: _Optional[int] = ..., knight_phases: _Optional[int] = ..., points_building: _Optional[int] = ..., points_colony: _Optional[int] = ..., points_tile: _Optional[int] = ..., points_lisbon_worker: _Optional[int] = ..., points_ship: _Optional[int] = ..., money_per_point: _Optional[int] = ...) -> None: ...
