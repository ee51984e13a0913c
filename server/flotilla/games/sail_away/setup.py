"""Setting up a game (§3) and the simultaneous ship choice SD1, answered at once (`KeepShips`) or
ship by ship (`PickShip`): a prompt offers the dealt ships not picked yet one by one, and the SD1
default (`KeepShips`: the picks so far, then the first ships in dealing order), not 120 triples."""

from __future__ import annotations

from flotilla.rules import IllegalAction, Rng, Seat, draw
from flotilla.rules.evolve import evolve

from . import tables
from .actions import Action, KeepShips, PickShip
from .board import EventList, new_island, refill_market, seats_from, set_player
from .cards import ISLAND_IDS, OBJECTIVE_IDS, PIRATE_IDS, SHIP_IDS, SHIPS
from .config import Config
from .events import ShipPicked, ShipsKept, ShipsRevealed
from .state import Phase, PirateCard, PlayerState, Ship, State


def new_game(config: Config, seed: int) -> State:
    """A game waiting for every seat's SD1 answer; RNG use follows §6.2."""
    n = config.seats
    rng = Rng(seed)
    start, rng = rng.below(n)
    order = [Seat((start + k) % n) for k in range(n)]
    objectives = OBJECTIVE_IDS
    public, objectives, rng = draw(objectives, rng)
    secret: dict[int, str] = {}
    for seat in order:
        secret[seat], objectives, rng = draw(objectives, rng)
    islands_deck = ISLAND_IDS
    row = []
    for _ in range(tables.open_islands(n)):
        card, islands_deck, rng = draw(islands_deck, rng)
        row.append(new_island(card))
    pirate_box = PIRATE_IDS
    cards = []
    for _ in range(tables.PIRATE_CARDS_IN_PLAY):
        card, pirate_box, rng = draw(pirate_box, rng)
        cards.append(PirateCard(card, (None,) * tables.PIRATE_CARD_SPACES))
    ship_deck = SHIP_IDS
    dealt: dict[int, list[str]] = {seat: [] for seat in order}
    for seat in order:
        for _ in range(tables.SHIPS_DEALT):
            card, ship_deck, rng = draw(ship_deck, rng)
            dealt[seat].append(card)
    players = tuple(
        PlayerState(
            standard=tables.STANDARD_CRATES - tables.RESERVE_STANDARD,
            pirate=tables.PIRATE_CRATES - tables.RESERVE_PIRATE,
            reserve_standard=tables.RESERVE_STANDARD,
            reserve_pirate=tables.RESERVE_PIRATE,
            posts=tables.CLAIM_POSTS,
            coins=tables.START_COINS,
            objective=secret[seat],
            dealt=tuple(dealt[seat]),
        )
        for seat in range(n)
    )
    return State(
        config=config,
        rng=rng,
        phase=Phase.CHOOSE_SHIPS,
        start_player=Seat(start),
        active=Seat(start),
        turn=0,
        players=players,
        islands=tuple(row),
        island_deck=islands_deck,
        island_discard=(),
        pirate_cards=tuple(cards),
        pirate_box=pirate_box,
        market=(None,) * tables.MARKET_SIZE,
        ship_deck=ship_deck,
        public_objective=public,
        objective_box=objectives,
    )


def choosers(s: State) -> frozenset[Seat]:
    """Seats that have not answered SD1 yet (fewer than 3 ships kept)."""
    return frozenset(Seat(i) for i, p in enumerate(s.players) if len(p.kept) < tables.SHIPS_KEPT)


def default_keep(s: State, seat: Seat) -> KeepShips:
    """The SD1 default: the ships picked so far, then the first others in dealing order."""
    p = s.players[seat]
    rest = [c for c in p.dealt if c not in p.kept]
    return KeepShips((*p.kept, *rest[: tables.SHIPS_KEPT - len(p.kept)]))


def options(s: State, seat: Seat) -> list[Action]:
    """Each dealt ship not picked yet (in dealing order), then the SD1 default.

    Any other full answer extending the picks (`KeepShips`) applies too; the default stands for
    them, so a prompt holds at most 7 actions instead of the 120 ordered triples.
    """
    p = s.players[seat]
    out: list[Action] = [PickShip(c) for c in p.dealt if c not in p.kept]
    out.append(default_keep(s, seat))
    return out


def pick(s: State, seat: Seat, action: PickShip, ev: EventList) -> State:
    """Keep one more dealt ship (secret); the third pick answers SD1."""
    p = s.players[seat]
    if action.ship not in p.dealt:
        raise IllegalAction("you can only keep ships you were dealt", ship=action.ship)
    if action.ship in p.kept:
        raise IllegalAction("you already keep this ship", ship=action.ship)
    kept = (*p.kept, action.ship)
    if len(kept) == tables.SHIPS_KEPT:
        return keep(s, seat, KeepShips(kept), ev)
    ev.append(ShipPicked(seat, action.ship, len(kept)))
    return set_player(s, seat, evolve(p, kept=kept))


def keep(s: State, seat: Seat, action: KeepShips, ev: EventList) -> State:
    """Record a secret SD1 answer (extending the picks so far); once all are in, reveal, rebuild
    the deck, draw the market."""
    ships = action.ships
    p = s.players[seat]
    if len(ships) != tables.SHIPS_KEPT or len(set(ships)) != len(ships):
        raise IllegalAction(f"keep exactly {tables.SHIPS_KEPT} different ships")
    if not set(ships) <= set(p.dealt):
        raise IllegalAction("you can only keep ships you were dealt", ships=",".join(ships))
    if ships[: len(p.kept)] != p.kept:
        raise IllegalAction("keep the ships you picked first, in the order picked", kept=",".join(p.kept))
    s = set_player(s, seat, evolve(p, kept=ships))
    ev.append(ShipsKept(seat, ships))
    if choosers(s):
        return s
    deck = list(s.ship_deck)
    players = list(s.players)
    for i, q in enumerate(players):
        returned = tuple(c for c in q.dealt if c not in q.kept)
        deck.extend(returned)
        players[i] = evolve(
            q,
            ships=tuple(Ship(c, (None,) * len(SHIPS[c].spaces)) for c in q.kept),
            dealt=(),
            returned=returned,
        )
    for seat_ in seats_from(s, s.start_player):
        ev.append(ShipsRevealed(seat_, players[seat_].kept))
    s = evolve(s, players=tuple(players), ship_deck=tuple(sorted(deck)))
    for position in range(tables.MARKET_SIZE):
        s = refill_market(s, position, ev)
    return s
