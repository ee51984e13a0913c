from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Stage(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STAGE_UNSPECIFIED: _ClassVar[Stage]
    STAGE_RANSOM: _ClassVar[Stage]
    STAGE_DISTRIBUTE: _ClassVar[Stage]
    STAGE_LAUNCH: _ClassVar[Stage]
    STAGE_CLEANUP: _ClassVar[Stage]

class Phase(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_UNSPECIFIED: _ClassVar[Phase]
    PHASE_CHOOSE_SHIPS: _ClassVar[Phase]
    PHASE_CRATE_CHECK: _ClassVar[Phase]
    PHASE_PLACEMENT: _ClassVar[Phase]
    PHASE_RESOLVING: _ClassVar[Phase]
    PHASE_FINISHED: _ClassVar[Phase]

class DecisionKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    DECISION_KIND_UNSPECIFIED: _ClassVar[DecisionKind]
    DECISION_KIND_CHOOSE_SHIPS: _ClassVar[DecisionKind]
    DECISION_KIND_TAKE_CRATE: _ClassVar[DecisionKind]
    DECISION_KIND_PLACEMENT: _ClassVar[DecisionKind]
    DECISION_KIND_CARD_EFFECT: _ClassVar[DecisionKind]
    DECISION_KIND_RANSOM: _ClassVar[DecisionKind]
    DECISION_KIND_DISTRIBUTE: _ClassVar[DecisionKind]
    DECISION_KIND_LAUNCH_OR_KEEP: _ClassVar[DecisionKind]
    DECISION_KIND_CHOOSE_SLOT: _ClassVar[DecisionKind]
    DECISION_KIND_TAKE_MARKET_SHIP: _ClassVar[DecisionKind]

class Resource(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    RESOURCE_UNSPECIFIED: _ClassVar[Resource]
    RESOURCE_COTTON: _ClassVar[Resource]
    RESOURCE_VANILLA: _ClassVar[Resource]
    RESOURCE_SUGAR: _ClassVar[Resource]
STAGE_UNSPECIFIED: Stage
STAGE_RANSOM: Stage
STAGE_DISTRIBUTE: Stage
STAGE_LAUNCH: Stage
STAGE_CLEANUP: Stage
PHASE_UNSPECIFIED: Phase
PHASE_CHOOSE_SHIPS: Phase
PHASE_CRATE_CHECK: Phase
PHASE_PLACEMENT: Phase
PHASE_RESOLVING: Phase
PHASE_FINISHED: Phase
DECISION_KIND_UNSPECIFIED: DecisionKind
DECISION_KIND_CHOOSE_SHIPS: DecisionKind
DECISION_KIND_TAKE_CRATE: DecisionKind
DECISION_KIND_PLACEMENT: DecisionKind
DECISION_KIND_CARD_EFFECT: DecisionKind
DECISION_KIND_RANSOM: DecisionKind
DECISION_KIND_DISTRIBUTE: DecisionKind
DECISION_KIND_LAUNCH_OR_KEEP: DecisionKind
DECISION_KIND_CHOOSE_SLOT: DecisionKind
DECISION_KIND_TAKE_MARKET_SHIP: DecisionKind
RESOURCE_UNSPECIFIED: Resource
RESOURCE_COTTON: Resource
RESOURCE_VANILLA: Resource
RESOURCE_SUGAR: Resource

class Action(_message.Message):
    __slots__ = ("keep_ships", "take_crate_from_ship", "place_crate", "cover_crate", "place_on_pirate_card", "end_placement", "retrieve_crate", "use_extra_crate", "direct_load", "claim_island", "release_crate", "take_reserve", "force_sale", "smuggle_crate", "clear_island", "pay_ransom", "refuse_ransom", "load_crate", "sell_crate", "launch_ship", "keep_ship", "choose_slot", "take_market_ship", "pick_ship")
    KEEP_SHIPS_FIELD_NUMBER: _ClassVar[int]
    TAKE_CRATE_FROM_SHIP_FIELD_NUMBER: _ClassVar[int]
    PLACE_CRATE_FIELD_NUMBER: _ClassVar[int]
    COVER_CRATE_FIELD_NUMBER: _ClassVar[int]
    PLACE_ON_PIRATE_CARD_FIELD_NUMBER: _ClassVar[int]
    END_PLACEMENT_FIELD_NUMBER: _ClassVar[int]
    RETRIEVE_CRATE_FIELD_NUMBER: _ClassVar[int]
    USE_EXTRA_CRATE_FIELD_NUMBER: _ClassVar[int]
    DIRECT_LOAD_FIELD_NUMBER: _ClassVar[int]
    CLAIM_ISLAND_FIELD_NUMBER: _ClassVar[int]
    RELEASE_CRATE_FIELD_NUMBER: _ClassVar[int]
    TAKE_RESERVE_FIELD_NUMBER: _ClassVar[int]
    FORCE_SALE_FIELD_NUMBER: _ClassVar[int]
    SMUGGLE_CRATE_FIELD_NUMBER: _ClassVar[int]
    CLEAR_ISLAND_FIELD_NUMBER: _ClassVar[int]
    PAY_RANSOM_FIELD_NUMBER: _ClassVar[int]
    REFUSE_RANSOM_FIELD_NUMBER: _ClassVar[int]
    LOAD_CRATE_FIELD_NUMBER: _ClassVar[int]
    SELL_CRATE_FIELD_NUMBER: _ClassVar[int]
    LAUNCH_SHIP_FIELD_NUMBER: _ClassVar[int]
    KEEP_SHIP_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_SLOT_FIELD_NUMBER: _ClassVar[int]
    TAKE_MARKET_SHIP_FIELD_NUMBER: _ClassVar[int]
    PICK_SHIP_FIELD_NUMBER: _ClassVar[int]
    keep_ships: KeepShips
    take_crate_from_ship: TakeCrateFromShip
    place_crate: PlaceCrate
    cover_crate: CoverCrate
    place_on_pirate_card: PlaceOnPirateCard
    end_placement: EndPlacement
    retrieve_crate: RetrieveCrate
    use_extra_crate: UseExtraCrate
    direct_load: DirectLoad
    claim_island: ClaimIsland
    release_crate: ReleaseCrate
    take_reserve: TakeReserve
    force_sale: ForceSale
    smuggle_crate: SmuggleCrate
    clear_island: ClearIsland
    pay_ransom: PayRansom
    refuse_ransom: RefuseRansom
    load_crate: LoadCrate
    sell_crate: SellCrate
    launch_ship: LaunchShip
    keep_ship: KeepShip
    choose_slot: ChooseSlot
    take_market_ship: TakeMarketShip
    pick_ship: PickShip
    def __init__(self, keep_ships: _Optional[_Union[KeepShips, _Mapping]] = ..., take_crate_from_ship: _Optional[_Union[TakeCrateFromShip, _Mapping]] = ..., place_crate: _Optional[_Union[PlaceCrate, _Mapping]] = ..., cover_crate: _Optional[_Union[CoverCrate, _Mapping]] = ..., place_on_pirate_card: _Optional[_Union[PlaceOnPirateCard, _Mapping]] = ..., end_placement: _Optional[_Union[EndPlacement, _Mapping]] = ..., retrieve_crate: _Optional[_Union[RetrieveCrate, _Mapping]] = ..., use_extra_crate: _Optional[_Union[UseExtraCrate, _Mapping]] = ..., direct_load: _Optional[_Union[DirectLoad, _Mapping]] = ..., claim_island: _Optional[_Union[ClaimIsland, _Mapping]] = ..., release_crate: _Optional[_Union[ReleaseCrate, _Mapping]] = ..., take_reserve: _Optional[_Union[TakeReserve, _Mapping]] = ..., force_sale: _Optional[_Union[ForceSale, _Mapping]] = ..., smuggle_crate: _Optional[_Union[SmuggleCrate, _Mapping]] = ..., clear_island: _Optional[_Union[ClearIsland, _Mapping]] = ..., pay_ransom: _Optional[_Union[PayRansom, _Mapping]] = ..., refuse_ransom: _Optional[_Union[RefuseRansom, _Mapping]] = ..., load_crate: _Optional[_Union[LoadCrate, _Mapping]] = ..., sell_crate: _Optional[_Union[SellCrate, _Mapping]] = ..., launch_ship: _Optional[_Union[LaunchShip, _Mapping]] = ..., keep_ship: _Optional[_Union[KeepShip, _Mapping]] = ..., choose_slot: _Optional[_Union[ChooseSlot, _Mapping]] = ..., take_market_ship: _Optional[_Union[TakeMarketShip, _Mapping]] = ..., pick_ship: _Optional[_Union[PickShip, _Mapping]] = ...) -> None: ...

class PickShip(_message.Message):
    __slots__ = ("ship",)
    SHIP_FIELD_NUMBER: _ClassVar[int]
    ship: str
    def __init__(self, ship: _Optional[str] = ...) -> None: ...

class KeepShips(_message.Message):
    __slots__ = ("ships",)
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    ships: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, ships: _Optional[_Iterable[str]] = ...) -> None: ...

class TakeCrateFromShip(_message.Message):
    __slots__ = ("ship", "space")
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    ship: str
    space: int
    def __init__(self, ship: _Optional[str] = ..., space: _Optional[int] = ...) -> None: ...

class PlaceCrate(_message.Message):
    __slots__ = ("island", "space", "pirate")
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    island: str
    space: int
    pirate: bool
    def __init__(self, island: _Optional[str] = ..., space: _Optional[int] = ..., pirate: _Optional[bool] = ...) -> None: ...

class CoverCrate(_message.Message):
    __slots__ = ("island", "space")
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    island: str
    space: int
    def __init__(self, island: _Optional[str] = ..., space: _Optional[int] = ...) -> None: ...

class PlaceOnPirateCard(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class EndPlacement(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RetrieveCrate(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class UseExtraCrate(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DirectLoad(_message.Message):
    __slots__ = ("ship", "space", "pirate")
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    ship: str
    space: int
    pirate: bool
    def __init__(self, ship: _Optional[str] = ..., space: _Optional[int] = ..., pirate: _Optional[bool] = ...) -> None: ...

class ClaimIsland(_message.Message):
    __slots__ = ("island",)
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    island: str
    def __init__(self, island: _Optional[str] = ...) -> None: ...

class ReleaseCrate(_message.Message):
    __slots__ = ("card", "owner")
    CARD_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    card: str
    owner: int
    def __init__(self, card: _Optional[str] = ..., owner: _Optional[int] = ...) -> None: ...

class TakeReserve(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ForceSale(_message.Message):
    __slots__ = ("from_ship", "from_space", "to_ship", "to_space")
    FROM_SHIP_FIELD_NUMBER: _ClassVar[int]
    FROM_SPACE_FIELD_NUMBER: _ClassVar[int]
    TO_SHIP_FIELD_NUMBER: _ClassVar[int]
    TO_SPACE_FIELD_NUMBER: _ClassVar[int]
    from_ship: str
    from_space: int
    to_ship: str
    to_space: int
    def __init__(self, from_ship: _Optional[str] = ..., from_space: _Optional[int] = ..., to_ship: _Optional[str] = ..., to_space: _Optional[int] = ...) -> None: ...

class SmuggleCrate(_message.Message):
    __slots__ = ("island", "space", "ship", "ship_space")
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SHIP_SPACE_FIELD_NUMBER: _ClassVar[int]
    island: str
    space: int
    ship: str
    ship_space: int
    def __init__(self, island: _Optional[str] = ..., space: _Optional[int] = ..., ship: _Optional[str] = ..., ship_space: _Optional[int] = ...) -> None: ...

class ClearIsland(_message.Message):
    __slots__ = ("island",)
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    island: str
    def __init__(self, island: _Optional[str] = ...) -> None: ...

class PayRansom(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RefuseRansom(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LoadCrate(_message.Message):
    __slots__ = ("ship", "space")
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    ship: str
    space: int
    def __init__(self, ship: _Optional[str] = ..., space: _Optional[int] = ...) -> None: ...

class SellCrate(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class LaunchShip(_message.Message):
    __slots__ = ("ship",)
    SHIP_FIELD_NUMBER: _ClassVar[int]
    ship: str
    def __init__(self, ship: _Optional[str] = ...) -> None: ...

class KeepShip(_message.Message):
    __slots__ = ("ship",)
    SHIP_FIELD_NUMBER: _ClassVar[int]
    ship: str
    def __init__(self, ship: _Optional[str] = ...) -> None: ...

class ChooseSlot(_message.Message):
    __slots__ = ("slot",)
    SLOT_FIELD_NUMBER: _ClassVar[int]
    slot: int
    def __init__(self, slot: _Optional[int] = ...) -> None: ...

class TakeMarketShip(_message.Message):
    __slots__ = ("ship",)
    SHIP_FIELD_NUMBER: _ClassVar[int]
    ship: str
    def __init__(self, ship: _Optional[str] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("ships_kept", "ships_revealed", "market_refilled", "turn_started", "crate_taken_from_ship", "crate_placed", "crate_covered", "crate_placed_on_card", "island_claimed", "crate_retrieved", "ability_used", "crate_direct_loaded", "crate_released", "reserve_taken", "crate_force_sold", "crate_smuggled", "island_cleared", "treasure_found", "effect_skipped", "placement_ended", "ransom_paid", "ransom_refused", "crate_loaded", "crate_sold", "ship_launched", "ship_kept", "ship_slotted", "market_ship_taken", "island_resolved", "harbor_dues_paid", "island_discarded", "island_deck_refilled", "island_revealed", "end_triggered", "game_ended", "ship_picked")
    SHIPS_KEPT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_REVEALED_FIELD_NUMBER: _ClassVar[int]
    MARKET_REFILLED_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    CRATE_TAKEN_FROM_SHIP_FIELD_NUMBER: _ClassVar[int]
    CRATE_PLACED_FIELD_NUMBER: _ClassVar[int]
    CRATE_COVERED_FIELD_NUMBER: _ClassVar[int]
    CRATE_PLACED_ON_CARD_FIELD_NUMBER: _ClassVar[int]
    ISLAND_CLAIMED_FIELD_NUMBER: _ClassVar[int]
    CRATE_RETRIEVED_FIELD_NUMBER: _ClassVar[int]
    ABILITY_USED_FIELD_NUMBER: _ClassVar[int]
    CRATE_DIRECT_LOADED_FIELD_NUMBER: _ClassVar[int]
    CRATE_RELEASED_FIELD_NUMBER: _ClassVar[int]
    RESERVE_TAKEN_FIELD_NUMBER: _ClassVar[int]
    CRATE_FORCE_SOLD_FIELD_NUMBER: _ClassVar[int]
    CRATE_SMUGGLED_FIELD_NUMBER: _ClassVar[int]
    ISLAND_CLEARED_FIELD_NUMBER: _ClassVar[int]
    TREASURE_FOUND_FIELD_NUMBER: _ClassVar[int]
    EFFECT_SKIPPED_FIELD_NUMBER: _ClassVar[int]
    PLACEMENT_ENDED_FIELD_NUMBER: _ClassVar[int]
    RANSOM_PAID_FIELD_NUMBER: _ClassVar[int]
    RANSOM_REFUSED_FIELD_NUMBER: _ClassVar[int]
    CRATE_LOADED_FIELD_NUMBER: _ClassVar[int]
    CRATE_SOLD_FIELD_NUMBER: _ClassVar[int]
    SHIP_LAUNCHED_FIELD_NUMBER: _ClassVar[int]
    SHIP_KEPT_FIELD_NUMBER: _ClassVar[int]
    SHIP_SLOTTED_FIELD_NUMBER: _ClassVar[int]
    MARKET_SHIP_TAKEN_FIELD_NUMBER: _ClassVar[int]
    ISLAND_RESOLVED_FIELD_NUMBER: _ClassVar[int]
    HARBOR_DUES_PAID_FIELD_NUMBER: _ClassVar[int]
    ISLAND_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    ISLAND_DECK_REFILLED_FIELD_NUMBER: _ClassVar[int]
    ISLAND_REVEALED_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    SHIP_PICKED_FIELD_NUMBER: _ClassVar[int]
    ships_kept: ShipsKept
    ships_revealed: ShipsRevealed
    market_refilled: MarketRefilled
    turn_started: TurnStarted
    crate_taken_from_ship: CrateTakenFromShip
    crate_placed: CratePlaced
    crate_covered: CrateCovered
    crate_placed_on_card: CratePlacedOnCard
    island_claimed: IslandClaimed
    crate_retrieved: CrateRetrieved
    ability_used: AbilityUsed
    crate_direct_loaded: CrateDirectLoaded
    crate_released: CrateReleased
    reserve_taken: ReserveTaken
    crate_force_sold: CrateForceSold
    crate_smuggled: CrateSmuggled
    island_cleared: IslandCleared
    treasure_found: TreasureFound
    effect_skipped: EffectSkipped
    placement_ended: PlacementEnded
    ransom_paid: RansomPaid
    ransom_refused: RansomRefused
    crate_loaded: CrateLoaded
    crate_sold: CrateSold
    ship_launched: ShipLaunched
    ship_kept: ShipKept
    ship_slotted: ShipSlotted
    market_ship_taken: MarketShipTaken
    island_resolved: IslandResolved
    harbor_dues_paid: HarborDuesPaid
    island_discarded: IslandDiscarded
    island_deck_refilled: IslandDeckRefilled
    island_revealed: IslandRevealed
    end_triggered: EndTriggered
    game_ended: GameEnded
    ship_picked: ShipPicked
    def __init__(self, ships_kept: _Optional[_Union[ShipsKept, _Mapping]] = ..., ships_revealed: _Optional[_Union[ShipsRevealed, _Mapping]] = ..., market_refilled: _Optional[_Union[MarketRefilled, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., crate_taken_from_ship: _Optional[_Union[CrateTakenFromShip, _Mapping]] = ..., crate_placed: _Optional[_Union[CratePlaced, _Mapping]] = ..., crate_covered: _Optional[_Union[CrateCovered, _Mapping]] = ..., crate_placed_on_card: _Optional[_Union[CratePlacedOnCard, _Mapping]] = ..., island_claimed: _Optional[_Union[IslandClaimed, _Mapping]] = ..., crate_retrieved: _Optional[_Union[CrateRetrieved, _Mapping]] = ..., ability_used: _Optional[_Union[AbilityUsed, _Mapping]] = ..., crate_direct_loaded: _Optional[_Union[CrateDirectLoaded, _Mapping]] = ..., crate_released: _Optional[_Union[CrateReleased, _Mapping]] = ..., reserve_taken: _Optional[_Union[ReserveTaken, _Mapping]] = ..., crate_force_sold: _Optional[_Union[CrateForceSold, _Mapping]] = ..., crate_smuggled: _Optional[_Union[CrateSmuggled, _Mapping]] = ..., island_cleared: _Optional[_Union[IslandCleared, _Mapping]] = ..., treasure_found: _Optional[_Union[TreasureFound, _Mapping]] = ..., effect_skipped: _Optional[_Union[EffectSkipped, _Mapping]] = ..., placement_ended: _Optional[_Union[PlacementEnded, _Mapping]] = ..., ransom_paid: _Optional[_Union[RansomPaid, _Mapping]] = ..., ransom_refused: _Optional[_Union[RansomRefused, _Mapping]] = ..., crate_loaded: _Optional[_Union[CrateLoaded, _Mapping]] = ..., crate_sold: _Optional[_Union[CrateSold, _Mapping]] = ..., ship_launched: _Optional[_Union[ShipLaunched, _Mapping]] = ..., ship_kept: _Optional[_Union[ShipKept, _Mapping]] = ..., ship_slotted: _Optional[_Union[ShipSlotted, _Mapping]] = ..., market_ship_taken: _Optional[_Union[MarketShipTaken, _Mapping]] = ..., island_resolved: _Optional[_Union[IslandResolved, _Mapping]] = ..., harbor_dues_paid: _Optional[_Union[HarborDuesPaid, _Mapping]] = ..., island_discarded: _Optional[_Union[IslandDiscarded, _Mapping]] = ..., island_deck_refilled: _Optional[_Union[IslandDeckRefilled, _Mapping]] = ..., island_revealed: _Optional[_Union[IslandRevealed, _Mapping]] = ..., end_triggered: _Optional[_Union[EndTriggered, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., ship_picked: _Optional[_Union[ShipPicked, _Mapping]] = ...) -> None: ...

class ShipPicked(_message.Message):
    __slots__ = ("seat", "ship", "position")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    POSITION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    position: int
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ..., position: _Optional[int] = ...) -> None: ...

class ShipsKept(_message.Message):
    __slots__ = ("seat", "ships")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ships: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., ships: _Optional[_Iterable[str]] = ...) -> None: ...

class ShipsRevealed(_message.Message):
    __slots__ = ("seat", "ships")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ships: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., ships: _Optional[_Iterable[str]] = ...) -> None: ...

class MarketRefilled(_message.Message):
    __slots__ = ("position", "ship")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    position: int
    ship: str
    def __init__(self, position: _Optional[int] = ..., ship: _Optional[str] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class CrateTakenFromShip(_message.Message):
    __slots__ = ("seat", "ship", "space", "pirate")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    space: int
    pirate: bool
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ..., space: _Optional[int] = ..., pirate: _Optional[bool] = ...) -> None: ...

class CratePlaced(_message.Message):
    __slots__ = ("seat", "island", "space", "pirate", "surcharge")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    SURCHARGE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    space: int
    pirate: bool
    surcharge: int
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., pirate: _Optional[bool] = ..., surcharge: _Optional[int] = ...) -> None: ...

class CrateCovered(_message.Message):
    __slots__ = ("seat", "island", "space", "surcharge")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SURCHARGE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    space: int
    surcharge: int
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., surcharge: _Optional[int] = ...) -> None: ...

class CratePlacedOnCard(_message.Message):
    __slots__ = ("seat", "card", "space", "surcharge")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SURCHARGE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    space: int
    surcharge: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., space: _Optional[int] = ..., surcharge: _Optional[int] = ...) -> None: ...

class IslandClaimed(_message.Message):
    __slots__ = ("seat", "island", "post")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    POST_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    post: bool
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., post: _Optional[bool] = ...) -> None: ...

class CrateRetrieved(_message.Message):
    __slots__ = ("seat", "card", "cost")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COST_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    cost: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., cost: _Optional[int] = ...) -> None: ...

class AbilityUsed(_message.Message):
    __slots__ = ("seat", "ability", "free")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ABILITY_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ability: int
    free: bool
    def __init__(self, seat: _Optional[int] = ..., ability: _Optional[int] = ..., free: _Optional[bool] = ...) -> None: ...

class CrateDirectLoaded(_message.Message):
    __slots__ = ("seat", "ship", "space", "pirate")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    space: int
    pirate: bool
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ..., space: _Optional[int] = ..., pirate: _Optional[bool] = ...) -> None: ...

class CrateReleased(_message.Message):
    __slots__ = ("seat", "card", "owner")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    owner: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., owner: _Optional[int] = ...) -> None: ...

class ReserveTaken(_message.Message):
    __slots__ = ("seat", "standard", "pirate")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STANDARD_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    standard: int
    pirate: int
    def __init__(self, seat: _Optional[int] = ..., standard: _Optional[int] = ..., pirate: _Optional[int] = ...) -> None: ...

class CrateForceSold(_message.Message):
    __slots__ = ("seat", "victim", "from_ship", "from_space", "to_ship", "to_space", "price")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VICTIM_FIELD_NUMBER: _ClassVar[int]
    FROM_SHIP_FIELD_NUMBER: _ClassVar[int]
    FROM_SPACE_FIELD_NUMBER: _ClassVar[int]
    TO_SHIP_FIELD_NUMBER: _ClassVar[int]
    TO_SPACE_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    victim: int
    from_ship: str
    from_space: int
    to_ship: str
    to_space: int
    price: int
    def __init__(self, seat: _Optional[int] = ..., victim: _Optional[int] = ..., from_ship: _Optional[str] = ..., from_space: _Optional[int] = ..., to_ship: _Optional[str] = ..., to_space: _Optional[int] = ..., price: _Optional[int] = ...) -> None: ...

class CrateSmuggled(_message.Message):
    __slots__ = ("seat", "island", "space", "ship", "ship_space")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SHIP_SPACE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    space: int
    ship: str
    ship_space: int
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., ship: _Optional[str] = ..., ship_space: _Optional[int] = ...) -> None: ...

class IslandCleared(_message.Message):
    __slots__ = ("seat", "island")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ...) -> None: ...

class TreasureFound(_message.Message):
    __slots__ = ("seat", "coins")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    coins: int
    def __init__(self, seat: _Optional[int] = ..., coins: _Optional[int] = ...) -> None: ...

class EffectSkipped(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class PlacementEnded(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class RansomPaid(_message.Message):
    __slots__ = ("payer", "pirate_owner", "island", "space", "amount")
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PIRATE_OWNER_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    payer: int
    pirate_owner: int
    island: str
    space: int
    amount: int
    def __init__(self, payer: _Optional[int] = ..., pirate_owner: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., amount: _Optional[int] = ...) -> None: ...

class RansomRefused(_message.Message):
    __slots__ = ("payer", "pirate_owner", "island", "space", "forced")
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PIRATE_OWNER_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    payer: int
    pirate_owner: int
    island: str
    space: int
    forced: bool
    def __init__(self, payer: _Optional[int] = ..., pirate_owner: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., forced: _Optional[bool] = ...) -> None: ...

class CrateLoaded(_message.Message):
    __slots__ = ("seat", "island", "space", "ship", "ship_space")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SHIP_SPACE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    space: int
    ship: str
    ship_space: int
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., ship: _Optional[str] = ..., ship_space: _Optional[int] = ...) -> None: ...

class CrateSold(_message.Message):
    __slots__ = ("seat", "island", "space", "coins", "forced")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    FORCED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    space: int
    coins: int
    forced: bool
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., coins: _Optional[int] = ..., forced: _Optional[bool] = ...) -> None: ...

class ShipLaunched(_message.Message):
    __slots__ = ("seat", "ship", "gold")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    gold: int
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ..., gold: _Optional[int] = ...) -> None: ...

class ShipKept(_message.Message):
    __slots__ = ("seat", "ship")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ...) -> None: ...

class ShipSlotted(_message.Message):
    __slots__ = ("seat", "ship", "slot")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    slot: int
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ..., slot: _Optional[int] = ...) -> None: ...

