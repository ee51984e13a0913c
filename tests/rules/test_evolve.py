"""`flotilla.rules.evolve` copies like `dataclasses.replace`: same values, same refusals, and the
checks of a class with a `__post_init__` still run."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from flotilla.rules.evolve import evolve


@dataclasses.dataclass(frozen=True, slots=True)
class Player:
    coins: int
    cards: tuple[str, ...] = ()


@dataclasses.dataclass(frozen=True)
class Checked:
    seats: int

    def __post_init__(self) -> None:
        if not 2 <= self.seats <= 4:
            raise ValueError(self.seats)


def test_a_copy_has_the_changes_and_leaves_the_original_alone() -> None:
    before = Player(3, ("a",))
    after = evolve(before, coins=5)
    assert after == dataclasses.replace(before, coins=5) == Player(5, ("a",))
    assert before == Player(3, ("a",))
    assert type(after) is Player
    assert evolve(before) == before


def test_an_unknown_field_is_refused_as_by_replace() -> None:
    changes: dict[str, Any] = {"coin": 1}
    with pytest.raises(TypeError):
        dataclasses.replace(Player(3), **changes)
    with pytest.raises(TypeError, match="coin"):
        evolve(Player(3), **changes)


def test_a_class_that_checks_itself_is_still_checked() -> None:
    assert evolve(Checked(3), seats=4) == Checked(4)
    with pytest.raises(ValueError, match="7"):
        evolve(Checked(3), seats=7)
