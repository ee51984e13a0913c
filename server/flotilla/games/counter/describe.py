"""The counter game's texts for humans (`rules.describe`)."""

from __future__ import annotations

from flotilla.rules.describe import Describer

from . import Add, Added

DESCRIBER = Describer("counter", {Add: "Add {n}"}, {Added: "Seat {seat_number} adds {n}: the total is {total}"})
"""Texts of the counter game's action and event."""
