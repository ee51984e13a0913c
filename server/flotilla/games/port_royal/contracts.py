"""Contracts (spec §4.8): eligibility, requirements, completion, preparation boxes."""

from __future__ import annotations

from flotilla.rules import Seat
from flotilla.rules.evolve import evolve

from .cards import (
    CARDS,
    CHEAP_STAFF,
    COMEDIAN,
    CONTRACTS,
    EXPLORER,
    FIGHTER,
    LADY_KILLER,
    MARITIME_SUPREMACY,
    NEW_COLONY,
    PACK_OF_PIRATES,
    RANSOM,
    ROYAL_HOUSEHOLD,
    TRADE_OUTPOST,
    TRADER_PRINCE,
    CardId,
    Colour,
    ContractId,
    Kind,
    Role,
    Timing,
)
from .events import CoinReason, CollectionDiscarded, ContractCompleted, ContractPrepared, GameEnded
from .state import Contract, Finished, Player, PrepCube, State
from .stats import count_role, display_vp, swords
from .tables import (
    CHEAP_STAFF_COST,
    CHEAP_STAFF_COUNT,
    CUBES_PER_PLAYER,
    FIGHTER_SWORDS,
    MAX_CONTRACTS,
    RANSOM_COINS,
    ROYAL_HOUSEHOLD_VP,
    TRADER_PRINCE_TRADERS,
    VP_TOKENS_FOR_COMPLETION,
    rank_title,
)
from .work import GameOver, PlayerWork, Work

COLLECTION_ORDER = (Colour.YELLOW, Colour.BLUE, Colour.GREEN, Colour.RED, Colour.BLACK)

_PAIRS: dict[ContractId, tuple[Role, Role]] = {
    LADY_KILLER: (Role.CAPTAIN, Role.MADEMOISELLE),
    TRADE_OUTPOST: (Role.SETTLER, Role.CLERK),
    COMEDIAN: (Role.PRIEST, Role.JESTER),
    NEW_COLONY: (Role.SETTLER, Role.GUNNER),
    MARITIME_SUPREMACY: (Role.CAPTAIN, Role.VICE_ADMIRAL),
}


def prep_cube(contracts: tuple[Contract, ...] | list[Contract], contract: ContractId, seat: Seat) -> PrepCube | None:
    """`seat`'s cube in a prep box of `contract`, if any."""
    for c in contracts:
        if c.contract == contract:
            for cube in c.boxes:
                if cube.seat == seat:
                    return cube
    return None


def free_cubes(contracts: tuple[Contract, ...] | list[Contract], completed: int, seat: Seat) -> int:
    """Cubes still in `seat`'s supply."""
    boxed = sum(1 for c in contracts for cube in c.boxes if cube.seat == seat)
    return CUBES_PER_PLAYER - completed - boxed


def is_eligible(
    contracts: tuple[Contract, ...] | list[Contract],
    completed: tuple[ContractId, ...] | list[ContractId],
    seat: Seat,
    contract: ContractId,
) -> bool:
    """Spec §4.8.1: face up, not completed before, fewer than 3 completed, a cube available."""
    if contract in completed or len(completed) >= MAX_CONTRACTS:
        return False
    if not any(c.contract == contract for c in contracts):
        return False
    return prep_cube(contracts, contract, seat) is not None or free_cubes(contracts, len(completed), seat) > 0


def collection_full(collection: tuple[CardId, ...] | list[CardId]) -> bool:
    """A Pack-of-Pirates collection holding all five colours."""
    return len({CARDS[c].colour for c in collection}) == len(COLLECTION_ORDER)


