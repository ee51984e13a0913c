"""Rules version 2: D5 (Buildings), D6 (Sailing), D7 (Colony) and D9 (Sales) asked step by step (issue 13).

Version 1 asks each of these as one choice among every combination (up to 188 `PlaceOnBuilding`,
56 `SailFleet`, 30 `PlaceOnColony`, (sugar+1) x (gold+1) x (spice+1) `SellGoods`). Version 2 asks
the same choices in steps a UI can present:

* D5: `PickBuilding`, then `PlaceOnBuilding` on that building (how many workers);
* D6, each fleet: `PickFleetOrigin`, then `PickFleetDestination`, then `SailFleet` between them
  (how many ships);
* D7, each placement: `PickColony`, then `PlaceOnColony` on that colony (how many workers);
* D9, per good the seat may sell (sugar, gold, spice, in that order; goods it may not sell are
  skipped): `PickSale` (how many units), the last such good by `SellGoods` itself, which repeats
  the picked units (spec 4.7: "for each good, the player chooses how many units").

A pick is public (an event) and cannot be taken back, but the action's way out (`DeclineBuilding`,
`StopSailing`, `StopColonizing`, `SellGoods(0, 0, 0)`, also the timer default) stays legal at every step, so the choices
that end the action are exactly version 1's. Every step offers exactly what version 1 would allow
(the lists are filtered from version 1's `legal_actions`), and the final step applies version 1's
action, so every version 1 choice is reached stepwise and nothing else is. The one-shot actions
without their picks are refused: that is why this is a new rules version (stored version 1 logs
replay under version 1 only).
"""

from __future__ import annotations

from flotilla.rules import IllegalAction, InvalidAction, Seat, Transition
from flotilla.rules.evolve import evolve

from . import ids, market, placement, rules, sailing
from .actions import (
    Action,
    PickBuilding,
    PickColony,
    PickFleetDestination,
    PickFleetOrigin,
    PickSale,
    PlaceOnBuilding,
    PlaceOnColony,
    SailFleet,
    SellGoods,
)
from .events import BuildingPicked, ColonyPicked, Event, FleetDestinationPicked, FleetOriginPicked, SalePicked
from .state import Buildings, Colonies, Sailing, Sell, State
from .tables import GOODS, REGION_IDS, Good


def legal_actions(state: State, seat: Seat) -> tuple[Action, ...]:
    """Version 1's legal actions, with D5, D6, D7 and D9 narrowed to the step at hand."""
    legal = rules.legal_actions(state, seat)
    match state.phase:
        case Buildings(picked=picked):
            return _narrow(legal, PlaceOnBuilding, "building", picked, PickBuilding)
        case Colonies(picked=picked):
            return _narrow(legal, PlaceOnColony, "colony", picked, PickColony)
        case Sailing(origin=None):
            return _narrow(legal, SailFleet, "origin", None, PickFleetOrigin)
        case Sailing(origin=origin, destination=None):
            from_origin = tuple(a for a in legal if not isinstance(a, SailFleet) or a.origin == origin)
            return _narrow(from_origin, SailFleet, "destination", None, PickFleetDestination)
        case Sailing(origin=origin, destination=destination):
            return tuple(
                a for a in legal if not isinstance(a, SailFleet) or (a.origin, a.destination) == (origin, destination)
            )
        case Sell(picked=picked) if legal:
            limits = market.sale_limits(state, seat)
            good, last = _sale_step(limits, picked)
            if not last:
                return (NOTHING, *(PickSale(GOODS[good], u) for u in range(limits[good] + 1)))
            return tuple(a for a in legal if a == NOTHING or _sale_matches(a, picked, good))
    return legal


NOTHING = SellGoods(0, 0, 0)
"""D9's way out (and timer default), legal at every step of version 2's sales."""


def _sale_step(limits: tuple[int, int, int], picked: tuple[int, ...]) -> tuple[int, bool]:
    """The good (index) asked now after `picked`, and whether it is the last one the seat may sell
    (then `SellGoods` asks it). Goods the seat may not sell are never asked."""
    sellable = [g for g in range(len(limits)) if limits[g] > 0]
    if not sellable:
        return len(picked), True
    asked = next((g for g in sellable if g >= len(picked)), sellable[-1])
    return asked, asked == sellable[-1]