class MarketShipTaken(_message.Message):
    __slots__ = ("seat", "ship")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    ship: str
    def __init__(self, seat: _Optional[int] = ..., ship: _Optional[str] = ...) -> None: ...

class IslandResolved(_message.Message):
    __slots__ = ("seat", "island", "coins")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    island: str
    coins: int
    def __init__(self, seat: _Optional[int] = ..., island: _Optional[str] = ..., coins: _Optional[int] = ...) -> None: ...

class HarborDuesPaid(_message.Message):
    __slots__ = ("payer", "payee", "coins")
    PAYER_FIELD_NUMBER: _ClassVar[int]
    PAYEE_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    payer: int
    payee: int
    coins: int
    def __init__(self, payer: _Optional[int] = ..., payee: _Optional[int] = ..., coins: _Optional[int] = ...) -> None: ...

class IslandDiscarded(_message.Message):
    __slots__ = ("island",)
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    island: str
    def __init__(self, island: _Optional[str] = ...) -> None: ...

class IslandDeckRefilled(_message.Message):
    __slots__ = ("size",)
    SIZE_FIELD_NUMBER: _ClassVar[int]
    size: int
    def __init__(self, size: _Optional[int] = ...) -> None: ...

class IslandRevealed(_message.Message):
    __slots__ = ("position", "island")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    position: int
    island: str
    def __init__(self, position: _Optional[int] = ..., island: _Optional[str] = ...) -> None: ...

