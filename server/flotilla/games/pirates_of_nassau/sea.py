"""Step 2, the pirate phase: moves and the actions after each move (§4.2)."""

from __future__ import annotations

import itertools

from flotilla.rules import IllegalAction, InvalidAction, Seat
from flotilla.rules.evolve import evolve

from . import flow
from .actions import (
    Action,
    Boost,
    Move,
    MoveKind,
    Pass,
    Plunder,
    Raid,
    Ransom,
    RerollDie,
    RideTradeWinds,
    Smuggle,
    TakeLoot,
)
from .common import (
    boost_options,
    boost_totals,
    fight_base,
    first_usable,
    flip,
    give,
    is_usable,
    remove,
    room,
    usable_of,
)
from .events import (
    BoostStaged,
    DieRerolled,
    HostageRansomed,
    LootTaken,
    MerchantFought,
    PortRaided,
    ShipMoved,
    Smuggled,
    TradeWindTaken,
    TurnPassed,
)
from .state import (
    AfterSmuggle,
    Cargo,
    PirateAction,
    PirateMove,
    PlacedDie,
    Player,
    State,
    TakingLoot,
    with_player,
)
from .tables import (
    CAPTAIN_CARDS,
    CAPTAIN_ORDER,
    LAYOVERS,
    MERCHANTS,
    PORTS,
    ROUTES,
    SPACES,
    TAKE_ORDER,
    TOKENS,
    Fight,
    Item,
    port_cannon,
    raid_reward,
    ransom_reward,
    smuggle_quantity,
    zone_of,
)

Events = list[object]
TurnPhase = PirateMove | PirateAction | TakingLoot | AfterSmuggle

FIRST_MOVE_MAX = 7


# --- Moves -----------------------------------------------------------------------------------
def layover_kinds(space: int) -> tuple[MoveKind, ...]:
    if space == 0:
        return (MoveKind.LAYOVER_7,)
    if space == 7:
        return (MoveKind.LAYOVER_14,)
    if space == 14:
        return (MoveKind.LAYOVER_7,)
    if space < 7:
        return (MoveKind.LAYOVER_7,)
    if space < 14:
        return (MoveKind.LAYOVER_7, MoveKind.LAYOVER_14)
    return (MoveKind.LAYOVER_14,)


def destination(space: int, kind: MoveKind, value: int) -> int:
    if kind is MoveKind.VALUE:
        return min(value, FIRST_MOVE_MAX)
    if kind is MoveKind.FORWARD:
        return min(SPACES, space + value)
    if kind is MoveKind.BACK:
        return max(1, space - value)
    return 7 if kind is MoveKind.LAYOVER_7 else 14


def modifier_options(p: Player) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    wind = (0, -1, 1) if p.wind_held else (0,)
    cart = (0, -1, 1) if first_usable(p, "Cartographer") is not None else (0,)
    pilot = (0, -2, 2) if first_usable(p, "Pilot") is not None else (0,)
    return wind, cart, pilot


def legal_moves(state: State, seat: Seat) -> list[Action]:
    p = state.players[seat]
    out: list[Action] = []
    kinds = (MoveKind.VALUE,) if p.space == 0 else (MoveKind.FORWARD, MoveKind.BACK)
    wind, cart, pilot = modifier_options(p)
    for die in sorted(set(p.dice)):
        for w, c, pl in itertools.product(wind, cart, pilot):
            if die + w + c + pl >= 1:
                out.extend(Move(die, k, w, c, pl) for k in kinds)
        out.extend(Move(die, k) for k in layover_kinds(p.space))
    for token in usable_of(p, "Crow's Nest"):
        out.extend(RerollDie(token, die) for die in sorted(set(p.dice)))
    return out


def reroll(state: State, seat: Seat, action: RerollDie, events: Events) -> State:
    p = state.players[seat]
    if action.die not in p.dice:
        raise IllegalAction(f"no unused die shows {action.die}", die=str(action.die))
    if not is_usable(p, action.token) or TOKENS[action.token].name != "Crow's Nest":
        raise IllegalAction(f"{action.token} is not a usable Crow's Nest of yours", token=action.token)
    value, rng = state.rng.below(6)
    dice = list(p.dice)
    dice.remove(action.die)
    dice.append(value + 1)
    p = flip(evolve(p, dice=tuple(sorted(dice))), action.token)
    events.append(DieRerolled(seat, action.token, action.die, value + 1))
    return evolve(with_player(state, seat, p), rng=rng)


