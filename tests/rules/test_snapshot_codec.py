"""The versioned snapshot codec (flotilla.rules.snapshot) as GameHost.dumps/loads use it."""

from __future__ import annotations

import dataclasses
import enum
import itertools
import random
from typing import Any

import orjson
import pytest

from flotilla.app.host import host_for
from flotilla.games import REGISTRY
from flotilla.rules import Rng
from flotilla.rules.codec import Codec, reachable_types
from flotilla.rules.snapshot import GENERIC, Record, SnapshotCodec, names_layout, records
from flotilla.rules.testing import game_seed, random_walk
from rules.codec_goldens import MODES, RECORDED_RULES, Golden, goldens, play

GOLDENS = goldens()


def _finish(kind: str, state: Any, seed: int) -> tuple[Any, Any]:
    """Play `state` to its end with a driver seeded by `seed`: (final state, result)."""
    rules = host_for(kind, RECORDED_RULES).rules
    driver = random.Random(seed)
    while acting := rules.to_act(state):
        seat = driver.choice(sorted(acting))
        state = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat))).state
    return state, rules.result(state)


GOLDEN_FILES = [(g, v) for g in GOLDENS for v in g.versions()]


@pytest.mark.parametrize(("golden", "version"), GOLDEN_FILES, ids=[g.path(v).stem for g, v in GOLDEN_FILES])
def test_a_golden_loads_to_the_replayed_state_and_the_game_goes_on(golden: Golden, version: int) -> None:
    host = host_for(golden.kind, RECORDED_RULES)
    replayed, played = play(golden.kind, golden.seats, golden.options, golden.seed, golden.steps)
    assert played == golden.steps
    loaded = host.loads(golden.path(version).read_bytes())
    assert loaded == replayed
    assert host.rules.to_act(loaded), "the golden is mid-game"
    assert _finish(golden.kind, loaded, golden.seed) == _finish(golden.kind, replayed, golden.seed)
    again = host.dumps(loaded)
    assert SnapshotCodec.is_snapshot(orjson.loads(again))
    assert host.loads(again) == replayed


def test_there_is_a_golden_for_every_mode_of_every_game_in_every_schema_version() -> None:
    assert {(g.kind, g.seats, tuple(g.options.items())) for g in GOLDENS} == {
        (k, s, tuple(o.items())) for k, s, o in MODES
    }
    assert {g.kind for g in GOLDENS} == set(REGISTRY)
    for golden in GOLDENS:
        assert golden.versions() == list(range(host_for(golden.kind).snapshots.version + 1)), golden


@pytest.mark.parametrize(("kind", "seats", "options"), MODES, ids=str)
def test_snapshots_round_trip_over_random_playouts(kind: str, seats: int, options: dict[str, str]) -> None:
    """Fast path, generic-body path and version-0 path agree with the state (steps 0, 1, 2, 4, 8, ... and the end)."""
    host = host_for(kind)
    rules, snap = host.rules, host.snapshots
    # The codec's plain form is a version-0 body only while the state types keep version 0's fields
    # (Navegador's phases gained rules version 2's picks); the golden -v0 files cover the others.
    v0_form = snap.v0_layout == names_layout(reachable_types(rules.state_type))
    checked = 0
    for seed in range(2):
        driver = random.Random(seed)
        start = rules.new_game(host.config(seats, options), game_seed(seed))
        for step, state in enumerate(itertools.chain([start], random_walk(rules, start, driver))):
            if step & (step - 1) == 0 or not rules.to_act(state):
                assert host.loads(host.dumps(state)) == state
                generic = orjson.dumps(snap.to_plain(state, generic=True))
                assert host.loads(generic) == state
                if v0_form:
                    assert host.loads(orjson.dumps(host.codec.to_plain(state))) == state  # version 0
                checked += 1
    assert checked > 4


def test_actions_and_events_keep_the_generic_plain_form() -> None:
    host = host_for("counter")
    action = host.rules.action_types[0](5)
    assert host.dumps(action) == orjson.dumps(host.codec.to_plain(action))
    assert host.loads(host.dumps(action)) == action


# --- schema changes, with a test-local family of state types ---------------------------


class Colour(enum.Enum):
    RED = 1
    BLUE = 2


def _family(inner: list[Any], state_extra: list[Any] | None = None) -> Any:
    """State(rng, items: tuple[Inner, ...], phase: Idle | Moving | None, colour) with Inner's fields given."""
    dc = dataclasses.make_dataclass
    inner_t = dc("Inner", inner, frozen=True, slots=True)
    idle = dc("Idle", [], frozen=True, slots=True)
    moving = dc("Moving", [("who", int), ("items", tuple[inner_t, ...])], frozen=True, slots=True)  # type: ignore[valid-type]
    fields = [
        ("rng", Rng),
        ("items", tuple[inner_t, ...]),
        ("phase", idle | moving | None),  # type: ignore[valid-type]
        ("colour", Colour),
        *(state_extra or []),
    ]
    return dc("State", fields, frozen=True, slots=True)


V1 = _family([("a", int), ("b", str)])
V2 = _family(
    [("a", int), ("note", str, dataclasses.field(default="-"))], [("score", int, dataclasses.field(default=7))]
)


def _v1_state() -> Any:
    inner = V1.__dataclass_fields__["items"].type.__args__[0]
    moving = V1.__dataclass_fields__["phase"].type.__args__[1]
    items = (inner(1, "x"), inner(2, "y"))
    return V1(Rng(game_seed(3), 4), items, moving(1, items[:1]), Colour.BLUE)


def _v1_snapshot() -> bytes:
    return orjson.dumps(SnapshotCodec(V1, version=1, upcasters={}).to_plain(_v1_state()))


