from google.api import field_behavior_pb2 as _field_behavior_pb2
from google.protobuf.internal import containers as _containers
from google.protobuf.internal import enum_type_wrapper as _enum_type_wrapper
from google.protobuf import descriptor as _descriptor
from google.protobuf import message as _message
from collections.abc import Iterable as _Iterable, Mapping as _Mapping
from typing import ClassVar as _ClassVar, Optional as _Optional, Union as _Union

DESCRIPTOR: _descriptor.FileDescriptor

class Mode(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    MODE_UNSPECIFIED: _ClassVar[Mode]
    MODE_BASE: _ClassVar[Mode]
    MODE_BASE_PLUS: _ClassVar[Mode]
    MODE_CONTRACT_COMP: _ClassVar[Mode]
    MODE_CONTRACT_COOP: _ClassVar[Mode]

class PhaseKind(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    PHASE_KIND_UNSPECIFIED: _ClassVar[PhaseKind]
    PHASE_KIND_DISCOVER: _ClassVar[PhaseKind]
    PHASE_KIND_REPEL: _ClassVar[PhaseKind]
    PHASE_KIND_GAMESTER: _ClassVar[PhaseKind]
    PHASE_KIND_JINX: _ClassVar[PhaseKind]
    PHASE_KIND_TAX_OFFICER: _ClassVar[PhaseKind]
    PHASE_KIND_TIME_CARD: _ClassVar[PhaseKind]
    PHASE_KIND_WINDOW: _ClassVar[PhaseKind]
    PHASE_KIND_FINISHED: _ClassVar[PhaseKind]

class CoinReason(int, metaclass=_enum_type_wrapper.EnumTypeWrapper):
    __slots__ = ()
    COIN_REASON_UNSPECIFIED: _ClassVar[CoinReason]
    COIN_REASON_STARTING: _ClassVar[CoinReason]
    COIN_REASON_SHIP: _ClassVar[CoinReason]
    COIN_REASON_SPECIAL_SHIP: _ClassVar[CoinReason]
    COIN_REASON_ADMIRAL: _ClassVar[CoinReason]
    COIN_REASON_VICE_ADMIRAL: _ClassVar[CoinReason]
    COIN_REASON_GUNNER: _ClassVar[CoinReason]
    COIN_REASON_JESTER: _ClassVar[CoinReason]
    COIN_REASON_TAX_BONUS: _ClassVar[CoinReason]
    COIN_REASON_EXPEDITION: _ClassVar[CoinReason]
    COIN_REASON_CONTRACT: _ClassVar[CoinReason]
    COIN_REASON_HIRE: _ClassVar[CoinReason]
    COIN_REASON_FEE: _ClassVar[CoinReason]
    COIN_REASON_TAX: _ClassVar[CoinReason]
    COIN_REASON_RANSOM: _ClassVar[CoinReason]
MODE_UNSPECIFIED: Mode
MODE_BASE: Mode
MODE_BASE_PLUS: Mode
MODE_CONTRACT_COMP: Mode
MODE_CONTRACT_COOP: Mode
PHASE_KIND_UNSPECIFIED: PhaseKind
PHASE_KIND_DISCOVER: PhaseKind
PHASE_KIND_REPEL: PhaseKind
PHASE_KIND_GAMESTER: PhaseKind
PHASE_KIND_JINX: PhaseKind
PHASE_KIND_TAX_OFFICER: PhaseKind
PHASE_KIND_TIME_CARD: PhaseKind
PHASE_KIND_WINDOW: PhaseKind
PHASE_KIND_FINISHED: PhaseKind
COIN_REASON_UNSPECIFIED: CoinReason
COIN_REASON_STARTING: CoinReason
COIN_REASON_SHIP: CoinReason
COIN_REASON_SPECIAL_SHIP: CoinReason
COIN_REASON_ADMIRAL: CoinReason
COIN_REASON_VICE_ADMIRAL: CoinReason
COIN_REASON_GUNNER: CoinReason
COIN_REASON_JESTER: CoinReason
COIN_REASON_TAX_BONUS: CoinReason
COIN_REASON_EXPEDITION: CoinReason
COIN_REASON_CONTRACT: CoinReason
COIN_REASON_HIRE: CoinReason
COIN_REASON_FEE: CoinReason
COIN_REASON_TAX: CoinReason
COIN_REASON_RANSOM: CoinReason

class Action(_message.Message):
    __slots__ = ("discover_card", "stop_discovering", "repel_ship", "admit_ship", "trade_ship", "hire_person", "fulfill_expedition", "complete_contract", "decline_contract", "move_time_card", "keep_time_card")
    DISCOVER_CARD_FIELD_NUMBER: _ClassVar[int]
    STOP_DISCOVERING_FIELD_NUMBER: _ClassVar[int]
    REPEL_SHIP_FIELD_NUMBER: _ClassVar[int]
    ADMIT_SHIP_FIELD_NUMBER: _ClassVar[int]
    TRADE_SHIP_FIELD_NUMBER: _ClassVar[int]
    HIRE_PERSON_FIELD_NUMBER: _ClassVar[int]
    FULFILL_EXPEDITION_FIELD_NUMBER: _ClassVar[int]
    COMPLETE_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    DECLINE_CONTRACT_FIELD_NUMBER: _ClassVar[int]
    MOVE_TIME_CARD_FIELD_NUMBER: _ClassVar[int]
    KEEP_TIME_CARD_FIELD_NUMBER: _ClassVar[int]
    PASS_FIELD_NUMBER: _ClassVar[int]
    discover_card: DiscoverCard
    stop_discovering: StopDiscovering
    repel_ship: RepelShip
    admit_ship: AdmitShip
    trade_ship: TradeShip
    hire_person: HirePerson
    fulfill_expedition: FulfillExpedition
    complete_contract: CompleteContract
    decline_contract: DeclineContract
    move_time_card: MoveTimeCard
    keep_time_card: KeepTimeCard
    def __init__(self, discover_card: _Optional[_Union[DiscoverCard, _Mapping]] = ..., stop_discovering: _Optional[_Union[StopDiscovering, _Mapping]] = ..., repel_ship: _Optional[_Union[RepelShip, _Mapping]] = ..., admit_ship: _Optional[_Union[AdmitShip, _Mapping]] = ..., trade_ship: _Optional[_Union[TradeShip, _Mapping]] = ..., hire_person: _Optional[_Union[HirePerson, _Mapping]] = ..., fulfill_expedition: _Optional[_Union[FulfillExpedition, _Mapping]] = ..., complete_contract: _Optional[_Union[CompleteContract, _Mapping]] = ..., decline_contract: _Optional[_Union[DeclineContract, _Mapping]] = ..., move_time_card: _Optional[_Union[MoveTimeCard, _Mapping]] = ..., keep_time_card: _Optional[_Union[KeepTimeCard, _Mapping]] = ..., **kwargs) -> None: ...

class DiscoverCard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class StopDiscovering(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class RepelShip(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class AdmitShip(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class TradeShip(_message.Message):
    __slots__ = ("card", "gift_to", "refuse_coins")
    CARD_FIELD_NUMBER: _ClassVar[int]
    GIFT_TO_FIELD_NUMBER: _ClassVar[int]
    REFUSE_COINS_FIELD_NUMBER: _ClassVar[int]
    card: str
    gift_to: int
    refuse_coins: bool
    def __init__(self, card: _Optional[str] = ..., gift_to: _Optional[int] = ..., refuse_coins: _Optional[bool] = ...) -> None: ...

class HirePerson(_message.Message):
    __slots__ = ("card",)
    CARD_FIELD_NUMBER: _ClassVar[int]
    card: str
    def __init__(self, card: _Optional[str] = ...) -> None: ...

class FulfillExpedition(_message.Message):
    __slots__ = ("expedition", "persons")
    EXPEDITION_FIELD_NUMBER: _ClassVar[int]
    PERSONS_FIELD_NUMBER: _ClassVar[int]
    expedition: str
    persons: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, expedition: _Optional[str] = ..., persons: _Optional[_Iterable[str]] = ...) -> None: ...

class CompleteContract(_message.Message):
    __slots__ = ("contract",)
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    contract: str
    def __init__(self, contract: _Optional[str] = ...) -> None: ...

class DeclineContract(_message.Message):
    __slots__ = ("contract",)
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    contract: str
    def __init__(self, contract: _Optional[str] = ...) -> None: ...

class MoveTimeCard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class KeepTimeCard(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Pass(_message.Message):
    __slots__ = ()
    def __init__(self) -> None: ...

class Event(_message.Message):
    __slots__ = ("turn_started", "card_revealed", "ship_docked", "ship_repelled", "harbor_busted", "coins_gained", "coins_paid", "draw_pile_reshuffled", "discover_stopped", "window_opened", "window_closed", "ship_traded", "person_hired", "expedition_fulfilled", "contract_completed", "contract_prepared", "contract_declined", "collection_discarded", "harbor_cleared", "time_card_moved", "end_triggered", "game_ended")
    TURN_STARTED_FIELD_NUMBER: _ClassVar[int]
    CARD_REVEALED_FIELD_NUMBER: _ClassVar[int]
    SHIP_DOCKED_FIELD_NUMBER: _ClassVar[int]
    SHIP_REPELLED_FIELD_NUMBER: _ClassVar[int]
    HARBOR_BUSTED_FIELD_NUMBER: _ClassVar[int]
    COINS_GAINED_FIELD_NUMBER: _ClassVar[int]
    COINS_PAID_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    DISCOVER_STOPPED_FIELD_NUMBER: _ClassVar[int]
    WINDOW_OPENED_FIELD_NUMBER: _ClassVar[int]
    WINDOW_CLOSED_FIELD_NUMBER: _ClassVar[int]
    SHIP_TRADED_FIELD_NUMBER: _ClassVar[int]
    PERSON_HIRED_FIELD_NUMBER: _ClassVar[int]
    EXPEDITION_FULFILLED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_COMPLETED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_PREPARED_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_DECLINED_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_DISCARDED_FIELD_NUMBER: _ClassVar[int]
    HARBOR_CLEARED_FIELD_NUMBER: _ClassVar[int]
    TIME_CARD_MOVED_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    GAME_ENDED_FIELD_NUMBER: _ClassVar[int]
    turn_started: TurnStarted
    card_revealed: CardRevealed
    ship_docked: ShipDocked
    ship_repelled: ShipRepelled
    harbor_busted: HarborBusted
    coins_gained: CoinsGained
    coins_paid: CoinsPaid
    draw_pile_reshuffled: DrawPileReshuffled
    discover_stopped: DiscoverStopped
    window_opened: WindowOpened
    window_closed: WindowClosed
    ship_traded: ShipTraded
    person_hired: PersonHired
    expedition_fulfilled: ExpeditionFulfilled
    contract_completed: ContractCompleted
    contract_prepared: ContractPrepared
    contract_declined: ContractDeclined
    collection_discarded: CollectionDiscarded
    harbor_cleared: HarborCleared
    time_card_moved: TimeCardMoved
    end_triggered: EndTriggered
    game_ended: GameEnded
    def __init__(self, turn_started: _Optional[_Union[TurnStarted, _Mapping]] = ..., card_revealed: _Optional[_Union[CardRevealed, _Mapping]] = ..., ship_docked: _Optional[_Union[ShipDocked, _Mapping]] = ..., ship_repelled: _Optional[_Union[ShipRepelled, _Mapping]] = ..., harbor_busted: _Optional[_Union[HarborBusted, _Mapping]] = ..., coins_gained: _Optional[_Union[CoinsGained, _Mapping]] = ..., coins_paid: _Optional[_Union[CoinsPaid, _Mapping]] = ..., draw_pile_reshuffled: _Optional[_Union[DrawPileReshuffled, _Mapping]] = ..., discover_stopped: _Optional[_Union[DiscoverStopped, _Mapping]] = ..., window_opened: _Optional[_Union[WindowOpened, _Mapping]] = ..., window_closed: _Optional[_Union[WindowClosed, _Mapping]] = ..., ship_traded: _Optional[_Union[ShipTraded, _Mapping]] = ..., person_hired: _Optional[_Union[PersonHired, _Mapping]] = ..., expedition_fulfilled: _Optional[_Union[ExpeditionFulfilled, _Mapping]] = ..., contract_completed: _Optional[_Union[ContractCompleted, _Mapping]] = ..., contract_prepared: _Optional[_Union[ContractPrepared, _Mapping]] = ..., contract_declined: _Optional[_Union[ContractDeclined, _Mapping]] = ..., collection_discarded: _Optional[_Union[CollectionDiscarded, _Mapping]] = ..., harbor_cleared: _Optional[_Union[HarborCleared, _Mapping]] = ..., time_card_moved: _Optional[_Union[TimeCardMoved, _Mapping]] = ..., end_triggered: _Optional[_Union[EndTriggered, _Mapping]] = ..., game_ended: _Optional[_Union[GameEnded, _Mapping]] = ...) -> None: ...

class TurnStarted(_message.Message):
    __slots__ = ("seat", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...

class CardRevealed(_message.Message):
    __slots__ = ("seat", "card", "from_time_pile")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    FROM_TIME_PILE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    from_time_pile: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., from_time_pile: _Optional[bool] = ...) -> None: ...

class ShipDocked(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class ShipRepelled(_message.Message):
    __slots__ = ("seat", "card", "collected")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    COLLECTED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    collected: bool
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., collected: _Optional[bool] = ...) -> None: ...

class HarborBusted(_message.Message):
    __slots__ = ("seat", "card")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ...) -> None: ...

class CoinsGained(_message.Message):
    __slots__ = ("seat", "count", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    reason: CoinReason
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., reason: _Optional[_Union[CoinReason, str]] = ...) -> None: ...

class CoinsPaid(_message.Message):
    __slots__ = ("seat", "count", "to_seat", "cards", "reason")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    COUNT_FIELD_NUMBER: _ClassVar[int]
    TO_SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    REASON_FIELD_NUMBER: _ClassVar[int]
    seat: int
    count: int
    to_seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    reason: CoinReason
    def __init__(self, seat: _Optional[int] = ..., count: _Optional[int] = ..., to_seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ..., reason: _Optional[_Union[CoinReason, str]] = ...) -> None: ...

class DrawPileReshuffled(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: int
    def __init__(self, cards: _Optional[int] = ...) -> None: ...

class DiscoverStopped(_message.Message):
    __slots__ = ("seat", "base_allowance")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BASE_ALLOWANCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    base_allowance: int
    def __init__(self, seat: _Optional[int] = ..., base_allowance: _Optional[int] = ...) -> None: ...

class WindowOpened(_message.Message):
    __slots__ = ("seat", "allowance")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ALLOWANCE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    allowance: int
    def __init__(self, seat: _Optional[int] = ..., allowance: _Optional[int] = ...) -> None: ...

class WindowClosed(_message.Message):
    __slots__ = ("seat",)
    SEAT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    def __init__(self, seat: _Optional[int] = ...) -> None: ...

class ShipTraded(_message.Message):
    __slots__ = ("seat", "card", "refused", "gift_to")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    REFUSED_FIELD_NUMBER: _ClassVar[int]
    GIFT_TO_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    refused: bool
    gift_to: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., refused: _Optional[bool] = ..., gift_to: _Optional[int] = ...) -> None: ...

class PersonHired(_message.Message):
    __slots__ = ("seat", "card", "price")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARD_FIELD_NUMBER: _ClassVar[int]
    PRICE_FIELD_NUMBER: _ClassVar[int]
    seat: int
    card: str
    price: int
    def __init__(self, seat: _Optional[int] = ..., card: _Optional[str] = ..., price: _Optional[int] = ...) -> None: ...

class ExpeditionFulfilled(_message.Message):
    __slots__ = ("seat", "expedition", "persons")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    EXPEDITION_FIELD_NUMBER: _ClassVar[int]
    PERSONS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    expedition: str
    persons: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., expedition: _Optional[str] = ..., persons: _Optional[_Iterable[str]] = ...) -> None: ...

class ContractCompleted(_message.Message):
    __slots__ = ("seat", "contract", "slot", "coins", "vp_tokens")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    SLOT_FIELD_NUMBER: _ClassVar[int]
    COINS_FIELD_NUMBER: _ClassVar[int]
    VP_TOKENS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    slot: int
    coins: int
    vp_tokens: int
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ..., slot: _Optional[int] = ..., coins: _Optional[int] = ..., vp_tokens: _Optional[int] = ...) -> None: ...

class ContractPrepared(_message.Message):
    __slots__ = ("seat", "contract", "box")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    BOX_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    box: int
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ..., box: _Optional[int] = ...) -> None: ...

class ContractDeclined(_message.Message):
    __slots__ = ("seat", "contract")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    seat: int
    contract: str
    def __init__(self, seat: _Optional[int] = ..., contract: _Optional[str] = ...) -> None: ...

class CollectionDiscarded(_message.Message):
    __slots__ = ("seat", "cards")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    CARDS_FIELD_NUMBER: _ClassVar[int]
    seat: int
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, seat: _Optional[int] = ..., cards: _Optional[_Iterable[str]] = ...) -> None: ...