def _sale_matches(action: Action, picked: tuple[int, ...], good: int) -> bool:
    """Whether `action` is a `SellGoods` with the picked units, any units of `good`, none of the rest."""
    if not isinstance(action, SellGoods):
        return False
    units = (action.sugar, action.gold, action.spice)
    fixed = (*picked, *(0,) * (good - len(picked)))
    return units[:good] == fixed and not any(units[good + 1 :])


def _narrow(legal: tuple[Action, ...], full: type, field: str, picked: str | None, pick: type) -> tuple[Action, ...]:
    """The actions other than `full` ones, then: with nothing picked, one `pick` per distinct value of
    `field` among the `full` ones (in their order); with `picked`, the `full` ones for it."""
    out = [a for a in legal if not isinstance(a, full)]
    if picked is None:
        out.extend(pick(v) for v in dict.fromkeys(getattr(a, field) for a in legal if isinstance(a, full)))
    else:
        out.extend(a for a in legal if isinstance(a, full) and getattr(a, field) == picked)
    return tuple(out)


def apply(state: State, seat: Seat, action: Action) -> Transition[State, Event]:
    """Version 1's `apply`, with the steps of D5, D6 and D7 (module docstring)."""
    return rules.settle(_apply(state, seat, action), legal_actions, _apply)


def _apply(state: State, seat: Seat, action: Action) -> Transition[State, Event]:
    phase = state.phase
    if rules.deciding(phase) == seat:  # otherwise version 1 refuses it (not your turn, game over)
        match phase, action:
            case Buildings(), PickBuilding() | PlaceOnBuilding():
                return _building(state, seat, phase, action)
            case Colonies(), PickColony() | PlaceOnColony():
                return _colony(state, seat, phase, action)
            case Sailing(), PickFleetOrigin() | PickFleetDestination() | SailFleet():
                return _sailing(state, seat, phase, action)
            case Sell(), PickSale() | SellGoods():
                return _sell(state, seat, phase, action)
            case _, PickBuilding() | PickColony() | PickFleetOrigin() | PickFleetDestination() | PickSale():
                msg = f"{type(action).__name__} is not possible now: {type(phase).__name__} is pending"
                raise IllegalAction(msg, phase=type(phase).__name__, action=type(action).__name__)
    return rules.apply_once(state, seat, action)  # version 1's dispatch


def _building(
    state: State, seat: Seat, phase: Buildings, action: PickBuilding | PlaceOnBuilding
) -> Transition[State, Event]:
    if isinstance(action, PlaceOnBuilding):
        if phase.picked is None:
            raise IllegalAction("pick the building first (PickBuilding), then say how many workers")
        if action.building != phase.picked:
            raise IllegalAction(f"you picked {phase.picked}: place on it or decline", building=phase.picked)
        return rules.apply_once(state, seat, action)
    if phase.picked is not None:
        raise IllegalAction(f"you picked {phase.picked}: say how many workers or decline", building=phase.picked)
    error = placement.pick_error(state, seat, on_colony=False, index=ids.building(action.building))
    if error:
        raise IllegalAction(error, building=action.building)
    picked = evolve(state, phase=evolve(phase, picked=action.building))
    return Transition(picked, (BuildingPicked(seat, action.building),))


def _colony(state: State, seat: Seat, phase: Colonies, action: PickColony | PlaceOnColony) -> Transition[State, Event]:
    if isinstance(action, PlaceOnColony):
        if phase.picked is None:
            raise IllegalAction("pick the colony first (PickColony), then say how many workers")
        if action.colony != phase.picked:
            raise IllegalAction(f"you picked {phase.picked}: place on it or stop", colony=phase.picked)
        after, events = rules.apply_once(state, seat, action)
        if isinstance(after.phase, Colonies):  # placed without a displacement: the next placement
            after = evolve(after, phase=evolve(after.phase, picked=None))
        return Transition(after, events)
    if phase.picked is not None:
        raise IllegalAction(f"you picked {phase.picked}: say how many workers or stop", colony=phase.picked)
    error = placement.pick_error(state, seat, on_colony=True, index=ids.colony(action.colony))
    if error:
        raise IllegalAction(error, colony=action.colony)
    picked = evolve(state, phase=evolve(phase, picked=action.colony))
    return Transition(picked, (ColonyPicked(seat, action.colony),))


