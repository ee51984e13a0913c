"""`compile_inits`: every game's frozen dataclasses get a faster `__init__` that builds the very
objects the generated one built, with the same signature."""

from __future__ import annotations

import dataclasses
import inspect
import random
from typing import Any

import pytest

from flotilla.games import REGISTRY, served
from flotilla.rules.codec import reachable_types
from flotilla.rules.inits import GENERATED
from flotilla.rules.testing import game_seed, random_walk

ALL_RULES = [r for name in REGISTRY for r in served(name)]


def _types(rules: Any) -> tuple[type, ...]:
    roots = (rules.state_type, *rules.action_types, *rules.event_types, rules.view_type, rules.config_type)
    return reachable_types(*roots)


def _rebuild(value: Any, init: str) -> Any:
    """`value` built again from its fields, each dataclass through its `__init__` (`init="compiled"`)
    or through the one dataclasses generated (`init="generated"`)."""
    if isinstance(value, tuple):
        return tuple(_rebuild(v, init) for v in value)
    if isinstance(value, frozenset):
        return frozenset(_rebuild(v, init) for v in value)
    if not dataclasses.is_dataclass(value) or isinstance(value, type):
        return value
    cls = type(value)
    kwargs = {f.name: _rebuild(getattr(value, f.name), init) for f in dataclasses.fields(value) if f.init}
    if init == "generated" and cls in GENERATED:
        obj = object.__new__(cls)
        GENERATED[cls](obj, **kwargs)
        return obj
    return cls(**kwargs)


def test_most_types_are_compiled_with_the_same_signature() -> None:
    compiled = {cls for rules in ALL_RULES for cls in _types(rules)} & GENERATED.keys()
    assert len(compiled) > 200
    for cls, generated in GENERATED.items():
        assert cls.__init__ is not generated
        assert inspect.signature(cls.__init__) == inspect.signature(generated), cls


@pytest.mark.parametrize("rules", ALL_RULES, ids=[f"{r.name}-v{r.version}" for r in ALL_RULES])
def test_compiled_inits_build_the_same_objects(rules: Any) -> None:
    config = rules.config_type(seats=3) if rules.name != "counter" else rules.config_type()
    start = rules.new_game(config, game_seed(1))
    for step, state in enumerate(random_walk(rules, start, random.Random(1))):
        if step % 10 == 0:
            values = [state, *(rules.view(state, v) for v in (None, 0, 1, 2))]
            for value in values:
                assert _rebuild(value, "compiled") == value == _rebuild(value, "generated")
        if step > 120:
            break