def meets_state_requirement(player: Player | PlayerWork, contract: ContractId) -> bool:
    """Whether a state contract's requirement holds for `player` (spec §2.9, §4.8.2)."""
    display = player.display
    pair = _PAIRS.get(contract)
    if pair is not None:
        return count_role(display, pair[0]) >= 1 and count_role(display, pair[1]) >= 1
    if contract == EXPLORER:
        return any(CARDS[c].kind is Kind.EXPEDITION for c in display)
    if contract == TRADER_PRINCE:
        return count_role(display, Role.TRADER) >= TRADER_PRINCE_TRADERS
    if contract == FIGHTER:
        return swords(display) >= FIGHTER_SWORDS
    if contract == CHEAP_STAFF:
        cheap = sum(1 for c in display if CARDS[c].kind is Kind.PERSON and CARDS[c].cost <= CHEAP_STAFF_COST)
        return cheap >= CHEAP_STAFF_COUNT
    if contract == ROYAL_HOUSEHOLD:
        vp = display_vp(display) + player.tokens
        return vp >= ROYAL_HOUSEHOLD_VP
    if contract == RANSOM:
        return len(player.coins) >= RANSOM_COINS
    if contract == PACK_OF_PIRATES:
        return collection_full(player.collection)
    return False


def state_contracts_available(s: State | Work, seat: Seat) -> list[ContractId]:
    """State contracts `seat` may complete now (caller checks the timing window).

    State contracts have no preparation boxes, so eligibility is: not completed yet and a
    free cube (which also means fewer than 3 completed)."""
    if not s.config.contracts:
        return []
    player = s.players[seat]
    completed = player.completed
    if free_cubes(s.contracts, len(completed), seat) <= 0:
        return []
    out = []
    for c in s.contracts:
        contract = c.contract
        if contract in completed:
            continue
        info = CONTRACTS[contract]
        if info.timing is not Timing.STATE or (info.active_only and seat != s.active):
            continue
        if meets_state_requirement(player, contract):
            out.append(contract)
    return out


def _discard_collection(w: Work, seat: Seat) -> None:
    p = w.players[seat]
    if not p.collection:
        return
    cards = sorted(p.collection, key=lambda c: COLLECTION_ORDER.index(CARDS[c].colour))
    p.collection = []
    w.discard.extend(cards)
    w.emit(CollectionDiscarded(seat, tuple(cards)))


def _after_cube_commit(w: Work, seat: Seat) -> None:
    """Drop a Pack-of-Pirates collection that can no longer be completed (ruling R25)."""
    p = w.players[seat]
    if p.collection and not is_eligible(w.contracts, p.completed, seat, PACK_OF_PIRATES):
        _discard_collection(w, seat)


def complete(w: Work, seat: Seat, contract: ContractId) -> None:
    """Spec §4.8.1 completion effect (eligibility already checked by the caller)."""
    i = w.contract_index(contract)
    c = w.contracts[i]
    p = w.players[seat]
    if contract == RANSOM:
        w.pay_bank(seat, RANSOM_COINS, CoinReason.RANSOM)
    slot = len(c.slots)
    boxes = tuple(cube for cube in c.boxes if cube.seat != seat)
    w.set_contract(i, evolve(c, slots=(*c.slots, seat), boxes=boxes))
    coins = CONTRACTS[contract].slots[slot]
    p.completed.append(contract)
    tokens = VP_TOKENS_FOR_COMPLETION[len(p.completed)]
    for _ in range(tokens):
        w.take_token()
    p.tokens += tokens
    w.emit(ContractCompleted(seat, contract, slot + 1, coins, tokens))
    if contract == PACK_OF_PIRATES:
        _discard_collection(w, seat)
    w.gain(seat, coins, CoinReason.CONTRACT)
    _after_cube_commit(w, seat)
    if w.config.coop and all(x.slots for x in w.contracts):
        w.phase = Finished(coop_won=True)
        score = len(w.victory_pile)
        w.emit(GameEnded(tuple(score for _ in range(w.n)), tuple(Seat(i) for i in range(w.n)), True, rank_title(score)))
        raise GameOver


def advance_prep(w: Work, seat: Seat, contract: ContractId) -> None:
    """Put a free cube into box 1, move a boxed cube on, or complete (Foe / Tiny Gamester)."""
    i = w.contract_index(contract)
    c = w.contracts[i]
    cube = prep_cube(w.contracts, contract, seat)
    box = 1 if cube is None else cube.box + 1
    if box > CONTRACTS[contract].boxes:
        complete(w, seat, contract)
        return
    others = tuple(x for x in c.boxes if x.seat != seat)
    w.set_contract(i, evolve(c, boxes=(*others, PrepCube(seat, box, w.turn))))
    w.emit(ContractPrepared(seat, contract, box))
    _after_cube_commit(w, seat)
