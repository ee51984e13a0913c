"""Dispatch of Sail Away: who acts, what is legal, applying an action, timeout defaults.

The placement step and every out-of-turn decision are a loop of single actions (SR26). A
stack of tasks in the state (`State.tasks`) holds island resolutions, launches and
pirate-card choices in progress; `_advance` runs every forced step until a seat must decide.

Rulings of this implementation where the spec is silent (SA-Rn; the spec's own are SRn):

* SA-R1 Round cap: the rules have no end when nobody launches ships. The game also ends
  after the turn that completes round `Config.max_rounds` (default `tables.MAX_ROUNDS` = 50,
  [designed]; each seat has then had that many turns) unless the end was already triggered,
  in which case the final turns are played out. Scoring is unchanged.
* SA-R2 Forced decisions are applied automatically and reported as events: a ransom the
  payer cannot afford is refused (SD7), a crate with no matching ship space is sold (SD8), a
  launch with one free slot or none (SD10) or one market ship or none (SD11) needs no answer.
* SA-R3 Crate check (SD2): only the active seat's own crates on its own ships may be taken
  (a crate moved there by Forced Sale keeps its owner, SR21).
* SA-R4 SD9 is asked for the ships that received a crate in the resolution and are then
  launchable but not full; any launchable ship can still be launched in its owner's step.
* SA-R5 A crate placed with L2 is not a placement: it neither counts toward the limit nor
  satisfies the minimum placement (SR23).
* SA-R6 Forced Sale (PA1) needs 1 coin; it may take any standard crate (whoever owns it)
  from another seat's ship, onto any empty same-resource space (coin spaces too) of the
  active seat's ships. Smuggled Goods (PA2) may likewise fill a coin space.
* SA-R7 Ability actions (slot or Dirty Deeds) are offered only when they change something:
  L2 needs a crate and an empty ship space, L3 an open island, L4 a crate on a card, L5 a
  non-empty reserve. L1 is always possible; several L1 uses add up.
* SA-R8 A pirate crate goes on the lowest free space of a pirate card; retrieving (SD5) or
  releasing (L4) takes that owner's crate from the highest space it holds.
* SA-R9 One-time card effects with choices (PA1-PA4) are answered at once, before any other
  action (SD6); a card whose effect has no legal target is skipped (SR16).
* SA-R10 Islands cannot run out: 13 cards, at most 5 face up, and a resolved island is
  discarded before its replacement is drawn. Market positions can stay empty (SR11).
* SA-R11 SD1 is answered ship by ship (`PickShip`, positions in the order picked; each pick
  is seen by its seat only) or at once (`KeepShips`, the picks so far first): a prompt lists the
  unpicked ships and the SD1 default, which stands for every full answer (not 120 triples). The
  answer stays secret (`ShipsKept` is blanked for others) until every seat has answered.
* SA-R12 Only a full ship launches by itself when L2, Forced Sale or Smuggled Goods fill a
  space; a ship made launchable but not full can be launched later as a free action.
* SA-R13 An ability is ready from the owner's first turn that starts after the launch
  (`LaunchedShip.turn` < the current turn number), which is SR9/SR25 for every case.
"""

from __future__ import annotations

from flotilla.rules import GameFinished, IllegalAction, InvalidAction, NotYourTurn, Seat, Transition
from flotilla.rules.evolve import evolve

from . import abilities, launch, pirates, placement, resolution, setup, turns
from .actions import (
    ACTION_TYPES,
    Action,
    ChooseSlot,
    ClaimIsland,
    CoverCrate,
    DirectLoad,
    EndPlacement,
    ForceSale,
    KeepShips,
    LaunchShip,
    LoadCrate,
    PickShip,
    PlaceCrate,
    PlaceOnPirateCard,
    ReleaseCrate,
    RetrieveCrate,
    SmuggleCrate,
    TakeCrateFromShip,
    TakeReserve,
    UseExtraCrate,
)
from .board import EventList
from .cards import ISLANDS, PIRATE_ACTIONS, SHIPS
from .events import Event
from .state import Launching, Phase, Resolution, State, Task

_ACTION_SET = frozenset(ACTION_TYPES)
_ABILITY_TYPES = (UseExtraCrate, DirectLoad, ClaimIsland, ReleaseCrate, TakeReserve)


def _task_seat(s: State, task: Task) -> Seat:
    if isinstance(task, Resolution):
        return resolution.waiting_seat(s, task)
    if isinstance(task, Launching):
        return task.owner
    return s.active


