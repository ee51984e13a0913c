"""What a seat may know (spec §7): an explicit whitelist View; every event is public."""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import lru_cache

from flotilla.rules import Seat

from .cards import CardId, ContractId
from .config import Mode
from .contracts import free_cubes
from .events import Event
from .rules import to_act
from .scoring import result
from .state import (
    Contract,
    Discover,
    Finished,
    Gamester,
    Jinx,
    Repel,
    State,
    TaxOfficer,
    TimeCard,
    Window,
)
from .stats import display_vp, swords
from .tables import rank_title


class PhaseKind(enum.Enum):
    """Which decision the game waits for."""

    DISCOVER = 1
    REPEL = 2
    GAMESTER = 3
    JINX = 4
    TAX_OFFICER = 5
    TIME_CARD = 6
    WINDOW = 7
    FINISHED = 8


@dataclass(frozen=True, slots=True, kw_only=True)
class PhaseView:
    """The pending decision; fields not used by `kind` keep their zero value."""

    kind: PhaseKind
    ship: CardId | None = None
    contract: ContractId | None = None
    seat: Seat | None = None
    allowance: int = 0
    tax: CardId | None = None
    queue: tuple[Seat, ...] = ()
    contract_queue: tuple[ContractId, ...] = ()


@dataclass(frozen=True, slots=True, kw_only=True)
class SeatView:
    """One seat as everybody sees it: coin faces are never shown, only the count."""

    seat: Seat
    display: tuple[CardId, ...]
    coin_count: int
    vp: int
    swords: int
    completed: tuple[ContractId, ...]
    vp_tokens: int
    collection: tuple[CardId, ...]
    free_cubes: int


@dataclass(frozen=True, slots=True, kw_only=True)
class View:
    """Everything public; Port Royal has no card private to one seat (spec §7)."""

    viewer: Seat | None
    mode: Mode
    to_act: tuple[Seat, ...]
    active: Seat
    start_player: Seat
    turn: int
    revealed: int
    base_allowance: int
    phase: PhaseView
    harbor: tuple[CardId, ...]
    expeditions: tuple[CardId, ...]
    discard: tuple[CardId, ...]
    reshuffled: tuple[CardId, ...]
    draw_pile_size: int
    players: tuple[SeatView, ...]
    contracts: tuple[Contract, ...]
    contract_pile_size: int
    time_pile_size: int
    victory_pile_size: int
    end_triggered: bool
    finished: bool
    scores: tuple[int, ...]
    winners: tuple[Seat, ...]
    coop_won: bool | None
    title: str


def phase_view(s: State) -> PhaseView:
    """The pending decision as public data."""
    p = s.phase
    if isinstance(p, Discover):
        return PhaseView(kind=PhaseKind.DISCOVER)
    if isinstance(p, Repel):
        return PhaseView(kind=PhaseKind.REPEL, ship=p.ship)
    if isinstance(p, Gamester):
        return PhaseView(kind=PhaseKind.GAMESTER, contract=p.queue[0], seat=s.active, contract_queue=p.queue)
    if isinstance(p, Jinx):
        return PhaseView(kind=PhaseKind.JINX, contract="C11")
    if isinstance(p, TaxOfficer):
        return PhaseView(kind=PhaseKind.TAX_OFFICER, contract="C03", seat=p.queue[0], tax=p.tax, queue=p.queue)
    if isinstance(p, TimeCard):
        return PhaseView(kind=PhaseKind.TIME_CARD)
    if isinstance(p, Window):
        return PhaseView(kind=PhaseKind.WINDOW, seat=p.seat, allowance=p.allowance)
    return PhaseView(kind=PhaseKind.FINISHED)


@lru_cache(maxsize=4096)  # displays recur (every view of every seat shows each of them)
def _display_stats(display: tuple[CardId, ...]) -> tuple[int, int]:
    """(printed VP, swords) of a personal display."""
    return display_vp(display), swords(display)


def view(s: State, viewer: Seat | None) -> View:
    """What `viewer` (None = spectator) may know."""
    with_contracts = s.config.contracts
    seats = []
    for i, p in enumerate(s.players):
        vp, sw = _display_stats(p.display)
        seats.append(
            SeatView(
                seat=Seat(i),
                display=p.display,
                coin_count=len(p.coins),
                vp=vp + p.tokens,
                swords=sw,
                completed=p.completed,
                vp_tokens=p.tokens,
                collection=p.collection,
                free_cubes=free_cubes(s.contracts, len(p.completed), Seat(i)) if with_contracts else 0,
            )
        )
    players = tuple(seats)
    res = result(s)
    finished = isinstance(s.phase, Finished)
    coop_won = s.phase.coop_won if isinstance(s.phase, Finished) else None
    return View(
        viewer=viewer,
        mode=s.config.mode,
        to_act=tuple(sorted(to_act(s))),
        active=s.active,
        start_player=s.start,
        turn=s.turn,
        revealed=s.revealed,
        base_allowance=s.base_allowance,
        phase=phase_view(s),
        harbor=s.harbor,
        expeditions=s.expeditions,
        discard=s.discard,
        reshuffled=s.reshuffled,
        draw_pile_size=len(s.draw_pile),
        players=players,
        contracts=s.contracts,
        contract_pile_size=len(s.contract_pile),
        time_pile_size=len(s.time_pile),
        victory_pile_size=len(s.victory_pile),
        end_triggered=s.end_triggered,
        finished=finished,
        scores=res.scores if res is not None else (),
        winners=tuple(sorted(res.winners)) if res is not None else (),
        coop_won=coop_won,
        title=rank_title(len(s.victory_pile)) if coop_won else "",
    )


def redact(event: Event, viewer: Seat | None) -> Event | None:
    """Every event is public: none names a face-down card (coin gains carry only a count)."""
    del viewer
    return event
