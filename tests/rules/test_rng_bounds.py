"""The generator refuses what it cannot do, instead of looping or overflowing."""

from __future__ import annotations

import pytest

from flotilla.rules.rng import Rng


def test_below_takes_one_to_two_to_the_64() -> None:
    rng = Rng(7)
    assert rng.below(1)[0] == 0
    assert 0 <= rng.below(1 << 64)[0] < 1 << 64
    for n in (0, -3, (1 << 64) + 1):  # 2**64 + 1 used to loop forever (a rejection bound of 0)
        with pytest.raises(ValueError, match="below"):
            rng.below(n)


def test_fork_takes_a_128_bit_salt() -> None:
    rng = Rng(7)
    assert rng.fork((1 << 128) - 1) != rng.fork(0)
    for salt in (-1, 1 << 128):
        with pytest.raises(ValueError, match="fork"):
            rng.fork(salt)
