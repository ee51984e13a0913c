from flotilla.api.pirates_of_nassau.v1 import pirates_of_nassau_pb2 as _pirates_of_nassau_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class SeaSpaceType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SEA_SPACE_TYPE_UNSPECIFIED: _ClassVar[SeaSpaceType]
    SEA_SPACE_TYPE_PORT: _ClassVar[SeaSpaceType]
    SEA_SPACE_TYPE_ROUTE: _ClassVar[SeaSpaceType]
    SEA_SPACE_TYPE_LAYOVER: _ClassVar[SeaSpaceType]

class SlotType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SLOT_TYPE_UNSPECIFIED: _ClassVar[SlotType]
    SLOT_TYPE_HULL: _ClassVar[SlotType]
    SLOT_TYPE_SAIL: _ClassVar[SlotType]
    SLOT_TYPE_MIZZEN: _ClassVar[SlotType]
    SLOT_TYPE_CREW: _ClassVar[SlotType]

class Border(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    BORDER_UNSPECIFIED: _ClassVar[Border]
    BORDER_RED: _ClassVar[Border]
    BORDER_BLACK: _ClassVar[Border]
    BORDER_YELLOW: _ClassVar[Border]
    BORDER_PURPLE: _ClassVar[Border]
    BORDER_GREEN: _ClassVar[Border]
    BORDER_ANY: _ClassVar[Border]

class Fight(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    FIGHT_UNSPECIFIED: _ClassVar[Fight]
    FIGHT_PLUNDER: _ClassVar[Fight]
    FIGHT_RAID: _ClassVar[Fight]
    FIGHT_NAVY: _ClassVar[Fight]
SEA_SPACE_TYPE_UNSPECIFIED: SeaSpaceType
SEA_SPACE_TYPE_PORT: SeaSpaceType
SEA_SPACE_TYPE_ROUTE: SeaSpaceType
SEA_SPACE_TYPE_LAYOVER: SeaSpaceType
SLOT_TYPE_UNSPECIFIED: SlotType
SLOT_TYPE_HULL: SlotType
SLOT_TYPE_SAIL: SlotType
SLOT_TYPE_MIZZEN: SlotType
SLOT_TYPE_CREW: SlotType
BORDER_UNSPECIFIED: Border
BORDER_RED: Border
BORDER_BLACK: Border
BORDER_YELLOW: Border
BORDER_PURPLE: Border
BORDER_GREEN: Border
BORDER_ANY: Border
FIGHT_UNSPECIFIED: Fight
FIGHT_PLUNDER: Fight
FIGHT_RAID: Fight
FIGHT_NAVY: Fight

class PiratesOfNassauCatalog(_message.Message):
    __slots__ = ("sea", "zones", "merchants", "navy", "captain_cards", "sections", "slots", "tokens", "purchases", "setups", "numbers")
    SEA_FIELD_NUMBER: _ClassVar[int]
    ZONES_FIELD_NUMBER: _ClassVar[int]
    MERCHANTS_FIELD_NUMBER: _ClassVar[int]
    NAVY_FIELD_NUMBER: _ClassVar[int]
    CAPTAIN_CARDS_FIELD_NUMBER: _ClassVar[int]
    SECTIONS_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    TOKENS_FIELD_NUMBER: _ClassVar[int]
    PURCHASES_FIELD_NUMBER: _ClassVar[int]
    SETUPS_FIELD_NUMBER: _ClassVar[int]
    NUMBERS_FIELD_NUMBER: _ClassVar[int]
    sea: _containers.RepeatedCompositeFieldContainer[NassauSeaSpace]
    zones: _containers.RepeatedCompositeFieldContainer[NassauZone]
    merchants: _containers.RepeatedCompositeFieldContainer[NassauMerchant]
    navy: _containers.RepeatedCompositeFieldContainer[NassauNavyCard]
    captain_cards: _containers.RepeatedCompositeFieldContainer[NassauCaptainCard]
    sections: _containers.RepeatedCompositeFieldContainer[NassauShipSection]
    slots: _containers.RepeatedCompositeFieldContainer[NassauSlot]
    tokens: _containers.RepeatedCompositeFieldContainer[NassauToken]
    purchases: _containers.RepeatedCompositeFieldContainer[NassauPurchase]
    setups: _containers.RepeatedCompositeFieldContainer[NassauSetup]
    numbers: NassauNumbers
    def __init__(self, sea: _Optional[_Iterable[_Union[NassauSeaSpace, _Mapping]]] = ..., zones: _Optional[_Iterable[_Union[NassauZone, _Mapping]]] = ..., merchants: _Optional[_Iterable[_Union[NassauMerchant, _Mapping]]] = ..., navy: _Optional[_Iterable[_Union[NassauNavyCard, _Mapping]]] = ..., captain_cards: _Optional[_Iterable[_Union[NassauCaptainCard, _Mapping]]] = ..., sections: _Optional[_Iterable[_Union[NassauShipSection, _Mapping]]] = ..., slots: _Optional[_Iterable[_Union[NassauSlot, _Mapping]]] = ..., tokens: _Optional[_Iterable[_Union[NassauToken, _Mapping]]] = ..., purchases: _Optional[_Iterable[_Union[NassauPurchase, _Mapping]]] = ..., setups: _Optional[_Iterable[_Union[NassauSetup, _Mapping]]] = ..., numbers: _Optional[_Union[NassauNumbers, _Mapping]] = ...) -> None: ...

class NassauSeaSpace(_message.Message):
    __slots__ = ("space", "zone", "type", "port_name", "offer", "spanish", "x", "y")
    SPACE_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    PORT_NAME_FIELD_NUMBER: _ClassVar[int]
    OFFER_FIELD_NUMBER: _ClassVar[int]
    SPANISH_FIELD_NUMBER: _ClassVar[int]
    X_FIELD_NUMBER: _ClassVar[int]
    Y_FIELD_NUMBER: _ClassVar[int]
    space: int
    zone: int
    type: SeaSpaceType
    port_name: str
    offer: _containers.RepeatedScalarFieldContainer[_pirates_of_nassau_pb2.Item]
    spanish: bool
    x: float
    y: float
    def __init__(self, space: _Optional[int] = ..., zone: _Optional[int] = ..., type: _Optional[_Union[SeaSpaceType, str]] = ..., port_name: _Optional[str] = ..., offer: _Optional[_Iterable[_Union[_pirates_of_nassau_pb2.Item, str]]] = ..., spanish: _Optional[bool] = ..., x: _Optional[float] = ..., y: _Optional[float] = ...) -> None: ...

class NassauZone(_message.Message):
    __slots__ = ("zone", "spaces", "routes", "layover", "port_cannon", "raid_reward", "ransom_reward", "smuggle_quantity")
    ZONE_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    LAYOVER_FIELD_NUMBER: _ClassVar[int]
    PORT_CANNON_FIELD_NUMBER: _ClassVar[int]
    RAID_REWARD_FIELD_NUMBER: _ClassVar[int]
    RANSOM_REWARD_FIELD_NUMBER: _ClassVar[int]
    SMUGGLE_QUANTITY_FIELD_NUMBER: _ClassVar[int]
    zone: int
    spaces: _containers.RepeatedScalarFieldContainer[int]
    routes: _containers.RepeatedScalarFieldContainer[int]
    layover: int
    port_cannon: int
    raid_reward: int
    ransom_reward: int
    smuggle_quantity: int
    def __init__(self, zone: _Optional[int] = ..., spaces: _Optional[_Iterable[int]] = ..., routes: _Optional[_Iterable[int]] = ..., layover: _Optional[int] = ..., port_cannon: _Optional[int] = ..., raid_reward: _Optional[int] = ..., ransom_reward: _Optional[int] = ..., smuggle_quantity: _Optional[int] = ...) -> None: ...

class NassauMerchant(_message.Message):
    __slots__ = ("id", "zone", "sail", "cannon", "loot")
    ID_FIELD_NUMBER: _ClassVar[int]
    ZONE_FIELD_NUMBER: _ClassVar[int]
    SAIL_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    LOOT_FIELD_NUMBER: _ClassVar[int]
    id: str
    zone: int
    sail: int
    cannon: int
    loot: _containers.RepeatedScalarFieldContainer[_pirates_of_nassau_pb2.Item]
    def __init__(self, id: _Optional[str] = ..., zone: _Optional[int] = ..., sail: _Optional[int] = ..., cannon: _Optional[int] = ..., loot: _Optional[_Iterable[_Union[_pirates_of_nassau_pb2.Item, str]]] = ...) -> None: ...

class NassauNavyCard(_message.Message):
    __slots__ = ("id", "phase", "min_players", "sail", "cannon", "empty", "end", "name")
    ID_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    MIN_PLAYERS_FIELD_NUMBER: _ClassVar[int]
    SAIL_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    EMPTY_FIELD_NUMBER: _ClassVar[int]
    END_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    id: str
    phase: int
    min_players: int
    sail: int
    cannon: int
    empty: bool
    end: bool
    name: str
    def __init__(self, id: _Optional[str] = ..., phase: _Optional[int] = ..., min_players: _Optional[int] = ..., sail: _Optional[int] = ..., cannon: _Optional[int] = ..., empty: _Optional[bool] = ..., end: _Optional[bool] = ..., name: _Optional[str] = ...) -> None: ...

class NassauCaptainCard(_message.Message):
    __slots__ = ("id", "sail", "cannon")
    ID_FIELD_NUMBER: _ClassVar[int]
    SAIL_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    id: str
    sail: int
    cannon: int
    def __init__(self, id: _Optional[str] = ..., sail: _Optional[int] = ..., cannon: _Optional[int] = ...) -> None: ...

class NassauShipSection(_message.Message):
    __slots__ = ("section", "name", "best_ship", "capacity")
    SECTION_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    BEST_SHIP_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    section: int
    name: str
    best_ship: int
    capacity: int
    def __init__(self, section: _Optional[int] = ..., name: _Optional[str] = ..., best_ship: _Optional[int] = ..., capacity: _Optional[int] = ...) -> None: ...

class NassauSlot(_message.Message):
    __slots__ = ("id", "section", "type", "border")
    ID_FIELD_NUMBER: _ClassVar[int]
    SECTION_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    BORDER_FIELD_NUMBER: _ClassVar[int]
    id: str
    section: int
    type: SlotType
    border: Border
    def __init__(self, id: _Optional[str] = ..., section: _Optional[int] = ..., type: _Optional[_Union[SlotType, str]] = ..., border: _Optional[_Union[Border, str]] = ...) -> None: ...

class NassauToken(_message.Message):
    __slots__ = ("id", "name", "pile", "slot", "border", "rules_text", "sail", "cannon", "raid_cannon", "navy_sail", "best_ship", "motley", "one_shot", "boost_sail", "boost_cannon", "boost_fights")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PILE_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    BORDER_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    SAIL_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    RAID_CANNON_FIELD_NUMBER: _ClassVar[int]
    NAVY_SAIL_FIELD_NUMBER: _ClassVar[int]
    BEST_SHIP_FIELD_NUMBER: _ClassVar[int]
    MOTLEY_FIELD_NUMBER: _ClassVar[int]
    ONE_SHOT_FIELD_NUMBER: _ClassVar[int]
    BOOST_SAIL_FIELD_NUMBER: _ClassVar[int]
    BOOST_CANNON_FIELD_NUMBER: _ClassVar[int]
    BOOST_FIGHTS_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    pile: _pirates_of_nassau_pb2.Pile
    slot: SlotType
    border: Border
    rules_text: str
    sail: int
    cannon: int
    raid_cannon: int
    navy_sail: int
    best_ship: int
    motley: int
    one_shot: bool
    boost_sail: int
    boost_cannon: int
    boost_fights: _containers.RepeatedScalarFieldContainer[Fight]
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., pile: _Optional[_Union[_pirates_of_nassau_pb2.Pile, str]] = ..., slot: _Optional[_Union[SlotType, str]] = ..., border: _Optional[_Union[Border, str]] = ..., rules_text: _Optional[str] = ..., sail: _Optional[int] = ..., cannon: _Optional[int] = ..., raid_cannon: _Optional[int] = ..., navy_sail: _Optional[int] = ..., best_ship: _Optional[int] = ..., motley: _Optional[int] = ..., one_shot: _Optional[bool] = ..., boost_sail: _Optional[int] = ..., boost_cannon: _Optional[int] = ..., boost_fights: _Optional[_Iterable[_Union[Fight, str]]] = ...) -> None: ...

class NassauPurchase(_message.Message):
    __slots__ = ("purchase", "gunpowder", "goods", "rum")
    PURCHASE_FIELD_NUMBER: _ClassVar[int]
    GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    RUM_FIELD_NUMBER: _ClassVar[int]
    purchase: str
    gunpowder: int
    goods: int
    rum: int
    def __init__(self, purchase: _Optional[str] = ..., gunpowder: _Optional[int] = ..., goods: _Optional[int] = ..., rum: _Optional[int] = ...) -> None: ...

class NassauSetup(_message.Message):
    __slots__ = ("seat_count", "display_size", "navy_first_phase", "navy_second_phase")
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_SIZE_FIELD_NUMBER: _ClassVar[int]
    NAVY_FIRST_PHASE_FIELD_NUMBER: _ClassVar[int]
    NAVY_SECOND_PHASE_FIELD_NUMBER: _ClassVar[int]
    seat_count: int
    display_size: int
    navy_first_phase: _containers.RepeatedScalarFieldContainer[str]
    navy_second_phase: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat_count: _Optional[int] = ..., display_size: _Optional[int] = ..., navy_first_phase: _Optional[_Iterable[str]] = ..., navy_second_phase: _Optional[_Iterable[str]] = ...) -> None: ...

