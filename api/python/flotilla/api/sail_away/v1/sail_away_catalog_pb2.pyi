from flotilla.api.sail_away.v1 import sail_away_pb2 as _sail_away_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SailAwayCatalog(_message.Message):
    __slots__ = ("islands", "ships", "pirate_actions", "objectives", "launch_abilities", "setups", "board", "numbers")
    ISLANDS_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    PIRATE_ACTIONS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVES_FIELD_NUMBER: _ClassVar[int]
    LAUNCH_ABILITIES_FIELD_NUMBER: _ClassVar[int]
    SETUPS_FIELD_NUMBER: _ClassVar[int]
    BOARD_FIELD_NUMBER: _ClassVar[int]
    NUMBERS_FIELD_NUMBER: _ClassVar[int]
    islands: _containers.RepeatedCompositeFieldContainer[SailAwayIsland]
    ships: _containers.RepeatedCompositeFieldContainer[SailAwayShip]
    pirate_actions: _containers.RepeatedCompositeFieldContainer[SailAwayPirateAction]
    objectives: _containers.RepeatedCompositeFieldContainer[SailAwayObjective]
    launch_abilities: _containers.RepeatedCompositeFieldContainer[SailAwayLaunchAbility]
    setups: _containers.RepeatedCompositeFieldContainer[SailAwaySetup]
    board: _containers.RepeatedCompositeFieldContainer[SailAwayBoardSpot]
    numbers: SailAwayNumbers
    def __init__(self, islands: _Optional[_Iterable[_Union[SailAwayIsland, _Mapping]]] = ..., ships: _Optional[_Iterable[_Union[SailAwayShip, _Mapping]]] = ..., pirate_actions: _Optional[_Iterable[_Union[SailAwayPirateAction, _Mapping]]] = ..., objectives: _Optional[_Iterable[_Union[SailAwayObjective, _Mapping]]] = ..., launch_abilities: _Optional[_Iterable[_Union[SailAwayLaunchAbility, _Mapping]]] = ..., setups: _Optional[_Iterable[_Union[SailAwaySetup, _Mapping]]] = ..., board: _Optional[_Iterable[_Union[SailAwayBoardSpot, _Mapping]]] = ..., numbers: _Optional[_Union[SailAwayNumbers, _Mapping]] = ...) -> None: ...

class SailAwayIsland(_message.Message):
    __slots__ = ("id", "name", "spaces", "value")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    spaces: _containers.RepeatedScalarFieldContainer[_sail_away_pb2.Resource]
    value: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., spaces: _Optional[_Iterable[_Union[_sail_away_pb2.Resource, str]]] = ..., value: _Optional[int] = ...) -> None: ...

class SailAwayShip(_message.Message):
    __slots__ = ("id", "name", "spaces", "coin_space", "points")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    COIN_SPACE_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    spaces: _containers.RepeatedScalarFieldContainer[_sail_away_pb2.Resource]
    coin_space: int
    points: int
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., spaces: _Optional[_Iterable[_Union[_sail_away_pb2.Resource, str]]] = ..., coin_space: _Optional[int] = ..., points: _Optional[int] = ...) -> None: ...

class SailAwayPirateAction(_message.Message):
    __slots__ = ("id", "name", "persistent", "rules_text")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PERSISTENT_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    persistent: bool
    rules_text: str
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., persistent: _Optional[bool] = ..., rules_text: _Optional[str] = ...) -> None: ...

class SailAwayObjective(_message.Message):
    __slots__ = ("id", "resource")
    ID_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    id: str
    resource: _sail_away_pb2.Resource
    def __init__(self, id: _Optional[str] = ..., resource: _Optional[_Union[_sail_away_pb2.Resource, str]] = ...) -> None: ...

class SailAwayLaunchAbility(_message.Message):
    __slots__ = ("id", "slot", "name", "rules_text")
    ID_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    id: str
    slot: int
    name: str
    rules_text: str
    def __init__(self, id: _Optional[str] = ..., slot: _Optional[int] = ..., name: _Optional[str] = ..., rules_text: _Optional[str] = ...) -> None: ...

