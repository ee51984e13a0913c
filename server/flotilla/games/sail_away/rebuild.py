"""`from_view`: a full state from one seat's view (§7): the board, ships, supplies and pending
decisions from the view; the other seats' objectives and setup hands, the face-down decks and
boxes drawn from the cards the seat cannot see."""

from __future__ import annotations

from flotilla.rules import Rng, Seat, draw, draw_many
from flotilla.rules.cards import unseen
from flotilla.rules.evolve import evolve

from . import tables
from .board import crate_limit
from .cards import ISLAND_IDS, OBJECTIVE_IDS, PIRATE_IDS, SHIP_IDS
from .config import Config
from .state import Island, IslandSpace, LaunchedShip, Launching, Phase, PirateCard, PlayerState, Ship, State
from .views import PlayerView, View


def _player(p: PlayerView) -> PlayerState:
    """A seat's public part (its secrets are filled in by `from_view`)."""
    return PlayerState(
        standard=p.standard,
        pirate=p.pirate,
        reserve_standard=p.reserve_standard,
        reserve_pirate=p.reserve_pirate,
        posts=p.posts,
        coins=p.coins,
        objective=p.objective or "",
        ships=tuple(Ship(s.card, tuple(sp.crate for sp in s.spaces)) for s in p.ships),
        launched=tuple(LaunchedShip(ls.card, ls.slot, ls.turn, ls.used) for ls in p.launched),
        kept=p.kept,
    )


def _deal_objectives(v: View, seat: Seat, players: list[PlayerState], rng: Rng) -> Rng:
    """While the game runs, the other seats' objectives from those neither public nor the seat's own."""
    if v.phase is Phase.FINISHED:
        return rng
    pool = unseen(OBJECTIVE_IDS, [v.public_objective, players[seat].objective])
    for i in range(len(players)):
        if i != seat:
            card, pool, rng = draw(pool, rng)
            players[i] = evolve(players[i], objective=card)
    return rng


def _deal_ships(v: View, seat: Seat, players: list[PlayerState], rng: Rng) -> Rng:
    """During the setup choice the others' dealt ships and picks; after it the ships they gave back."""
    others = [i for i in range(len(players)) if i != seat]
    if v.phase is Phase.CHOOSE_SHIPS:
        players[seat] = evolve(players[seat], dealt=v.dealt, kept=v.kept)
        deck = unseen(SHIP_IDS, v.dealt)
        for i in others:
            hand, deck, rng = draw_many(deck, tables.SHIPS_DEALT, rng)
            picks = tables.SHIPS_KEPT
            if not v.players[i].chose_ships:
                picks, rng = rng.below(tables.SHIPS_KEPT)
            players[i] = evolve(players[i], dealt=hand, kept=hand[:picks])
    else:
        players[seat] = evolve(players[seat], returned=v.returned)
        deck = unseen(SHIP_IDS, [*v.returned, *(c for p in players for c in p.kept)])
        for i in others:
            back, deck, rng = draw_many(deck, tables.SHIPS_DEALT - tables.SHIPS_KEPT, rng)
            players[i] = evolve(players[i], returned=back)
    return rng


def _market(v: View) -> tuple[str | None, ...]:
    market: list[str | None] = [None] * tables.MARKET_SIZE
    for m in v.market:
        market[m.position] = m.ship.card
    return tuple(market)


def _ship_deck(v: View, players: list[PlayerState], market: tuple[str | None, ...]) -> tuple[str, ...]:
    """The ships nowhere in sight: not in the market, a hand, a seat's ships or a slot choice."""
    in_sight = [
        *(m for m in market if m is not None),
        *(c for p in players for c in p.dealt),
        *(s.card for p in players for s in p.ships),
        *(ls.card for p in players for ls in p.launched),
        *(t.ship for t in v.tasks if isinstance(t, Launching) and t.choose_slot),
    ]
    return unseen(SHIP_IDS, in_sight)


def from_view(v: View, seat: Seat, rng: Rng) -> State:
    """A state `seat` cannot tell from the one `v` was taken from.

    Drawn: the other seats' objectives (from those neither public nor the seat's own) and the
    objective box; during the setup choice their six dealt ships from the ships the seat was not
    dealt, and how many of them a seat still choosing has picked (0 to 2: picks are secret);
    after it, the three ships each gave back (from those the seat did not keep, give back or see
    kept). The island deck, pirate box and ship deck are what lies nowhere in sight (sorted
    multisets: the rules draw from them uniformly).
    """
    players = [_player(p) for p in v.players]
    rng = _deal_objectives(v, seat, players, rng)
    rng = _deal_ships(v, seat, players, rng)
    market = _market(v)
    islands = tuple(
        Island(i.card, tuple(IslandSpace(sp.crate, sp.cover) for sp in i.spaces), i.post) for i in v.islands
    )
    pirate_cards = tuple(PirateCard(pc.card, tuple(sp.owner for sp in pc.spaces)) for pc in v.pirate_cards)
    state = State(
        config=Config(seats=len(v.players), max_rounds=v.max_rounds),
        rng=rng,
        phase=v.phase,
        start_player=v.start_player,
        active=v.active,
        turn=v.turn,
        players=tuple(players),
        islands=islands,
        island_deck=unseen(ISLAND_IDS, [*(i.card for i in islands), *v.island_discard]),
        island_discard=v.island_discard,
        pirate_cards=pirate_cards,
        pirate_box=unseen(PIRATE_IDS, (pc.card for pc in pirate_cards)),
        market=market,
        ship_deck=_ship_deck(v, players, market),
        public_objective=v.public_objective,
        objective_box=unseen(OBJECTIVE_IDS, [v.public_objective, *(p.objective for p in players)]),
        tasks=v.tasks,
        placed=v.placed,
        used_cards=v.used_cards,
        claims=v.claims,
        end_trigger=v.end_trigger,
        final_turns=v.final_turns,
    )
    if v.turn:  # the crate limit shown is the base limit plus this turn's extra crates
        state = evolve(state, extra=v.crate_limit - crate_limit(state, v.active))
    return state