def move(state: State, phase: PirateMove, seat: Seat, action: Move, events: Events) -> State:
    p = state.players[seat]
    if action.wind not in (-1, 0, 1) or action.cartographer not in (-1, 0, 1) or action.pilot not in (-2, 0, 2):
        raise InvalidAction("wind and cartographer take -1, 0 or 1; pilot takes -2, 0 or 2")
    if action.die not in p.dice:
        raise IllegalAction(f"no unused die shows {action.die}", die=str(action.die))
    first = p.space == 0
    layover = action.kind in (MoveKind.LAYOVER_7, MoveKind.LAYOVER_14)
    if layover:
        if action.kind not in layover_kinds(p.space):
            raise IllegalAction(f"that layover cannot be reached from space {p.space}")
        if action.wind or action.cartographer or action.pilot:
            raise IllegalAction("a layover move ignores the die: no modifiers")
    elif (action.kind is MoveKind.VALUE) != first:
        raise IllegalAction("the first move uses VALUE or LAYOVER_7; later moves FORWARD, BACK or a layover")
    if action.wind and not p.wind_held:
        raise IllegalAction("you hold no trade wind token")
    cart = first_usable(p, "Cartographer") if action.cartographer else None
    pilot = first_usable(p, "Pilot") if action.pilot else None
    if action.cartographer and cart is None:
        raise IllegalAction("you have no usable Cartographer")
    if action.pilot and pilot is None:
        raise IllegalAction("you have no usable Pilot")
    value = action.die + action.wind + action.cartographer + action.pilot
    if value < 1:
        raise IllegalAction(f"the movement value must be at least 1, got {value}")
    to = destination(p.space, action.kind, value)
    dice = list(p.dice)
    dice.remove(action.die)
    used_wind = action.wind != 0
    p = evolve(
        p,
        dice=tuple(dice),
        space=to,
        trail=(*p.trail, PlacedDie(action.die, to, used_wind)),
        wind_held=p.wind_held and not used_wind,
        winds_spent=p.winds_spent + int(used_wind),
    )
    p = flip(p, *(t for t in (cart, pilot) if t is not None))
    events.append(
        ShipMoved(seat, action.die, action.kind, value, state.players[seat].space, to, action.wind, cart, pilot)
    )
    state = with_player(state, seat, p)
    return evolve(state, phase=PirateAction(order=phase.order, turn=phase.turn))


# --- Where the ship is ----------------------------------------------------------------------
def merchant_at(state: State, space: int) -> str | None:
    return next((r.card for r in state.routes if r.space == space), None)


def fight_here(state: State, space: int) -> Fight | None:
    if space in ROUTES and merchant_at(state, space) is not None:
        return Fight.PLUNDER
    if space in PORTS and space not in state.sacked:
        return Fight.RAID
    return None


def can_ride_winds(state: State, p: Player) -> bool:
    return (p.space in ROUTES or p.space in LAYOVERS) and not p.wind_held and state.supply.winds > 0


def smuggle_options(state: State, p: Player) -> list[Smuggle]:
    port = PORTS.get(p.space)
    if port is None or p.space in state.sacked:
        return []
    out = []
    qty = smuggle_quantity(zone_of(p.space))
    cook = first_usable(p, "Ship's Cook") is not None
    for item in port.offer:
        allowed = min(qty, room(p), state.supply.get(item))
        for k in range(1, allowed + 1):
            out.append(Smuggle(item, k))
            if cook and item is not Item.PESO:
                out.append(Smuggle(item, k, cook=True))
    return out


def action_choices(state: State, phase: PirateAction, seat: Seat) -> list[Action]:
    p = state.players[seat]
    fight = fight_here(state, p.space)
    out: list[Action] = []
    if not phase.boosts:
        out.append(Pass())
        if can_ride_winds(state, p):
            out.append(RideTradeWinds())
        out.extend(smuggle_options(state, p))
    if fight is not None and p.hand:
        cls = Plunder if fight is Fight.PLUNDER else Raid
        out.extend(cls(c) for c in p.hand)
        out.extend(Boost(t) for t in boost_options(p, fight, phase.boosts))
    return out


def end_turn(state: State, phase: TurnPhase, events: Events) -> State:
    return flow.end_pirate_turn(state, phase.order, phase.turn, events)


