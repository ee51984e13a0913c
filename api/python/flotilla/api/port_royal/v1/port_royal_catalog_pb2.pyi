from flotilla.api.port_royal.v1 import port_royal_pb2 as _port_royal_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class CardType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CARD_TYPE_UNSPECIFIED: _ClassVar[CardType]
    CARD_TYPE_SHIP: _ClassVar[CardType]
    CARD_TYPE_PERSON: _ClassVar[CardType]
    CARD_TYPE_EXPEDITION: _ClassVar[CardType]
    CARD_TYPE_TAX: _ClassVar[CardType]

class ShipColour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SHIP_COLOUR_UNSPECIFIED: _ClassVar[ShipColour]
    SHIP_COLOUR_YELLOW: _ClassVar[ShipColour]
    SHIP_COLOUR_BLUE: _ClassVar[ShipColour]
    SHIP_COLOUR_GREEN: _ClassVar[ShipColour]
    SHIP_COLOUR_RED: _ClassVar[ShipColour]
    SHIP_COLOUR_BLACK: _ClassVar[ShipColour]

class PersonType(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PERSON_TYPE_UNSPECIFIED: _ClassVar[PersonType]
    PERSON_TYPE_TRADER: _ClassVar[PersonType]
    PERSON_TYPE_SETTLER: _ClassVar[PersonType]
    PERSON_TYPE_CAPTAIN: _ClassVar[PersonType]
    PERSON_TYPE_PRIEST: _ClassVar[PersonType]
    PERSON_TYPE_JACK: _ClassVar[PersonType]
    PERSON_TYPE_SAILOR: _ClassVar[PersonType]
    PERSON_TYPE_PIRATE: _ClassVar[PersonType]
    PERSON_TYPE_MADEMOISELLE: _ClassVar[PersonType]
    PERSON_TYPE_JESTER: _ClassVar[PersonType]
    PERSON_TYPE_ADMIRAL: _ClassVar[PersonType]
    PERSON_TYPE_GOVERNOR: _ClassVar[PersonType]
    PERSON_TYPE_CLERK: _ClassVar[PersonType]
    PERSON_TYPE_GUNNER: _ClassVar[PersonType]
    PERSON_TYPE_VICE_ADMIRAL: _ClassVar[PersonType]

class ExpeditionSymbol(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    EXPEDITION_SYMBOL_UNSPECIFIED: _ClassVar[ExpeditionSymbol]
    EXPEDITION_SYMBOL_ANCHOR: _ClassVar[ExpeditionSymbol]
    EXPEDITION_SYMBOL_CROSS: _ClassVar[ExpeditionSymbol]
    EXPEDITION_SYMBOL_HOUSE: _ClassVar[ExpeditionSymbol]

class TaxBonus(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    TAX_BONUS_UNSPECIFIED: _ClassVar[TaxBonus]
    TAX_BONUS_MOST_SWORDS: _ClassVar[TaxBonus]
    TAX_BONUS_FEWEST_VP: _ClassVar[TaxBonus]

class ContractTiming(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    CONTRACT_TIMING_UNSPECIFIED: _ClassVar[ContractTiming]
    CONTRACT_TIMING_STATE: _ClassVar[ContractTiming]
    CONTRACT_TIMING_IMMEDIATE: _ClassVar[ContractTiming]
CARD_TYPE_UNSPECIFIED: CardType
CARD_TYPE_SHIP: CardType
CARD_TYPE_PERSON: CardType
CARD_TYPE_EXPEDITION: CardType
CARD_TYPE_TAX: CardType
SHIP_COLOUR_UNSPECIFIED: ShipColour
SHIP_COLOUR_YELLOW: ShipColour
SHIP_COLOUR_BLUE: ShipColour
SHIP_COLOUR_GREEN: ShipColour
SHIP_COLOUR_RED: ShipColour
SHIP_COLOUR_BLACK: ShipColour
PERSON_TYPE_UNSPECIFIED: PersonType
PERSON_TYPE_TRADER: PersonType
PERSON_TYPE_SETTLER: PersonType
PERSON_TYPE_CAPTAIN: PersonType
PERSON_TYPE_PRIEST: PersonType
PERSON_TYPE_JACK: PersonType
PERSON_TYPE_SAILOR: PersonType
PERSON_TYPE_PIRATE: PersonType
PERSON_TYPE_MADEMOISELLE: PersonType
PERSON_TYPE_JESTER: PersonType
PERSON_TYPE_ADMIRAL: PersonType
PERSON_TYPE_GOVERNOR: PersonType
PERSON_TYPE_CLERK: PersonType
PERSON_TYPE_GUNNER: PersonType
PERSON_TYPE_VICE_ADMIRAL: PersonType
EXPEDITION_SYMBOL_UNSPECIFIED: ExpeditionSymbol
EXPEDITION_SYMBOL_ANCHOR: ExpeditionSymbol
EXPEDITION_SYMBOL_CROSS: ExpeditionSymbol
EXPEDITION_SYMBOL_HOUSE: ExpeditionSymbol
TAX_BONUS_UNSPECIFIED: TaxBonus
TAX_BONUS_MOST_SWORDS: TaxBonus
TAX_BONUS_FEWEST_VP: TaxBonus
CONTRACT_TIMING_UNSPECIFIED: ContractTiming
CONTRACT_TIMING_STATE: ContractTiming
CONTRACT_TIMING_IMMEDIATE: ContractTiming

class PortRoyalCatalog(_message.Message):
    __slots__ = ("cards", "contracts", "ship_colours", "setups", "rank_titles", "numbers")
    CARDS_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    SHIP_COLOURS_FIELD_NUMBER: _ClassVar[int]
    SETUPS_FIELD_NUMBER: _ClassVar[int]
    RANK_TITLES_FIELD_NUMBER: _ClassVar[int]
    NUMBERS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedCompositeFieldContainer[PortRoyalCard]
    contracts: _containers.RepeatedCompositeFieldContainer[PortRoyalContract]
    ship_colours: _containers.RepeatedCompositeFieldContainer[PortRoyalShipColour]
    setups: _containers.RepeatedCompositeFieldContainer[PortRoyalSetup]
    rank_titles: _containers.RepeatedCompositeFieldContainer[PortRoyalRankTitle]
    numbers: PortRoyalNumbers
    def __init__(self, cards: _Optional[_Iterable[_Union[PortRoyalCard, _Mapping]]] = ..., contracts: _Optional[_Iterable[_Union[PortRoyalContract, _Mapping]]] = ..., ship_colours: _Optional[_Iterable[_Union[PortRoyalShipColour, _Mapping]]] = ..., setups: _Optional[_Iterable[_Union[PortRoyalSetup, _Mapping]]] = ..., rank_titles: _Optional[_Iterable[_Union[PortRoyalRankTitle, _Mapping]]] = ..., numbers: _Optional[_Union[PortRoyalNumbers, _Mapping]] = ...) -> None: ...

class PortRoyalCard(_message.Message):
    __slots__ = ("id", "type", "name", "rules_text", "expansion", "colour", "coins", "swords_to_repel", "skull", "special", "person_type", "cost", "victory_points", "swords", "symbol", "needs", "tax_bonus", "five_players_only")
    ID_FIELD_NUMBER: _ClassVar[int]
    TYPE_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    EXPANSION_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    SWORDS_TO_REPEL_FIELD_NUMBER: _ClassVar[int]
    SKULL_FIELD_NUMBER: _ClassVar[int]
    SPECIAL_FIELD_NUMBER: _ClassVar[int]
    PERSON_TYPE_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    VICTORY_POINTS_FIELD_NUMBER: _ClassVar[int]
    SWORDS_FIELD_NUMBER: _ClassVar[int]
    SYMBOL_FIELD_NUMBER: _ClassVar[int]
    NEEDS_FIELD_NUMBER: _ClassVar[int]
    TAX_BONUS_FIELD_NUMBER: _ClassVar[int]
    FIVE_PLAYERS_ONLY_FIELD_NUMBER: _ClassVar[int]
    id: str
    type: CardType
    name: str
    rules_text: str
    expansion: bool
    colour: ShipColour
    coins: int
    swords_to_repel: int
    skull: bool
    special: bool
    person_type: PersonType
    cost: int
    victory_points: int
    swords: int
    symbol: ExpeditionSymbol
    needs: _containers.RepeatedScalarFieldContainer[ExpeditionSymbol]
    tax_bonus: TaxBonus
    five_players_only: bool
    def __init__(self, id: _Optional[str] = ..., type: _Optional[_Union[CardType, str]] = ..., name: _Optional[str] = ..., rules_text: _Optional[str] = ..., expansion: _Optional[bool] = ..., colour: _Optional[_Union[ShipColour, str]] = ..., coins: _Optional[int] = ..., swords_to_repel: _Optional[int] = ..., skull: _Optional[bool] = ..., special: _Optional[bool] = ..., person_type: _Optional[_Union[PersonType, str]] = ..., cost: _Optional[int] = ..., victory_points: _Optional[int] = ..., swords: _Optional[int] = ..., symbol: _Optional[_Union[ExpeditionSymbol, str]] = ..., needs: _Optional[_Iterable[_Union[ExpeditionSymbol, str]]] = ..., tax_bonus: _Optional[_Union[TaxBonus, str]] = ..., five_players_only: _Optional[bool] = ...) -> None: ...

class PortRoyalContract(_message.Message):
    __slots__ = ("id", "name", "rules_text", "seal_number", "seal_letter", "coin_slots", "preparation_boxes", "active_player_only", "timing", "coop_only")
    ID_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    RULES_TEXT_FIELD_NUMBER: _ClassVar[int]
    SEAL_NUMBER_FIELD_NUMBER: _ClassVar[int]
    SEAL_LETTER_FIELD_NUMBER: _ClassVar[int]
    COIN_SLOTS_FIELD_NUMBER: _ClassVar[int]
    PREPARATION_BOXES_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_PLAYER_ONLY_FIELD_NUMBER: _ClassVar[int]
    TIMING_FIELD_NUMBER: _ClassVar[int]
    COOP_ONLY_FIELD_NUMBER: _ClassVar[int]
    id: str
    name: str
    rules_text: str
    seal_number: int
    seal_letter: str
    coin_slots: _containers.RepeatedScalarFieldContainer[int]
    preparation_boxes: int
    active_player_only: bool
    timing: ContractTiming
    coop_only: bool
    def __init__(self, id: _Optional[str] = ..., name: _Optional[str] = ..., rules_text: _Optional[str] = ..., seal_number: _Optional[int] = ..., seal_letter: _Optional[str] = ..., coin_slots: _Optional[_Iterable[int]] = ..., preparation_boxes: _Optional[int] = ..., active_player_only: _Optional[bool] = ..., timing: _Optional[_Union[ContractTiming, str]] = ..., coop_only: _Optional[bool] = ...) -> None: ...

class PortRoyalShipColour(_message.Message):
    __slots__ = ("colour", "letter", "name")
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    LETTER_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    colour: ShipColour
    letter: str
    name: str
    def __init__(self, colour: _Optional[_Union[ShipColour, str]] = ..., letter: _Optional[str] = ..., name: _Optional[str] = ...) -> None: ...

class PortRoyalSetup(_message.Message):
    __slots__ = ("mode", "seat_count", "draw_pile_cards", "expedition_display", "face_up_contracts", "starting_coins")
    MODE_FIELD_NUMBER: _ClassVar[int]
    SEAT_COUNT_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_CARDS_FIELD_NUMBER: _ClassVar[int]
    EXPEDITION_DISPLAY_FIELD_NUMBER: _ClassVar[int]
    FACE_UP_CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    STARTING_COINS_FIELD_NUMBER: _ClassVar[int]
    mode: _port_royal_pb2.Mode
    seat_count: int
    draw_pile_cards: int
    expedition_display: _containers.RepeatedScalarFieldContainer[str]
    face_up_contracts: int
    starting_coins: int
    def __init__(self, mode: _Optional[_Union[_port_royal_pb2.Mode, str]] = ..., seat_count: _Optional[int] = ..., draw_pile_cards: _Optional[int] = ..., expedition_display: _Optional[_Iterable[str]] = ..., face_up_contracts: _Optional[int] = ..., starting_coins: _Optional[int] = ...) -> None: ...

class PortRoyalRankTitle(_message.Message):
    __slots__ = ("victory_pile", "title")
    VICTORY_PILE_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    victory_pile: int
    title: str
    def __init__(self, victory_pile: _Optional[int] = ..., title: _Optional[str] = ...) -> None: ...

class PortRoyalNumbers(_message.Message):
    __slots__ = ("starting_coins", "end_victory_points", "tax_threshold", "allowance_by_colours", "non_active_fee", "cubes_per_player", "max_contracts", "max_difficulty", "max_turns")
    STARTING_COINS_FIELD_NUMBER: _ClassVar[int]
    END_VICTORY_POINTS_FIELD_NUMBER: _ClassVar[int]
    TAX_THRESHOLD_FIELD_NUMBER: _ClassVar[int]
    ALLOWANCE_BY_COLOURS_FIELD_NUMBER: _ClassVar[int]
    NON_ACTIVE_FEE_FIELD_NUMBER: _ClassVar[int]
    CUBES_PER_PLAYER_FIELD_NUMBER: _ClassVar[int]
    MAX_CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    MAX_DIFFICULTY_FIELD_NUMBER: _ClassVar[int]
    MAX_TURNS_FIELD_NUMBER: _ClassVar[int]
    starting_coins: int
    end_victory_points: int
    tax_threshold: int
    allowance_by_colours: _containers.RepeatedScalarFieldContainer[int]
    non_active_fee: int
    cubes_per_player: int
    max_contracts: int
    max_difficulty: int
    max_turns: int
    def __init__(self, starting_coins: _Optional[int] = ..., end_victory_points: _Optional[int] = ..., tax_threshold: _Optional[int] = ..., allowance_by_colours: _Optional[_Iterable[int]] = ..., non_active_fee: _Optional[int] = ..., cubes_per_player: _Optional[int] = ..., max_contracts: _Optional[int] = ..., max_difficulty: _Optional[int] = ..., max_turns: _Optional[int] = ...) -> None: ...
