"""Texts and layout hints for clients (catalogue.py): token effects in English, section and navy
card names, where each sea space is drawn and what kind of space it is. The rules never read them."""

from __future__ import annotations

import enum

from .tables import LAYOVERS, PORTS, SPACES, zone_of

# English effect of each token kind (§2.8, §2.9); {placeholders} are filled from the kind's numbers.
TOKEN_TEXT: dict[str, str] = {
    "Cannon": "+{cannon} cannon, always.",
    "Great Cannon": "+{raid_cannon} cannon when raiding a port.",
    "Figurehead": "+{cannon} cannon, always.",
    "Gun Deck": "+{cannon} cannon, always.",
    "Captain's Cabin": "+{cannon} cannon, always.",
    "Bow Chasers": "+{cannon} cannon, always.",
    "Topsail": "+{sail} sail, always.",
    "Staysail": "+{sail} sail, always.",
    "Foresail": "+{navy_sail} sail in a Royal Navy fight.",
    "Main Course": "+{sail} sail, always.",
    "Spanker": "+{sail} sail, always.",
    "Crow's Nest": "Once a round, in your pirate turn before you move: re-roll one of your unused dice.",
    "Jolly Roger": "Once a round: in one Plunder, a tie counts as a success in both comparisons.",
    "Ratlines": "Once a round: +{boost_sail} sail in one Plunder or Royal Navy fight.",
    "Boatswain": "Once a round: +{boost_cannon} cannon in one Royal Navy fight.",
    "Helmsman's Mate": "Once a round: +{boost_sail} sail in one Plunder.",
    "Sailing Master": "Once a round: +{boost_sail} sail in one Plunder or Royal Navy fight.",
    "Master Gunner": "Once a round: +{boost_cannon} cannon in any one fight.",
    "Marksman": "Once a round: +{boost_cannon} cannon in one Plunder.",
    "Lookout": "Once a round: +{boost_sail} sail in one Royal Navy fight.",
    "Rigger": "Once a round: +{boost_sail} sail and +{boost_cannon} cannon in one Royal Navy fight.",
    "Cartographer": "Once a round: +1 or -1 to the movement value of one move.",
    "Pilot": "Once a round: +2 or -2 to the movement value of one move.",
    "Carpenter": "Once a round: one purchase in Nassau costs 1 resource less.",
    "Sailmaker": "Once a round: one sail-token purchase costs 1 resource less.",
    "Powder Monkey": "Once a round: in one purchase, pay 1 rum or 1 goods instead of 1 gunpowder.",
    "Cooper": "Once a round: in one purchase, pay 1 gunpowder or 1 goods instead of 1 rum.",
    "Ship's Cook": "Once a round: when you smuggle, take 1 more of a resource you smuggled.",
    "Quartermaster": "Once a round: when you plunder successfully, take 1 more peso.",
    "Surgeon": "Once a round: when the Royal Navy makes you lose notoriety or cargo, lose {surgeon} less of each.",
    "Purser": "Once a round: sell {purser} resources (instead of {sell}) for 1 peso.",
    "Cabin Boy": "Once a round: when you ransom a hostage, take 1 more peso.",
    "Fiddler": "Once a round: +{fiddler} notoriety at your own notoriety adjustment.",
    "Ship's Dog": "Once a round: +{boost_cannon} cannon in one Raid.",
    "Ship's Cat": "No ability (a lucky cat).",
}
SECTION_NAMES = ("Bow and Stern", "Brigantine section", "Galleon section")
NAVY_NAMES = {"empty": "Empty Sea", "end": "End of Game", "ship": "Royal Navy {sail}/{cannon}"}

# [designed] Layout hints: the centre of each sea space in board units (100 wide, y downwards); the
# track runs left to right in three rows, one per zone.
SEA_LAYOUT: dict[int, tuple[float, float]] = {
    space: (12.0 + 12.0 * ((space - 1) % 7), 20.0 + 30.0 * (zone_of(space) - 1)) for space in range(1, SPACES + 1)
}


class SpaceType(enum.Enum):
    """What a sea space is (§2.2)."""

    PORT = 1
    ROUTE = 2
    LAYOVER = 3


def space_type(space: int) -> SpaceType:
    """Whether sea space `space` is a port, a trade route or a layover."""
    if space in PORTS:
        return SpaceType.PORT
    return SpaceType.LAYOVER if space in LAYOVERS else SpaceType.ROUTE
