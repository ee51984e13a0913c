"""Port Royal: VP, coins (less above the tax threshold), what each person's ability is worth, the
harbor the seat may still take from, and in co-op the team's completed contracts."""

from __future__ import annotations

from typing import Any

from flotilla.bots.heuristic.driver import TABLES, GameTable
from flotilla.games.port_royal.cards import (
    CARDS,
    CHEAP_STAFF,
    EXPLORER,
    FIGHTER,
    PACK_OF_PIRATES,
    RANSOM,
    ROYAL_HOUSEHOLD,
    TAX_OFFICER,
    TRADER_PRINCE,
    ContractId,
    Kind,
    Role,
)
from flotilla.games.port_royal.contracts import _PAIRS, COLLECTION_ORDER
from flotilla.games.port_royal.state import Discover, Player, State, Window
from flotilla.games.port_royal.stats import count_role, display_vp, harbor_colours, hire_price, swords
from flotilla.games.port_royal.tables import (
    ALLOWANCE_BY_COLOURS,
    CHEAP_STAFF_COST,
    CHEAP_STAFF_COUNT,
    FIGHTER_SWORDS,
    RANSOM_COINS,
    ROYAL_HOUSEHOLD_VP,
    TAX_THRESHOLD,
    TRADER_PRINCE_TRADERS,
)
from flotilla.rules import Seat
from flotilla.rules.evolve import evolve

WEIGHTS = {
    "vp": 3.0,  # one VP, in coins
    "coin": 1.0,
    "coin_over_tax": 0.4,  # a coin at or beyond the tax threshold (halved at the next tax increase)
    "token": 3.0,  # a contract VP token
    "completed": 2.0,  # a contract completed by the seat (competitive)
    "harbor": 0.6,  # share of the best takeable harbor cards' worth counted before taking them
    "progress": 2.0,  # competitive: a face-up contract's requirement fully met (pro rata)
    "team_contract": 25.0,  # co-op: a face-up contract completed
    "team_progress": 12.0,  # co-op: a face-up contract's requirement met by some seat (pro rata)
    "team_prep": 6.0,  # co-op: a cube in a preparation box
    "team_player": 0.5,  # co-op: each seat's own worth
}

ROLE_VALUE: dict[Role, float] = {
    # Ability worth of one person, in coins, on top of its printed VP.
    Role.TRADER: 1.5,
    Role.SETTLER: 1.0,
    Role.CAPTAIN: 1.0,
    Role.PRIEST: 1.0,
    Role.JACK: 1.5,
    Role.SAILOR: 1.2,
    Role.PIRATE: 2.0,
    Role.MADEMOISELLE: 2.0,
    Role.JESTER: 1.5,
    Role.ADMIRAL: 1.5,
    Role.GOVERNOR: 4.0,
    Role.CLERK: 1.0,
    Role.GUNNER: 1.0,
    Role.VICE_ADMIRAL: 1.2,
}


_ROLE_OF: dict[str, float] = {c: ROLE_VALUE[i.role] for c, i in CARDS.items() if i.role is not None}


def _coins(n: int) -> float:
    low = min(n, TAX_THRESHOLD - 1)
    return WEIGHTS["coin"] * low + WEIGHTS["coin_over_tax"] * (n - low)


def _card_worth(card: str) -> float:
    info = CARDS[card]
    if info.kind is Kind.PERSON:
        return WEIGHTS["vp"] * info.vp + _ROLE_OF.get(card, 0.0)
    if info.kind is Kind.EXPEDITION:
        return WEIGHTS["vp"] * info.vp + WEIGHTS["coin"] * info.coins
    return 0.0


def player_worth(p: Player) -> float:
    """A seat's own worth: VP, coins, abilities of its persons, contract progress."""
    worth = WEIGHTS["vp"] * display_vp(p.display) + _coins(len(p.coins)) + WEIGHTS["token"] * p.tokens
    worth += sum(_ROLE_OF.get(c, 0.0) for c in p.display)
    return float(worth) + WEIGHTS["completed"] * len(p.completed)


def _team_gain(s: State, card: str) -> float:
    """Co-op: how much hiring `card` would raise some seat's progress on the open contracts."""
    best = 0.0
    open_contracts = [c.contract for c in s.contracts if not c.slots]
    for p in s.players:
        if hire_price(p.display, card) > len(p.coins):
            continue
        hired = evolve(p, display=(*p.display, card))
        best = max(best, sum(progress(hired, c) - progress(p, c) for c in open_contracts))
    return best * WEIGHTS["team_progress"]