class HarborCleared(_message.Message):
    __slots__ = ("cards",)
    CARDS_FIELD_NUMBER: _ClassVar[int]
    cards: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, cards: _Optional[_Iterable[str]] = ...) -> None: ...

class TimeCardMoved(_message.Message):
    __slots__ = ("seat", "moved")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    MOVED_FIELD_NUMBER: _ClassVar[int]
    seat: int
    moved: bool
    def __init__(self, seat: _Optional[int] = ..., moved: _Optional[bool] = ...) -> None: ...

class EndTriggered(_message.Message):
    __slots__ = ("seat", "vp")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    seat: int
    vp: int
    def __init__(self, seat: _Optional[int] = ..., vp: _Optional[int] = ...) -> None: ...

class GameEnded(_message.Message):
    __slots__ = ("scores", "winners", "coop_won", "title")
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    COOP_WON_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    coop_won: bool
    title: str
    def __init__(self, scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., coop_won: _Optional[bool] = ..., title: _Optional[str] = ...) -> None: ...

class View(_message.Message):
    __slots__ = ("viewer", "mode", "to_act", "active", "start_player", "turn", "revealed", "base_allowance", "phase", "harbor", "expeditions", "discard", "draw_pile_size", "players", "contracts", "contract_pile_size", "time_pile_size", "victory_pile_size", "end_triggered", "finished", "scores", "winners", "coop_won", "title", "reshuffled")
    VIEWER_FIELD_NUMBER: _ClassVar[int]
    MODE_FIELD_NUMBER: _ClassVar[int]
    TO_ACT_FIELD_NUMBER: _ClassVar[int]
    ACTIVE_FIELD_NUMBER: _ClassVar[int]
    START_PLAYER_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    REVEALED_FIELD_NUMBER: _ClassVar[int]
    BASE_ALLOWANCE_FIELD_NUMBER: _ClassVar[int]
    PHASE_FIELD_NUMBER: _ClassVar[int]
    HARBOR_FIELD_NUMBER: _ClassVar[int]
    EXPEDITIONS_FIELD_NUMBER: _ClassVar[int]
    DISCARD_FIELD_NUMBER: _ClassVar[int]
    DRAW_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    PLAYERS_FIELD_NUMBER: _ClassVar[int]
    CONTRACTS_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    TIME_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    VICTORY_PILE_SIZE_FIELD_NUMBER: _ClassVar[int]
    END_TRIGGERED_FIELD_NUMBER: _ClassVar[int]
    FINISHED_FIELD_NUMBER: _ClassVar[int]
    SCORES_FIELD_NUMBER: _ClassVar[int]
    WINNERS_FIELD_NUMBER: _ClassVar[int]
    COOP_WON_FIELD_NUMBER: _ClassVar[int]
    TITLE_FIELD_NUMBER: _ClassVar[int]
    RESHUFFLED_FIELD_NUMBER: _ClassVar[int]
    viewer: int
    mode: Mode
    to_act: _containers.RepeatedScalarFieldContainer[int]
    active: int
    start_player: int
    turn: int
    revealed: int
    base_allowance: int
    phase: PhaseView
    harbor: _containers.RepeatedScalarFieldContainer[str]
    expeditions: _containers.RepeatedScalarFieldContainer[str]
    discard: _containers.RepeatedScalarFieldContainer[str]
    draw_pile_size: int
    players: _containers.RepeatedCompositeFieldContainer[SeatView]
    contracts: _containers.RepeatedCompositeFieldContainer[Contract]
    contract_pile_size: int
    time_pile_size: int
    victory_pile_size: int
    end_triggered: bool
    finished: bool
    scores: _containers.RepeatedScalarFieldContainer[int]
    winners: _containers.RepeatedScalarFieldContainer[int]
    coop_won: bool
    title: str
    reshuffled: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, viewer: _Optional[int] = ..., mode: _Optional[_Union[Mode, str]] = ..., to_act: _Optional[_Iterable[int]] = ..., active: _Optional[int] = ..., start_player: _Optional[int] = ..., turn: _Optional[int] = ..., revealed: _Optional[int] = ..., base_allowance: _Optional[int] = ..., phase: _Optional[_Union[PhaseView, _Mapping]] = ..., harbor: _Optional[_Iterable[str]] = ..., expeditions: _Optional[_Iterable[str]] = ..., discard: _Optional[_Iterable[str]] = ..., draw_pile_size: _Optional[int] = ..., players: _Optional[_Iterable[_Union[SeatView, _Mapping]]] = ..., contracts: _Optional[_Iterable[_Union[Contract, _Mapping]]] = ..., contract_pile_size: _Optional[int] = ..., time_pile_size: _Optional[int] = ..., victory_pile_size: _Optional[int] = ..., end_triggered: _Optional[bool] = ..., finished: _Optional[bool] = ..., scores: _Optional[_Iterable[int]] = ..., winners: _Optional[_Iterable[int]] = ..., coop_won: _Optional[bool] = ..., title: _Optional[str] = ..., reshuffled: _Optional[_Iterable[str]] = ...) -> None: ...