def to_act(s: State) -> frozenset[Seat]:
    """Every seat that must decide now (all unanswered seats during SD1)."""
    phase = s.phase
    if phase is Phase.FINISHED:
        return frozenset()
    if phase is Phase.CHOOSE_SHIPS:
        return setup.choosers(s)
    if s.tasks:
        return frozenset((_task_seat(s, s.tasks[0]),))
    return frozenset((s.active,))


def _placement_options(s: State, seat: Seat) -> list[Action]:
    places = placement.targets(s)
    out = list(places)
    ready = abilities.ready_abilities(s, seat)
    if ready:
        out.extend(abilities.options(s, seat, ready))
    out.extend(placement.retrieve_options(s))
    out.extend(placement.launch_options(s))
    if s.placed > 0 or not places:  # placement.can_end, without computing the targets twice
        out.append(EndPlacement())
    return out


def _options(s: State, seat: Seat) -> list[Action]:
    phase = s.phase
    if phase is Phase.CHOOSE_SHIPS:
        return setup.options(s, seat)
    if s.tasks:
        task = s.tasks[0]
        if isinstance(task, Resolution):
            return resolution.options(s, task)
        if isinstance(task, Launching):
            return launch.options(s, task)
        return pirates.options(s, seat, task.card)
    if phase is Phase.CRATE_CHECK:
        return turns.crate_check_options(s)
    return _placement_options(s, seat)


def legal_actions(s: State, seat: Seat) -> tuple[Action, ...]:
    """Exactly the actions `apply` accepts for `seat` now, in a stable order."""
    if seat not in to_act(s):
        return ()
    return tuple(_options(s, seat))


def default_action(s: State, seat: Seat) -> Action:
    """The spec's timeout default for `seat` (§5)."""
    if s.phase is Phase.CHOOSE_SHIPS:
        return setup.default_keep(s, seat)
    if s.tasks:
        task = s.tasks[0]
        if isinstance(task, Resolution):
            return resolution.default(s, task)
        if isinstance(task, Launching):
            return launch.options(s, task)[0]
        return pirates.options(s, seat, task.card)[0]
    if s.phase is Phase.CRATE_CHECK:
        return turns.crate_check_options(s)[0]
    return placement.default(s)


def _check_space(card_spaces: int, space: object, what: str) -> None:
    if not _is_int(space) or not 0 <= space < card_spaces:  # type: ignore[operator]
        msg = f"{what} has no space {space!r} (spaces count from 0)"
        raise InvalidAction(msg)


def _check_ids(action: Action, seats: int) -> None:
    """InvalidAction for an unknown action type, card id, space number, seat or slot."""
    if type(action) not in _ACTION_SET:
        raise InvalidAction(f"{type(action).__name__} is not a Sail Away action")
    for name in ("island", "ship", "from_ship", "to_ship", "card"):
        value = getattr(action, name, None)
        if value is None:
            continue
        table: object = ISLANDS if name == "island" else PIRATE_ACTIONS if name == "card" else SHIPS
        if not isinstance(value, str) or value not in table:  # type: ignore[operator]
            raise InvalidAction(f"unknown {name} id {value!r}", field=name)
    if isinstance(action, PlaceCrate | CoverCrate):
        _check_space(len(ISLANDS[action.island].spaces), action.space, action.island)
    elif isinstance(action, SmuggleCrate):
        _check_space(len(ISLANDS[action.island].spaces), action.space, action.island)
        _check_space(len(SHIPS[action.ship].spaces), action.ship_space, action.ship)
    elif isinstance(action, DirectLoad | LoadCrate | TakeCrateFromShip):
        _check_space(len(SHIPS[action.ship].spaces), action.space, action.ship)
    elif isinstance(action, ForceSale):
        _check_space(len(SHIPS[action.from_ship].spaces), action.from_space, action.from_ship)
        _check_space(len(SHIPS[action.to_ship].spaces), action.to_space, action.to_ship)
    elif isinstance(action, ReleaseCrate) and not (_is_int(action.owner) and 0 <= action.owner < seats):
        raise InvalidAction(f"no seat {action.owner!r}", field="owner")
    elif isinstance(action, ChooseSlot) and not (_is_int(action.slot) and 1 <= action.slot <= 5):
        raise InvalidAction(f"slots are 1-5, not {action.slot!r}", field="slot")
    elif isinstance(action, KeepShips) and not _ship_ids(action.ships):
        raise InvalidAction("KeepShips names an unknown ship", field="ships")
    elif isinstance(action, PickShip) and not _ship_ids((action.ship,)):
        raise InvalidAction("PickShip names an unknown ship", field="ship")
    if hasattr(action, "pirate") and type(action.pirate) is not bool:
        raise InvalidAction("pirate must be true or false", field="pirate")


