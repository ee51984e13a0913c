"""The fairness test vectors (tests/data/fairness_vectors.json, docs/fairness.md) are what the
engines' `Rng` and `new_game` give today, and they exercise what the document specifies."""

from __future__ import annotations

import hashlib
import importlib.util
import json
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
