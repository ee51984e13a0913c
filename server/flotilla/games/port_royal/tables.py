"""Numeric rules of Port Royal (spec §3, §4, §8); [designed] values are marked."""

from __future__ import annotations

STARTING_COINS = 3  # spec §3.1 step 4
END_VP = 12  # spec §8.1
TAX_THRESHOLD = 12  # spec §4.4: 12 or more coins are halved (rounded down)
ALLOWANCE_BY_COLOURS = (1, 1, 1, 1, 2, 3)  # spec §4.6: index = distinct ship colours in the harbor
ADMIRAL_MIN_HARBOR = 5
ADMIRAL_COINS = 2
VICE_ADMIRAL_HARBOR = frozenset({3, 4})
NON_ACTIVE_FEE = 1
SPECIAL_SHIP_GIFT = 1

CUBES_PER_PLAYER = 3  # spec §2.10
MAX_CONTRACTS = 3
VP_TOKENS_FOR_COMPLETION = (0, 0, 1, 2)  # index = completed count after the completion (R26)
FACE_UP_COMPETITIVE = 4  # spec §3.2
FACE_UP_COOP = (0, 3, 5, 7, 9, 11)  # spec §3.3: index = players
TIME_PILE_BASE = 13  # spec §3.3 step 4
MAX_DIFFICULTY = 13
"""[designed] Largest accepted co-op difficulty k: the smallest possible time pile has 14 cards
(face-up C05, C11 and one 0-seal contract with another letter), so k <= 13 always satisfies
the spec's bound k <= T - 1 without knowing T before setup."""

FIGHTER_SWORDS = 3  # C08
CHEAP_STAFF_COST = 3  # C15: printed cost <= 3
CHEAP_STAFF_COUNT = 4
TRADER_PRINCE_TRADERS = 2  # C06
TINY_GAMESTER_COLOURS = 3  # C16
GAMESTER_COLOURS = 4  # C14
ROYAL_HOUSEHOLD_VP = 12  # C17
RANSOM_COINS = 15  # C18

RANK_TITLES = ((0, "Landlubber"), (2, "Sailor"), (4, "Pirate"), (6, "Captain"), (8, "Ruler of the Seas"))
"""Coop rank by victory-pile size (spec §8.2): the last row whose threshold is reached."""

MAX_TURNS = 600
"""[designed] Turn cap for the competitive modes: the spec notes a game where nobody hires has
no end. When the round containing turn MAX_TURNS is complete the game ends and is scored as
usual (most VP, then coins). Random play never comes near it."""


def rank_title(victory_pile: int) -> str:
    """The coop title for a victory pile of this size."""
    title = RANK_TITLES[0][1]
    for threshold, name in RANK_TITLES:
        if victory_pile >= threshold:
            title = name
    return title
