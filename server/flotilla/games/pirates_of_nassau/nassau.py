"""Step 5: buying (5.2), burying (5.3) and the hold check (5.4) (§4.5)."""

from __future__ import annotations

import itertools
from collections.abc import Iterator
from functools import lru_cache

from flotilla.rules import CannotAfford, IllegalAction, Seat
from flotilla.rules.evolve import evolve

from . import flow
from .actions import Action, Bury, BuySection, BuyToken, ExchangePeso, FinishBurying, Pass, SellResources
from .common import cap, first_usable, flip, give, remove
from .events import (
    BurialFinished,
    BuyingPassed,
    PesoExchanged,
    PesosBuried,
    ResourcesSold,
    SectionBought,
    TokenBought,
)
from .state import Burying, Buying, Fitted, HoldCheck, Player, State, TokenPile, with_player
from .tables import (
    MAX_EXTRA_SECTIONS,
    PESO_EXCHANGE,
    PILE_ORDER,
    PURSER_SELL_RESOURCES,
    RESOURCE_ITEM,
    SECTION_COST,
    SELL_RESOURCES,
    SLOT_BY_ID,
    SLOT_ORDER,
    SLOTS,
    TOKEN_COST,
    TOKENS,
    Cost,
    Item,
    Resource,
    SlotType,
)

Events = list[object]
Tweaks = tuple[Resource | None, Resource | None, Resource | None, Resource | None]  # carpenter, sailmaker, pm, cooper


# --- Costs -------------------------------------------------------------------------------------
def final_cost(p: Player, base: Cost, tweaks: Tweaks, *, sail_token: bool) -> tuple[Cost, tuple[str, ...]]:
    """The cost after crew modifiers and the crew used; IllegalAction when a modifier does not apply."""
    carpenter, sailmaker, monkey, cooper = tweaks
    cost = base
    used: list[str] = []
    if monkey is not None:
        token = first_usable(p, "Powder Monkey")
        if token is None or cost.gunpowder <= 0 or monkey not in (Resource.GOODS, Resource.RUM):
            raise IllegalAction("a Powder Monkey pays 1 goods or rum instead of 1 gunpowder of the cost")
        cost = cost.add(Resource.GUNPOWDER, -1).add(monkey, 1)
        used.append(token)
    if cooper is not None:
        token = first_usable(p, "Cooper")
        if token is None or cost.rum <= 0 or cooper not in (Resource.GUNPOWDER, Resource.GOODS):
            raise IllegalAction("a Cooper pays 1 gunpowder or goods instead of 1 rum of the cost")
        cost = cost.add(Resource.RUM, -1).add(cooper, 1)
        used.append(token)
    if carpenter is not None:
        token = first_usable(p, "Carpenter")
        if token is None or cost.get(carpenter) <= 0:
            raise IllegalAction("a Carpenter waives one unit that is in the cost")
        cost = cost.add(carpenter, -1)
        used.append(token)
    if sailmaker is not None:
        token = first_usable(p, "Sailmaker")
        if token is None or not sail_token or cost.get(sailmaker) <= 0:
            raise IllegalAction("a Sailmaker waives one unit of a sail token's cost")
        cost = cost.add(sailmaker, -1)
        used.append(token)
    return cost, tuple(used)


def affordable(p: Player, cost: Cost) -> bool:
    return all(p.hold.res(r) >= cost.get(r) for r in Resource)


def tweak_options(p: Player, base: Cost, *, sail_token: bool) -> Iterator[Tweaks]:
    """Every affordable way to pay `base` with the usable cost crew (no modifier that cannot apply)."""
    return iter(
        _tweaks(
            base,
            (p.hold.gunpowder, p.hold.goods, p.hold.rum),
            monkey=base.gunpowder > 0 and first_usable(p, "Powder Monkey") is not None,
            cooper=first_usable(p, "Cooper") is not None,
            carpenter=first_usable(p, "Carpenter") is not None,
            sailmaker=sail_token and first_usable(p, "Sailmaker") is not None,
        )
    )


