"""Rule constants of Sail Away; [seed] values from the rulebook, [designed] ones marked."""

from __future__ import annotations

PLAYERS_MIN = 2
PLAYERS_MAX = 4

STANDARD_CRATES = 7  # [seed] per player, 1 of them in the reserve
PIRATE_CRATES = 3  # [seed] per player, 1 of them in the reserve
RESERVE_STANDARD = 1  # [seed]
RESERVE_PIRATE = 1  # [seed]
CLAIM_POSTS = 2  # [seed]
START_COINS = 4  # [seed]

SHIPS_DEALT = 6  # [seed] dealt at setup
SHIPS_KEPT = 3  # [seed] kept of them (SD1)
MARKET_SIZE = 3  # [seed]
PIRATE_CARDS_IN_PLAY = 3  # [seed]
PIRATE_CARD_SPACES = 2  # [designed] §2.5

BASE_CRATE_LIMIT = 2  # [seed]
SEA_LEGS_CRATE_LIMIT = 3  # [designed] PA6
SURCHARGE = 2  # [seed] for a second placement on the same card
RETRIEVE_COST = 4  # [seed]
RANSOM = 2  # [seed]
BLACK_FLAG_RANSOM = 3  # [designed] PA8
GOLD_COIN = 5  # [seed] value of a gold coin (one per filled coin space, SR8)
SELL_CRATE_COINS = 1  # [seed] a crate not loaded at distribution
FORCED_SALE_PRICE = 1  # [published: S1] PA1
BURIED_TREASURE_COINS = 3  # [designed] PA5
HARBOR_DUES_COINS = 1  # [designed] PA7

LAUNCH_SLOTS = 5  # [seed]
END_SHIPS = 5  # [seed] launched ships that trigger the end

# [designed, ruling SA-R1] The rulebook has no end when nobody launches ships: the game also
# ends after this many full rounds (every seat has taken this many turns).
MAX_ROUNDS = 50

OPEN_ISLANDS_EXTRA = 1  # [seed] islands face up: one more than the players


def open_islands(seats: int) -> int:
    """Islands face up in the row (§3)."""
    return seats + OPEN_ISLANDS_EXTRA


# [designed] Layout hints for clients (catalogue.py): centres of the common board's rows, in board units
# (100 wide, y downwards); position k of a row of n is at x = left + k * step.
BOARD_ROWS: tuple[tuple[str, float, float, float], ...] = (  # (area, left, step, y)
    ("island_row", 10.0, 16.0, 20.0),
    ("pirate_cards", 20.0, 20.0, 50.0),
    ("market", 25.0, 20.0, 80.0),
)