class SailAwaySetup(_message.Message):
    __slots__ = ("seat_count", "open_islands", "pirate_cards", "market_ships", "ships_dealt", "ships_kept", "standard_crates", "pirate_crates", "reserve_standard", "reserve_pirate", "claim_posts", "coins")
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    OPEN_ISLANDS_FIELD_NUMBER: _ClassVar[int]
    PIRATE_CARDS_FIELD_NUMBER: _ClassVar[int]
    MARKET_SHIPS_FIELD_NUMBER: _ClassVar[int]
    SHIPS_DEALT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_KEPT_FIELD_NUMBER: _ClassVar[int]
    STANDARD_CRATES_FIELD_NUMBER: _ClassVar[int]
    PIRATE_CRATES_FIELD_NUMBER: _ClassVar[int]
    RESERVE_STANDARD_FIELD_NUMBER: _ClassVar[int]
    RESERVE_PIRATE_FIELD_NUMBER: _ClassVar[int]
    CLAIM_POSTS_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    seat_count: int
    open_islands: int
    pirate_cards: int
    market_ships: int
    ships_dealt: int
    ships_kept: int
    standard_crates: int
    pirate_crates: int
    reserve_standard: int
    reserve_pirate: int
    claim_posts: int
    coins: int
    def __init__(self, seat_count: _Optional[int] = ..., open_islands: _Optional[int] = ..., pirate_cards: _Optional[int] = ..., market_ships: _Optional[int] = ..., ships_dealt: _Optional[int] = ..., ships_kept: _Optional[int] = ..., standard_crates: _Optional[int] = ..., pirate_crates: _Optional[int] = ..., reserve_standard: _Optional[int] = ..., reserve_pirate: _Optional[int] = ..., claim_posts: _Optional[int] = ..., coins: _Optional[int] = ...) -> None: ...

class SailAwayBoardSpot(_message.Message):
    __slots__ = ("area", "position", "x", "y")
    AREA_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    area: str
    position: int
    x: float
    y: float
    def __init__(self, area: _Optional[str] = ..., position: _Optional[int] = ..., x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class SailAwayNumbers(_message.Message):
    __slots__ = ("crate_limit", "sea_legs_crate_limit", "surcharge", "retrieve_cost", "ransom", "black_flag_ransom", "gold_coin", "sell_crate_coins", "end_ships", "pirate_card_spaces", "max_rounds")
    CRATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SEA_LEGS_CRATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    SURCHARGE_FIELD_NUMBER: _ClassVar[int]
    RETRIEVE_COST_FIELD_NUMBER: _ClassVar[int]
    RANSOM_FIELD_NUMBER: _ClassVar[int]
    BLACK_FLAG_RANSOM_FIELD_NUMBER: _ClassVar[int]
    GOLD_COIN_FIELD_NUMBER: _ClassVar[int]
    SELL_CRATE_COINS_FIELD_NUMBER: _ClassVar[int]
    END_SHIPS_FIELD_NUMBER: _ClassVar[int]
    PIRATE_CARD_SPACES_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    crate_limit: int
    sea_legs_crate_limit: int
    surcharge: int
    retrieve_cost: int
    ransom: int
    black_flag_ransom: int
    gold_coin: int
    sell_crate_coins: int
    end_ships: int
    pirate_card_spaces: int
    max_rounds: int
    def __init__(self, crate_limit: _Optional[int] = ..., sea_legs_crate_limit: _Optional[int] = ..., surcharge: _Optional[int] = ..., retrieve_cost: _Optional[int] = ..., ransom: _Optional[int] = ..., black_flag_ransom: _Optional[int] = ..., gold_coin: _Optional[int] = ..., sell_crate_coins: _Optional[int] = ..., end_ships: _Optional[int] = ..., pirate_card_spaces: _Optional[int] = ..., max_rounds: _Optional[int] = ...) -> None: ...