@lru_cache(maxsize=4096)  # a function of a few small numbers and flags, asked again on every buying step
def _tweaks(
    base: Cost, hold: tuple[int, int, int], *, monkey: bool, cooper: bool, carpenter: bool, sailmaker: bool
) -> tuple[Tweaks, ...]:
    """`tweak_options` for a hold of (gunpowder, goods, rum) and which cost crew is usable."""
    out: list[Tweaks] = []
    monkeys: list[Resource | None] = [None]
    if monkey:
        monkeys += [Resource.GOODS, Resource.RUM]
    for m in monkeys:
        c1 = base if m is None else base.add(Resource.GUNPOWDER, -1).add(m, 1)
        coopers: list[Resource | None] = [None]
        if c1.rum > 0 and cooper:
            coopers += [Resource.GUNPOWDER, Resource.GOODS]
        for co in coopers:
            c2 = c1 if co is None else c1.add(Resource.RUM, -1).add(co, 1)
            carpenters: list[Resource | None] = [None]
            if carpenter:
                carpenters += [r for r in Resource if c2.get(r) > 0]
            for ca in carpenters:
                c3 = c2 if ca is None else c2.add(ca, -1)
                sailmakers: list[Resource | None] = [None]
                if sailmaker:
                    sailmakers += [r for r in Resource if c3.get(r) > 0]
                for sm in sailmakers:
                    c4 = c3 if sm is None else c3.add(sm, -1)
                    if all(held >= c4.get(r) for r, held in zip(Resource, hold, strict=True)):
                        out.append((ca, sm, m, co))
    return tuple(out)


def pay(state: State, seat: Seat, cost: Cost) -> State:
    for r in Resource:
        if cost.get(r):
            state = remove(state, seat, RESOURCE_ITEM[r], cost.get(r))
    return state


# --- 5.2 buying ----------------------------------------------------------------------------
def slot_options(p: Player, token: str) -> list[str]:
    """The first empty matching slot and every occupied matching slot (empty slots are alike)."""
    kind = TOKENS[token]
    taken = {f.slot for f in p.fitted}
    matching = [s for s in SLOTS if s.type is kind.slot and s.border is kind.border and s.section <= p.sections]
    empty = [s.id for s in matching if s.id not in taken]
    return empty[:1] + [s.id for s in matching if s.id in taken]


def buy_choices(state: State, seat: Seat) -> list[Action]:
    p = state.players[seat]
    out: list[Action] = [Pass()]
    if p.sections < MAX_EXTRA_SECTIONS:
        out.extend(BuySection(c, m, k) for c, _, m, k in tweak_options(p, SECTION_COST, sail_token=False))
    for token in state.display:
        kind = TOKENS[token]
        options = list(tweak_options(p, TOKEN_COST[kind.slot], sail_token=kind.slot is SlotType.SAIL))
        for slot in slot_options(p, token):
            out.extend(BuyToken(token, slot, *tw) for tw in options)
    return out


def exchange_choices(state: State, seat: Seat) -> list[ExchangePeso]:
    if state.players[seat].hold.pesos <= 0:
        return []
    return [ExchangePeso(r) for r in Resource if state.supply.get(RESOURCE_ITEM[r]) > 0]


def exchange(state: State, seat: Seat, resource: Resource, events: Events, *, secret: bool) -> State:
    state = remove(state, seat, Item.PESO)
    state, got = give(state, seat, RESOURCE_ITEM[resource], PESO_EXCHANGE)
    events.append(PesoExchanged(seat, resource, got, secret))
    return state


def after_purchase(state: State, phase: Buying, events: Events) -> State:
    return flow.next_buyer(state, phase.order, phase.index, phase.passed, events)


def pass_buying(state: State, phase: Buying, seat: Seat, events: Events) -> State:
    events.append(BuyingPassed(seat))
    return flow.next_buyer(state, phase.order, phase.index, (*phase.passed, seat), events)


def buy_section(state: State, phase: Buying, seat: Seat, action: BuySection, events: Events) -> State:
    p = state.players[seat]
    if p.sections >= MAX_EXTRA_SECTIONS:
        raise IllegalAction("your ship already has both extra sections")
    cost, used = final_cost(
        p, SECTION_COST, (action.carpenter, None, action.powder_monkey, action.cooper), sail_token=False
    )
    if not affordable(p, cost):
        raise CannotAfford("the section costs more resources than your hold has")
    state = pay(state, seat, cost)
    p = flip(evolve(state.players[seat], sections=p.sections + 1), *used)
    state = with_player(state, seat, p)
    events.append(SectionBought(seat, p.sections, cost.gunpowder, cost.goods, cost.rum, used))
    return after_purchase(state, phase, events)