def _sailing(
    state: State, seat: Seat, phase: Sailing, action: PickFleetOrigin | PickFleetDestination | SailFleet
) -> Transition[State, Event]:
    if isinstance(action, SailFleet):
        if phase.destination is None:
            raise IllegalAction("pick the fleet's region and destination first (PickFleetOrigin, PickFleetDestination)")
        if (action.origin, action.destination) != (phase.origin, phase.destination):
            msg = f"you picked a fleet from {phase.origin} to {phase.destination}: sail it or stop"
            raise IllegalAction(msg, origin=phase.origin or "", destination=phase.destination)
        return rules.apply_once(state, seat, action)  # a new Sailing phase: nothing picked
    if isinstance(action, PickFleetOrigin):
        if phase.origin is not None:
            raise IllegalAction(f"this fleet sails from {phase.origin}: pick its destination or stop")
        origin = ids.region(action.region)
        if not any(_fleet_error(state, seat, phase, origin, dest) is None for dest in range(len(REGION_IDS))):
            free = state.players[seat].ships[origin] - phase.moved[origin]
            msg = f"no fleet can sail from {action.region} now ({max(free, 0)} of your ships there can still move)"
            raise IllegalAction(msg, region=action.region)
        picked = evolve(state, phase=evolve(phase, origin=action.region))
        return Transition(picked, (FleetOriginPicked(seat, action.region),))
    if phase.origin is None:
        raise IllegalAction("pick the region the fleet sails from first (PickFleetOrigin)")
    if phase.destination is not None:
        raise IllegalAction(f"this fleet goes to {phase.destination}: say how many ships or stop")
    error = _fleet_error(state, seat, phase, ids.region(phase.origin), ids.region(action.region))
    if error:
        raise IllegalAction(error, origin=phase.origin, destination=action.region)
    picked = evolve(state, phase=evolve(phase, destination=action.region))
    return Transition(picked, (FleetDestinationPicked(seat, action.region),))


def _fleet_error(state: State, seat: Seat, phase: Sailing, origin: int, dest: int) -> str | None:
    """Why no fleet from `origin` may sail to `dest` now (the largest fleet arrives best)."""
    free = max(state.players[seat].ships[origin] - phase.moved[origin], 1)
    return sailing.fleet_error(state, seat, phase, origin=origin, ships=free, dest=dest)


def _sell(state: State, seat: Seat, phase: Sell, action: PickSale | SellGoods) -> Transition[State, Event]:
    limits = market.sale_limits(state, seat)
    good, last = _sale_step(limits, phase.picked)
    name = GOODS[good].name.lower() if good < len(GOODS) else "nothing"
    if isinstance(action, SellGoods):
        if action == NOTHING or (last and _sale_matches(action, phase.picked, good)):
            return rules.apply_once(state, seat, action)  # version 1 checks the units
        if not last:
            msg = f"say how many {name} you sell first (PickSale), or sell nothing"
            raise IllegalAction(msg, good=GOODS[good].name)
        sold = ", ".join(f"{u} {g.name.lower()}" for g, u in zip(GOODS, phase.picked, strict=False))
        msg = f"you picked {sold}: sell that and some {name}, or nothing"
        raise IllegalAction(msg, good=GOODS[good].name)
    if not isinstance(action.good, Good):
        msg = f"unknown good {action.good!r}"
        raise InvalidAction(msg)
    units = ids.count(action.units, "units")
    if last or action.good != GOODS[good]:
        how = "SellGoods" if last else "PickSale"
        msg = f"{action.good.name.lower()} is not asked now: say how many {name} you sell ({how})"
        raise IllegalAction(msg, good=action.good.name)
    if units > limits[good]:
        msg = f"you may sell at most {limits[good]} {name}; you asked for {units}"
        raise IllegalAction(msg, good=action.good.name)
    picked = (*phase.picked, *(0,) * (good - len(phase.picked)), units)
    return Transition(evolve(state, phase=evolve(phase, picked=picked)), (SalePicked(seat, action.good, units),))