def test_a_deploy_that_adds_fields_with_defaults_and_drops_one_still_decodes_old_snapshots() -> None:
    new = SnapshotCodec(V2, version=1, upcasters={})
    state = new.from_plain(orjson.loads(_v1_snapshot()))
    assert type(state) is V2
    assert state.score == 7
    assert [(i.a, i.note) for i in state.items] == [(1, "-"), (2, "-")]
    assert state.phase.who == 1
    assert [(i.a, i.note) for i in state.phase.items] == [(1, "-")]
    assert state.colour is Colour.BLUE
    assert state.rng == Rng(game_seed(3), 4)
    assert new.from_plain(orjson.loads(orjson.dumps(new.to_plain(state)))) == state


def test_a_field_without_default_that_old_snapshots_lack_needs_an_upcaster() -> None:
    strict = _family([("a", int), ("c", int)])
    with pytest.raises(ValueError, match=r"lacks Inner\.c, which has no default: add an upcaster"):
        SnapshotCodec(strict, version=1, upcasters={}).from_plain(orjson.loads(_v1_snapshot()))


def test_upcasters_run_from_the_snapshots_version_to_the_current_one() -> None:
    renamed = _family([("amount", int), ("label", str)])

    def v1_to_v2(root: Record) -> Record:  # Inner.a became Inner.amount, doubled
        for inner in records(root, "Inner"):
            inner.fields["amount"] = 2 * inner.fields.pop("a")
        return root

    def v2_to_v3(root: Record) -> Record:  # Inner.b became Inner.label
        for inner in records(root, "Inner"):
            inner.fields["label"] = inner.fields.pop("b").upper()
        return root

    codec = SnapshotCodec(renamed, version=3, upcasters={1: v1_to_v2, 2: v2_to_v3})
    state = codec.from_plain(orjson.loads(_v1_snapshot()))
    assert [(i.amount, i.label) for i in state.items] == [(2, "X"), (4, "Y")]
    assert [(i.amount, i.label) for i in state.phase.items] == [(2, "X")]
    newer = orjson.loads(_v1_snapshot())
    newer[1] = 4
    with pytest.raises(ValueError, match="version 4 is not one this process reads"):
        codec.from_plain(newer)


def test_version_0_snapshots_decode_by_their_recorded_field_names() -> None:
    plain = orjson.loads(orjson.dumps(Codec(V1).to_plain(_v1_state())))
    v0_layout = "State:rng,items,phase,colour;Rng:seed,counter;Inner:a,b;Idle:;Moving:who,items"
    state = SnapshotCodec(V2, version=1, upcasters={}, v0_layout=v0_layout).from_plain(plain)
    assert [(i.a, i.note) for i in state.items] == [(1, "-"), (2, "-")]
    assert state.score == 7


def test_an_int_beyond_64_bits_in_a_tuple_falls_back_to_the_generic_body() -> None:
    wide = dataclasses.make_dataclass("State", [("xs", tuple[int, ...])], frozen=True, slots=True)
    codec = SnapshotCodec(wide, version=1, upcasters={})
    state = wide((1, 1 << 100))
    with pytest.raises(orjson.JSONEncodeError):
        orjson.dumps(codec.to_plain(state))
    plain = orjson.loads(orjson.dumps(codec.to_plain(state, generic=True)))
    assert plain[2] == GENERIC
    assert codec.from_plain(plain) == state


# --- safety: malformed input raises ValueError or TypeError, builds nothing else -------


def _mutations(plain: Any, rng: random.Random) -> Any:
    """`plain` with one leaf or list replaced by something else."""
    junk: list[Any] = [
        None,
        0,
        -1,
        1 << 70,
        "",
        "State",
        "~big",
        [],
        [None],
        {},
        {"~big": "x"},
        {"Idle": []},
        1.5,
        True,
    ]
    if isinstance(plain, list) and plain and rng.random() < 0.8:
        i = rng.randrange(len(plain))
        return [*plain[:i], _mutations(plain[i], rng), *plain[i + 1 :]]
    if isinstance(plain, dict) and plain and rng.random() < 0.8:
        key = rng.choice(list(plain))
        return {**plain, key: _mutations(plain[key], rng)}
    return rng.choice(junk)


@pytest.mark.parametrize("kind", ["sail_away", "navegador", "counter"])
def test_malformed_snapshots_raise_value_or_type_errors_only(kind: str) -> None:
    host = host_for(kind)
    golden = next(g for g in GOLDENS if g.kind == kind)
    state, _ = play(golden.kind, golden.seats, golden.options, golden.seed, golden.steps)
    good = orjson.loads(host.dumps(state))
    rng = random.Random(12)
    outcomes = {"decoded": 0, "refused": 0}
    for _ in range(400):
        bad = _mutations(good, rng)
        try:
            decoded = host.snapshots.from_plain(bad)
        except (ValueError, TypeError):
            outcomes["refused"] += 1
        else:
            assert type(decoded) is host.rules.state_type
            outcomes["decoded"] += 1
    assert outcomes["refused"] > 100
    for data in (
        b"",
        b"[",
        b'["~snap"]',
        b'["~snap",1,0,"",[]]',
        b'{"os.system":["ls"]}',
        b'{"State":1}',
        b"[[[[[[[[[[",
    ):
        with pytest.raises((ValueError, TypeError)):
            host.loads(data)


def test_reordered_fields_decode_by_name() -> None:
    reordered = _family([("b", str), ("a", int)])
    state = SnapshotCodec(reordered, version=1, upcasters={}).from_plain(orjson.loads(_v1_snapshot()))
    assert [(i.a, i.b) for i in state.items] == [(1, "x"), (2, "y")]