def _is_int(value: object) -> bool:
    return type(value) is int


def _ship_ids(value: object) -> bool:
    return isinstance(value, tuple) and all(isinstance(c, str) and c in SHIPS for c in value)


def _placement(s: State, seat: Seat, action: Action, ev: EventList) -> State:
    if isinstance(action, PlaceCrate):
        return placement.place(s, action, ev)
    if isinstance(action, CoverCrate):
        return placement.cover(s, action, ev)
    if isinstance(action, PlaceOnPirateCard):
        return placement.place_on_card(s, action, ev)
    if isinstance(action, EndPlacement):
        return placement.end(s, action, ev)
    if isinstance(action, RetrieveCrate):
        return placement.retrieve(s, action, ev)
    if isinstance(action, LaunchShip):
        return placement.launch(s, action, ev)
    if isinstance(action, _ABILITY_TYPES):
        ability = abilities.ABILITY_OF[type(action)]
        if ability not in abilities.ready_abilities(s, seat):
            msg = f"launch ability L{int(ability)} is not ready (no unused ship launched before this turn)"
            raise IllegalAction(msg, ability=str(int(ability)))
        if action not in abilities.options(s, seat, {ability}):
            raise IllegalAction(f"{type(action).__name__} has no legal effect with these parameters now")
        return abilities.use(s, seat, action, False, ev)
    raise IllegalAction(f"{type(action).__name__} is not possible in your placement step")


def _dispatch(s: State, seat: Seat, action: Action, ev: EventList) -> State:
    phase = s.phase
    if phase is Phase.CHOOSE_SHIPS:
        if isinstance(action, PickShip):
            return setup.pick(s, seat, action, ev)
        if not isinstance(action, KeepShips):
            raise IllegalAction("choose the 3 ships to keep first (PickShip or KeepShips)")
        return setup.keep(s, seat, action, ev)
    if s.tasks:
        task = s.tasks[0]
        if isinstance(task, Resolution):
            return resolution.decide(s, task, action, ev)
        if isinstance(task, Launching):
            return launch.choose(s, task, action, ev)
        return pirates.resolve(s, seat, task, action, ev)
    if phase is Phase.CRATE_CHECK:
        if not isinstance(action, TakeCrateFromShip):
            raise IllegalAction("your supply is empty: take a crate from one of your ships (TakeCrateFromShip)")
        return turns.take_crate(s, action, ev)
    return _placement(s, seat, action, ev)


def _advance(s: State, ev: EventList) -> State:
    """Run forced steps (resolutions, launches, end of turn) until a seat must decide."""
    while True:
        if s.tasks:
            head = s.tasks[0]
            if isinstance(head, Resolution):
                nxt = resolution.step(s, head, ev)
            elif isinstance(head, Launching):
                nxt = launch.step(s, head, ev)
            else:
                return s
            if nxt is None:
                return s
            s = nxt
            continue
        phase = s.phase
        if phase is Phase.RESOLVING:
            if s.claims:
                task = Resolution(s.claims[0], s.active, posted=True)
                s = evolve(s, tasks=(task,), claims=s.claims[1:])
                continue
            s = turns.end_turn(s, ev)
            continue
        if phase is Phase.CHOOSE_SHIPS and not setup.choosers(s):
            s = turns.start_turn(s, s.start_player, ev)
            continue
        return s


def apply(s: State, seat: Seat, action: Action) -> Transition[State, Event]:
    """Apply `seat`'s action; never mutates `s`; raises a RulesError instead of guessing."""
    if s.phase is Phase.FINISHED:
        raise GameFinished("the game is over")
    if seat not in to_act(s):
        raise NotYourTurn(f"seat {seat} may not act now; waiting for {sorted(to_act(s))}", seat=str(seat))
    _check_ids(action, len(s.players))
    ev: EventList = []
    s = _dispatch(s, seat, action, ev)
    s = _advance(s, ev)
    return Transition(s, tuple(ev))