class NassauNumbers(_message.Message):
    __slots__ = ("notoriety_track", "rank_points", "resource_supply", "hostage_supply", "trade_winds", "peso_exchange", "sell_resources", "base_sail", "base_cannon", "raid_notoriety", "plank_notoriety")
    NOTORIETY_TRACK_FIELD_NUMBER: _ClassVar[int]
    RANK_POINTS_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_SUPPLY_FIELD_NUMBER: _ClassVar[int]
    HOSTAGE_SUPPLY_FIELD_NUMBER: _ClassVar[int]
    TRADE_WINDS_FIELD_NUMBER: _ClassVar[int]
    PESO_EXCHANGE_FIELD_NUMBER: _ClassVar[int]
    SELL_RESOURCES_FIELD_NUMBER: _ClassVar[int]
    BASE_SAIL_FIELD_NUMBER: _ClassVar[int]
    BASE_CANNON_FIELD_NUMBER: _ClassVar[int]
    RAID_NOTORIETY_FIELD_NUMBER: _ClassVar[int]
    PLANK_NOTORIETY_FIELD_NUMBER: _ClassVar[int]
    notoriety_track: int
    rank_points: _containers.RepeatedScalarFieldContainer[int]
    resource_supply: int
    hostage_supply: int
    trade_winds: int
    peso_exchange: int
    sell_resources: int
    base_sail: int
    base_cannon: int
    raid_notoriety: int
    plank_notoriety: int
    def __init__(self, notoriety_track: _Optional[int] = ..., rank_points: _Optional[_Iterable[int]] = ..., resource_supply: _Optional[int] = ..., hostage_supply: _Optional[int] = ..., trade_winds: _Optional[int] = ..., peso_exchange: _Optional[int] = ..., sell_resources: _Optional[int] = ..., base_sail: _Optional[int] = ..., base_cannon: _Optional[int] = ..., raid_notoriety: _Optional[int] = ..., plank_notoriety: _Optional[int] = ...) -> None: ...
