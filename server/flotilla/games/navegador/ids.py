"""Parse the string ids carried by actions (InvalidAction for unknown ids)."""

from __future__ import annotations

from flotilla.rules import InvalidAction

from .tables import BUILDING_IDS, COLONY_IDS, REGION_IDS

BUILDING_INDEX = {b: i for i, b in enumerate(BUILDING_IDS)}
COLONY_INDEX = {c: i for i, c in enumerate(COLONY_IDS)}
REGION_INDEX = {r: i for i, r in enumerate(REGION_IDS)}


def building(building_id: str) -> int:
    i = BUILDING_INDEX.get(building_id)
    if i is None:
        msg = f"unknown building {building_id!r}; buildings are {', '.join(BUILDING_IDS)}"
        raise InvalidAction(msg, building=str(building_id))
    return i


def colony(colony_id: str) -> int:
    i = COLONY_INDEX.get(colony_id)
    if i is None:
        msg = f"unknown colony {colony_id!r}; colonies are C01..C21"
        raise InvalidAction(msg, colony=str(colony_id))
    return i


def region(region_id: str) -> int:
    i = REGION_INDEX.get(region_id)
    if i is None:
        msg = f"unknown sea region {region_id!r}; regions are SR0..SR12"
        raise InvalidAction(msg, region=str(region_id))
    return i


def count(value: object, what: str) -> int:
    """A non-negative whole number from an action field."""
    if type(value) is not int or value < 0:
        msg = f"{what} must be a whole number >= 0, got {value!r}"
        raise InvalidAction(msg, field=what)
    return value