class EndTriggered(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("scores", "winners", "objectives", "public_objective_winner", "round_cap")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVES_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_OBJECTIVE_WINNER_FIELD_NUMBER: _ClassVar[int]
    ROUND_CAP_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    objectives: _containers.RepeatedScalarFieldContainer[str]
    public_objective_winner: int
    round_cap: bool
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., objectives: _Optional[_Iterable[str]] = ..., public_objective_winner: _Optional[int] = ..., round_cap: _Optional[bool] = ...) -> None: ...

class DecisionView(_message.Message):
    __slots__ = ("kind", "seat", "island", "space", "ship", "card", "amount")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    kind: DecisionKind
    seat: int
    island: str
    space: int
    ship: str
    card: str
    amount: int
    def __init__(self, kind: _Optional[_Union[DecisionKind, str]] = ..., seat: _Optional[int] = ..., island: _Optional[str] = ..., space: _Optional[int] = ..., ship: _Optional[str] = ..., card: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class Crate(_message.Message):
    __slots__ = ("owner", "pirate")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    owner: int
    pirate: bool
    def __init__(self, owner: _Optional[int] = ..., pirate: _Optional[bool] = ...) -> None: ...

class ShipSpaceView(_message.Message):
    __slots__ = ("resource", "coin", "crate")
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    COIN_FIELD_NUMBER: _ClassVar[int]
    CRATE_FIELD_NUMBER: _ClassVar[int]
    resource: Resource
    coin: bool
    crate: Crate
    def __init__(self, resource: _Optional[_Union[Resource, str]] = ..., coin: _Optional[bool] = ..., crate: _Optional[_Union[Crate, _Mapping]] = ...) -> None: ...

class ShipView(_message.Message):
    __slots__ = ("card", "points", "spaces", "launchable")
    CARD_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    LAUNCHABLE_FIELD_NUMBER: _ClassVar[int]
    card: str
    points: int
    spaces: _containers.RepeatedCompositeFieldContainer[ShipSpaceView]
    launchable: bool
    def __init__(self, card: _Optional[str] = ..., points: _Optional[int] = ..., spaces: _Optional[_Iterable[_Union[ShipSpaceView, _Mapping]]] = ..., launchable: _Optional[bool] = ...) -> None: ...

class LaunchedShipView(_message.Message):
    __slots__ = ("card", "points", "resources", "slot", "used", "ready", "turn")
    CARD_FIELD_NUMBER: _ClassVar[int]
    POINTS_FIELD_NUMBER: _ClassVar[int]
    RESOURCES_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    USED_FIELD_NUMBER: _ClassVar[int]
    READY_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    card: str
    points: int
    resources: _containers.RepeatedScalarFieldContainer[Resource]
    slot: int
    used: bool
    ready: bool
    turn: int
    def __init__(self, card: _Optional[str] = ..., points: _Optional[int] = ..., resources: _Optional[_Iterable[_Union[Resource, str]]] = ..., slot: _Optional[int] = ..., used: _Optional[bool] = ..., ready: _Optional[bool] = ..., turn: _Optional[int] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "coins", "standard", "pirate", "reserve_standard", "reserve_pirate", "posts", "ships", "launched", "chose_ships", "objective", "objective_resource", "kept")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    STANDARD_FIELD_NUMBER: _ClassVar[int]
    PIRATE_FIELD_NUMBER: _ClassVar[int]
    RESERVE_STANDARD_FIELD_NUMBER: _ClassVar[int]
    RESERVE_PIRATE_FIELD_NUMBER: _ClassVar[int]
    POSTS_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    LAUNCHED_FIELD_NUMBER: _ClassVar[int]
    CHOSE_SHIPS_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    OBJECTIVE_RESOURCE_FIELD_NUMBER: _ClassVar[int]
    KEPT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    coins: int
    standard: int
    pirate: int
    reserve_standard: int
    reserve_pirate: int
    posts: int
    ships: _containers.RepeatedCompositeFieldContainer[ShipView]
    launched: _containers.RepeatedCompositeFieldContainer[LaunchedShipView]
    chose_ships: bool
    objective: str
    objective_resource: Resource
    kept: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., coins: _Optional[int] = ..., standard: _Optional[int] = ..., pirate: _Optional[int] = ..., reserve_standard: _Optional[int] = ..., reserve_pirate: _Optional[int] = ..., posts: _Optional[int] = ..., ships: _Optional[_Iterable[_Union[ShipView, _Mapping]]] = ..., launched: _Optional[_Iterable[_Union[LaunchedShipView, _Mapping]]] = ..., chose_ships: _Optional[bool] = ..., objective: _Optional[str] = ..., objective_resource: _Optional[_Union[Resource, str]] = ..., kept: _Optional[_Iterable[str]] = ...) -> None: ...