def harbor_worth(s: State, seat: Seat) -> float:
    """What the seat may still take from the harbor this turn (its best cards up to its allowance;
    in co-op also what a person there would add to the team's contract progress)."""
    if isinstance(s.phase, Window) and s.phase.seat == seat:
        allowance = s.phase.allowance
    elif isinstance(s.phase, Discover) and s.active == seat:
        allowance = ALLOWANCE_BY_COLOURS[min(harbor_colours(s.harbor), len(ALLOWANCE_BY_COLOURS) - 1)]
    else:
        return 0.0
    coins = len(s.players[seat].coins)
    display = s.players[seat].display
    gains = []
    for card in s.harbor:
        info = CARDS[card]
        if info.kind is Kind.SHIP:
            gains.append(WEIGHTS["coin"] * info.coins)
        elif info.kind is Kind.PERSON and hire_price(display, card) <= coins:
            gains.append(_card_worth(card) - WEIGHTS["coin"] * hire_price(display, card))
        if s.config.coop and info.kind is Kind.PERSON:
            gains.append(_team_gain(s, card))
    gains.sort(reverse=True)
    return WEIGHTS["harbor"] * sum(g for g in gains[:allowance] if g > 0)


def progress(p: Player, contract: ContractId) -> float:
    """How much of a state contract's requirement (spec §2.9) the seat meets, 0..1 (0 for the
    contracts that an event completes)."""
    display = p.display
    pair = _PAIRS.get(contract)
    if pair is not None:
        return (min(1, count_role(display, pair[0])) + min(1, count_role(display, pair[1]))) / 2
    if contract == EXPLORER:
        if any(CARDS[c].kind is Kind.EXPEDITION for c in display):
            return 1.0
        symbols = sum(1 for c in display if CARDS[c].symbol is not None or CARDS[c].role is Role.JACK)
        return 0.4 * min(symbols, 2) / 2  # an expedition takes two or three of them
    if contract == TAX_OFFICER:
        return 0.5 * min(len(p.coins), TAX_THRESHOLD) / TAX_THRESHOLD  # taxed at the next increase
    if contract == TRADER_PRINCE:
        return min(count_role(display, Role.TRADER), TRADER_PRINCE_TRADERS) / TRADER_PRINCE_TRADERS
    if contract == FIGHTER:
        return min(swords(display), FIGHTER_SWORDS) / FIGHTER_SWORDS
    if contract == CHEAP_STAFF:
        cheap = sum(1 for c in display if CARDS[c].kind is Kind.PERSON and CARDS[c].cost <= CHEAP_STAFF_COST)
        return min(cheap, CHEAP_STAFF_COUNT) / CHEAP_STAFF_COUNT
    if contract == ROYAL_HOUSEHOLD:
        return min(display_vp(display) + p.tokens, ROYAL_HOUSEHOLD_VP) / ROYAL_HOUSEHOLD_VP
    if contract == RANSOM:
        return min(len(p.coins), RANSOM_COINS) / RANSOM_COINS
    if contract == PACK_OF_PIRATES:
        return len({CARDS[c].colour for c in p.collection}) / len(COLLECTION_ORDER)
    return 0.0


def evaluate(s: State, seat: Seat) -> float:
    """The seat's worth (co-op: the team's, the same for every seat)."""
    if s.config.coop:
        done = sum(1 for c in s.contracts if c.slots)
        prep = sum(len(c.boxes) for c in s.contracts)
        near = sum(max(progress(p, c.contract) for p in s.players) for c in s.contracts if not c.slots)
        team = sum(player_worth(p) for p in s.players) * WEIGHTS["team_player"]
        worth = WEIGHTS["team_contract"] * done + WEIGHTS["team_prep"] * prep + WEIGHTS["team_progress"] * near
        return worth + team + harbor_worth(s, seat)
    worth = player_worth(s.players[seat]) + harbor_worth(s, seat)
    if s.config.contracts:
        p = s.players[seat]
        worth += WEIGHTS["progress"] * sum(
            progress(p, c.contract) for c in s.contracts if c.contract not in p.completed
        )
    return worth


def team_chance(s: State) -> float:
    """Co-op, unfinished: a rough chance of completing every face-up contract in time."""
    done = sum(1 for c in s.contracts if c.slots)
    near = sum(max(progress(p, c.contract) for p in s.players) for c in s.contracts if not c.slots)
    return 0.9 * (done + 0.4 * near) / max(1, len(s.contracts))


def _shared(s: Any) -> bool:
    return bool(s.config.coop)


TABLES["port_royal"] = GameTable(evaluate=evaluate, scale=6.0, lookahead=1, shared=_shared, team_chance=team_chance)