def pass_turn(state: State, phase: TurnPhase, seat: Seat, events: Events) -> State:
    events.append(TurnPassed(seat))
    return end_turn(state, phase, events)


def stage_boost(state: State, phase: PirateAction, seat: Seat, token: str, events: Events) -> State:
    events.append(BoostStaged(seat, token))
    return evolve(state, phase=evolve(phase, boosts=(*phase.boosts, token)))


def ride_winds(state: State, phase: PirateAction, seat: Seat, events: Events) -> State:
    p = state.players[seat]
    state = with_player(state, seat, evolve(p, wind_held=True))
    state = evolve(state, supply=evolve(state.supply, winds=state.supply.winds - 1))
    events.append(TradeWindTaken(seat))
    return end_turn(state, phase, events)


# --- Fights ----------------------------------------------------------------------------------
def plunder_totals(p: Player, captain: str, boosts: tuple[str, ...]) -> tuple[int, int, bool]:
    sail, cannon = fight_base(p, Fight.PLUNDER)
    bs, bc, tie = boost_totals(p, Fight.PLUNDER, boosts)
    cs, cc = CAPTAIN_CARDS[captain]
    return sail + cs + bs, cannon + cc + bc, tie


def plunder_succeeds(p: Player, card: str, captain: str, boosts: tuple[str, ...]) -> bool:
    sail, cannon, tie = plunder_totals(p, captain, boosts)
    m = MERCHANTS[card]
    return (sail > m.sail or (tie and sail == m.sail)) and (cannon > m.cannon or (tie and cannon == m.cannon))


def raid_cannon(p: Player, captain: str, boosts: tuple[str, ...]) -> int:
    _, cannon = fight_base(p, Fight.RAID)
    _, bc, _ = boost_totals(p, Fight.RAID, boosts)
    return cannon + CAPTAIN_CARDS[captain][1] + bc


def default_captain(p: Player, successes: dict[str, int]) -> str:
    """D5: most successes, then the lowest sail + cannon, then C12, C21, C22, C33."""
    return min(p.hand, key=lambda c: (-successes[c], sum(CAPTAIN_CARDS[c]), CAPTAIN_ORDER.index(c)))


def default_fight(state: State, phase: PirateAction, seat: Seat) -> Action:
    p = state.players[seat]
    fight = fight_here(state, p.space)
    if fight is Fight.PLUNDER:
        card = merchant_at(state, p.space)
        assert card is not None
        m = MERCHANTS[card]
        wins = {}
        for c in p.hand:
            s, k, tie = plunder_totals(p, c, phase.boosts)
            wins[c] = int(s > m.sail or (tie and s == m.sail)) + int(k > m.cannon or (tie and k == m.cannon))
        return Plunder(default_captain(p, wins))
    target = port_cannon(zone_of(p.space))
    return Raid(default_captain(p, {c: int(raid_cannon(p, c, phase.boosts) > target) for c in p.hand}))


def plunder(state: State, phase: PirateAction, seat: Seat, captain: str, events: Events) -> State:
    p = state.players[seat]
    card = merchant_at(state, p.space)
    assert card is not None
    sail, cannon, _ = plunder_totals(p, captain, phase.boosts)
    success = plunder_succeeds(p, card, captain, phase.boosts)
    p = flip(evolve(p, hand=tuple(c for c in p.hand if c != captain)), *phase.boosts)
    events.append(MerchantFought(seat, card, captain, phase.boosts, sail, cannon, success))
    if not success:
        return end_turn(with_player(state, seat, p), phase, events)
    p = evolve(p, plundered=(*p.plundered, card))
    state = with_player(state, seat, p)
    state = evolve(state, routes=tuple(r for r in state.routes if r.card != card))
    loot = TakingLoot(order=phase.order, turn=phase.turn, card=card)
    choices = loot_choices(state, seat, card)
    everything = loot_pool(state, card, quartermaster=False).total
    if len(choices) == 1 and _count(choices[0]) == everything:  # all fits and no Quartermaster: no choice
        return take_loot(state, loot, seat, choices[0], events)
    return evolve(state, phase=loot)  # the player may discard first to make room (R24)


def _count(action: TakeLoot) -> int:
    return action.pesos + action.gunpowder + action.goods + action.rum + action.hostages


