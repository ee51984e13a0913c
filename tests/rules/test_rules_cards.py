"""`flotilla.rules.cards`: the catalogue minus what is in sight, and the conservation check the
engines' invariants share (it must fail on a card lost, doubled or unknown)."""

from __future__ import annotations

import pytest

from flotilla.rules.cards import check_conserved, unseen


def test_unseen_removes_one_copy_per_sighting_and_sorts() -> None:
    assert unseen(["c", "a", "b", "a"], ["a", "x"]) == ("a", "b", "c")
    assert unseen(["b2", "a10", "a9"], [], key=lambda c: (c[0], int(c[1:]))) == ("a9", "a10", "b2")


def test_conserved_cards_pass_in_any_order() -> None:
    check_conserved("cards", ["b", "a", "a"], ["a", "a", "b"])
    check_conserved("cards", iter(("b", "a")), ("a", "b"))  # any iterable, a tuple catalogue


@pytest.mark.parametrize(
    ("places", "words"),
    [
        (["a"], "missing {'b': 1}, extra {}"),
        (["a", "b", "b"], "missing {}, extra {'b': 1}"),
        (["a", "z"], "missing {'b': 1}, extra {'z': 1}"),
    ],
)
def test_a_lost_doubled_or_unknown_card_fails_and_is_named(places: list[str], words: str) -> None:
    with pytest.raises(AssertionError, match="ships not conserved") as raised:
        check_conserved("ships", places, ("a", "b"))
    assert str(raised.value) == f"ships not conserved: {words}"
