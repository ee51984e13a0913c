"""Every legal action and every delivered event of random games of every kind and mode has a text:
a non-empty English label, a key from its game's documented key set, and arguments from which the
key's template rebuilds the label; the legal actions of one prompt read differently."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from flotilla.app.host import RULES_EVENT, GameHost
from flotilla.games import counter, navegador, pirates_of_nassau, port_royal, sail_away
from flotilla.gateway.render import Renderer
from flotilla.rules import GameRules, Seat
from flotilla.rules.describe import Describer, Text
from flotilla.rules.testing import codec_for, game_seed

AnyRules = GameRules[Any, Any, Any, Any, Any]
MAX_STEPS = 1500

CASES: list[tuple[AnyRules, Any]] = [
    *((sail_away.RULES, sail_away.Config(seats=n)) for n in (2, 3, 4)),
    *((port_royal.RULES, port_royal.Config(seats=n, mode=mode)) for mode in port_royal.Mode for n in (2, 5)),
    *((pirates_of_nassau.RULES, pirates_of_nassau.Config(seats=n)) for n in (2, 5)),
    *((navegador.RULES, navegador.Config(seats=n)) for n in (2, 5)),
    (navegador.RULES_V1, navegador.Config(seats=2)),  # rules version 1, still served for games in flight
    (navegador.RULES, navegador.Config(seats=3, random_colours=True)),
    (counter.RULES, counter.Config(moves=20)),
]


def _id(case: tuple[AnyRules, Any]) -> str:
    rules, config = case
    return f"{rules.name}-v{rules.version}-{config}"


def _describer(rules: AnyRules) -> Describer:
    assert rules.describer is not None, f"{rules.name} has no describer"
    return rules.describer


def check_text(describer: Describer, text: Text, what: object) -> None:
    """`text` is non-empty, keyed from the game's key set, and rebuilt from its arguments."""
    assert text.label.strip(), f"{what} has an empty label"
    assert "?" not in text.label, f"{what}: a placeholder has no value in {text.label!r}"
    template = describer.templates.get(text.key)
    assert template is not None, f"{what}: {text.key!r} is not a {describer.game} key"
    assert text.key.startswith(f"{describer.game}.")
    assert template.format(**dict(text.args)) == text.label


@pytest.mark.parametrize(
    "rules", sorted({c[0] for c in CASES}, key=lambda r: (r.name, r.version)), ids=lambda r: f"{r.name}-v{r.version}"
)
def test_every_action_and_event_type_has_a_template(rules: AnyRules) -> None:
    describer = _describer(rules)
    assert describer.covers(rules.action_types) == []
    assert describer.covers(rules.event_types) == []
    assert all(key.split(".")[1] in ("action", "event") for key in describer.keys)


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_random_games_have_texts_for_every_legal_action_and_event(case: tuple[AnyRules, Any]) -> None:
    rules, config = case
    describer = _describer(rules)
    seats = rules.seats_of(config)
    driver = random.Random(7)
    state = rules.new_game(config, game_seed(7))
    used: set[str] = set()
    for _ in range(MAX_STEPS):
        acting = rules.to_act(state)
        if not acting:
            break
        for seat in sorted(acting):
            legal = rules.legal_actions(state, seat)
            texts = [describer.describe(a) for a in legal]
            for action, text in zip(legal, texts, strict=True):
                check_text(describer, text, action)
                used.add(text.key)
            twice = [label for label, n in Counter(t.label for t in texts).items() if n > 1]
            assert not twice, f"two legal actions of seat {seat} read {twice[0]!r}"
        seat = driver.choice(sorted(acting))
        state, events = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat)))
        for event in events:
            for viewer in (None, *(Seat(i) for i in range(seats))):
                shown = rules.redact(event, viewer)
                if shown is not None:
                    check_text(describer, describer.describe(shown), shown)
    assert used, "no legal action was described"


def test_the_renderer_sends_the_describers_texts() -> None:
    """A prompt carries one text per legal action, in order; an event's summary is its label."""
    rules = sail_away.RULES
    host = GameHost(rules)
    renderer = Renderer()
    state = rules.new_game(sail_away.Config(seats=2), game_seed(3))
    legal = rules.legal_actions(state, Seat(0))
    prompt = renderer.prompt(host, Seat(0), legal, 1, "lin")
    assert len(prompt.legal_action_texts) == len(prompt.legal_actions) == len(legal)
    for action, text in zip(legal, prompt.legal_action_texts, strict=True):
        expected = _describer(rules).describe(action)
        assert (text.label, text.message_key, dict(text.args)) == (expected.label, expected.key, dict(expected.args))
    codec = codec_for(rules)
    _, picked = rules.apply(state, Seat(0), legal[0])  # a PickShip: its seat's only
    row = [2, 0, RULES_EVENT, codec.to_plain(picked[0])]
    mine = renderer.event("g1", host, row, Seat(0), "lin")
    theirs = renderer.event("g1", host, row, Seat(1), "lin")
    assert mine.text.message_key == "sail_away.event.ship_picked"
    assert mine.summary == mine.text.label
    assert (theirs.text.message_key, theirs.summary) == ("game.event.hidden", "hidden event")
    _, kept = rules.apply(state, Seat(0), legal[-1])  # the SD1 default, a KeepShips
    row = [3, 0, RULES_EVENT, codec.to_plain(kept[0])]
    mine = renderer.event("g1", host, row, Seat(0), "lin")
    theirs = renderer.event("g1", host, row, Seat(1), "lin")
    assert mine.text.message_key == "sail_away.event.ships_kept"
    assert theirs.text.message_key == "sail_away.event.ships_kept.hidden"
    assert mine.summary == mine.text.label
    assert theirs.summary == theirs.text.label
    ships = legal[-1].ships
    assert all(ship in mine.text.label for ship in ships)
    assert not any(ship in theirs.text.label or ship in theirs.text.args.values() for ship in ships)


def _rebuilt(text: Text, describer: Describer) -> str:
    return describer.templates[text.key].format(**dict(text.args))


def test_counts_read_singular_for_one_and_plural_otherwise() -> None:
    describer = _describer(navegador.RULES)
    one = describer.describe(navegador.actions.BuyWorkers(1))
    two = describer.describe(navegador.actions.BuyWorkers(2))
    assert (one.label, two.label) == ("Buy 1 worker", "Buy 2 workers")
    assert one.key == two.key + ".one"
    assert dict(one.args)["count"] == "1"  # the count still travels for a translator
    assert _rebuilt(one, describer) == one.label
    assert _rebuilt(two, describer) == two.label
    nassau = _describer(pirates_of_nassau.RULES)
    assert nassau.describe(pirates_of_nassau.actions.Bury(1)).label == "Bury 1 peso in your chest"


def test_zero_based_positions_read_one_based_and_args_stay_as_on_the_wire() -> None:
    describer = _describer(sail_away.RULES)
    text = describer.describe(sail_away.actions.LoadCrate("SH01", 0))
    assert text.label.endswith("space 1")
    assert dict(text.args)["space"] == "0"
    assert dict(text.args)["space_number"] == "1"
    assert _rebuilt(text, describer) == text.label