class PhaseView(_message.Message):
    __slots__ = ("kind", "ship", "contract", "seat", "allowance", "tax", "queue", "contract_queue")
    KIND_FIELD_NUMBER: _ClassVar[int]
    SHIP_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    SEAT_FIELD_NUMBER: _ClassVar[int]
    ALLOWANCE_FIELD_NUMBER: _ClassVar[int]
    TAX_FIELD_NUMBER: _ClassVar[int]
    QUEUE_FIELD_NUMBER: _ClassVar[int]
    CONTRACT_QUEUE_FIELD_NUMBER: _ClassVar[int]
    kind: PhaseKind
    ship: str
    contract: str
    seat: int
    allowance: int
    tax: str
    queue: _containers.RepeatedScalarFieldContainer[int]
    contract_queue: _containers.RepeatedScalarFieldContainer[str]
    def __init__(self, kind: _Optional[_Union[PhaseKind, str]] = ..., ship: _Optional[str] = ..., contract: _Optional[str] = ..., seat: _Optional[int] = ..., allowance: _Optional[int] = ..., tax: _Optional[str] = ..., queue: _Optional[_Iterable[int]] = ..., contract_queue: _Optional[_Iterable[str]] = ...) -> None: ...

class SeatView(_message.Message):
    __slots__ = ("seat", "display", "coin_count", "vp", "swords", "completed", "vp_tokens", "collection", "free_cubes")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    DISPLAY_FIELD_NUMBER: _ClassVar[int]
    COIN_COUNT_FIELD_NUMBER: _ClassVar[int]
    VP_FIELD_NUMBER: _ClassVar[int]
    SWORDS_FIELD_NUMBER: _ClassVar[int]
    COMPLETED_FIELD_NUMBER: _ClassVar[int]
    VP_TOKENS_FIELD_NUMBER: _ClassVar[int]
    COLLECTION_FIELD_NUMBER: _ClassVar[int]
    FREE_CUBES_FIELD_NUMBER: _ClassVar[int]
    seat: int
    display: _containers.RepeatedScalarFieldContainer[str]
    coin_count: int
    vp: int
    swords: int
    completed: _containers.RepeatedScalarFieldContainer[str]
    vp_tokens: int
    collection: _containers.RepeatedScalarFieldContainer[str]
    free_cubes: int
    def __init__(self, seat: _Optional[int] = ..., display: _Optional[_Iterable[str]] = ..., coin_count: _Optional[int] = ..., vp: _Optional[int] = ..., swords: _Optional[int] = ..., completed: _Optional[_Iterable[str]] = ..., vp_tokens: _Optional[int] = ..., collection: _Optional[_Iterable[str]] = ..., free_cubes: _Optional[int] = ...) -> None: ...

class Contract(_message.Message):
    __slots__ = ("contract", "slots", "boxes")
    CONTRACT_FIELD_NUMBER: _ClassVar[int]
    SLOTS_FIELD_NUMBER: _ClassVar[int]
    BOXES_FIELD_NUMBER: _ClassVar[int]
    contract: str
    slots: _containers.RepeatedScalarFieldContainer[int]
    boxes: _containers.RepeatedCompositeFieldContainer[PrepCube]
    def __init__(self, contract: _Optional[str] = ..., slots: _Optional[_Iterable[int]] = ..., boxes: _Optional[_Iterable[_Union[PrepCube, _Mapping]]] = ...) -> None: ...

class PrepCube(_message.Message):
    __slots__ = ("seat", "box", "turn")
    SEAT_FIELD_NUMBER: _ClassVar[int]
    BOX_FIELD_NUMBER: _ClassVar[int]
    TURN_FIELD_NUMBER: _ClassVar[int]
    seat: int
    box: int
    turn: int
    def __init__(self, seat: _Optional[int] = ..., box: _Optional[int] = ..., turn: _Optional[int] = ...) -> None: ...