def buy_token(state: State, phase: Buying, seat: Seat, action: BuyToken, events: Events) -> State:
    p = state.players[seat]
    if action.token not in state.display:
        raise IllegalAction(f"{action.token} is not in the Nassau display", token=action.token)
    kind = TOKENS[action.token]
    slot = SLOT_BY_ID[action.slot]
    if slot.type is not kind.slot or slot.border is not kind.border or slot.section > p.sections:
        raise IllegalAction(f"{action.token} does not fit slot {action.slot} of your ship", slot=action.slot)
    if action.slot not in slot_options(p, action.token):
        first = slot_options(p, action.token)[0]
        raise IllegalAction(f"a new token goes on the first free matching slot ({first}) or replaces one", slot=first)
    cost, used = final_cost(
        p,
        TOKEN_COST[kind.slot],
        (action.carpenter, action.sailmaker, action.powder_monkey, action.cooper),
        sail_token=kind.slot is SlotType.SAIL,
    )
    if not affordable(p, cost):
        raise CannotAfford(f"{action.token} costs more resources than your hold has")
    state = pay(state, seat, cost)
    p = flip(state.players[seat], *used)
    old = next((f.token for f in p.fitted if f.slot == action.slot), None)
    fitted = [f for f in p.fitted if f.slot != action.slot] + [Fitted(action.slot, action.token)]
    fitted.sort(key=lambda f: SLOT_ORDER[f.slot])
    p = evolve(
        p,
        fitted=tuple(fitted),
        bought=tuple(sorted((*p.bought, action.token))),
        face_down=tuple(t for t in p.face_down if t != old),
    )
    if old is not None:
        p = evolve(p, bought=tuple(t for t in p.bought if t != old))
        i = PILE_ORDER.index(TOKENS[old].pile)
        piles = list(state.piles)
        piles[i] = TokenPile(piles[i].hidden, tuple(sorted((*piles[i].discard, old))))
        state = evolve(state, piles=tuple(piles))
    state = with_player(state, seat, p)
    state = evolve(state, display=tuple(t for t in state.display if t != action.token))
    events.append(TokenBought(seat, action.token, action.slot, old, cost.gunpowder, cost.goods, cost.rum, used))
    return after_purchase(state, phase, events)


# --- 5.3 burying ------------------------------------------------------------------------------
def sell_choices(state: State, seat: Seat) -> list[SellResources]:
    p = state.players[seat]
    out = []
    purser = first_usable(p, "Purser") is not None
    for size, with_purser in ((SELL_RESOURCES, False), (PURSER_SELL_RESOURCES, True)):
        if with_purser and not purser:
            continue
        for combo in itertools.combinations_with_replacement(tuple(Resource), size):
            w, g, r = (combo.count(x) for x in Resource)
            if w <= p.hold.gunpowder and g <= p.hold.goods and r <= p.hold.rum:
                out.append(SellResources(w, g, r, with_purser))
    return out


def burying_choices(state: State, seat: Seat) -> list[Action]:
    p = state.players[seat]
    out: list[Action] = [FinishBurying()]
    out.extend(Bury(k) for k in range(1, p.hold.pesos + 1))
    out.extend(sell_choices(state, seat))
    out.extend(exchange_choices(state, seat))
    return out


def bury(state: State, seat: Seat, pesos: int, events: Events) -> State:
    p = state.players[seat]
    if not 1 <= pesos <= p.hold.pesos:
        raise IllegalAction(f"you can bury 1 to {p.hold.pesos} pesos from your hold")
    p = evolve(p, hold=p.hold.add(Item.PESO, -pesos), chest=p.chest + pesos)
    events.append(PesosBuried(seat, pesos))
    return with_player(state, seat, p)


def sell(state: State, phase: Burying, seat: Seat, action: SellResources, events: Events) -> State:
    if action not in sell_choices(state, seat):
        raise IllegalAction("sell 3 resources you hold (2 with a usable Purser) for 1 peso")
    p = state.players[seat]
    purser = first_usable(p, "Purser") if action.purser else None
    if purser is not None:
        state = with_player(state, seat, flip(p, purser))
    state = pay(state, seat, Cost(action.gunpowder, action.goods, action.rum))
    state, _ = give(state, seat, Item.PESO, 1)
    events.append(ResourcesSold(seat, action.gunpowder, action.goods, action.rum, purser))
    if purser is not None:
        state = evolve(state, phase=evolve(phase, purser_used=True))
    return state


def finish_burying(state: State, phase: Burying, seat: Seat, events: Events) -> State:
    p = state.players[seat]
    events.append(BurialFinished(seat, p.hold, p.face_down))
    return flow.run_burying(state, phase.order, phase.index + 1, events)


# --- 5.4 hold check ----------------------------------------------------------------------------
def hold_check_done(state: State, phase: HoldCheck, seat: Seat, events: Events) -> State:
    p = state.players[seat]
    if p.hold.total > cap(p):
        return flow.run_hold_check(state, phase.order, phase.index, events)
    return flow.run_hold_check(state, phase.order, phase.index + 1, events)
