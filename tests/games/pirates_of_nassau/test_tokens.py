"""Every upgrade and crew token of the appendix (§2.8, §2.9) does what its row says."""

from __future__ import annotations

import pytest
from pn_builders import a_player, a_state, hold, order, play

from flotilla.games.pirates_of_nassau import RULES
from flotilla.games.pirates_of_nassau.actions import (
    AdjustNotoriety,
    Boost,
    BuyToken,
    EvadeNavy,
    FlipFiddler,
    Move,
    MoveKind,
    Plunder,
    Raid,
    SellResources,
    TakeLoot,
)
from flotilla.games.pirates_of_nassau.common import boost_options, fight_base
from flotilla.games.pirates_of_nassau.scoring import best_ship, motley
from flotilla.games.pirates_of_nassau.state import (
    Adjusting,
    Burying,
    Buying,
    NavyFight,
    PirateAction,
    PirateMove,
)
from flotilla.games.pirates_of_nassau.tables import TOKENS, Fight, Resource
from flotilla.rules import Seat

P, R, N = Fight.PLUNDER, Fight.RAID, Fight.NAVY

# token -> slot, (plunder sail, plunder cannon), raid cannon, navy (sail, cannon), best ship
PERMANENT = {
    "HULL-01": ("BOW-H1", 0, (1, 2), 2, (1, 2), 1),  # Cannon
    "HULL-11": ("BOW-H1", 0, (1, 1), 3, (1, 1), 1),  # Great Cannon
    "HULL-15": ("BOW-H1", 0, (1, 2), 2, (1, 2), 2),  # Figurehead
    "HULL-19": ("BRIG-H1", 1, (1, 3), 3, (1, 3), 2),  # Gun Deck
    "HULL-27": ("BRIG-H1", 1, (1, 2), 2, (1, 2), 4),  # Captain's Cabin
    "HULL-30": ("BRIG-H1", 1, (1, 4), 4, (1, 4), 1),  # Bow Chasers
    "MAST-01": ("STERN-S1", 0, (2, 1), 1, (2, 1), 1),  # Topsail
    "MAST-10": ("STERN-S1", 0, (2, 1), 1, (2, 1), 2),  # Staysail
    "MAST-13": ("STERN-S1", 0, (1, 1), 1, (3, 1), 1),  # Foresail
    "MAST-16": ("BRIG-S1", 1, (3, 1), 1, (3, 1), 2),  # Main Course
    "MAST-23": ("BRIG-S1", 1, (4, 1), 1, (4, 1), 1),  # Spanker
    "MAST-26": ("BRIG-M1", 1, (1, 1), 1, (1, 1), 2),  # Crow's Nest
    "MAST-29": ("BRIG-M1", 1, (1, 1), 1, (1, 1), 3),  # Jolly Roger
    "MAST-32": ("BRIG-M1", 1, (1, 1), 1, (1, 1), 1),  # Ratlines
}


@pytest.mark.parametrize("token", sorted(PERMANENT))
def test_upgrade_stats_and_best_ship(token: str) -> None:
    slot, sections, plunder, raid, navy, ship = PERMANENT[token]
    p = a_player(1, sections=sections, fitted={slot: token})
    assert fight_base(p, P) == plunder
    assert fight_base(p, R)[1] == raid
    assert fight_base(p, N) == navy
    assert best_ship(p) == (2 if sections == 0 else 4) + ship


BOOSTS = {
    "CREW-01": (frozenset({N}), 0, 1),  # Boatswain
    "CREW-03": (frozenset({P}), 1, 0),  # Helmsman's Mate
    "CREW-05": (frozenset({P, N}), 1, 0),  # Sailing Master
    "CREW-07": (frozenset({P, R, N}), 0, 1),  # Master Gunner
    "CREW-09": (frozenset({P}), 0, 1),  # Marksman
    "CREW-11": (frozenset({N}), 1, 0),  # Lookout
    "CREW-13": (frozenset({N}), 1, 1),  # Rigger
    "CREW-39": (frozenset({R}), 0, 1),  # Ship's Dog
    "MAST-29": (frozenset({P}), 0, 0),  # Jolly Roger
    "MAST-32": (frozenset({P, N}), 2, 0),  # Ratlines
}


@pytest.mark.parametrize("token", sorted(BOOSTS))
def test_fight_boosts_apply_to_their_fights_only(token: str) -> None:
    fights, sail, cannon = BOOSTS[token]
    slot = "BRIG-M1" if token.startswith("MAST") else "BOW-X1"
    p = a_player(1, sections=1, fitted={slot: token})
    for fight in Fight:
        assert (token in boost_options(p, fight, ())) == (fight in fights)
    assert (TOKENS[token].boost_sail, TOKENS[token].boost_cannon) == (sail, cannon)


def test_non_fight_crew_are_never_boosts() -> None:
    for n in range(15, 39, 2):
        p = a_player(1, fitted={"BOW-X1": f"CREW-{n:02d}"})
        assert all(not boost_options(p, f, ()) for f in Fight)
    assert all(not boost_options(a_player(1, fitted={"BOW-X1": "CREW-41"}), f, ()) for f in Fight)


