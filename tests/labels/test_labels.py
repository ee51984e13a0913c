"""Every legal action and every delivered event of random games of every kind and mode has a text:
a non-empty English label, a key from its game's documented key set, and arguments from which the
key's template rebuilds the label; the legal actions of one prompt read differently."""

from __future__ import annotations

import dataclasses
import random
import re
import string
import typing
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from flotilla.app import clocks
from flotilla.app.host import GameHost
from flotilla.app.host_events import ABSENT, RULES_EVENT, TIMED_OUT
from flotilla.games import counter, navegador, pirates_of_nassau, port_royal, sail_away
from flotilla.gateway.render import Renderer
from flotilla.records import EventRow
from flotilla.rules import GameRules, Seat
from flotilla.rules.describe import Describer, Text, snake
from flotilla.rules.testing import codec_for, game_seed

AnyRules = GameRules[Any, Any, Any, Any, Any]
MAX_STEPS = 1500
SEAT_STEPS = 300  # moves of each random game whose labels are checked for 1-based seat numbers
_SEATS_READ = re.compile(r"\b[Ss]eats? (\d+(?:, \d+)*)")  # "Seat 2", "seat 2's", "seats 1, 3"

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


def playout(case: tuple[AnyRules, Any], steps: int) -> Iterator[tuple[str, Sequence[Any], list[Text]]]:
    """The texts of a random game of at most `steps` moves: per seat to act `("action", its legal
    actions, their texts)`, per event `("event", the event as each viewer sees it, those texts)`."""
    rules, config = case
    describer = _describer(rules)
    viewers = (None, *(Seat(i) for i in range(rules.seats_of(config))))
    driver = random.Random(7)
    state = rules.new_game(config, game_seed(7))
    for _ in range(steps):
        acting = rules.to_act(state)
        if not acting:
            return
        for seat in sorted(acting):
            legal = rules.legal_actions(state, seat)
            yield "action", legal, [describer.describe(a) for a in legal]
        seat = driver.choice(sorted(acting))
        state, events = rules.apply(state, seat, driver.choice(rules.legal_actions(state, seat)))
        for event in events:
            shown = [s for viewer in viewers if (s := rules.redact(event, viewer)) is not None]
            yield "event", shown, [describer.describe(s) for s in shown]


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_random_games_have_texts_for_every_legal_action_and_event(case: tuple[AnyRules, Any]) -> None:
    describer = _describer(case[0])
    used: set[str] = set()
    for kind, values, texts in playout(case, MAX_STEPS):
        for value, text in zip(values, texts, strict=True):
            check_text(describer, text, value)
        if kind == "action":
            used.update(t.key for t in texts)
            twice = [label for label, n in Counter(t.label for t in texts).items() if n > 1]
            assert not twice, f"two legal actions of one seat read {twice[0]!r}"
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
    row = EventRow(2, 0, RULES_EVENT, codec.to_plain(picked[0]))
    mine = renderer.event("g1", host, row, Seat(0), "lin")
    theirs = renderer.event("g1", host, row, Seat(1), "lin")
    assert mine.text.message_key == "sail_away.event.ship_picked"
    assert mine.summary == mine.text.label
    assert (theirs.text.message_key, theirs.summary) == ("game.event.hidden", "hidden event")
    _, kept = rules.apply(state, Seat(0), legal[-1])  # the SD1 default, a KeepShips
    row = EventRow(3, 0, RULES_EVENT, codec.to_plain(kept[0]))
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


def _is_seat(hint: Any) -> bool:
    """Whether a field annotation holds seats: `Seat`, `Seat | None`, `tuple[Seat, ...]`."""
    return hint is Seat or any(_is_seat(arg) for arg in typing.get_args(hint))


@pytest.mark.parametrize(
    "rules", sorted({c[0] for c in CASES}, key=lambda r: (r.name, r.version)), ids=lambda r: f"{r.name}-v{r.version}"
)
def test_no_template_shows_a_0_based_seat(rules: AnyRules) -> None:
    """A seat-valued field reads through `<field>_number(s)` in every template, never raw."""
    describer = _describer(rules)
    kinds = {
        f"{describer.game}.{kind}.{snake(t.__name__)}": t
        for kind, types in (("action", rules.action_types), ("event", rules.event_types))
        for t in types
    }
    numbered = 0
    for key, template in describer.templates.items():
        cls = kinds.get(".".join(key.split(".")[:3]))
        if cls is None:
            continue  # a type of another rules version sharing the describer: checked with that version
        hints = typing.get_type_hints(cls)
        seats = {f.name for f in dataclasses.fields(cls) if _is_seat(hints[f.name])}
        used = {name for _, name, _, _ in string.Formatter().parse(template) if name}
        assert not used & seats, f"{key} shows 0-based seats {sorted(used & seats)}: {template!r}"
        numbered += len(used & {f"{f}_{suffix}" for f in seats for suffix in ("number", "numbers")})
    assert numbered, f"no {describer.game} template names a seat"


@pytest.mark.parametrize("case", CASES, ids=_id)
def test_random_games_number_seats_from_1_in_every_label(case: tuple[AnyRules, Any]) -> None:
    """No label of a random game says "Seat 0"; every seat it names is within 1..seats, and over the
    game every seat is named (so the numbers are shifted, not clipped)."""
    seats = case[0].seats_of(case[1])
    named: set[int] = set()
    for _, values, texts in playout(case, SEAT_STEPS):
        for value, text in zip(values, texts, strict=True):
            assert "Seat 0" not in text.label, f"{value}: {text.label!r}"
            assert "seat 0" not in text.label, f"{value}: {text.label!r}"
            for listed in _SEATS_READ.findall(text.label):
                numbers = {int(n) for n in listed.split(", ")}
                assert numbers <= set(range(1, seats + 1)), f"{value}: {text.label!r} names a seat out of 1..{seats}"
                named |= numbers
    assert named == set(range(1, seats + 1)), f"only seats {sorted(named)} of {seats} are named"


def test_the_servers_own_events_number_seats_from_1() -> None:
    """Timed out and absent read "Seat 2" for seat 1, whose 0-based number still travels as `seat`."""
    renderer, host = Renderer(), GameHost(counter.RULES)
    timed_out = renderer.event("g1", host, EventRow(5, 0, TIMED_OUT, {"seat": 1, "consecutive": 2}), None, "lin")
    absent = renderer.event(
        "g1", host, EventRow(6, 0, ABSENT, {"seat": 1, "reason": "timeouts", "policy": clocks.BOT}), None, "lin"
    )
    assert timed_out.summary == "Seat 2 timed out (2 in a row)"
    assert absent.summary.startswith("Seat 2 is absent (timeouts)")
    for event in (timed_out, absent):
        assert (event.text.args["seat"], event.text.args["seat_number"]) == ("1", "2")


def test_seats_and_lists_of_seats_read_one_based_and_args_stay_as_on_the_wire() -> None:
    describer = _describer(navegador.RULES)
    ended = describer.describe(navegador.events.GameEnded(scores=(5, 3, 5), winners=(Seat(0), Seat(2))))
    assert ended.label == "The game ends; winners: seats 1, 3"
    assert (dict(ended.args)["winners"], dict(ended.args)["winners_numbers"]) == ("0, 2", "1, 3")
    added = _describer(counter.RULES).describe(counter.Added(Seat(0), 2, 2))
    assert added.label == "Seat 1 adds 2: the total is 2"
    assert (dict(added.args)["seat"], dict(added.args)["seat_number"]) == ("0", "1")
    assert _rebuilt(ended, describer) == ended.label
