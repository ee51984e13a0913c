from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Space(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    SPACE_UNSPECIFIED: _ClassVar[Space]
    SPACE_SAILING: _ClassVar[Space]
    SPACE_WORKERS: _ClassVar[Space]
    SPACE_MARKET: _ClassVar[Space]
    SPACE_COLONY: _ClassVar[Space]
    SPACE_KNIGHT: _ClassVar[Space]
    SPACE_SHIPS: _ClassVar[Space]
    SPACE_BUILDINGS: _ClassVar[Space]

class Good(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    GOOD_UNSPECIFIED: _ClassVar[Good]
    GOOD_SUGAR: _ClassVar[Good]
    GOOD_GOLD: _ClassVar[Good]
    GOOD_SPICE: _ClassVar[Good]

class Colour(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COLOUR_UNSPECIFIED: _ClassVar[Colour]
    COLOUR_RED: _ClassVar[Colour]
    COLOUR_BLUE: _ClassVar[Colour]
    COLOUR_YELLOW: _ClassVar[Colour]
    COLOUR_GREEN: _ClassVar[Colour]
    COLOUR_BLACK: _ClassVar[Colour]

class Step(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    STEP_UNSPECIFIED: _ClassVar[Step]
    STEP_DRAFT: _ClassVar[Step]
    STEP_RONDEL: _ClassVar[Step]
    STEP_PAY_SHIPS: _ClassVar[Step]
    STEP_WORKERS: _ClassVar[Step]
    STEP_SHIPS: _ClassVar[Step]
    STEP_BUILDINGS: _ClassVar[Step]
    STEP_SAILING: _ClassVar[Step]
    STEP_COLONY: _ClassVar[Step]
    STEP_CONSUME: _ClassVar[Step]
    STEP_SELL: _ClassVar[Step]
    STEP_KNIGHT: _ClassVar[Step]
    STEP_DISPLACED: _ClassVar[Step]
    STEP_FINISHED: _ClassVar[Step]
SPACE_UNSPECIFIED: Space
SPACE_SAILING: Space
SPACE_WORKERS: Space
SPACE_MARKET: Space
SPACE_COLONY: Space
SPACE_KNIGHT: Space
SPACE_SHIPS: Space
SPACE_BUILDINGS: Space
GOOD_UNSPECIFIED: Good
GOOD_SUGAR: Good
GOOD_GOLD: Good
GOOD_SPICE: Good
COLOUR_UNSPECIFIED: Colour
COLOUR_RED: Colour
COLOUR_BLUE: Colour
COLOUR_YELLOW: Colour
COLOUR_GREEN: Colour
COLOUR_BLACK: Colour
STEP_UNSPECIFIED: Step
STEP_DRAFT: Step
STEP_RONDEL: Step
STEP_PAY_SHIPS: Step
STEP_WORKERS: Step
STEP_SHIPS: Step
STEP_BUILDINGS: Step
STEP_SAILING: Step
STEP_COLONY: Step
STEP_CONSUME: Step
STEP_SELL: Step
STEP_KNIGHT: Step
STEP_DISPLACED: Step
STEP_FINISHED: Step

class Action(_message.Message):
    __slots__ = ("choose_building", "place_marker", "move_marker", "sacrifice_ship", "buy_workers", "buy_ships", "place_on_building", "decline_building", "sail_fleet", "stop_sailing", "place_on_colony", "stop_colonizing", "consume_good", "sell_goods", "buy_knight", "decline_knight", "return_to_lisbon", "relocate", "pick_building", "pick_fleet_origin", "pick_fleet_destination", "pick_colony", "pick_sale")
    CHOOSE_BUILDING_FIELD_NUMBER: _ClassVar[int]
    PLACE_MARKER_FIELD_NUMBER: _ClassVar[int]
    MOVE_MARKER_FIELD_NUMBER: _ClassVar[int]
    SACRIFICE_SHIP_FIELD_NUMBER: _ClassVar[int]
    BUY_WORKERS_FIELD_NUMBER: _ClassVar[int]
    BUY_SHIPS_FIELD_NUMBER: _ClassVar[int]
    PLACE_ON_BUILDING_FIELD_NUMBER: _ClassVar[int]
    DECLINE_BUILDING_FIELD_NUMBER: _ClassVar[int]
    SAIL_FLEET_FIELD_NUMBER: _ClassVar[int]
    STOP_SAILING_FIELD_NUMBER: _ClassVar[int]
    PLACE_ON_COLONY_FIELD_NUMBER: _ClassVar[int]
    STOP_COLONIZING_FIELD_NUMBER: _ClassVar[int]
    CONSUME_GOOD_FIELD_NUMBER: _ClassVar[int]
    SELL_GOODS_FIELD_NUMBER: _ClassVar[int]
    BUY_KNIGHT_FIELD_NUMBER: _ClassVar[int]
    DECLINE_KNIGHT_FIELD_NUMBER: _ClassVar[int]
    RETURN_TO_LISBON_FIELD_NUMBER: _ClassVar[int]
    RELOCATE_FIELD_NUMBER: _ClassVar[int]
    PICK_BUILDING_FIELD_NUMBER: _ClassVar[int]
    PICK_FLEET_ORIGIN_FIELD_NUMBER: _ClassVar[int]
    PICK_FLEET_DESTINATION_FIELD_NUMBER: _ClassVar[int]
    PICK_COLONY_FIELD_NUMBER: _ClassVar[int]
    PICK_SALE_FIELD_NUMBER: _ClassVar[int]
    choose_building: ChooseBuilding
    place_marker: PlaceMarker
    move_marker: MoveMarker
    sacrifice_ship: SacrificeShip
    buy_workers: BuyWorkers
    buy_ships: BuyShips
    place_on_building: PlaceOnBuilding
    decline_building: DeclineBuilding
    sail_fleet: SailFleet
    stop_sailing: StopSailing
    place_on_colony: PlaceOnColony
    stop_colonizing: StopColonizing
    consume_good: ConsumeGood
    sell_goods: SellGoods
    buy_knight: BuyKnight
    decline_knight: DeclineKnight
    return_to_lisbon: ReturnToLisbon
    relocate: Relocate
    pick_building: PickBuilding
    pick_fleet_origin: PickFleetOrigin
    pick_fleet_destination: PickFleetDestination
    pick_colony: PickColony
    pick_sale: PickSale
    def __init__(self, choose_building: _Optional[_Union[ChooseBuilding, _Mapping]] = ..., place_marker: _Optional[_Union[PlaceMarker, _Mapping]] = ..., move_marker: _Optional[_Union[MoveMarker, _Mapping]] = ..., sacrifice_ship: _Optional[_Union[SacrificeShip, _Mapping]] = ..., buy_workers: _Optional[_Union[BuyWorkers, _Mapping]] = ..., buy_ships: _Optional[_Union[BuyShips, _Mapping]] = ..., place_on_building: _Optional[_Union[PlaceOnBuilding, _Mapping]] = ..., decline_building: _Optional[_Union[DeclineBuilding, _Mapping]] = ..., sail_fleet: _Optional[_Union[SailFleet, _Mapping]] = ..., stop_sailing: _Optional[_Union[StopSailing, _Mapping]] = ..., place_on_colony: _Optional[_Union[PlaceOnColony, _Mapping]] = ..., stop_colonizing: _Optional[_Union[StopColonizing, _Mapping]] = ..., consume_good: _Optional[_Union[ConsumeGood, _Mapping]] = ..., sell_goods: _Optional[_Union[SellGoods, _Mapping]] = ..., buy_knight: _Optional[_Union[BuyKnight, _Mapping]] = ..., decline_knight: _Optional[_Union[DeclineKnight, _Mapping]] = ..., return_to_lisbon: _Optional[_Union[ReturnToLisbon, _Mapping]] = ..., relocate: _Optional[_Union[Relocate, _Mapping]] = ..., pick_building: _Optional[_Union[PickBuilding, _Mapping]] = ..., pick_fleet_origin: _Optional[_Union[PickFleetOrigin, _Mapping]] = ..., pick_fleet_destination: _Optional[_Union[PickFleetDestination, _Mapping]] = ..., pick_colony: _Optional[_Union[PickColony, _Mapping]] = ..., pick_sale: _Optional[_Union[PickSale, _Mapping]] = ...) -> None: ...

class ChooseBuilding(_message.Message):
    __slots__ = ("building",)
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    building: str
    def __init__(self, building: _Optional[str] = ...) -> None: ...

class PlaceMarker(_message.Message):
    __slots__ = ("space",)
    SPACE_FIELD_NUMBER: _ClassVar[int]
    space: Space
    def __init__(self, space: _Optional[_Union[Space, str]] = ...) -> None: ...

class MoveMarker(_message.Message):
    __slots__ = ("steps",)
    STEPS_FIELD_NUMBER: _ClassVar[int]
    steps: int
    def __init__(self, steps: _Optional[int] = ...) -> None: ...

class SacrificeShip(_message.Message):
    __slots__ = ("region",)
    REGION_FIELD_NUMBER: _ClassVar[int]
    region: str
    def __init__(self, region: _Optional[str] = ...) -> None: ...

class BuyWorkers(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class BuyShips(_message.Message):
    __slots__ = ("count",)
    COUNT_FIELD_NUMBER: _ClassVar[int]
    count: int
    def __init__(self, count: _Optional[int] = ...) -> None: ...

class PlaceOnBuilding(_message.Message):
    __slots__ = ("building", "workers")
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    building: str
    workers: int
    def __init__(self, building: _Optional[str] = ..., workers: _Optional[int] = ...) -> None: ...

class DeclineBuilding(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class SailFleet(_message.Message):
    __slots__ = ("origin", "ships", "destination")
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    origin: str
    ships: int
    destination: str
    def __init__(self, origin: _Optional[str] = ..., ships: _Optional[int] = ..., destination: _Optional[str] = ...) -> None: ...

class StopSailing(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class PlaceOnColony(_message.Message):
    __slots__ = ("colony", "workers")
    COLONY_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    colony: str
    workers: int
    def __init__(self, colony: _Optional[str] = ..., workers: _Optional[int] = ...) -> None: ...

class StopColonizing(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ConsumeGood(_message.Message):
    __slots__ = ("good",)
    GOOD_FIELD_NUMBER: _ClassVar[int]
    good: Good
    def __init__(self, good: _Optional[_Union[Good, str]] = ...) -> None: ...

class SellGoods(_message.Message):
    __slots__ = ("sugar", "gold", "spice")
    SUGAR_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    SPICE_FIELD_NUMBER: _ClassVar[int]
    sugar: int
    gold: int
    spice: int
    def __init__(self, sugar: _Optional[int] = ..., gold: _Optional[int] = ..., spice: _Optional[int] = ...) -> None: ...

class BuyKnight(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class DeclineKnight(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class ReturnToLisbon(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Relocate(_message.Message):
    __slots__ = ("place",)
    PLACE_FIELD_NUMBER: _ClassVar[int]
    place: str
    def __init__(self, place: _Optional[str] = ...) -> None: ...

class PickBuilding(_message.Message):
    __slots__ = ("building",)
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    building: str
    def __init__(self, building: _Optional[str] = ...) -> None: ...

class PickFleetOrigin(_message.Message):
    __slots__ = ("region",)
    REGION_FIELD_NUMBER: _ClassVar[int]
    region: str
    def __init__(self, region: _Optional[str] = ...) -> None: ...

class PickFleetDestination(_message.Message):
    __slots__ = ("region",)
    REGION_FIELD_NUMBER: _ClassVar[int]
    region: str
    def __init__(self, region: _Optional[str] = ...) -> None: ...

class PickColony(_message.Message):
    __slots__ = ("colony",)
    COLONY_FIELD_NUMBER: _ClassVar[int]
    colony: str
    def __init__(self, colony: _Optional[str] = ...) -> None: ...

class PickSale(_message.Message):
    __slots__ = ("good", "units")
    GOOD_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    good: Good
    units: int
    def __init__(self, good: _Optional[_Union[Good, str]] = ..., units: _Optional[int] = ...) -> None: ...

class Event(_message.Message):
    __slots__ = ("building_chosen", "turn_started", "marker_placed", "marker_moved", "ship_sacrificed", "workers_bought", "ships_bought", "workers_placed", "workers_displaced", "workers_relocated", "workers_returned", "building_declined", "fleet_sailed", "region_explored", "sailing_stopped", "colonizing_stopped", "good_consumed", "goods_sold", "knight_bought", "knight_declined", "income_received", "game_ended", "building_picked", "fleet_origin_picked", "fleet_destination_picked", "colony_picked", "sale_picked")
    BUILDING_CHOSEN_FIELD_NUMBER: _ClassVar[int]
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    MARKER_PLACED_FIELD_NUMBER: _ClassVar[int]
    MARKER_MOVED_FIELD_NUMBER: _ClassVar[int]
    SHIP_SACRIFICED_FIELD_NUMBER: _ClassVar[int]
    WORKERS_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    WORKERS_PLACED_FIELD_NUMBER: _ClassVar[int]
    WORKERS_DISPLACED_FIELD_NUMBER: _ClassVar[int]
    WORKERS_RELOCATED_FIELD_NUMBER: _ClassVar[int]
    WORKERS_RETURNED_FIELD_NUMBER: _ClassVar[int]
    BUILDING_DECLINED_FIELD_NUMBER: _ClassVar[int]
    FLEET_SAILED_FIELD_NUMBER: _ClassVar[int]
    REGION_EXPLORED_FIELD_NUMBER: _ClassVar[int]
    SAILING_STOPPED_FIELD_NUMBER: _ClassVar[int]
    COLONIZING_STOPPED_FIELD_NUMBER: _ClassVar[int]
    GOOD_CONSUMED_FIELD_NUMBER: _ClassVar[int]
    GOODS_SOLD_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_BOUGHT_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_DECLINED_FIELD_NUMBER: _ClassVar[int]
    INCOME_RECEIVED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    BUILDING_PICKED_FIELD_NUMBER: _ClassVar[int]
    FLEET_ORIGIN_PICKED_FIELD_NUMBER: _ClassVar[int]
    FLEET_DESTINATION_PICKED_FIELD_NUMBER: _ClassVar[int]
    COLONY_PICKED_FIELD_NUMBER: _ClassVar[int]
    SALE_PICKED_FIELD_NUMBER: _ClassVar[int]
    building_chosen: BuildingChosen
    turn_started: TurnStarted
    marker_placed: MarkerPlaced
    marker_moved: MarkerMoved
    ship_sacrificed: ShipSacrificed
    workers_bought: WorkersBought
    ships_bought: ShipsBought
    workers_placed: WorkersPlaced
    workers_displaced: WorkersDisplaced
    workers_relocated: WorkersRelocated
    workers_returned: WorkersReturned
    building_declined: BuildingDeclined
    fleet_sailed: FleetSailed
    region_explored: RegionExplored
    sailing_stopped: SailingStopped
    colonizing_stopped: ColonizingStopped
    good_consumed: GoodConsumed
    goods_sold: GoodsSold
    knight_bought: KnightBought
    knight_declined: KnightDeclined
    income_received: IncomeReceived
    game_ended: GameEnded
    building_picked: BuildingPicked
    fleet_origin_picked: FleetOriginPicked
    fleet_destination_picked: FleetDestinationPicked
    colony_picked: ColonyPicked
    sale_picked: SalePicked
    def __init__(self, building_chosen: _Optional[_Union[BuildingChosen, _Mapping]] = ..., turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., marker_placed: _Optional[_Union[MarkerPlaced, _Mapping]] = ..., marker_moved: _Optional[_Union[MarkerMoved, _Mapping]] = ..., ship_sacrificed: _Optional[_Union[ShipSacrificed, _Mapping]] = ..., workers_bought: _Optional[_Union[WorkersBought, _Mapping]] = ..., ships_bought: _Optional[_Union[ShipsBought, _Mapping]] = ..., workers_placed: _Optional[_Union[WorkersPlaced, _Mapping]] = ..., workers_displaced: _Optional[_Union[WorkersDisplaced, _Mapping]] = ..., workers_relocated: _Optional[_Union[WorkersRelocated, _Mapping]] = ..., workers_returned: _Optional[_Union[WorkersReturned, _Mapping]] = ..., building_declined: _Optional[_Union[BuildingDeclined, _Mapping]] = ..., fleet_sailed: _Optional[_Union[FleetSailed, _Mapping]] = ..., region_explored: _Optional[_Union[RegionExplored, _Mapping]] = ..., sailing_stopped: _Optional[_Union[SailingStopped, _Mapping]] = ..., colonizing_stopped: _Optional[_Union[ColonizingStopped, _Mapping]] = ..., good_consumed: _Optional[_Union[GoodConsumed, _Mapping]] = ..., goods_sold: _Optional[_Union[GoodsSold, _Mapping]] = ..., knight_bought: _Optional[_Union[KnightBought, _Mapping]] = ..., knight_declined: _Optional[_Union[KnightDeclined, _Mapping]] = ..., income_received: _Optional[_Union[IncomeReceived, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ..., building_picked: _Optional[_Union[BuildingPicked, _Mapping]] = ..., fleet_origin_picked: _Optional[_Union[FleetOriginPicked, _Mapping]] = ..., fleet_destination_picked: _Optional[_Union[FleetDestinationPicked, _Mapping]] = ..., colony_picked: _Optional[_Union[ColonyPicked, _Mapping]] = ..., sale_picked: _Optional[_Union[SalePicked, _Mapping]] = ...) -> None: ...

class BuildingChosen(_message.Message):
    __slots__ = ("seat", "building")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    building: str
    def __init__(self, seat: _Optional[int] = ..., building: _Optional[str] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class MarkerPlaced(_message.Message):
    __slots__ = ("seat", "space")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    space: Space
    def __init__(self, seat: _Optional[int] = ..., space: _Optional[_Union[Space, str]] = ...) -> None: ...

class MarkerMoved(_message.Message):
    __slots__ = ("seat", "steps", "space", "ship_cost", "bonus")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    STEPS_FIELD_NUMBER: _ClassVar[int]
    SPACE_FIELD_NUMBER: _ClassVar[int]
    SHIP_COST_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    steps: int
    space: Space
    ship_cost: int
    bonus: int
    def __init__(self, seat: _Optional[int] = ..., steps: _Optional[int] = ..., space: _Optional[_Union[Space, str]] = ..., ship_cost: _Optional[int] = ..., bonus: _Optional[int] = ...) -> None: ...

class ShipSacrificed(_message.Message):
    __slots__ = ("seat", "region")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    region: str
    def __init__(self, seat: _Optional[int] = ..., region: _Optional[str] = ...) -> None: ...

class WorkersBought(_message.Message):
    __slots__ = ("seat", "count", "paid", "free", "lisbon")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    LISBON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    paid: int
    free: int
    lisbon: int
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., paid: _Optional[int] = ..., free: _Optional[int] = ..., lisbon: _Optional[int] = ...) -> None: ...

class ShipsBought(_message.Message):
    __slots__ = ("seat", "count", "paid", "free")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    FREE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    paid: int
    free: int
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., paid: _Optional[int] = ..., free: _Optional[int] = ...) -> None: ...

class WorkersPlaced(_message.Message):
    __slots__ = ("seat", "place", "workers", "total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: str
    workers: int
    total: int
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[str] = ..., workers: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class WorkersDisplaced(_message.Message):
    __slots__ = ("seat", "place", "workers")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: str
    workers: int
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[str] = ..., workers: _Optional[int] = ...) -> None: ...

class WorkersRelocated(_message.Message):
    __slots__ = ("seat", "place", "workers", "total")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PLACE_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    TOTAL_FIELD_NUMBER: _ClassVar[int]
    seat: int
    place: str
    workers: int
    total: int
    def __init__(self, seat: _Optional[int] = ..., place: _Optional[str] = ..., workers: _Optional[int] = ..., total: _Optional[int] = ...) -> None: ...

class WorkersReturned(_message.Message):
    __slots__ = ("seat", "workers", "paid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    workers: int
    paid: int
    def __init__(self, seat: _Optional[int] = ..., workers: _Optional[int] = ..., paid: _Optional[int] = ...) -> None: ...

class BuildingDeclined(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class FleetSailed(_message.Message):
    __slots__ = ("seat", "origin", "destination", "distance", "ships", "lost", "arrived")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ORIGIN_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    DISTANCE_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    LOST_FIELD_NUMBER: _ClassVar[int]
    ARRIVED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    origin: str
    destination: str
    distance: int
    ships: int
    lost: int
    arrived: int
    def __init__(self, seat: _Optional[int] = ..., origin: _Optional[str] = ..., destination: _Optional[str] = ..., distance: _Optional[int] = ..., ships: _Optional[int] = ..., lost: _Optional[int] = ..., arrived: _Optional[int] = ...) -> None: ...

class RegionExplored(_message.Message):
    __slots__ = ("seat", "region", "sacrificed", "bonus")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    SACRIFICED_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    region: str
    sacrificed: int
    bonus: int
    def __init__(self, seat: _Optional[int] = ..., region: _Optional[str] = ..., sacrificed: _Optional[int] = ..., bonus: _Optional[int] = ...) -> None: ...

class SailingStopped(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ColonizingStopped(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class GoodConsumed(_message.Message):
    __slots__ = ("seat", "good", "removed", "cubes")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    REMOVED_FIELD_NUMBER: _ClassVar[int]
    CUBES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    good: Good
    removed: int
    cubes: int
    def __init__(self, seat: _Optional[int] = ..., good: _Optional[_Union[Good, str]] = ..., removed: _Optional[int] = ..., cubes: _Optional[int] = ...) -> None: ...

class GoodsSold(_message.Message):
    __slots__ = ("seat", "sugar", "gold", "spice", "paid")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    SUGAR_FIELD_NUMBER: _ClassVar[int]
    GOLD_FIELD_NUMBER: _ClassVar[int]
    SPICE_FIELD_NUMBER: _ClassVar[int]
    PAID_FIELD_NUMBER: _ClassVar[int]
    seat: int
    sugar: int
    gold: int
    spice: int
    paid: int
    def __init__(self, seat: _Optional[int] = ..., sugar: _Optional[int] = ..., gold: _Optional[int] = ..., spice: _Optional[int] = ..., paid: _Optional[int] = ...) -> None: ...

class KnightBought(_message.Message):
    __slots__ = ("seat", "price", "workers", "knights", "knights_sold", "next_price", "phase")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_SOLD_FIELD_NUMBER: _ClassVar[int]
    NEXT_PRICE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    price: int
    workers: int
    knights: int
    knights_sold: int
    next_price: int
    phase: int
    def __init__(self, seat: _Optional[int] = ..., price: _Optional[int] = ..., workers: _Optional[int] = ..., knights: _Optional[int] = ..., knights_sold: _Optional[int] = ..., next_price: _Optional[int] = ..., phase: _Optional[int] = ...) -> None: ...

class KnightDeclined(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class IncomeReceived(_message.Message):
    __slots__ = ("seat", "building", "amount")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    AMOUNT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    building: str
    amount: int
    def __init__(self, seat: _Optional[int] = ..., building: _Optional[str] = ..., amount: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("scores", "winners")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ...) -> None: ...

class BuildingPicked(_message.Message):
    __slots__ = ("seat", "building")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BUILDING_FIELD_NUMBER: _ClassVar[int]
    seat: int
    building: str
    def __init__(self, seat: _Optional[int] = ..., building: _Optional[str] = ...) -> None: ...

class FleetOriginPicked(_message.Message):
    __slots__ = ("seat", "region")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    region: str
    def __init__(self, seat: _Optional[int] = ..., region: _Optional[str] = ...) -> None: ...

class FleetDestinationPicked(_message.Message):
    __slots__ = ("seat", "region")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    REGION_FIELD_NUMBER: _ClassVar[int]
    seat: int
    region: str
    def __init__(self, seat: _Optional[int] = ..., region: _Optional[str] = ...) -> None: ...

class ColonyPicked(_message.Message):
    __slots__ = ("seat", "colony")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COLONY_FIELD_NUMBER: _ClassVar[int]
    seat: int
    colony: str
    def __init__(self, seat: _Optional[int] = ..., colony: _Optional[str] = ...) -> None: ...

class SalePicked(_message.Message):
    __slots__ = ("seat", "good", "units")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    GOOD_FIELD_NUMBER: _ClassVar[int]
    UNITS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    good: Good
    units: int
    def __init__(self, seat: _Optional[int] = ..., good: _Optional[_Union[Good, str]] = ..., units: _Optional[int] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("viewer", "step", "active", "to_act", "turn", "start_player", "players", "buildings", "colonies", "regions", "cubes", "knight_phase", "knight_price", "knights_sold", "draft_picks_left", "ships_owed", "destination", "sailing_moved", "explored_this_action", "consumers_left", "displaced_seat", "displaced_workers", "displaced_from", "scores", "winners", "picked_place", "fleet_origin", "fleet_destination", "picked_sales")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    STEP_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    BUILDINGS_FIELD_NUMBER: _ClassVar[int]
    COLONIES_FIELD_NUMBER: _ClassVar[int]
    REGIONS_FIELD_NUMBER: _ClassVar[int]
    CUBES_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_PHASE_FIELD_NUMBER: _ClassVar[int]
    KNIGHT_PRICE_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_SOLD_FIELD_NUMBER: _ClassVar[int]
    DRAFT_PICKS_LEFT_FIELD_NUMBER: _ClassVar[int]
    SHIPS_OWED_FIELD_NUMBER: _ClassVar[int]
    DESTINATION_FIELD_NUMBER: _ClassVar[int]
    SAILING_MOVED_FIELD_NUMBER: _ClassVar[int]
    EXPLORED_THIS_ACTION_FIELD_NUMBER: _ClassVar[int]
    CONSUMERS_LEFT_FIELD_NUMBER: _ClassVar[int]
    DISPLACED_SEAT_FIELD_NUMBER: _ClassVar[int]
    DISPLACED_WORKERS_FIELD_NUMBER: _ClassVar[int]
    DISPLACED_FROM_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    PICKED_PLACE_FIELD_NUMBER: _ClassVar[int]
    FLEET_ORIGIN_FIELD_NUMBER: _ClassVar[int]
    FLEET_DESTINATION_FIELD_NUMBER: _ClassVar[int]
    PICKED_SALES_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    step: Step
    active: int
    to_act: _containers.RepeatedScalarFieldContainer[int]
    turn: int
    start_player: int
    players: _containers.RepeatedCompositeFieldContainer[PlayerView]
    buildings: _containers.RepeatedCompositeFieldContainer[HoldingView]
    colonies: _containers.RepeatedCompositeFieldContainer[HoldingView]
    regions: _containers.RepeatedCompositeFieldContainer[RegionView]
    cubes: _containers.RepeatedScalarFieldContainer[int]
    knight_phase: int
    knight_price: int
    knights_sold: int
    draft_picks_left: int
    ships_owed: int
    destination: Space
    sailing_moved: _containers.RepeatedScalarFieldContainer[int]
    explored_this_action: bool
    consumers_left: int
    displaced_seat: int
    displaced_workers: int
    displaced_from: str
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    picked_place: str
    fleet_origin: str
    fleet_destination: str
    picked_sales: _containers.RepeatedScalarFieldContainer[int]
    def __init__(self, viewer: _Optional[int] = ..., step: _Optional[_Union[Step, str]] = ..., active: _Optional[int] = ..., to_act: _Optional[_Iterable[int]] = ..., turn: _Optional[int] = ..., start_player: _Optional[int] = ..., players: _Optional[_Iterable[_Union[PlayerView, _Mapping]]] = ..., buildings: _Optional[_Iterable[_Union[HoldingView, _Mapping]]] = ..., colonies: _Optional[_Iterable[_Union[HoldingView, _Mapping]]] = ..., regions: _Optional[_Iterable[_Union[RegionView, _Mapping]]] = ..., cubes: _Optional[_Iterable[int]] = ..., knight_phase: _Optional[int] = ..., knight_price: _Optional[int] = ..., knights_sold: _Optional[int] = ..., draft_picks_left: _Optional[int] = ..., ships_owed: _Optional[int] = ..., destination: _Optional[_Union[Space, str]] = ..., sailing_moved: _Optional[_Iterable[int]] = ..., explored_this_action: _Optional[bool] = ..., consumers_left: _Optional[int] = ..., displaced_seat: _Optional[int] = ..., displaced_workers: _Optional[int] = ..., displaced_from: _Optional[str] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., picked_place: _Optional[str] = ..., fleet_origin: _Optional[str] = ..., fleet_destination: _Optional[str] = ..., picked_sales: _Optional[_Iterable[int]] = ...) -> None: ...

class PlayerView(_message.Message):
    __slots__ = ("seat", "colour", "money", "lisbon", "ships", "knights", "rondel", "buildings", "colonies", "tiles", "bonus_sum", "base_points")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COLOUR_FIELD_NUMBER: _ClassVar[int]
    MONEY_FIELD_NUMBER: _ClassVar[int]
    LISBON_FIELD_NUMBER: _ClassVar[int]
    SHIPS_FIELD_NUMBER: _ClassVar[int]
    KNIGHTS_FIELD_NUMBER: _ClassVar[int]
    RONDEL_FIELD_NUMBER: _ClassVar[int]
    BUILDINGS_FIELD_NUMBER: _ClassVar[int]
    COLONIES_FIELD_NUMBER: _ClassVar[int]
    TILES_FIELD_NUMBER: _ClassVar[int]
    BONUS_SUM_FIELD_NUMBER: _ClassVar[int]
    BASE_POINTS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    colour: Colour
    money: int
    lisbon: int
    ships: _containers.RepeatedScalarFieldContainer[int]
    knights: int
    rondel: Space
    buildings: _containers.RepeatedScalarFieldContainer[str]
    colonies: _containers.RepeatedScalarFieldContainer[str]
    tiles: _containers.RepeatedScalarFieldContainer[str]
    bonus_sum: int
    base_points: int
    def __init__(self, seat: _Optional[int] = ..., colour: _Optional[_Union[Colour, str]] = ..., money: _Optional[int] = ..., lisbon: _Optional[int] = ..., ships: _Optional[_Iterable[int]] = ..., knights: _Optional[int] = ..., rondel: _Optional[_Union[Space, str]] = ..., buildings: _Optional[_Iterable[str]] = ..., colonies: _Optional[_Iterable[str]] = ..., tiles: _Optional[_Iterable[str]] = ..., bonus_sum: _Optional[int] = ..., base_points: _Optional[int] = ...) -> None: ...

class HoldingView(_message.Message):
    __slots__ = ("place", "owner", "workers")
    PLACE_FIELD_NUMBER: _ClassVar[int]
    OWNER_FIELD_NUMBER: _ClassVar[int]
    WORKERS_FIELD_NUMBER: _ClassVar[int]
    place: str
    owner: int
    workers: int
    def __init__(self, place: _Optional[str] = ..., owner: _Optional[int] = ..., workers: _Optional[int] = ...) -> None: ...

class RegionView(_message.Message):
    __slots__ = ("region", "explored", "bonus", "tile_owner")
    REGION_FIELD_NUMBER: _ClassVar[int]
    EXPLORED_FIELD_NUMBER: _ClassVar[int]
    BONUS_FIELD_NUMBER: _ClassVar[int]
    TILE_OWNER_FIELD_NUMBER: _ClassVar[int]
    region: str
    explored: bool
    bonus: int
    tile_owner: int
    def __init__(self, region: _Optional[str] = ..., explored: _Optional[bool] = ..., bonus: _Optional[int] = ..., tile_owner: _Optional[int] = ...) -> None: ...