class IslandSpaceView(_message.Message):
    __slots__ = ("resource", "crate", "cover")
    RESOURCE_FIELD_NUMBER: _ClassVar[int]
    CRATE_FIELD_NUMBER: _ClassVar[int]
    COVER_FIELD_NUMBER: _ClassVar[int]
    resource: Resource
    crate: Crate
    cover: int
    def __init__(self, resource: _Optional[_Union[Resource, str]] = ..., crate: _Optional[_Union[Crate, _Mapping]] = ..., cover: _Optional[int] = ...) -> None: ...

class IslandView(_message.Message):
    __slots__ = ("position", "card", "value", "spaces", "post")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    VALUE_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    POST_FIELD_NUMBER: _ClassVar[int]
    position: int
    card: str
    value: int
    spaces: _containers.RepeatedCompositeFieldContainer[IslandSpaceView]
    post: int
    def __init__(self, position: _Optional[int] = ..., card: _Optional[str] = ..., value: _Optional[int] = ..., spaces: _Optional[_Iterable[_Union[IslandSpaceView, _Mapping]]] = ..., post: _Optional[int] = ...) -> None: ...

class PirateSpaceView(_message.Message):
    __slots__ = ("owner",)
    OWNER_FIELD_NUMBER: _ClassVar[int]
    owner: int
    def __init__(self, owner: _Optional[int] = ...) -> None: ...

