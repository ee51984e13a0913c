"""The SDK's reference implementation of docs/fairness.md (flotilla_client.fairness) gives the
test vectors exactly, from the vectors file alone, and imports nothing but the standard library."""

from __future__ import annotations

import ast
import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import pytest

from flotilla_client import fairness

ROOT = Path(__file__).resolve().parent.parent
VECTORS = json.loads((ROOT / "tests" / "data" / "fairness_vectors.json").read_text())
GENERATOR = VECTORS["generator"]
DEALS = [(kind, d, game["tables"]) for kind, game in VECTORS["games"].items() for d in game["deals"]]


def test_it_imports_only_the_standard_library() -> None:
    tree = ast.parse(Path(fairness.__file__).read_text())
    imported = {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    imported |= {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    assert imported, "the scan found no import at all"
    assert {name.split(".")[0] for name in imported} <= set(sys.stdlib_module_names) | {"__future__"}


@pytest.mark.parametrize("v", GENERATOR, ids=lambda v: v["seed"][:8])
def test_commitment(v: Any) -> None:
    assert fairness.commitment(v["seed"]) == v["seed_sha256"]
    assert fairness.commitment_matches(v["seed"], v["seed_sha256"].upper())
    other = f"{(int(v['seed'], 16) ^ 1):032x}"
    assert not fairness.commitment_matches(other, v["seed_sha256"])
    assert not fairness.commitment_matches(v["seed"], hashlib.sha256(v["seed"].encode()).hexdigest())


@pytest.mark.parametrize("v", GENERATOR, ids=lambda v: v["seed"][:8])
def test_generator(v: Any) -> None:
    rng = fairness.Rng(v["seed"])
    assert [f"{rng.next_word():016x}" for _ in v["words"]] == v["words"]
    assert {c: f"{rng.word(int(c)):016x}" for c in v["words_at"]} == v["words_at"]
    for b in v["below"]:
        rng = fairness.Rng(v["seed"])
        got = []
        for _ in b["values"]:
            got.append((str(rng.below(int(b["n"]))), rng.counter))
        assert got == list(zip(b["values"], b["counters"], strict=True)), b["n"]
    for f in v["fork"]:
        child = fairness.Rng(v["seed"]).fork(int(f["salt"]))
        assert (child.seed, child.counter) == (f["seed"], 0)
        assert [f"{child.next_word():016x}" for _ in f["words"]] == f["words"]
    assert fairness.Rng(v["seed"], counter=5).fork(1).seed == v["fork_at_counter_5_salt_1"]
    for s in v["shuffle"]:
        rng = fairness.Rng(v["seed"])
        assert rng.shuffle(range(s["k"])) == s["result"]
        assert rng.counter == s["counter"]
    rng = fairness.Rng(v["seed"])
    pile = list(v["draw"]["pile"])
    assert [rng.draw(pile) for _ in v["draw"]["drawn"]] == v["draw"]["drawn"]
    assert (pile, rng.counter) == ([], v["draw"]["counter"])


@pytest.mark.parametrize(("kind", "d", "tables"), DEALS, ids=[f"{k}-{d['seats']}-{d['options']}" for k, d, _ in DEALS])
def test_deal(kind: str, d: Any, tables: Any) -> None:
    assert fairness.commitment_matches(d["seed"], d["seed_sha256"])
    assert fairness.deal(kind, d["seed"], d["seats"], d["options"], tables) == d["deal"]
    if kind == "sail_away":
        after = d["after_keep"]
        market = fairness.sail_away_market(d["seed"], d["deal"], after["kept"], tables)
        assert market == {"market": after["market"], "counter": after["counter"]}


def test_bad_input_is_refused_with_a_reason() -> None:
    with pytest.raises(ValueError, match="32 hex digits"):
        fairness.Rng("abc")
    with pytest.raises(ValueError, match="32 hex digits"):
        fairness.commitment("0011 2233 4455 6677 8899 aabb cc")
    with pytest.raises(ValueError, match="non-hexadecimal"):
        fairness.Rng("zz" * 16)
    with pytest.raises(ValueError, match="16 bytes"):
        fairness.Rng(b"short")
    rng = fairness.Rng("00" * 16)
    for n in (0, -1, 2**64 + 1):
        with pytest.raises(ValueError, match="1 <= n <= 2"):
            rng.below(n)
    assert rng.counter == 0
    with pytest.raises(ValueError, match="no deal is specified for 'counter'"):
        fairness.deal("counter", "00" * 16, 2, {}, {})