def raid(state: State, phase: PirateAction, seat: Seat, captain: str, events: Events) -> State:
    p = state.players[seat]
    zone = zone_of(p.space)
    cannon = raid_cannon(p, captain, phase.boosts)
    success = cannon > port_cannon(zone)
    p = flip(evolve(p, hand=tuple(c for c in p.hand if c != captain)), *phase.boosts)
    state = with_player(state, seat, p)
    taken = 0
    if success:
        state, taken = give(state, seat, Item.PESO, min(raid_reward(zone), room(p)))
        p = evolve(state.players[seat], raids=p.raids + 1)
        state = with_player(state, seat, p)
        state = evolve(state, sacked=tuple(sorted((*state.sacked, p.space))))
    events.append(PortRaided(seat, p.space, captain, phase.boosts, cannon, success, taken))
    return end_turn(state, phase, events)


# --- Loot ------------------------------------------------------------------------------------
def loot_pool(state: State, card: str, *, quartermaster: bool) -> Cargo:
    pool = Cargo(pesos=1 + int(quartermaster))
    for item in MERCHANTS[card].loot:
        pool = pool.add(item, 1)
    for item in Item:
        pool = pool.add(item, min(0, state.supply.get(item) - pool.get(item)))
    return pool


def sub_cargos(pool: Cargo, k: int) -> list[Cargo]:
    ranges = [range(pool.get(i) + 1) for i in Item]
    out = [Cargo(*counts) for counts in itertools.product(*ranges) if sum(counts) == k]
    out.sort(key=lambda c: tuple(-c.get(i) for i in TAKE_ORDER))
    return out


def loot_choices(state: State, seat: Seat, card: str) -> list[TakeLoot]:
    p = state.players[seat]
    qms = (False, True) if first_usable(p, "Quartermaster") is not None else (False,)
    out: list[TakeLoot] = []
    for qm in qms:
        pool = loot_pool(state, card, quartermaster=qm)
        k = min(room(p), pool.total)
        out.extend(TakeLoot(c.pesos, c.gunpowder, c.goods, c.rum, c.hostages, qm) for c in sub_cargos(pool, k))
    return out


def take_loot(state: State, phase: TakingLoot, seat: Seat, action: TakeLoot, events: Events) -> State:
    if action not in loot_choices(state, seat, phase.card):
        raise IllegalAction("take as many loot items as fit, only from this ship's loot")
    p = state.players[seat]
    qm = first_usable(p, "Quartermaster") if action.quartermaster else None
    if qm is not None:
        state = with_player(state, seat, flip(p, qm))
    taken = Cargo(action.pesos, action.gunpowder, action.goods, action.rum, action.hostages)
    for item in Item:
        state, _ = give(state, seat, item, taken.get(item))
    events.append(LootTaken(seat, phase.card, taken, qm))
    return end_turn(state, phase, events)


def default_loot(state: State, seat: Seat, card: str) -> TakeLoot:
    return loot_choices(state, seat, card)[0]


# --- Smuggle and ransom ----------------------------------------------------------------------
def smuggle(state: State, phase: PirateAction, seat: Seat, action: Smuggle, events: Events) -> State:
    p = state.players[seat]
    cook = first_usable(p, "Ship's Cook") if action.cook else None
    state, taken = give(state, seat, action.item, action.count)
    extra = 0
    if cook is not None:
        state = with_player(state, seat, flip(state.players[seat], cook))
        state, extra = give(state, seat, action.item, min(1, room(state.players[seat])))
    events.append(Smuggled(seat, p.space, action.item, taken, cook, extra))
    if state.players[seat].hold.hostages > 0:
        return evolve(state, phase=AfterSmuggle(order=phase.order, turn=phase.turn))
    return end_turn(state, phase, events)


def ransom_options(state: State, seat: Seat) -> list[Ransom]:
    p = state.players[seat]
    if p.hold.hostages <= 0:
        return []
    return [Ransom(False), *([Ransom(True)] if first_usable(p, "Cabin Boy") is not None else [])]


def ransom(state: State, phase: AfterSmuggle, seat: Seat, action: Ransom, events: Events) -> State:
    p = state.players[seat]
    boy = first_usable(p, "Cabin Boy") if action.cabin_boy else None
    state = remove(state, seat, Item.HOSTAGE)
    if boy is not None:
        state = with_player(state, seat, flip(state.players[seat], boy))
    due = ransom_reward(zone_of(p.space)) + int(boy is not None)
    state, paid = give(state, seat, Item.PESO, min(due, room(state.players[seat])))
    events.append(HostageRansomed(seat, p.space, paid, boy))
    return end_turn(state, phase, events)
