"""The fairness test vectors (tests/data/fairness_vectors.json, docs/fairness.md) are what the
engines' `Rng` and `new_game` give today, and they exercise what the document specifies."""

from __future__ import annotations

import hashlib
import importlib.util
import json
import random
from pathlib import Path
from types import ModuleType
from typing import Any

import pytest

from flotilla.app.host import seed_commitment
from flotilla.games import REGISTRY
from flotilla.rules import InvalidConfig, Rng
from flotilla.rules.options import config_from_options

ROOT = Path(__file__).resolve().parents[2]
VECTORS = ROOT / "tests" / "data" / "fairness_vectors.json"


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("fairness_vectors", ROOT / "scripts" / "fairness_vectors.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.fixture(scope="module")
def vectors() -> Any:
    return json.loads(VECTORS.read_text())


def test_the_committed_vectors_are_what_the_engines_give(vectors: Any) -> None:
    script = _script()
    assert script.dump(script.build()) == VECTORS.read_text(), (
        "the engines deal differently from tests/data/fairness_vectors.json: if that is meant (it changes "
        "every recorded game's replay), run scripts/fairness_vectors.py and update docs/fairness.md"
    )


def test_the_commitment_is_of_the_16_raw_bytes(vectors: Any) -> None:
    for v in vectors["generator"]:
        seed = v["seed"]
        assert v["seed_sha256"] == hashlib.sha256(bytes.fromhex(seed)).hexdigest() == seed_commitment(int(seed, 16))
        assert v["seed_sha256"] != hashlib.sha256(seed.encode()).hexdigest()


def test_a_word_is_an_8_byte_keyed_blake2b_of_the_big_endian_counter(vectors: Any) -> None:
    """The document's definition, written with hashlib alone, gives the engine's words."""
    for v in vectors["generator"]:
        key = bytes.fromhex(v["seed"])
        mine = [hashlib.blake2b(i.to_bytes(8, "big"), key=key, digest_size=8).hexdigest() for i in range(8)]
        assert mine == v["words"]
        assert Rng(int(v["seed"], 16)).below(2**64)[0] == int(v["words"][0], 16)


def test_the_below_vectors_include_rejections(vectors: Any) -> None:
    for v in vectors["generator"]:
        skipped = {b["n"] for b in v["below"] if b["counters"][-1] > len(b["counters"])}
        assert str(2**63 + 1) in skipped
        assert str(2**64) not in skipped  # 2**64 mod 2**64 = 0: nothing is ever skipped


def test_there_is_a_deal_for_every_seat_count_and_mode(vectors: Any) -> None:
    games = vectors["games"]
    assert set(games) == set(REGISTRY) - {"counter"}  # the counter game uses no randomness
    for kind, game in games.items():
        rules = REGISTRY[kind]
        assert game["rules_version"] == rules.version
        by_mode: dict[tuple[tuple[str, str], ...], set[int]] = {}
        for d in game["deals"]:
            mode = tuple(sorted((k, v) for k, v in d["options"].items() if k != "difficulty"))
            assert _playable(rules.config_type, d["seats"], d["options"]), (kind, d["seats"], d["options"])
            by_mode.setdefault(mode, set()).add(d["seats"])
        for mode, seats in by_mode.items():
            assert seats == {s for s in range(1, 7) if _playable(rules.config_type, s, dict(mode))}, (kind, mode)


def _playable(config_type: type, seats: int, options: dict[str, str]) -> bool:
    try:
        config_from_options(config_type, seats, options)
    except InvalidConfig:
        return False
    return True


# ------------------------------------------------------------------ draws during play (docs/fairness.md, per game)


def _draws(kind: str, before: Any, events: tuple[Any, ...]) -> int:
    """The generator words that docs/fairness.md says these events of one step consumed."""
    count = 0
    for e in events:
        name = type(e).__name__
        if kind == "port_royal":
            count += {"CardRevealed": 1, "CoinsGained": getattr(e, "count", 0)}.get(name, 0)
            count += name == "TimeCardMoved" and e.moved
        elif kind == "sail_away":
            count += name in ("MarketRefilled", "IslandRevealed")
        elif kind == "pirates_of_nassau":
            count += {"DiceRolled": len(getattr(e, "dice", ())), "DieRerolled": 1}.get(name, 0)
            count += name == "NassauRestocked" and len(e.drawn)
            count += name == "NavyCardRevealed" and e.card in (*before.navy.phase1, *before.navy.phase2)
            count += name == "MerchantDealt" and any(e.card in d.hidden for d in before.decks)
    return int(count)


PLAYS = [
    ("port_royal", 3, {"mode": "base"}),
    ("port_royal", 2, {"mode": "contract_coop", "difficulty": "2"}),
    ("sail_away", 3, {}),
    ("pirates_of_nassau", 3, {}),
    ("navegador", 3, {"random_colours": "true"}),
    ("counter", 2, {"moves": "50"}),
]


@pytest.mark.parametrize(("kind", "seats", "options"), PLAYS, ids=[f"{k}-{o}" for k, _, o in PLAYS])
def test_every_draw_during_play_is_one_the_document_lists(kind: str, seats: int, options: dict[str, str]) -> None:
    """Random play: each step advances the generator by exactly the draws its events show."""
    rules = REGISTRY[kind]
    config = config_from_options(rules.config_type, seats, options)
    draws = 0
    for label in range(2):
        driver = random.Random(label)
        state = rules.new_game(config, int.from_bytes(hashlib.sha256(bytes([label])).digest()[:16], "big"))
        for _ in range(600):
            acting = sorted(rules.to_act(state))
            if not acting:
                break
            seat = driver.choice(acting)
            step = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat)))
            expected = _draws(kind, state, tuple(step.events))
            assert step.state.rng.counter - state.rng.counter == expected, (kind, label, step.events)
            draws += expected
            state = step.state
    assert draws > 0 or kind in ("navegador", "counter")
