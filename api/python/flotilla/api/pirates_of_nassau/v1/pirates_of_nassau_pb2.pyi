from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Direction(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DIRECTION_UNSPECIFIED: _ClassVar[Direction]
    DIRECTION_UP: _ClassVar[Direction]
    DIRECTION_DOWN: _ClassVar[Direction]

class Item(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    ITEM_UNSPECIFIED: _ClassVar[Item]
    ITEM_PESO: _ClassVar[Item]
    ITEM_GUNPOWDER: _ClassVar[Item]
    ITEM_GOODS: _ClassVar[Item]
    ITEM_RUM: _ClassVar[Item]
    ITEM_HOSTAGE: _ClassVar[Item]

class MoveKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MOVE_KIND_UNSPECIFIED: _ClassVar[MoveKind]
    MOVE_KIND_VALUE: _ClassVar[MoveKind]
    MOVE_KIND_FORWARD: _ClassVar[MoveKind]
    MOVE_KIND_BACK: _ClassVar[MoveKind]
    MOVE_KIND_LAYOVER_7: _ClassVar[MoveKind]
    MOVE_KIND_LAYOVER_14: _ClassVar[MoveKind]

class Penalty(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PENALTY_UNSPECIFIED: _ClassVar[Penalty]
    PENALTY_NOTORIETY: _ClassVar[Penalty]
    PENALTY_CARGO: _ClassVar[Penalty]
    PENALTY_BOTH: _ClassVar[Penalty]

class Pile(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PILE_UNSPECIFIED: _ClassVar[Pile]
    PILE_HULL: _ClassVar[Pile]
    PILE_MAST: _ClassVar[Pile]
    PILE_CREW: _ClassVar[Pile]

class Resource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESOURCE_UNSPECIFIED: _ClassVar[Resource]
    RESOURCE_GUNPOWDER: _ClassVar[Resource]
    RESOURCE_GOODS: _ClassVar[Resource]
    RESOURCE_RUM: _ClassVar[Resource]

class Step(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STEP_UNSPECIFIED: _ClassVar[Step]
    STEP_PIRATE_MOVE: _ClassVar[Step]
    STEP_PIRATE_ACTION: _ClassVar[Step]
    STEP_TAKING_LOOT: _ClassVar[Step]
    STEP_AFTER_SMUGGLE: _ClassVar[Step]
    STEP_ADJUSTING: _ClassVar[Step]
    STEP_COLLISION: _ClassVar[Step]
    STEP_NAVY_CHOICE: _ClassVar[Step]
    STEP_NAVY_FIGHT: _ClassVar[Step]
    STEP_NAVY_PENALTY: _ClassVar[Step]
    STEP_LOSING_CARGO: _ClassVar[Step]
    STEP_BUYING: _ClassVar[Step]
    STEP_BURYING: _ClassVar[Step]
    STEP_HOLD_CHECK: _ClassVar[Step]
    STEP_FINISHED: _ClassVar[Step]
DIRECTION_UNSPECIFIED: Direction
DIRECTION_UP: Direction
DIRECTION_DOWN: Direction
ITEM_UNSPECIFIED: Item
ITEM_PESO: Item
ITEM_GUNPOWDER: Item
ITEM_GOODS: Item
ITEM_RUM: Item
ITEM_HOSTAGE: Item
MOVE_KIND_UNSPECIFIED: MoveKind
MOVE_KIND_VALUE: MoveKind
MOVE_KIND_FORWARD: MoveKind
MOVE_KIND_BACK: MoveKind
MOVE_KIND_LAYOVER_7: MoveKind
MOVE_KIND_LAYOVER_14: MoveKind
PENALTY_UNSPECIFIED: Penalty
PENALTY_NOTORIETY: Penalty
PENALTY_CARGO: Penalty
PENALTY_BOTH: Penalty
PILE_UNSPECIFIED: Pile
PILE_HULL: Pile
PILE_MAST: Pile
PILE_CREW: Pile
RESOURCE_UNSPECIFIED: Resource
RESOURCE_GUNPOWDER: Resource
RESOURCE_GOODS: Resource
RESOURCE_RUM: Resource
STEP_UNSPECIFIED: Step
STEP_PIRATE_MOVE: Step
STEP_PIRATE_ACTION: Step
STEP_TAKING_LOOT: Step
STEP_AFTER_SMUGGLE: Step
STEP_ADJUSTING: Step
STEP_COLLISION: Step
STEP_NAVY_CHOICE: Step
STEP_NAVY_FIGHT: Step
STEP_NAVY_PENALTY: Step
STEP_LOSING_CARGO: Step
STEP_BUYING: Step
STEP_BURYING: Step
STEP_HOLD_CHECK: Step
STEP_FINISHED: Step

class Action(_message.Message):
    __slots__ = ("reroll_die", "move", "boost", "plunder", "raid", "ride_trade_winds", "smuggle", "ransom", "take_loot", "discard_item", "walk_plank", "flip_fiddler", "adjust_notoriety", "move_marker", "take_navy_card", "evade_navy", "accept_penalty", "buy_section", "buy_token", "exchange_peso", "sell_resources", "bury", "finish_burying")
    REROLL_DIE_FIELD_NUMBER: _ClassVar[int]
    MOVE_FIELD_NUMBER: _ClassVar[int]
    BOOST_FIELD_NUMBER: _ClassVar[int]
    PLUNDER_FIELD_NUMBER: _ClassVar[int]
    RAID_FIELD_NUMBER: _ClassVar[int]
    RIDE_TRADE_WINDS_FIELD_NUMBER: _ClassVar[int]
    SMUGGLE_FIELD_NUMBER: _ClassVar[int]
    RANSOM_FIELD_NUMBER: _ClassVar[int]
    TAKE_LOOT_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_ITEM_FIELD_NUMBER: _ClassVar[int]
    WALK_PLANK_FIELD_NUMBER: _ClassVar[int]
    FLIP_FIDDLER_FIELD_NUMBER: _ClassVar[int]
    ADJUST_NOTORIETY_FIELD_NUMBER: _ClassVar[int]
    MOVE_MARKER_FIELD_NUMBER: _ClassVar[int]
    TAKE_NAVY_CARD_FIELD_NUMBER: _ClassVar[int]
    EVADE_NAVY_FIELD_NUMBER: _ClassVar[int]
    ACCEPT_PENALTY_FIELD_NUMBER: _ClassVar[int]
    BUY_SECTION_FIELD_NUMBER: _ClassVar[int]
    BUY_TOKEN_FIELD_NUMBER: _ClassVar[int]
    EXCHANGE_PESO_FIELD_NUMBER: _ClassVar[int]
    SELL_RESOURCES_FIELD_NUMBER: _ClassVar[int]
    BURY_FIELD_NUMBER: _ClassVar[int]
    FINISH_BURYING_FIELD_NUMBER: _ClassVar[int]
    reroll_die: RerollDie
    move: Move
    boost: Boost
    plunder: Plunder
    raid: Raid
    ride_trade_winds: RideTradeWinds
    smuggle: Smuggle
    ransom: Ransom
    take_loot: TakeLoot
    discard_item: DiscardItem
    walk_plank: WalkPlank
    flip_fiddler: FlipFiddler
    adjust_notoriety: AdjustNotoriety
    move_marker: MoveMarker
    take_navy_card: TakeNavyCard
    evade_navy: EvadeNavy
    accept_penalty: AcceptPenalty
    buy_section: BuySection
    buy_token: BuyToken
    exchange_peso: ExchangePeso
    sell_resources: SellResources
    bury: Bury
    finish_burying: FinishBurying
    def __init__(self, reroll_die: _Optional[_Union[RerollDie, _Mapping]] = ..., move: _Optional[_Union[Move, _Mapping]] = ..., boost: _Optional[_Union[Boost, _Mapping]] = ..., plunder: _Optional[_Union[Plunder, _Mapping]] = ..., raid: _Optional[_Union[Raid, _Mapping]] = ..., ride_trade_winds: _Optional[_Union[RideTradeWinds, _Mapping]] = ..., smuggle: _Optional[_Union[Smuggle, _Mapping]] = ..., ransom: _Optional[_Union[Ransom, _Mapping]] = ..., take_loot: _Optional[_Union[TakeLoot, _Mapping]] = ..., discard_item: _Optional[_Union[DiscardItem, _Mapping]] = ..., walk_plank: _Optional[_Union[WalkPlank, _Mapping]] = ..., flip_fiddler: _Optional[_Union[FlipFiddler, _Mapping]] = ..., adjust_notoriety: _Optional[_Union[AdjustNotoriety, _Mapping]] = ..., move_marker: _Optional[_Union[MoveMarker, _Mapping]] = ..., take_navy_card: _Optional[_Union[TakeNavyCard, _Mapping]] = ..., evade_navy: _Optional[_Union[EvadeNavy, _Mapping]] = ..., accept_penalty: _Optional[_Union[AcceptPenalty, _Mapping]] = ..., buy_section: _Optional[_Union[BuySection, _Mapping]] = ..., buy_token: _Optional[_Union[BuyToken, _Mapping]] = ..., exchange_peso: _Optional[_Union[ExchangePeso, _Mapping]] = ..., sell_resources: _Optional[_Union[SellResources, _Mapping]] = ..., bury: _Optional[_Union[Bury, _Mapping]] = ..., finish_burying: _Optional[_Union[FinishBurying, _Mapping]] = ..., **kwargs) -> None: ...

class Event(_message.Message):
    __slots__ = ("round_started", "dice_rolled", "die_rerolled", "ship_moved", "item_discarded", "plank_walked", "boost_staged", "merchant_fought", "loot_taken", "port_raided", "trade_wind_taken", "smuggled", "hostage_ransomed", "turn_passed", "fiddler_flipped", "notoriety_scored", "marker_collided", "notoriety_changed", "navy_card_taken", "navy_fought", "penalty_accepted", "navy_card_returned", "board_cleared", "section_bought", "token_bought", "peso_exchanged", "buying_passed", "resources_sold", "pesos_buried", "burial_finished", "navy_card_revealed", "merchant_sailed_away", "merchant_moved", "merchant_dealt", "pile_reshuffled", "nassau_restocked", "game_ended")
    ROUND_STARTED_FIELD_NUMBER: _ClassVar[int]
    DICE_ROLLED_FIELD_NUMBER: _ClassVar[int]
    DIE_REROLLED_FIELD_NUMBER: _ClassVar[int]
    SHIP_MOVED_FIELD_NUMBER: _ClassVar[int]
    ITEM_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    PLANK_WALKED_FIELD_NUMBER: _ClassVar[int]
    BOOST_STAGED_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_FOUGHT_FIELD_NUMBER: _ClassVar[int]
    LOOT_TAKEN_FIELD_NUMBER: _ClassVar[int]
    PORT_RAIDED_FIELD_NUMBER: _ClassVar[int]
    TRADE_WIND_TAKEN_FIELD_NUMBER: _ClassVar[int]
    SMUGGLED_FIELD_NUMBER: _ClassVar[int]
    HOSTAGE_RANSOMED_FIELD_NUMBER: _ClassVar[int]
    TURN_PASSED_FIELD_NUMBER: _ClassVar[int]
    FIDDLER_FLIPPED_FIELD_NUMBER: _ClassVar[int]
    NOTORIETY_SCORED_FIELD_NUMBER: _ClassVar[int]
    MARKER_COLLIDED_FIELD_NUMBER: _ClassVar[int]
    NOTORIETY_CHANGED_FIELD_NUMBER: _ClassVar[int]
    NAVY_CARD_TAKEN_FIELD_NUMBER: _ClassVar[int]
    NAVY_FOUGHT_FIELD_NUMBER: _ClassVar[int]
    PENALTY_ACCEPTED_FIELD_NUMBER: _ClassVar[int]
    NAVY_CARD_RETURNED_FIELD_NUMBER: _ClassVar[int]
    BOARD_CLEARED_FIELD_NUMBER: _ClassVar[int]
    SECTION_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    PESO_EXCHANGED_FIELD_NUMBER: _ClassVar[int]
    BUYING_PASSED_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_SOLD_FIELD_NUMBER: _ClassVar[int]
    PESOS_BURIED_FIELD_NUMBER: _ClassVar[int]
    BURIAL_FINISHED_FIELD_NUMBER: _ClassVar[int]
    NAVY_CARD_REVEALED_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_SAILED_AWAY_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_MOVED_FIELD_NUMBER: _ClassVar[int]
    MERCHANT_DEALT_FIELD_NUMBER: _ClassVar[int]
    PILE_RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    NASSAU_RESTOCKED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    round_started: RoundStarted
    dice_rolled: DiceRolled
    die_rerolled: DieRerolled
    ship_moved: ShipMoved
    item_discarded: ItemDiscarded
    plank_walked: PlankWalked
    boost_staged: BoostStaged
    merchant_fought: MerchantFought
    loot_taken: LootTaken
    port_raided: PortRaided
    trade_wind_taken: TradeWindTaken
    smuggled: Smuggled
    hostage_ransomed: HostageRansomed
    turn_passed: TurnPassed
    fiddler_flipped: FiddlerFlipped
    notoriety_scored: NotorietyScored
    marker_collided: MarkerCollided
    notoriety_changed: NotorietyChanged
    navy_card_taken: NavyCardTaken
    navy_fought: NavyFought
    penalty_accepted: PenaltyAccepted
    navy_card_returned: NavyCardReturned
    board_cleared: BoardCleared
    section_bought: SectionBought
    token_bought: TokenBought
    peso_exchanged: PesoExchanged
    buying_passed: BuyingPassed
    resources_sold: ResourcesSold
    pesos_buried: PesosBuried
    burial_finished: BurialFinished
    navy_card_revealed: NavyCardRevealed
    merchant_sailed_away: MerchantSailedAway
    merchant_moved: MerchantMoved
    merchant_dealt: MerchantDealt
    pile_reshuffled: PileReshuffled
    nassau_restocked: NassauRestocked
    game_ended: GameEnded
    def __init__(self, round_started: _Optional[_Union[RoundStarted, _Mapping]] = ..., dice_rolled: _Optional[_Union[DiceRolled, _Mapping]] = ..., die_rerolled: _Optional[_Union[DieRerolled, _Mapping]] = ..., ship_moved: _Optional[_Union[ShipMoved, _Mapping]] = ..., item_discarded: _Optional[_Union[ItemDiscarded, _Mapping]] = ..., plank_walked: _Optional[_Union[PlankWalked, _Mapping]] = ..., boost_staged: _Optional[_Union[BoostStaged, _Mapping]] = ..., merchant_fought: _Optional[_Union[MerchantFought, _Mapping]] = ..., loot_taken: _Optional[_Union[LootTaken, _Mapping]] = ..., port_raided: _Optional[_Union[PortRaided, _Mapping]] = ..., trade_wind_taken: _Optional[_Union[TradeWindTaken, _Mapping]] = ..., smuggled: _Optional[_Union[Smuggled, _Mapping]] = ..., hostage_ransomed: _Optional[_Union[HostageRansomed, _Mapping]] = ..., turn_passed: _Optional[_Union[TurnPassed, _Mapping]] = ..., fiddler_flipped: _Optional[_Union[FiddlerFlipped, _Mapping]] = ..., notoriety_scored: _Optional[_Union[NotorietyScored, _Mapping]] = ..., marker_collided: _Optional[_Union[MarkerCollided, _Mapping]] = ..., notoriety_changed: _Optional[_Union[NotorietyChanged, _Mapping]] = ..., navy_card_taken: _Optional[_Union[NavyCardTaken, _Mapping]] = ..., navy_fought: _Optional[_Union[NavyFought, _Mapping]] = ..., penalty_accepted: _Optional[_Union[PenaltyAccepted, _Mapping]] = ..., navy_card_returned: _Optional[_Union[NavyCardReturned, _Mapping]] = ..., board_cleared: _Optional[_Union[BoardCleared, _Mapping]] = ..., section_bought: _Optional[_Union[SectionBought, _Mapping]] = ..., token_bought: _Optional[_Union[TokenBought, _Mapping]] = ..., peso_exchanged: _Optional[_Union[PesoExchanged, _Mapping]] = ..., buying_passed: _Optional[_Union[BuyingPassed, _Mapping]] = ..., resources_sold: _Optional[_Union[ResourcesSold, _Mapping]] = ..., pesos_buried: _Optional[_Union[PesosBuried, _Mapping]] = ..., burial_finished: _Optional[_Union[BurialFinished, _Mapping]] = ..., navy_card_revealed: _Optional[_Union[NavyCardRevealed, _Mapping]] = ..., merchant_sailed_away: _Optional[_Union[MerchantSailedAway, _Mapping]] = ..., merchant_moved: _Optional[_Union[MerchantMoved, _Mapping]] = ..., merchant_dealt: _Optional[_Union[MerchantDealt, _Mapping]] = ..., pile_reshuffled: _Optional[_Union[PileReshuffled, _Mapping]] = ..., nassau_restocked: _Optional[_Union[NassauRestocked, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("viewer", "round", "phase", "to_act", "routes", "decks", "navy_size", "navy_bottom", "navy_display", "piles", "nassau_display", "supply", "sacked", "seats", "final")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    ROUND_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    ROUTES_FIELD_NUMBER: _ClassVar[int]
    DECKS_FIELD_NUMBER: _ClassVar[int]
    NAVY_SIZE_FIELD_NUMBER: _ClassVar[int]
    NAVY_BOTTOM_FIELD_NUMBER: _ClassVar[int]
    NAVY_DISPLAY_FIELD_NUMBER: _ClassVar[int]
    PILES_FIELD_NUMBER: _ClassVar[int]
    NASSAU_DISPLAY_FIELD_NUMBER: _ClassVar[int]
    SUPPLY_FIELD_NUMBER: _ClassVar[int]
    SACKED_FIELD_NUMBER: _ClassVar[int]
    SEATS_FIELD_NUMBER: _ClassVar[int]
    FINAL_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    round: int
    phase: PhaseView
    to_act: _containers.RepeatedScalarFieldContainer[int]
    routes: _containers.RepeatedCompositeFieldContainer[Route]
    decks: _containers.RepeatedCompositeFieldContainer[DeckView]
    navy_size: int
    navy_bottom: _containers.RepeatedScalarFieldContainer[str]
    navy_display: _containers.RepeatedScalarFieldContainer[str]
    piles: _containers.RepeatedCompositeFieldContainer[PileView]
    nassau_display: _containers.RepeatedScalarFieldContainer[str]
    supply: Supply
    sacked: _containers.RepeatedScalarFieldContainer[int]
    seats: _containers.RepeatedCompositeFieldContainer[SeatView]
    final: _containers.RepeatedCompositeFieldContainer[FinalScore]
    def __init__(self, viewer: _Optional[int] = ..., round: _Optional[int] = ..., phase: _Optional[_Union[PhaseView, _Mapping]] = ..., to_act: _Optional[_Iterable[int]] = ..., routes: _Optional[_Iterable[_Union[Route, _Mapping]]] = ..., decks: _Optional[_Iterable[_Union[DeckView, _Mapping]]] = ..., navy_size: _Optional[int] = ..., navy_bottom: _Optional[_Iterable[str]] = ..., navy_display: _Optional[_Iterable[str]] = ..., piles: _Optional[_Iterable[_Union[PileView, _Mapping]]] = ..., nassau_display: _Optional[_Iterable[str]] = ..., supply: _Optional[_Union[Supply, _Mapping]] = ..., sacked: _Optional[_Iterable[int]] = ..., seats: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., final: _Optional[_Iterable[_Union[FinalScore, _Mapping]]] = ...) -> None: ...

class RerollDie(_message.Message):
    __slots__ = ("token", "die")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    token: str
    die: int
    def __init__(self, token: _Optional[str] = ..., die: _Optional[int] = ...) -> None: ...

class Move(_message.Message):
    __slots__ = ("die", "kind", "wind", "cartographer", "pilot")
    DIE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    WIND_FIELD_NUMBER: _ClassVar[int]
    CARTOGRAPHER_FIELD_NUMBER: _ClassVar[int]
    PILOT_FIELD_NUMBER: _ClassVar[int]
    die: int
    kind: MoveKind
    wind: int
    cartographer: int
    pilot: int
    def __init__(self, die: _Optional[int] = ..., kind: _Optional[_Union[MoveKind, str]] = ..., wind: _Optional[int] = ..., cartographer: _Optional[int] = ..., pilot: _Optional[int] = ...) -> None: ...

class Boost(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class Plunder(_message.Message):
    __slots__ = ("captain",)
    CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    captain: str
    def __init__(self, captain: _Optional[str] = ...) -> None: ...

class Raid(_message.Message):
    __slots__ = ("captain",)
    CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    captain: str
    def __init__(self, captain: _Optional[str] = ...) -> None: ...

class RideTradeWinds(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Smuggle(_message.Message):
    __slots__ = ("item", "count", "cook")
    ITEM_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    COOK_FIELD_NUMBER: _ClassVar[int]
    item: Item
    count: int
    cook: bool
    def __init__(self, item: _Optional[_Union[Item, str]] = ..., count: _Optional[int] = ..., cook: _Optional[bool] = ...) -> None: ...

class Ransom(_message.Message):
    __slots__ = ("cabin_boy",)
    CABIN_BOY_FIELD_NUMBER: _ClassVar[int]
    cabin_boy: bool
    def __init__(self, cabin_boy: _Optional[bool] = ...) -> None: ...

class TakeLoot(_message.Message):
    __slots__ = ("pesos", "gunpowder", "goods", "rum", "hostages", "quartermaster")
    PESOS_FIELD_NUMBER: _ClassVar[int]
    GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    RUM_FIELD_NUMBER: _ClassVar[int]
    HOSTAGES_FIELD_NUMBER: _ClassVar[int]
    QUARTERMASTER_FIELD_NUMBER: _ClassVar[int]
    pesos: int
    gunpowder: int
    goods: int
    rum: int
    hostages: int
    quartermaster: bool
    def __init__(self, pesos: _Optional[int] = ..., gunpowder: _Optional[int] = ..., goods: _Optional[int] = ..., rum: _Optional[int] = ..., hostages: _Optional[int] = ..., quartermaster: _Optional[bool] = ...) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DiscardItem(_message.Message):
    __slots__ = ("item",)
    ITEM_FIELD_NUMBER: _ClassVar[int]
    item: Item
    def __init__(self, item: _Optional[_Union[Item, str]] = ...) -> None: ...

class WalkPlank(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class FlipFiddler(_message.Message):
    __slots__ = ("token",)
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    token: str
    def __init__(self, token: _Optional[str] = ...) -> None: ...

class AdjustNotoriety(_message.Message):
    __slots__ = ("cash_wind",)
    CASH_WIND_FIELD_NUMBER: _ClassVar[int]
    cash_wind: bool
    def __init__(self, cash_wind: _Optional[bool] = ...) -> None: ...

class MoveMarker(_message.Message):
    __slots__ = ("direction",)
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    direction: Direction
    def __init__(self, direction: _Optional[_Union[Direction, str]] = ...) -> None: ...

class TakeNavyCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class EvadeNavy(_message.Message):
    __slots__ = ("captain",)
    CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    captain: str
    def __init__(self, captain: _Optional[str] = ...) -> None: ...

class AcceptPenalty(_message.Message):
    __slots__ = ("penalty", "surgeon")
    PENALTY_FIELD_NUMBER: _ClassVar[int]
    SURGEON_FIELD_NUMBER: _ClassVar[int]
    penalty: Penalty
    surgeon: bool
    def __init__(self, penalty: _Optional[_Union[Penalty, str]] = ..., surgeon: _Optional[bool] = ...) -> None: ...

class BuySection(_message.Message):
    __slots__ = ("carpenter", "powder_monkey", "cooper")
    CARPENTER_FIELD_NUMBER: _ClassVar[int]
    POWDER_MONKEY_FIELD_NUMBER: _ClassVar[int]
    COOPER_FIELD_NUMBER: _ClassVar[int]
    carpenter: Resource
    powder_monkey: Resource
    cooper: Resource
    def __init__(self, carpenter: _Optional[_Union[Resource, str]] = ..., powder_monkey: _Optional[_Union[Resource, str]] = ..., cooper: _Optional[_Union[Resource, str]] = ...) -> None: ...

class BuyToken(_message.Message):
    __slots__ = ("token", "slot", "carpenter", "sailmaker", "powder_monkey", "cooper")
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    CARPENTER_FIELD_NUMBER: _ClassVar[int]
    SAILMAKER_FIELD_NUMBER: _ClassVar[int]
    POWDER_MONKEY_FIELD_NUMBER: _ClassVar[int]
    COOPER_FIELD_NUMBER: _ClassVar[int]
    token: str
    slot: str
    carpenter: Resource
    sailmaker: Resource
    powder_monkey: Resource
    cooper: Resource
    def __init__(self, token: _Optional[str] = ..., slot: _Optional[str] = ..., carpenter: _Optional[_Union[Resource, str]] = ..., sailmaker: _Optional[_Union[Resource, str]] = ..., powder_monkey: _Optional[_Union[Resource, str]] = ..., cooper: _Optional[_Union[Resource, str]] = ...) -> None: ...

class ExchangePeso(_message.Message):
    __slots__ = ("resource",)
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    resource: Resource
    def __init__(self, resource: _Optional[_Union[Resource, str]] = ...) -> None: ...

class SellResources(_message.Message):
    __slots__ = ("gunpowder", "goods", "rum", "purser")
    GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    RUM_FIELD_NUMBER: _ClassVar[int]
    PURSER_FIELD_NUMBER: _ClassVar[int]
    gunpowder: int
    goods: int
    rum: int
    purser: bool
    def __init__(self, gunpowder: _Optional[int] = ..., goods: _Optional[int] = ..., rum: _Optional[int] = ..., purser: _Optional[bool] = ...) -> None: ...

class Bury(_message.Message):
    __slots__ = ("pesos",)
    PESOS_FIELD_NUMBER: _ClassVar[int]
    pesos: int
    def __init__(self, pesos: _Optional[int] = ...) -> None: ...

class FinishBurying(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RoundStarted(_message.Message):
    __slots__ = ("round", "order")
    ROUND_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    round: int
    order: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, round: _Optional[int] = ..., order: _Optional[_Iterable[int]] = ...) -> None: ...

class DiceRolled(_message.Message):
    __slots__ = ("seat", "dice")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, seat: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ...) -> None: ...

class DieRerolled(_message.Message):
    __slots__ = ("seat", "token", "old", "new")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    OLD_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    old: int
    new: int
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ..., old: _Optional[int] = ..., new: _Optional[int] = ...) -> None: ...

class ShipMoved(_message.Message):
    __slots__ = ("seat", "die", "kind", "value", "from_space", "to_space", "wind", "cartographer", "pilot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DIE_FIELD_NUMBER: _ClassVar[int]
    KIND_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    FROM_SPACE_FIELD_NUMBER: _ClassVar[int]
    TO_SPACE_FIELD_NUMBER: _ClassVar[int]
    WIND_FIELD_NUMBER: _ClassVar[int]
    CARTOGRAPHER_FIELD_NUMBER: _ClassVar[int]
    PILOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    die: int
    kind: MoveKind
    value: int
    from_space: int
    to_space: int
    wind: int
    cartographer: str
    pilot: str
    def __init__(self, seat: _Optional[int] = ..., die: _Optional[int] = ..., kind: _Optional[_Union[MoveKind, str]] = ..., value: _Optional[int] = ..., from_space: _Optional[int] = ..., to_space: _Optional[int] = ..., wind: _Optional[int] = ..., cartographer: _Optional[str] = ..., pilot: _Optional[str] = ...) -> None: ...

class ItemDiscarded(_message.Message):
    __slots__ = ("seat", "item")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    seat: int
    item: Item
    def __init__(self, seat: _Optional[int] = ..., item: _Optional[_Union[Item, str]] = ...) -> None: ...

class PlankWalked(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class BoostStaged(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class MerchantFought(_message.Message):
    __slots__ = ("seat", "card", "captain", "boosts", "sail", "cannon", "success")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    SAIL_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    captain: str
    boosts: _containers.RepeatedScalarFieldContainer[str]
    sail: int
    cannon: int
    success: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., captain: _Optional[str] = ..., boosts: _Optional[_Iterable[str]] = ..., sail: _Optional[int] = ..., cannon: _Optional[int] = ..., success: _Optional[bool] = ...) -> None: ...

class Cargo(_message.Message):
    __slots__ = ("pesos", "gunpowder", "goods", "rum", "hostages")
    PESOS_FIELD_NUMBER: _ClassVar[int]
    GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    RUM_FIELD_NUMBER: _ClassVar[int]
    HOSTAGES_FIELD_NUMBER: _ClassVar[int]
    pesos: int
    gunpowder: int
    goods: int
    rum: int
    hostages: int
    def __init__(self, pesos: _Optional[int] = ..., gunpowder: _Optional[int] = ..., goods: _Optional[int] = ..., rum: _Optional[int] = ..., hostages: _Optional[int] = ...) -> None: ...

class LootTaken(_message.Message):
    __slots__ = ("seat", "card", "taken", "quartermaster")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    TAKEN_FIELD_NUMBER: _ClassVar[int]
    QUARTERMASTER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    taken: Cargo
    quartermaster: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., taken: _Optional[_Union[Cargo, _Mapping]] = ..., quartermaster: _Optional[str] = ...) -> None: ...

class PortRaided(_message.Message):
    __slots__ = ("seat", "space", "captain", "boosts", "cannon", "success", "pesos")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    SUCCESS_FIELD_NUMBER: _ClassVar[int]
    PESOS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    space: int
    captain: str
    boosts: _containers.RepeatedScalarFieldContainer[str]
    cannon: int
    success: bool
    pesos: int
    def __init__(self, seat: _Optional[int] = ..., space: _Optional[int] = ..., captain: _Optional[str] = ..., boosts: _Optional[_Iterable[str]] = ..., cannon: _Optional[int] = ..., success: _Optional[bool] = ..., pesos: _Optional[int] = ...) -> None: ...

class TradeWindTaken(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class Smuggled(_message.Message):
    __slots__ = ("seat", "space", "item", "count", "cook", "cook_extra")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    ITEM_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    COOK_FIELD_NUMBER: _ClassVar[int]
    COOK_EXTRA_FIELD_NUMBER: _ClassVar[int]
    seat: int
    space: int
    item: Item
    count: int
    cook: str
    cook_extra: int
    def __init__(self, seat: _Optional[int] = ..., space: _Optional[int] = ..., item: _Optional[_Union[Item, str]] = ..., count: _Optional[int] = ..., cook: _Optional[str] = ..., cook_extra: _Optional[int] = ...) -> None: ...

class HostageRansomed(_message.Message):
    __slots__ = ("seat", "space", "pesos", "cabin_boy")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    PESOS_FIELD_NUMBER: _ClassVar[int]
    CABIN_BOY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    space: int
    pesos: int
    cabin_boy: str
    def __init__(self, seat: _Optional[int] = ..., space: _Optional[int] = ..., pesos: _Optional[int] = ..., cabin_boy: _Optional[str] = ...) -> None: ...

class TurnPassed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class FiddlerFlipped(_message.Message):
    __slots__ = ("seat", "token")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ...) -> None: ...

class NotorietyScored(_message.Message):
    __slots__ = ("seat", "gain", "wind_cashed", "winds_returned", "hostages_returned", "cards_returned")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GAIN_FIELD_NUMBER: _ClassVar[int]
    WIND_CASHED_FIELD_NUMBER: _ClassVar[int]
    WINDS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    HOSTAGES_RETURNED_FIELD_NUMBER: _ClassVar[int]
    CARDS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    gain: int
    wind_cashed: bool
    winds_returned: int
    hostages_returned: int
    cards_returned: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., gain: _Optional[int] = ..., wind_cashed: _Optional[bool] = ..., winds_returned: _Optional[int] = ..., hostages_returned: _Optional[int] = ..., cards_returned: _Optional[_Iterable[str]] = ...) -> None: ...

class MarkerCollided(_message.Message):
    __slots__ = ("seat", "target")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    target: int
    def __init__(self, seat: _Optional[int] = ..., target: _Optional[int] = ...) -> None: ...

class NotorietyChanged(_message.Message):
    __slots__ = ("seat", "old", "new", "direction")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    OLD_FIELD_NUMBER: _ClassVar[int]
    NEW_FIELD_NUMBER: _ClassVar[int]
    DIRECTION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    old: int
    new: int
    direction: Direction
    def __init__(self, seat: _Optional[int] = ..., old: _Optional[int] = ..., new: _Optional[int] = ..., direction: _Optional[_Union[Direction, str]] = ...) -> None: ...

class NavyCardTaken(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class NavyFought(_message.Message):
    __slots__ = ("seat", "card", "captain", "boosts", "sail", "cannon", "successes")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    CAPTAIN_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    SAIL_FIELD_NUMBER: _ClassVar[int]
    CANNON_FIELD_NUMBER: _ClassVar[int]
    SUCCESSES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    captain: str
    boosts: _containers.RepeatedScalarFieldContainer[str]
    sail: int
    cannon: int
    successes: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., captain: _Optional[str] = ..., boosts: _Optional[_Iterable[str]] = ..., sail: _Optional[int] = ..., cannon: _Optional[int] = ..., successes: _Optional[int] = ...) -> None: ...

class PenaltyAccepted(_message.Message):
    __slots__ = ("seat", "penalty", "surgeon", "notoriety_loss", "cargo_loss")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PENALTY_FIELD_NUMBER: _ClassVar[int]
    SURGEON_FIELD_NUMBER: _ClassVar[int]
    NOTORIETY_LOSS_FIELD_NUMBER: _ClassVar[int]
    CARGO_LOSS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    penalty: Penalty
    surgeon: str
    notoriety_loss: int
    cargo_loss: int
    def __init__(self, seat: _Optional[int] = ..., penalty: _Optional[_Union[Penalty, str]] = ..., surgeon: _Optional[str] = ..., notoriety_loss: _Optional[int] = ..., cargo_loss: _Optional[int] = ...) -> None: ...

class NavyCardReturned(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class BoardCleared(_message.Message):
    __slots__ = ("order",)
    ORDER_FIELD_NUMBER: _ClassVar[int]
    order: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, order: _Optional[_Iterable[int]] = ...) -> None: ...

class SectionBought(_message.Message):
    __slots__ = ("seat", "sections", "paid_gunpowder", "paid_goods", "paid_rum", "crew_used")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SECTIONS_FIELD_NUMBER: _ClassVar[int]
    PAID_GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    PAID_GOODS_FIELD_NUMBER: _ClassVar[int]
    PAID_RUM_FIELD_NUMBER: _ClassVar[int]
    CREW_USED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    sections: int
    paid_gunpowder: int
    paid_goods: int
    paid_rum: int
    crew_used: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., sections: _Optional[int] = ..., paid_gunpowder: _Optional[int] = ..., paid_goods: _Optional[int] = ..., paid_rum: _Optional[int] = ..., crew_used: _Optional[_Iterable[str]] = ...) -> None: ...

class TokenBought(_message.Message):
    __slots__ = ("seat", "token", "slot", "replaced", "paid_gunpowder", "paid_goods", "paid_rum", "crew_used")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    REPLACED_FIELD_NUMBER: _ClassVar[int]
    PAID_GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    PAID_GOODS_FIELD_NUMBER: _ClassVar[int]
    PAID_RUM_FIELD_NUMBER: _ClassVar[int]
    CREW_USED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    token: str
    slot: str
    replaced: str
    paid_gunpowder: int
    paid_goods: int
    paid_rum: int
    crew_used: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., token: _Optional[str] = ..., slot: _Optional[str] = ..., replaced: _Optional[str] = ..., paid_gunpowder: _Optional[int] = ..., paid_goods: _Optional[int] = ..., paid_rum: _Optional[int] = ..., crew_used: _Optional[_Iterable[str]] = ...) -> None: ...

class PesoExchanged(_message.Message):
    __slots__ = ("seat", "resource", "count", "secret")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    SECRET_FIELD_NUMBER: _ClassVar[int]
    seat: int
    resource: Resource
    count: int
    secret: bool
    def __init__(self, seat: _Optional[int] = ..., resource: _Optional[_Union[Resource, str]] = ..., count: _Optional[int] = ..., secret: _Optional[bool] = ...) -> None: ...

class BuyingPassed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ResourcesSold(_message.Message):
    __slots__ = ("seat", "gunpowder", "goods", "rum", "purser")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    RUM_FIELD_NUMBER: _ClassVar[int]
    PURSER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    gunpowder: int
    goods: int
    rum: int
    purser: str
    def __init__(self, seat: _Optional[int] = ..., gunpowder: _Optional[int] = ..., goods: _Optional[int] = ..., rum: _Optional[int] = ..., purser: _Optional[str] = ...) -> None: ...

class PesosBuried(_message.Message):
    __slots__ = ("seat", "pesos")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PESOS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    pesos: int
    def __init__(self, seat: _Optional[int] = ..., pesos: _Optional[int] = ...) -> None: ...

class BurialFinished(_message.Message):
    __slots__ = ("seat", "hold", "face_down")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    hold: Cargo
    face_down: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., hold: _Optional[_Union[Cargo, _Mapping]] = ..., face_down: _Optional[_Iterable[str]] = ...) -> None: ...

class NavyCardRevealed(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class MerchantSailedAway(_message.Message):
    __slots__ = ("card", "space")
    CARD_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    card: str
    space: int
    def __init__(self, card: _Optional[str] = ..., space: _Optional[int] = ...) -> None: ...

class MerchantMoved(_message.Message):
    __slots__ = ("card", "from_space", "to_space")
    CARD_FIELD_NUMBER: _ClassVar[int]
    FROM_SPACE_FIELD_NUMBER: _ClassVar[int]
    TO_SPACE_FIELD_NUMBER: _ClassVar[int]
    card: str
    from_space: int
    to_space: int
    def __init__(self, card: _Optional[str] = ..., from_space: _Optional[int] = ..., to_space: _Optional[int] = ...) -> None: ...

class MerchantDealt(_message.Message):
    __slots__ = ("card", "space")
    CARD_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    card: str
    space: int
    def __init__(self, card: _Optional[str] = ..., space: _Optional[int] = ...) -> None: ...

class PileReshuffled(_message.Message):
    __slots__ = ("pile",)
    PILE_FIELD_NUMBER: _ClassVar[int]
    pile: Pile
    def __init__(self, pile: _Optional[_Union[Pile, str]] = ...) -> None: ...

class NassauRestocked(_message.Message):
    __slots__ = ("discarded", "drawn")
    DISCARDED_FIELD_NUMBER: _ClassVar[int]
    DRAWN_FIELD_NUMBER: _ClassVar[int]
    discarded: _containers.RepeatedScalarFieldContainer[str]
    drawn: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, discarded: _Optional[_Iterable[str]] = ..., drawn: _Optional[_Iterable[str]] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("scores", "winners")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class PhaseView(_message.Message):
    __slots__ = ("step", "active", "order", "index", "boosts", "card", "successes", "remaining", "notoriety_loss", "target", "passed", "fiddler", "round_step", "hold_before", "face_down_before")
    STEP_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    ORDER_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    BOOSTS_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SUCCESSES_FIELD_NUMBER: _ClassVar[int]
    REMAINING_FIELD_NUMBER: _ClassVar[int]
    NOTORIETY_LOSS_FIELD_NUMBER: _ClassVar[int]
    TARGET_FIELD_NUMBER: _ClassVar[int]
    PASSED_FIELD_NUMBER: _ClassVar[int]
    FIDDLER_FIELD_NUMBER: _ClassVar[int]
    ROUND_STEP_FIELD_NUMBER: _ClassVar[int]
    HOLD_BEFORE_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_BEFORE_FIELD_NUMBER: _ClassVar[int]
    step: Step
    active: int
    order: _containers.RepeatedScalarFieldContainer[int]
    index: int
    boosts: _containers.RepeatedScalarFieldContainer[str]
    card: str
    successes: int
    remaining: int
    notoriety_loss: int
    target: int
    passed: _containers.RepeatedScalarFieldContainer[int]
    fiddler: bool
    round_step: int
    hold_before: Cargo
    face_down_before: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, step: _Optional[_Union[Step, str]] = ..., active: _Optional[int] = ..., order: _Optional[_Iterable[int]] = ..., index: _Optional[int] = ..., boosts: _Optional[_Iterable[str]] = ..., card: _Optional[str] = ..., successes: _Optional[int] = ..., remaining: _Optional[int] = ..., notoriety_loss: _Optional[int] = ..., target: _Optional[int] = ..., passed: _Optional[_Iterable[int]] = ..., fiddler: _Optional[bool] = ..., round_step: _Optional[int] = ..., hold_before: _Optional[_Union[Cargo, _Mapping]] = ..., face_down_before: _Optional[_Iterable[str]] = ...) -> None: ...

class Route(_message.Message):
    __slots__ = ("space", "card")
    SPACE_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    space: int
    card: str
    def __init__(self, space: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class DeckView(_message.Message):
    __slots__ = ("zone", "size", "bottom")
    ZONE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    BOTTOM_FIELD_NUMBER: _ClassVar[int]
    zone: int
    size: int
    bottom: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, zone: _Optional[int] = ..., size: _Optional[int] = ..., bottom: _Optional[_Iterable[str]] = ...) -> None: ...

class PileView(_message.Message):
    __slots__ = ("pile", "size", "discard")
    PILE_FIELD_NUMBER: _ClassVar[int]
    SIZE_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    pile: Pile
    size: int
    discard: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, pile: _Optional[_Union[Pile, str]] = ..., size: _Optional[int] = ..., discard: _Optional[_Iterable[str]] = ...) -> None: ...

class Supply(_message.Message):
    __slots__ = ("gunpowder", "goods", "rum", "hostages", "winds")
    GUNPOWDER_FIELD_NUMBER: _ClassVar[int]
    GOODS_FIELD_NUMBER: _ClassVar[int]
    RUM_FIELD_NUMBER: _ClassVar[int]
    HOSTAGES_FIELD_NUMBER: _ClassVar[int]
    WINDS_FIELD_NUMBER: _ClassVar[int]
    gunpowder: int
    goods: int
    rum: int
    hostages: int
    winds: int
    def __init__(self, gunpowder: _Optional[int] = ..., goods: _Optional[int] = ..., rum: _Optional[int] = ..., hostages: _Optional[int] = ..., winds: _Optional[int] = ...) -> None: ...

class PlacedDie(_message.Message):
    __slots__ = ("value", "space", "wind")
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    WIND_FIELD_NUMBER: _ClassVar[int]
    value: int
    space: int
    wind: bool
    def __init__(self, value: _Optional[int] = ..., space: _Optional[int] = ..., wind: _Optional[bool] = ...) -> None: ...

class Fitted(_message.Message):
    __slots__ = ("slot", "token")
    SLOT_FIELD_NUMBER: _ClassVar[int]
    TOKEN_FIELD_NUMBER: _ClassVar[int]
    slot: str
    token: str
    def __init__(self, slot: _Optional[str] = ..., token: _Optional[str] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "notoriety", "track_space", "space", "dice", "trail", "hold", "capacity", "chest", "hand", "sections", "fitted", "face_down", "bought", "plundered", "raids", "plank", "wind_held", "winds_spent", "base_sail", "base_cannon")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NOTORIETY_FIELD_NUMBER: _ClassVar[int]
    TRACK_SPACE_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    DICE_FIELD_NUMBER: _ClassVar[int]
    TRAIL_FIELD_NUMBER: _ClassVar[int]
    HOLD_FIELD_NUMBER: _ClassVar[int]
    CAPACITY_FIELD_NUMBER: _ClassVar[int]
    CHEST_FIELD_NUMBER: _ClassVar[int]
    HAND_FIELD_NUMBER: _ClassVar[int]
    SECTIONS_FIELD_NUMBER: _ClassVar[int]
    FITTED_FIELD_NUMBER: _ClassVar[int]
    FACE_DOWN_FIELD_NUMBER: _ClassVar[int]
    BOUGHT_FIELD_NUMBER: _ClassVar[int]
    PLUNDERED_FIELD_NUMBER: _ClassVar[int]
    RAIDS_FIELD_NUMBER: _ClassVar[int]
    PLANK_FIELD_NUMBER: _ClassVar[int]
    WIND_HELD_FIELD_NUMBER: _ClassVar[int]
    WINDS_SPENT_FIELD_NUMBER: _ClassVar[int]
    BASE_SAIL_FIELD_NUMBER: _ClassVar[int]
    BASE_CANNON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    notoriety: int
    track_space: int
    space: int
    dice: _containers.RepeatedScalarFieldContainer[int]
    trail: _containers.RepeatedCompositeFieldContainer[PlacedDie]
    hold: Cargo
    capacity: int
    chest: int
    hand: _containers.RepeatedScalarFieldContainer[str]
    sections: int
    fitted: _containers.RepeatedCompositeFieldContainer[Fitted]
    face_down: _containers.RepeatedScalarFieldContainer[str]
    bought: _containers.RepeatedScalarFieldContainer[str]
    plundered: _containers.RepeatedScalarFieldContainer[str]
    raids: int
    plank: int
    wind_held: bool
    winds_spent: int
    base_sail: int
    base_cannon: int
    def __init__(self, seat: _Optional[int] = ..., notoriety: _Optional[int] = ..., track_space: _Optional[int] = ..., space: _Optional[int] = ..., dice: _Optional[_Iterable[int]] = ..., trail: _Optional[_Iterable[_Union[PlacedDie, _Mapping]]] = ..., hold: _Optional[_Union[Cargo, _Mapping]] = ..., capacity: _Optional[int] = ..., chest: _Optional[int] = ..., hand: _Optional[_Iterable[str]] = ..., sections: _Optional[int] = ..., fitted: _Optional[_Iterable[_Union[Fitted, _Mapping]]] = ..., face_down: _Optional[_Iterable[str]] = ..., bought: _Optional[_Iterable[str]] = ..., plundered: _Optional[_Iterable[str]] = ..., raids: _Optional[int] = ..., plank: _Optional[int] = ..., wind_held: _Optional[bool] = ..., winds_spent: _Optional[int] = ..., base_sail: _Optional[int] = ..., base_cannon: _Optional[int] = ...) -> None: ...

class FinalScore(_message.Message):
    __slots__ = ("seat", "notoriety", "motley", "best_ship", "wealth", "points", "rank")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    NOTORIETY_FIELD_NUMBER: _ClassVar[int]
    MOTLEY_FIELD_NUMBER: _ClassVar[int]
    BEST_SHIP_FIELD_NUMBER: _ClassVar[int]
    WEALTH_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    RANK_FIELD_NUMBER: _ClassVar[int]
    seat: int
    notoriety: int
    motley: int
    best_ship: int
    wealth: int
    points: int
    rank: int
    def __init__(self, seat: _Optional[int] = ..., notoriety: _Optional[int] = ..., motley: _Optional[int] = ..., best_ship: _Optional[int] = ..., wealth: _Optional[int] = ..., points: _Optional[int] = ..., rank: _Optional[int] = ...) -> None: ...