def test_motley_values() -> None:
    crew = {"BOW-X1": "CREW-41", "STERN-X1": "CREW-37", "BRIG-X1": "CREW-01", "BRIG-X2": "CREW-19"}
    assert motley(a_player(1, sections=1, fitted=crew)) == 4 + 3 + 1 + 2


def test_ratlines_and_a_boost_in_a_plunder() -> None:
    p = a_player(2, space=3, dice=(4,), sections=1, fitted={"BRIG-M1": "MAST-32", "BOW-X1": "CREW-09"})
    s0 = a_state([p, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={3: "Z1-20"})  # 3/3
    s, events = play(s0, (0, Boost("MAST-32")), (0, Boost("CREW-09")), (0, Plunder("C12")))
    assert (events[-2].sail, events[-2].cannon) == (4, 4)  # type: ignore[attr-defined]
    assert s.players[0].plundered == ("Z1-20",)
    assert {"MAST-32", "CREW-09"} <= set(s.players[0].face_down)


def test_ships_dog_in_a_raid() -> None:
    p = a_player(2, space=9, dice=(4,), fitted={"BOW-X1": "CREW-39", "BOW-H1": "HULL-01"})
    s0 = a_state([p, a_player(4)], PirateAction(order=order(0, 1), turn=0))
    s, events = play(s0, (0, Boost("CREW-39")), (0, Raid("C33")))  # 1 + 1 + 3 + 1 = 6, not > 6
    assert events[-1].cannon == 6  # type: ignore[attr-defined]
    assert s.sacked == ()


def test_rigger_lookout_boatswain_against_the_navy() -> None:
    crew = {"BOW-X1": "CREW-13", "STERN-X1": "CREW-11", "BRIG-X1": "CREW-01"}
    p = a_player(2, sections=1, fitted=crew)
    s0 = a_state([p, a_player(4)], NavyFight(order=order(0, 1), index=0, card="N1-12"))  # 4/4
    _s, events = play(s0, (0, Boost("CREW-13")), (0, Boost("CREW-11")), (0, Boost("CREW-01")), (0, EvadeNavy("C12")))
    fought = events[-1]
    assert (fought.sail, fought.cannon, fought.successes) == (4, 5, 1)  # type: ignore[attr-defined]


def test_cartographer_changes_the_value_by_one() -> None:
    p = a_player(2, space=3, dice=(4,), fitted={"BOW-X1": "CREW-15"})
    s0 = a_state([p, a_player(4)], PirateMove(order=order(0, 1), turn=4))
    s, _ = play(s0, (0, Move(4, MoveKind.FORWARD, cartographer=-1)))
    assert s.players[0].space == 6
    assert "CREW-15" in s.players[0].face_down


def test_quartermaster_adds_a_peso() -> None:
    p = a_player(2, space=3, dice=(4,), fitted={"BOW-X1": "CREW-29"})
    s0 = a_state([p, a_player(4)], PirateAction(order=order(0, 1), turn=0), routes={3: "Z1-09"})
    s, _ = play(s0, (0, Plunder("C33")))
    assert RULES.default_action(s, Seat(0)) == TakeLoot(1, 0, 1, 2, 0, quartermaster=False)
    s, _ = play(s, (0, TakeLoot(2, 0, 1, 2, 0, quartermaster=True)))
    assert s.players[0].hold == hold(p=2, g=1, r=2)


def test_fiddler_adds_one_at_step_three() -> None:
    p = a_player(20, fitted={"BOW-X1": "CREW-37"})
    s0 = a_state([p, a_player(4)], Adjusting(order=order(0, 1), index=0))
    s, _ = play(s0, (0, FlipFiddler("CREW-37")), (0, AdjustNotoriety(False)))
    assert s.players[0].notoriety == 21


def test_purser_sells_two_resources() -> None:
    p = a_player(20, hold=hold(w=1, r=1), fitted={"BOW-X1": "CREW-33"})
    s0 = a_state([p, a_player(4)], Burying(order=order(0, 1), index=0, hold_before=hold(w=1, r=1), face_down_before=()))
    assert SellResources(1, 0, 1, purser=True) in RULES.legal_actions(s0, Seat(0))
    s, _ = play(s0, (0, SellResources(1, 0, 1, purser=True)))
    assert s.players[0].hold == hold(p=1)
    assert not any(isinstance(a, SellResources) for a in RULES.legal_actions(s, Seat(0)))


def test_sailmaker_waives_a_unit_of_a_sail_token_only() -> None:
    p = a_player(20, hold=hold(g=2), fitted={"BOW-X1": "CREW-21"})
    s0 = a_state([p, a_player(4)], Buying(order=order(0, 1), index=0), display=("MAST-01", "HULL-01"))
    legal = RULES.legal_actions(s0, Seat(0))
    assert BuyToken("MAST-01", "STERN-S1", sailmaker=Resource.RUM) in legal
    assert not any(isinstance(a, BuyToken) and a.token == "HULL-01" for a in legal)
    s, _ = play(s0, (0, BuyToken("MAST-01", "STERN-S1", sailmaker=Resource.RUM)))
    assert s.players[0].hold == hold()
