"""The catalogues say what the engines do: their numbers are the engines' tables and setups, and the
catalogue of a rules version is pinned (changing one without a new rules version fails here)."""

from __future__ import annotations

import pytest

from flotilla.api.port_royal.v1 import port_royal_catalog_pb2 as pr_pb
from flotilla.api.port_royal.v1 import port_royal_pb2
from flotilla.games import REGISTRY, served
from flotilla.games.navegador import tables as nav
from flotilla.games.pirates_of_nassau import Config as NassauConfig
from flotilla.games.pirates_of_nassau import tables as nassau
from flotilla.games.pirates_of_nassau.setup import new_game as nassau_game
from flotilla.games.port_royal import Config as PortRoyalConfig
from flotilla.games.port_royal import Mode
from flotilla.games.port_royal.cards import CARDS, CONTRACTS
from flotilla.games.port_royal.setup import new_game as port_royal_game
from flotilla.games.sail_away import cards as sa
from flotilla.games.sail_away.config import Config as SailAwayConfig
from flotilla.games.sail_away.setup import new_game as sail_away_game
from flotilla.gateway import catalog_servicer as catalogue

# The etag of each (kind, rules version): a catalogue never changes within a rules version. When a
# table changes, bump the game's RULES.version and add its new etag here.
PINNED = {
    ("counter", "1"): "8d9721ab32417f1d0bfa090324231633",
    ("navegador", "1"): "ec2866651dc5914fde915856bd4929f4",
    ("navegador", "2"): "67475531d6dbf8f6d2f9bc92d04b2904",
    ("pirates_of_nassau", "1"): "16e8642c8edc5033098a679b7a0f1e7f",
    ("port_royal", "1"): "ec4307fb300173475f70797b9dcb2ae8",
    ("sail_away", "1"): "7116b04c6f7c5f99d0b797f656167eed",
}


def test_the_catalogue_of_a_rules_version_is_pinned() -> None:
    """Every served rules version has its catalogue (older ones too), unchanged."""
    current = {(kind, r.version): catalogue.catalog(kind, r.version).etag for kind in REGISTRY for r in served(kind)}
    assert current == PINNED
    assert all(catalogue.catalog(kind).etag == PINNED[kind, rules.version] for kind, rules in REGISTRY.items())


def test_port_royal_cards_and_contracts_are_the_engines() -> None:
    catalog = catalogue.catalog("port_royal").port_royal
    assert [c.id for c in catalog.cards] == list(CARDS)
    for card in catalog.cards:
        info = CARDS[card.id]
        assert (card.coins, card.cost, card.victory_points, card.swords) == (
            info.coins,
            info.cost,
            info.vp,
            info.swords,
        )
        assert (card.swords_to_repel, card.skull) == (info.repel or 0, info.kind.name == "SHIP" and info.repel is None)
        assert pr_pb.CardType.Name(card.type) == f"CARD_TYPE_{info.kind.name}"
        assert card.name
        assert card.rules_text
        assert "{" not in card.rules_text
    for contract in catalog.contracts:
        info = CONTRACTS[contract.id]
        assert (list(contract.coin_slots), contract.seal_number, contract.seal_letter) == (
            list(info.slots),
            info.seal_number,
            info.seal_letter,
        )
        assert contract.name == info.name
        assert "{" not in contract.rules_text


@pytest.mark.parametrize("seed", [1, 2])
def test_port_royal_setups_are_what_new_game_deals(seed: int) -> None:
    for setup in catalogue.catalog("port_royal").port_royal.setups:
        mode = Mode[port_royal_pb2.Mode.Name(setup.mode).removeprefix("MODE_")]
        state = port_royal_game(PortRoyalConfig(seats=setup.seat_count, mode=mode), seed)
        assert list(state.expeditions) == list(setup.expedition_display)
        assert len(state.contracts) == setup.face_up_contracts
        assert all(len(p.coins) == setup.starting_coins for p in state.players)  # coins are cards from the pile
        dealt = len(state.time_pile) + len(state.victory_pile) + sum(len(p.coins) for p in state.players)
        assert len(state.draw_pile) + dealt == setup.draw_pile_cards


def test_sail_away_cards_and_setups_are_the_engines() -> None:
    catalog = catalogue.catalog("sail_away").sail_away
    assert {i.id: i.value for i in catalog.islands} == {k: v.value for k, v in sa.ISLANDS.items()}
    assert {s.id: (s.points, s.coin_space) for s in catalog.ships} == {
        k: (v.points, -1 if v.coin_space is None else v.coin_space) for k, v in sa.SHIPS.items()
    }
    assert {p.id: p.name for p in catalog.pirate_actions} == {k: v.name for k, v in sa.PIRATE_ACTIONS.items()}
    for setup in catalog.setups:
        state = sail_away_game(SailAwayConfig(seats=setup.seat_count), 7)
        assert len(state.islands) == setup.open_islands
        assert len(state.pirate_cards) == setup.pirate_cards
        assert len(state.market) == setup.market_ships
        assert all(len(p.dealt) == setup.ships_dealt and p.coins == setup.coins for p in state.players)
        assert all((p.standard, p.pirate) == (setup.standard_crates, setup.pirate_crates) for p in state.players)


def test_nassau_pieces_and_setups_are_the_engines() -> None:
    catalog = catalogue.catalog("pirates_of_nassau").pirates_of_nassau
    assert {t.id: (t.name, t.best_ship, t.motley) for t in catalog.tokens} == {
        k: (v.name, v.best_ship, v.motley) for k, v in nassau.TOKENS.items()
    }
    assert {m.id: (m.sail, m.cannon, len(m.loot)) for m in catalog.merchants} == {
        k: (v.sail, v.cannon, len(v.loot)) for k, v in nassau.MERCHANTS.items()
    }
    assert [s.id for s in catalog.slots] == [s.id for s in nassau.SLOTS]
    assert {s.space: s.port_name for s in catalog.sea if s.port_name} == {k: v.name for k, v in nassau.PORTS.items()}
    for setup in catalog.setups:
        state = nassau_game(NassauConfig(seats=setup.seat_count), 3)
        assert len(state.navy_display) == setup.display_size
        cards = {*state.navy_display, *state.navy.phase1, *state.navy.phase2}
        assert cards == {*setup.navy_first_phase, *setup.navy_second_phase}


def test_navegador_board_is_the_engines() -> None:
    catalog = catalogue.catalog("navegador").navegador
    edges = {frozenset((r.id, n)) for r in catalog.regions for n in r.neighbours}
    assert edges == {frozenset((nav.REGION_IDS[a], nav.REGION_IDS[b])) for a, b in nav.EDGES}
    assert {c.id: c.region for c in catalog.colonies} == {c: nav.REGION_IDS[r] for c, _, _, r in nav.COLONIES}
    assert [list(t.prices) for t in catalog.market] == [list(nav.MARKET_PRICES[g]) for g in nav.GOODS]
    assert list(catalog.purchase_costs[:4]) == [nav.purchase_cost(k) for k in range(4)]
    assert all(0 <= p.x <= 100 and 0 <= p.y <= 100 for p in (*catalog.regions, *catalog.colonies))


def test_a_catalogue_field_the_proto_lacks_is_a_bug() -> None:
    with pytest.raises(KeyError):
        catalogue.encode({"no_such_field": 1}, pr_pb.PortRoyalNumbers())
    with pytest.raises(TypeError):
        catalogue.encode({"type": "SHIP"}, pr_pb.PortRoyalCard())