class PirateCardView(_message.Message):
    __slots__ = ("card", "name", "persistent", "spaces")
    CARD_FIELD_NUMBER: _ClassVar[int]
    NAME_FIELD_NUMBER: _ClassVar[int]
    PERSISTENT_FIELD_NUMBER: _ClassVar[int]
    SPACES_FIELD_NUMBER: _ClassVar[int]
    card: str
    name: str
    persistent: bool
    spaces: _containers.RepeatedCompositeFieldContainer[PirateSpaceView]
    def __init__(self, card: _Optional[str] = ..., name: _Optional[str] = ..., persistent: _Optional[bool] = ..., spaces: _Optional[_Iterable[_Union[PirateSpaceView, _Mapping]]] = ...) -> None: ...

class MarketShipView(_message.Message):
    __slots__ = ("position", "ship")
    POSITION_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    position: int
    ship: ShipView
    def __init__(self, position: _Optional[int] = ..., ship: _Optional[_Union[ShipView, _Mapping]] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("viewer", "phase", "to_act", "decision", "turn", "max_rounds", "start_player", "active", "players", "islands", "island_deck_size", "island_discard", "pirate_cards", "market", "ship_deck_size", "public_objective", "public_resource", "placed", "crate_limit", "used_cards", "claims", "end_trigger", "final_turns", "dealt", "kept", "returned", "scores", "winners", "public_objective_winner", "tasks")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    DECISION_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    MAX_ROUNDS_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    ISLANDS_FIELD_NUMBER: _ClassVar[int]
    ISLAND_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    ISLAND_DISCARD_FIELD_NUMBER: _ClassVar[int]
    PIRATE_CARDS_FIELD_NUMBER: _ClassVar[int]
    MARKET_FIELD_NUMBER: _ClassVar[int]
    SHIP_DECK_SIZE_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_OBJECTIVE_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_RESOURCE_FIELD_NUMBER: _ClassVar[int]
    PLACED_FIELD_NUMBER: _ClassVar[int]
    CRATE_LIMIT_FIELD_NUMBER: _ClassVar[int]
    USED_CARDS_FIELD_NUMBER: _ClassVar[int]
    CLAIMS_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGER_FIELD_NUMBER: _ClassVar[int]
    FINAL_TURNS_FIELD_NUMBER: _ClassVar[int]
    DEALT_FIELD_NUMBER: _ClassVar[int]
    KEPT_FIELD_NUMBER: _ClassVar[int]
    RETURNED_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    PUBLIC_OBJECTIVE_WINNER_FIELD_NUMBER: _ClassVar[int]
    TASKS_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    phase: Phase
    to_act: _containers.RepeatedScalarFieldContainer[int]
    decision: DecisionView
    turn: int
    max_rounds: int
    start_player: int
    active: int
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    islands: _containers.RepeatedCompositeFieldContainer[IslandView]
    island_deck_size: int
    island_discard: _containers.RepeatedScalarFieldContainer[str]
    pirate_cards: _containers.RepeatedCompositeFieldContainer[PirateCardView]
    market: _containers.RepeatedCompositeFieldContainer[MarketShipView]
    ship_deck_size: int
    public_objective: str
    public_resource: Resource
    placed: int
    crate_limit: int
    used_cards: _containers.RepeatedScalarFieldContainer[str]
    claims: _containers.RepeatedScalarFieldContainer[str]
    end_trigger: int
    final_turns: int
    dealt: _containers.RepeatedScalarFieldContainer[str]
    kept: _containers.RepeatedScalarFieldContainer[str]
    returned: _containers.RepeatedScalarFieldContainer[str]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    public_objective_winner: int
    tasks: _containers.RepeatedCompositeFieldContainer[Task]
    def __init__(self, viewer: _Optional[int] = ..., phase: _Optional[_Union[Phase, str]] = ..., to_act: _Optional[_Iterable[int]] = ..., decision: _Optional[_Union[DecisionView, _Mapping]] = ..., turn: _Optional[int] = ..., max_rounds: _Optional[int] = ..., start_player: _Optional[int] = ..., active: _Optional[int] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., islands: _Optional[_Iterable[_Union[IslandView, _Mapping]]] = ..., island_deck_size: _Optional[int] = ..., island_discard: _Optional[_Iterable[str]] = ..., pirate_cards: _Optional[_Iterable[_Union[PirateCardView, _Mapping]]] = ..., market: _Optional[_Iterable[_Union[MarketShipView, _Mapping]]] = ..., ship_deck_size: _Optional[int] = ..., public_objective: _Optional[str] = ..., public_resource: _Optional[_Union[Resource, str]] = ..., placed: _Optional[int] = ..., crate_limit: _Optional[int] = ..., used_cards: _Optional[_Iterable[str]] = ..., claims: _Optional[_Iterable[str]] = ..., end_trigger: _Optional[int] = ..., final_turns: _Optional[int] = ..., dealt: _Optional[_Iterable[str]] = ..., kept: _Optional[_Iterable[str]] = ..., returned: _Optional[_Iterable[str]] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., public_objective_winner: _Optional[int] = ..., tasks: _Optional[_Iterable[_Union[Task, _Mapping]]] = ...) -> None: ...

class Task(_message.Message):
    __slots__ = ("resolution", "launching", "card_effect")
    RESOLUTION_FIELD_NUMBER: _ClassVar[int]
    LAUNCHING_FIELD_NUMBER: _ClassVar[int]
    CARD_EFFECT_FIELD_NUMBER: _ClassVar[int]
    resolution: ResolutionTask
    launching: LaunchingTask
    card_effect: CardEffectTask
    def __init__(self, resolution: _Optional[_Union[ResolutionTask, _Mapping]] = ..., launching: _Optional[_Union[LaunchingTask, _Mapping]] = ..., card_effect: _Optional[_Union[CardEffectTask, _Mapping]] = ...) -> None: ...

class ResolutionTask(_message.Message):
    __slots__ = ("island", "claimant", "posted", "stage", "index", "touched", "candidates")
    ISLAND_FIELD_NUMBER: _ClassVar[int]
    CLAIMANT_FIELD_NUMBER: _ClassVar[int]
    POSTED_FIELD_NUMBER: _ClassVar[int]
    STAGE_FIELD_NUMBER: _ClassVar[int]
    INDEX_FIELD_NUMBER: _ClassVar[int]
    TOUCHED_FIELD_NUMBER: _ClassVar[int]
    CANDIDATES_FIELD_NUMBER: _ClassVar[int]
    island: str
    claimant: int
    posted: bool
    stage: Stage
    index: int
    touched: _containers.RepeatedScalarFieldContainer[str]
    candidates: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, island: _Optional[str] = ..., claimant: _Optional[int] = ..., posted: _Optional[bool] = ..., stage: _Optional[_Union[Stage, str]] = ..., index: _Optional[int] = ..., touched: _Optional[_Iterable[str]] = ..., candidates: _Optional[_Iterable[str]] = ...) -> None: ...

class LaunchingTask(_message.Message):
    __slots__ = ("owner", "ship", "choose_slot")
    OWNER_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    CHOOSE_SLOT_FIELD_NUMBER: _ClassVar[int]
    owner: int
    ship: str
    choose_slot: bool
    def __init__(self, owner: _Optional[int] = ..., ship: _Optional[str] = ..., choose_slot: _Optional[bool] = ...) -> None: ...

class CardEffectTask(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...
