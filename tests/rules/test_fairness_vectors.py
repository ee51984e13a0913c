"""The fairness test vectors (tests/data/fairness_vectors.json, docs/fairness.md) are what the
engines' `Rng` and `new_game` give today, and they exercise what the document specifies."""

from __future__ import annotations

import dataclasses
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
from flotilla.games.pirates_of_nassau import tables as pn
from flotilla.games.pirates_of_nassau.state import Deck, TokenPile
from flotilla.games.port_royal import cards as pr_cards
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


class _Follower:
    """Predicts every card, token and die one step draws from the state before it and its events,
    by the rules of docs/fairness.md, with the engine's own generator."""

    def __init__(self, kind: str, before: Any) -> None:
        self.kind, self.s, self.rng = kind, before, before.rng

    def below(self, n: int) -> int:
        value, self.rng = self.rng.below(n)
        return value

    def draw(self, pile: list[Any]) -> Any:
        return pile.pop(self.below(len(pile)))

    def port_royal(self, events: tuple[Any, ...], after: Any) -> None:
        order = pr_cards.ORDER.__getitem__
        draw, time, reshuffles = list(self.s.draw_pile), list(self.s.time_pile), list(after.reshuffled)

        def take() -> str:
            nonlocal draw
            if not draw:  # the whole discard pile, sorted: what View.reshuffled lists
                draw, count = reshuffles[: pending[0]], pending.pop(0)
                del reshuffles[:count]
            return str(self.draw(draw))

        pending = [e.cards for e in events if type(e).__name__ == "DrawPileReshuffled"]
        for e in events:
            name = type(e).__name__
            if name == "CardRevealed":
                assert e.card == (self.draw(time) if e.from_time_pile else take())
            elif name == "CoinsGained":  # after its draws: a reshuffle among them is announced before it
                for _ in range(e.count):
                    take()
            elif name == "TimeCardMoved" and e.moved:
                self.draw(time)
        assert (draw, sorted(time, key=order)) == (list(after.draw_pile), list(after.time_pile))

    def sail_away(self, events: tuple[Any, ...], after: Any) -> None:
        ships, islands, discard = list(self.s.ship_deck), list(self.s.island_deck), list(self.s.island_discard)
        for e in events:
            name = type(e).__name__
            if name == "ShipsRevealed":
                ships = sorted([*ships, *(c for c in self.s.players[e.seat].dealt if c not in e.ships)])
            elif name == "MarketRefilled":
                assert e.ship == self.draw(ships)
            elif name == "IslandDiscarded":
                discard.append(e.island)
            elif name == "IslandDeckRefilled":
                islands, discard = sorted(discard), []
            elif name == "IslandRevealed":
                assert e.island == self.draw(islands)
        assert (ships, islands) == (list(after.ship_deck), list(after.island_deck))

    def pirates_of_nassau(self, events: tuple[Any, ...], after: Any) -> None:
        navy = [list(self.s.navy.phase1), list(self.s.navy.phase2), list(self.s.navy.bottom)]
        decks = [(list(d.hidden), list(d.bottom)) for d in self.s.decks]
        piles = {p: (list(t.hidden), list(t.discard)) for p, t in zip(pn.PILE_ORDER, self.s.piles, strict=True)}
        for e in events:
            name = type(e).__name__
            if name == "DiceRolled":
                assert list(e.dice) == [self.below(6) + 1 for _ in e.dice]
            elif name == "DieRerolled":
                assert e.new == self.below(6) + 1
            elif name == "NavyCardReturned":
                navy[2].append(e.card)
            elif name == "NavyCardRevealed":
                assert e.card == (self.draw(navy[0]) if navy[0] else self.draw(navy[1]) if navy[1] else navy[2].pop(0))
            elif name == "MerchantSailedAway":
                decks[pn.MERCHANTS[e.card].zone - 1][1].append(e.card)
            elif name == "MerchantDealt":
                hidden, bottom = decks[pn.zone_of(e.space) - 1]
                assert e.card == (self.draw(hidden) if hidden else bottom.pop(0))
            elif name == "NassauRestocked":  # after its draws: the display's tokens were discarded first
                for t in e.discarded:
                    piles[pn.TOKENS[t].pile][1].append(t)
                for t in e.drawn:
                    hidden, discard = piles[pn.TOKENS[t].pile]
                    if not hidden:
                        hidden += sorted(discard)
                        discard.clear()
                    assert t == self.draw(hidden)
        assert navy[:2] == [list(after.navy.phase1), list(after.navy.phase2)]
        assert [h for h, _ in decks] == [list(d.hidden) for d in after.decks]
        assert [piles[p][0] for p in pn.PILE_ORDER] == [list(t.hidden) for t in after.piles]


PLAYS = [
    ("port_royal", 3, {"mode": "base"}),
    ("port_royal", 2, {"mode": "contract_coop", "difficulty": "2"}),
    ("sail_away", 3, {}),
    ("pirates_of_nassau", 3, {}),
    ("navegador", 3, {"random_colours": "true"}),
    ("counter", 2, {"moves": "50"}),
]


def _follow(kind: str, state: Any, driver: random.Random, steps: int = 600) -> int:
    """Play randomly, checking each step with a _Follower; the words the steps drew."""
    rules = REGISTRY[kind]
    start = state.rng.counter
    for _ in range(steps):
        acting = sorted(rules.to_act(state))
        if not acting:
            break
        seat = driver.choice(acting)
        step = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat)))
        follower = _Follower(kind, state)
        getattr(follower, kind, lambda _events, _after: None)(tuple(step.events), step.state)
        assert follower.rng == step.state.rng, (kind, step.events)
        state = step.state
    return int(state.rng.counter - start)


def _seed(label: int) -> int:
    return int.from_bytes(hashlib.sha256(bytes([label])).digest()[:16], "big")


@pytest.mark.parametrize(("kind", "seats", "options"), PLAYS, ids=[f"{k}-{o}" for k, _, o in PLAYS])
def test_every_draw_during_play_follows_the_document(kind: str, seats: int, options: dict[str, str]) -> None:
    """Random play: from the state before a step and the step's events, the document's rules give
    every card, token and die the step drew, the piles after it and the generator's counter."""
    rules = REGISTRY[kind]
    config = config_from_options(rules.config_type, seats, options)
    draws = sum(_follow(kind, rules.new_game(config, _seed(label)), random.Random(label)) for label in range(2))
    assert draws > 0 or kind in ("navegador", "counter")


def test_nassau_piles_that_run_out_follow_the_document() -> None:
    """Random play rarely empties a Nassau pile or a merchant deck's unseen part: start with each
    down to one unseen item (the rest already among the discards, or sailed away)."""
    rules = REGISTRY["pirates_of_nassau"]
    state = rules.new_game(config_from_options(rules.config_type, 3, {}), _seed(7))
    piles = tuple(TokenPile(p.hidden[:1], tuple(sorted(p.hidden[1:]))) for p in state.piles)
    decks = tuple(Deck(d.hidden[:1], d.hidden[1:]) for d in state.decks)
    state = dataclasses.replace(state, piles=piles, decks=decks)
    assert _follow("pirates_of_nassau", state, random.Random(7), steps=200) > 0
