"""SD1 ship by ship (SA-R11): the picks reach exactly the final answers `KeepShips` allowed, with
the same hidden information, and a prompt lists at most 7 actions instead of 120 triples."""

from __future__ import annotations

import itertools

import orjson
import pytest

from flotilla.games.sail_away import RULES, Config
from flotilla.games.sail_away.actions import KeepShips, PickShip
from flotilla.games.sail_away.events import ShipPicked, ShipsKept
from flotilla.games.sail_away.state import State
from flotilla.rules import IllegalAction, Seat
from flotilla.rules.snapshot import SnapshotCodec
from flotilla.rules.testing import game_seed

P1, P2 = Seat(0), Seat(1)


def _fresh(seats: int = 2) -> State:
    return RULES.new_game(Config(seats=seats), game_seed(41))


def _picks(state: State, seat: Seat, ships: tuple[str, ...]) -> tuple[State, list[object]]:
    events: list[object] = []
    for ship in ships:
        assert PickShip(ship) in RULES.legal_actions(state, seat)
        state, evs = RULES.apply(state, seat, PickShip(ship))
        events.extend(evs)
    return state, events


def test_picking_one_by_one_reaches_every_answer_keep_ships_allowed() -> None:
    start = _fresh()
    dealt = start.players[P1].dealt
    reached = set()
    for triple in itertools.permutations(dealt, 3):
        stepwise, events = _picks(start, P1, triple)
        at_once, at_once_events = RULES.apply(start, P1, KeepShips(triple))
        assert stepwise == at_once
        assert events[-1] == at_once_events[-1] == ShipsKept(P1, triple)
        reached.add(stepwise.players[P1].kept)
    assert len(reached) == 120


def test_a_prompt_lists_the_unpicked_ships_and_the_default() -> None:
    state = _fresh()
    dealt = state.players[P1].dealt
    legal = RULES.legal_actions(state, P1)
    assert legal == (*(PickShip(c) for c in dealt), KeepShips(dealt[:3]))
    state, _ = _picks(state, P1, (dealt[4],))
    legal = RULES.legal_actions(state, P1)
    assert legal == (*(PickShip(c) for c in dealt if c != dealt[4]), KeepShips((dealt[4], *dealt[:2])))
    assert RULES.default_action(state, P1) == KeepShips((dealt[4], *dealt[:2]))
    assert RULES.to_act(state) == {P1, P2}


def test_picks_are_secret_until_every_seat_has_chosen() -> None:
    state = _fresh(3)
    dealt = state.players[P1].dealt
    before = {viewer: RULES.view(state, viewer) for viewer in (None, P2, Seat(2))}
    state, events = _picks(state, P1, dealt[:2])
    assert [type(e) for e in events] == [ShipPicked, ShipPicked]
    for event in events:
        assert RULES.redact(event, P1) == event
        assert all(RULES.redact(event, viewer) is None for viewer in before)
    for viewer, view in before.items():
        assert RULES.view(state, viewer) == view, f"a pick shows in the view of {viewer}"
    assert RULES.view(state, P1).kept == dealt[:2]


def test_a_full_answer_must_extend_the_picks() -> None:
    state = _fresh()
    dealt = state.players[P1].dealt
    state, _ = _picks(state, P1, (dealt[1],))
    for bad in (KeepShips(dealt[:3]), PickShip(dealt[1]), PickShip(state.players[P2].dealt[0])):
        with pytest.raises(IllegalAction):
            RULES.apply(state, P1, bad)
    state, events = RULES.apply(state, P1, KeepShips((dealt[1], dealt[5], dealt[0])))
    assert state.players[P1].kept == (dealt[1], dealt[5], dealt[0])
    assert events == (ShipsKept(P1, (dealt[1], dealt[5], dealt[0])),)
    assert RULES.to_act(state) == {P2}


def test_a_version_1_snapshot_of_the_ship_choice_means_the_same_and_version_1_refuses_picks() -> None:
    state = _fresh(3)
    answered, _ = RULES.apply(state, P1, KeepShips(state.players[P1].dealt[:3]))
    v1 = SnapshotCodec(State, version=1, upcasters={})
    current = SnapshotCodec(State)
    assert current.version == 2
    loaded = current.from_plain(orjson.loads(orjson.dumps(v1.to_plain(answered))))
    assert loaded == answered
    assert RULES.to_act(loaded) == {P2, Seat(2)}
    picked, _ = _picks(loaded, P2, loaded.players[P2].dealt[:1])
    plain = orjson.loads(orjson.dumps(current.to_plain(picked)))
    assert current.from_plain(plain) == picked
    with pytest.raises(ValueError, match="schema version"):
        v1.from_plain(plain)  # a worker of the previous release would take the pick for an answer
