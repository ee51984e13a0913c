"""A mutable scratch copy of the state used inside one `apply`.

`apply` stays pure: it thaws the frozen input into a `Work`, changes the copy and freezes
it again, so the input is never touched. Building the result with one scratch object per
action is simpler than chains of copies for a turn that moves many cards (and was several times
faster than chains of `dataclasses.replace`); that is the reason for departing from the shape the
other engines share (`flotilla.rules.evolve`, docs/rules-engines.md).
"""

from __future__ import annotations

from flotilla.rules import Rng, Seat

from .cards import ORDER, CardId, ContractId, sort_pile
from .config import Config
from .events import CoinReason, CoinsGained, CoinsPaid, DrawPileReshuffled, Event
from .state import Contract, Phase, Player, State
from .stats import display_vp


class GameOver(Exception):
    """Raised inside an apply once the phase is Finished; the apply wrapper freezes the state."""


class PlayerWork:
    """Mutable twin of `Player`."""

    __slots__ = ("coins", "collection", "completed", "display", "tokens")

    def __init__(self, p: Player) -> None:
        self.display = list(p.display)
        self.coins = list(p.coins)
        self.completed = list(p.completed)
        self.tokens = p.tokens
        self.collection = list(p.collection)

    def freeze(self) -> Player:
        return Player(
            display=tuple(self.display),
            coins=tuple(self.coins),
            completed=tuple(self.completed),
            tokens=self.tokens,
            collection=tuple(self.collection),
        )

    @property
    def vp(self) -> int:
        return display_vp(self.display) + self.tokens


class Work:
    """Mutable twin of `State` plus the events emitted so far."""

    __slots__ = (
        "active",
        "base_allowance",
        "config",
        "contract_pile",
        "contracts",
        "discard",
        "draw_pile",
        "end_triggered",
        "events",
        "expeditions",
        "harbor",
        "n",
        "phase",
        "players",
        "reshuffled",
        "reshuffled_now",
        "revealed",
        "rng",
        "spare_contracts",
        "start",
        "time_pile",
        "token_counters",
        "turn",
        "victory_pile",
    )

    def __init__(self, s: State) -> None:
        self.config: Config = s.config
        self.rng: Rng = s.rng
        self.start: Seat = s.start
        self.active: Seat = s.active
        self.turn = s.turn
        self.revealed = s.revealed
        self.phase: Phase = s.phase
        self.draw_pile = list(s.draw_pile)
        self.discard = list(s.discard)
        self.harbor = list(s.harbor)
        self.expeditions = list(s.expeditions)
        self.players = [PlayerWork(p) for p in s.players]
        self.base_allowance = s.base_allowance
        self.end_triggered = s.end_triggered
        self.contracts = list(s.contracts)
        self.contract_pile = list(s.contract_pile)
        self.spare_contracts = list(s.spare_contracts)
        self.token_counters = s.token_counters
        self.time_pile = list(s.time_pile)
        self.victory_pile = list(s.victory_pile)
        self.reshuffled = s.reshuffled
        self.reshuffled_now = False
        self.n = len(s.players)
        self.events: list[Event] = []

    def freeze(self) -> State:
        return State(
            config=self.config,
            rng=self.rng,
            start=self.start,
            active=self.active,
            turn=self.turn,
            revealed=self.revealed,
            phase=self.phase,
            draw_pile=tuple(self.draw_pile),
            discard=tuple(self.discard),
            harbor=tuple(self.harbor),
            expeditions=tuple(self.expeditions),
            players=tuple(p.freeze() for p in self.players),
            base_allowance=self.base_allowance,
            end_triggered=self.end_triggered,
            contracts=tuple(self.contracts),
            contract_pile=tuple(self.contract_pile),
            spare_contracts=tuple(self.spare_contracts),
            token_counters=self.token_counters,
            time_pile=tuple(self.time_pile),
            victory_pile=tuple(self.victory_pile),
            reshuffled=self.reshuffled,
        )

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def seats_from(self, first: Seat) -> list[Seat]:
        """All seats in turn order starting with `first`."""
        return [Seat((first + i) % self.n) for i in range(self.n)]

    # ------------------------------------------------------------------ piles (spec §6)

    def draw_from(self, pile: list[CardId]) -> CardId:
        """One uniform draw from a sorted face-down pile (must not be empty)."""
        i, self.rng = self.rng.below(len(pile))
        return pile.pop(i)

    def draw_card(self) -> CardId | None:
        """Draw from the draw pile, reshuffling the discard pile when empty (None if both are empty)."""
        if not self.draw_pile:
            if not self.discard:
                return None
            self.draw_pile = self.discard
            sort_pile(self.draw_pile)
            self.reshuffled = (*self.reshuffled, *self.draw_pile) if self.reshuffled_now else tuple(self.draw_pile)
            self.reshuffled_now = True
            self.discard = []
            self.emit(DrawPileReshuffled(len(self.draw_pile)))
        return self.draw_from(self.draw_pile)

    def gain(self, seat: Seat, k: int, reason: CoinReason) -> None:
        """`seat` gains `k` coins, one draw each."""
        if k <= 0:
            return
        coins = self.players[seat].coins
        got = 0
        for _ in range(k):
            card = self.draw_card()
            if card is None:
                break
            coins.append(card)
            got += 1
        self.emit(CoinsGained(seat, got, reason))

    def pay_bank(self, seat: Seat, k: int, reason: CoinReason) -> None:
        """`seat` pays its `k` oldest coins face up onto the discard pile."""
        if k <= 0:
            return
        coins = self.players[seat].coins
        paid = coins[:k]
        del coins[:k]
        self.discard.extend(paid)
        self.emit(CoinsPaid(seat, len(paid), None, tuple(paid), reason))

    def pay_player(self, seat: Seat, to: Seat, k: int, reason: CoinReason) -> None:
        """`seat` moves its `k` oldest coins face down to the end of `to`'s stack."""
        coins = self.players[seat].coins
        k = min(k, len(coins))
        if k <= 0:
            return
        moved = coins[:k]
        del coins[:k]
        self.players[to].coins.extend(moved)
        self.emit(CoinsPaid(seat, k, to, (), reason))

    # ------------------------------------------------------------------ contracts

    def contract_index(self, contract: ContractId) -> int:
        """Position of a face-up contract, -1 if it is not face up."""
        for i, c in enumerate(self.contracts):
            if c.contract == contract:
                return i
        return -1

    def set_contract(self, i: int, c: Contract) -> None:
        self.contracts[i] = c

    def take_token(self) -> None:
        """Use up one face-down contract as a VP token (spec §2.10: pile, spares, then a counter)."""
        if self.contract_pile:
            self.contract_pile.pop()
        elif self.spare_contracts:
            self.spare_contracts.pop()
        else:
            self.token_counters += 1


def canonical(cards: list[CardId]) -> list[CardId]:
    """A copy sorted by the canonical card order."""
    return sorted(cards, key=ORDER.__getitem__)
