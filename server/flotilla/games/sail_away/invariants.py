"""Conservation checks run by the conformance harness after every step."""

from __future__ import annotations

from flotilla.rules.cards import check_conserved

from . import tables
from .cards import ISLAND_IDS, OBJECTIVE_IDS, PIRATE_IDS, SHIP_IDS
from .state import Launching, Phase, State


def check_invariants(s: State) -> None:
    """Every card in exactly one place; crates, posts and coins conserved and never negative."""
    ships: list[str] = [*s.ship_deck, *(m for m in s.market if m is not None)]
    for p in s.players:
        if s.phase is Phase.CHOOSE_SHIPS:
            ships.extend(p.dealt)
            assert not p.ships
            assert not p.launched
        ships.extend(ship.card for ship in p.ships)
        ships.extend(ls.card for ls in p.launched)
    ships.extend(t.ship for t in s.tasks if isinstance(t, Launching) and t.choose_slot)
    check_conserved("ships", ships, SHIP_IDS)
    assert list(s.ship_deck) == sorted(s.ship_deck), "ship deck is not a sorted multiset"
    islands = [*(i.card for i in s.islands), *s.island_deck, *s.island_discard]
    check_conserved("islands", islands, ISLAND_IDS)
    assert list(s.island_deck) == sorted(s.island_deck)
    check_conserved("pirate cards", [*(c.card for c in s.pirate_cards), *s.pirate_box], PIRATE_IDS)
    objectives = [s.public_objective, *s.objective_box, *(p.objective for p in s.players)]
    check_conserved("objective tokens", objectives, OBJECTIVE_IDS)
    n = len(s.players)
    standard = [p.standard + p.reserve_standard for p in s.players]
    pirate = [p.pirate + p.reserve_pirate for p in s.players]
    posts = [p.posts for p in s.players]
    for island in s.islands:
        if island.post is not None:
            posts[island.post] += 1
        for sp in island.spaces:
            if sp.crate is not None:
                (pirate if sp.crate.pirate else standard)[sp.crate.owner] += 1
            if sp.cover is not None:
                assert sp.crate is not None
                assert not sp.crate.pirate
                assert sp.crate.owner != sp.cover
                pirate[sp.cover] += 1
    for pc in s.pirate_cards:
        for owner in pc.spaces:
            if owner is not None:
                pirate[owner] += 1
    for p in s.players:
        for ship in p.ships:
            for crate in ship.crates:
                if crate is not None:
                    (pirate if crate.pirate else standard)[crate.owner] += 1
        assert p.coins >= 0, "negative money"
        assert min(p.standard, p.pirate, p.reserve_standard, p.reserve_pirate, p.posts) >= 0
        slots = [ls.slot for ls in p.launched if ls.slot]
        assert len(slots) == len(set(slots))
        assert all(1 <= k <= tables.LAUNCH_SLOTS for k in slots)
    assert standard == [tables.STANDARD_CRATES] * n, f"standard crates not conserved: {standard}"
    assert pirate == [tables.PIRATE_CRATES] * n, f"pirate crates not conserved: {pirate}"
    assert posts == [tables.CLAIM_POSTS] * n, f"posts not conserved: {posts}"
