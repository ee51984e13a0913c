"""Check a game's dealing without the server's code: the seed commitment, the generator and each
game's initial deal, exactly as docs/fairness.md specifies them (the standard library only).

    from flotilla_client import fairness
    assert fairness.commitment_matches(record.seed, game.seed_sha256)
    deal = fairness.deal(game.kind, record.seed, game.seat_count, dict(game.options), tables)

`tables` are the game's setup tables for its rules version, in the shape of the `tables` entry
of each game in tests/data/fairness_vectors.json (docs/fairness.md describes every field).
"""

from __future__ import annotations

import hashlib
import hmac
from collections.abc import Mapping, MutableSequence, Sequence
from typing import Any, TypeVar

T = TypeVar("T")

SEED_BYTES = 16
"""A seed is 128 bits: 16 bytes, sent as 32 lowercase hex digits."""
WORD_BYTES = 8
"""Each generator output is one 64-bit word: an 8-byte BLAKE2b digest."""
_WORDS = 1 << 64
_TRUE = frozenset({"true", "1", "yes", "on"})

Deal = dict[str, Any]
"""One game's initial deal, keyed as in the `deal` entries of the vectors file."""


def seed_bytes(seed: str) -> bytes:
    """The 16 bytes of a seed given as 32 hex digits (GameFinished.seed, GetGameRecordResponse.seed)."""
    raw = bytes.fromhex(seed) if len(seed) == 2 * SEED_BYTES else b""
    if len(raw) != SEED_BYTES:  # fromhex skips spaces: "0011 2233 ..." has fewer than 16 bytes
        msg = f"a seed is {2 * SEED_BYTES} hex digits, got {len(seed)} characters"
        raise ValueError(msg)
    return raw


def commitment(seed: str) -> str:
    """The published commitment of a seed: SHA-256 of its 16 raw bytes, as 64 lowercase hex digits."""
    return hashlib.sha256(seed_bytes(seed)).hexdigest()


def commitment_matches(seed: str, seed_sha256: str) -> bool:
    """Whether the revealed `seed` is the one committed to by `seed_sha256` (Game.seed_sha256)."""
    return hmac.compare_digest(commitment(seed), seed_sha256.lower())


class Rng:
    """The games' generator: word i is BLAKE2b(key = the 16 seed bytes, message = i as 8 bytes
    big-endian, digest size 8) read as a big-endian unsigned integer; `counter` is the next i."""

    __slots__ = ("_key", "counter")

    def __init__(self, seed: str | bytes, counter: int = 0) -> None:
        self._key = seed if isinstance(seed, bytes) else seed_bytes(seed)
        if len(self._key) != SEED_BYTES:
            msg = f"a seed is {SEED_BYTES} bytes, got {len(self._key)}"
            raise ValueError(msg)
        self.counter = counter

    @property
    def seed(self) -> str:
        """The seed as 32 hex digits."""
        return self._key.hex()

    def word(self, counter: int) -> int:
        """The 64-bit word at `counter` (0 <= counter < 2**64), without advancing."""
        digest = hashlib.blake2b(counter.to_bytes(8, "big"), key=self._key, digest_size=WORD_BYTES).digest()
        return int.from_bytes(digest, "big")

    def next_word(self) -> int:
        """The word at `counter`; advances the counter by one."""
        x = self.word(self.counter)
        self.counter += 1
        return x

    def below(self, n: int) -> int:
        """A uniform integer in [0, n), 1 <= n <= 2**64: words at or above 2**64 - (2**64 mod n)
        are skipped (each skipped word still advances the counter), the first other word x gives x mod n."""
        if not 1 <= n <= _WORDS:
            msg = f"below() takes 1 <= n <= 2**64, got {n}"
            raise ValueError(msg)
        limit = _WORDS - _WORDS % n
        while True:
            x = self.next_word()
            if x < limit:
                return x % n

    def fork(self, salt: int) -> Rng:
        """A new generator at counter 0 whose seed is BLAKE2b(key = this seed, message = `salt` as
        16 bytes big-endian, digest size 16); it does not depend on this generator's counter."""
        digest = hashlib.blake2b(salt.to_bytes(16, "big"), key=self._key, digest_size=SEED_BYTES).digest()
        return Rng(digest)

    def draw(self, pile: MutableSequence[T]) -> T:
        """Remove and return the item at index below(len(pile)) of a face-down pile (kept sorted)."""
        return pile.pop(self.below(len(pile)))

    def shuffle(self, items: Sequence[T]) -> list[T]:
        """A shuffled copy: Fisher-Yates from the last index down to 1, j = below(i + 1), swap i and j."""
        out = list(items)
        for i in range(len(out) - 1, 0, -1):
            j = self.below(i + 1)
            out[i], out[j] = out[j], out[i]
        return out


# ------------------------------------------------------------------ deals (docs/fairness.md, per game)


def port_royal(seed: str, seats: int, options: Mapping[str, str], tables: Mapping[str, Any]) -> Deal:
    """Port Royal: start player, face-up contracts, starting coins, co-op time and victory piles."""
    rng = Rng(seed)
    mode = options.get("mode", "base").lower()
    difficulty = int(options.get("difficulty", "0"))
    coop = mode == "contract_coop"
    rank = {card: i for i, card in enumerate(tables["canonical_order"])}
    start = rng.below(seats)
    face_up: list[str] = []
    pile: list[str] = []
    if mode in ("contract_comp", "contract_coop"):
        pile = [c["id"] for c in tables["contracts"] if coop or not c["coop_only"]]
        count = tables["face_up_coop"][seats] if coop else tables["face_up_competitive"]
        face_up = [rng.draw(pile) for _ in range(count)]
    expansion: set[str] = set() if mode != "base" else set(tables["expansion_cards"])
    extra = tables["five_player_expedition"]
    draw_pile = [c for c in tables["canonical_order"] if c != extra and c not in expansion]
    coins: list[list[str]] = [[] for _ in range(seats)]
    for k in range(seats):
        coins[(start + k) % seats] = [rng.draw(draw_pile) for _ in range(tables["starting_coins"])]
    time_pile: list[str] = []
    victory_pile: list[str] = []
    if coop:
        seals = {c["id"]: c for c in tables["contracts"]}
        size = tables["time_pile_base"] + sum(seals[c]["seal_number"] for c in face_up)
        size += len({seals[c]["seal_letter"] for c in face_up})
        time_pile = sorted((rng.draw(draw_pile) for _ in range(size)), key=rank.__getitem__)
        victory_pile = sorted((rng.draw(time_pile) for _ in range(difficulty)), key=rank.__getitem__)
    return {
        "start_player": start,
        "contracts": face_up,
        "contract_pile": pile,
        "coins": coins,
        "time_pile": time_pile,
        "victory_pile": victory_pile,
        "expeditions": [extra] if seats == 5 else [],
        "draw_pile_size": len(draw_pile),
        "counter": rng.counter,
    }


def sail_away(seed: str, seats: int, options: Mapping[str, str], tables: Mapping[str, Any]) -> Deal:
    """Sail Away: start player, objectives, island row, pirate cards, six ships per seat."""
    del options  # none of Sail Away's options changes the deal
    rng = Rng(seed)
    start = rng.below(seats)
    order = [(start + k) % seats for k in range(seats)]
    objectives = list(tables["objectives"])
    public = rng.draw(objectives)
    secret = [""] * seats
    for seat in order:
        secret[seat] = rng.draw(objectives)
    island_deck = list(tables["islands"])
    islands = [rng.draw(island_deck) for _ in range(seats + 1)]
    box = list(tables["pirate_cards"])
    pirate_cards = [rng.draw(box) for _ in range(tables["pirate_cards_in_play"])]
    ship_deck = list(tables["ships"])
    ships: list[list[str]] = [[] for _ in range(seats)]
    for seat in order:
        ships[seat] = [rng.draw(ship_deck) for _ in range(tables["ships_dealt"])]
    return {
        "start_player": start,
        "public_objective": public,
        "objectives": secret,
        "islands": islands,
        "pirate_cards": pirate_cards,
        "ships": ships,
        "island_deck": island_deck,
        "ship_deck": ship_deck,
        "counter": rng.counter,
    }


def sail_away_market(seed: str, deal: Deal, kept: Sequence[Sequence[str]], tables: Mapping[str, Any]) -> Deal:
    """Sail Away's market once every seat has answered SD1 (`kept[seat]`: the ships that seat kept,
    as ShipsRevealed shows them): the ships given back join the deck, which is sorted again, and the
    market positions 1..3 are drawn in order, continuing the generator where the deal left it."""
    rng = Rng(seed, deal["counter"])
    deck = list(deal["ship_deck"])
    for dealt, keep in zip(deal["ships"], kept, strict=True):
        deck += [ship for ship in dealt if ship not in keep]
    deck.sort()
    market = [rng.draw(deck) if deck else None for _ in range(tables["market_size"])]
    return {"market": market, "counter": rng.counter}


def pirates_of_nassau(seed: str, seats: int, options: Mapping[str, str], tables: Mapping[str, Any]) -> Deal:
    """Pirates of Nassau: merchants on the routes, navy display, Nassau display, first dice."""
    del options
    rng = Rng(seed)
    shown = max(seats, 3)
    routes: list[dict[str, Any]] = []
    deck_sizes = []
    for zone in tables["merchants"]:
        deck = sorted(zone["cards"])
        routes += [{"space": space, "card": rng.draw(deck)} for space in zone["routes"] if deck]
        deck_sizes.append(len(deck))
    navy = tables["navy"]
    phase1 = sorted(c["id"] for c in navy if c["phase"] == 1 and c["min_players"] <= shown)
    phase2 = sorted([*(c["id"] for c in navy if c["phase"] == 2 and c["min_players"] <= shown), tables["end_card"]])
    navy_display = [rng.draw(phase1) for _ in range(shown)]
    nassau_display: list[str] = []
    pile_sizes = []
    for pile in tables["token_piles"]:
        hidden = sorted(pile["tokens"])
        nassau_display += [rng.draw(hidden) for _ in range(shown)]
        pile_sizes.append(len(hidden))
    faces = tables["die_faces"]
    dice = [sorted(rng.below(faces) + 1 for _ in range(tables["dice_per_seat"])) for _ in range(seats)]
    ranking = sorted(range(seats), key=lambda seat: (sum(dice[seat]), seat))
    notoriety = [0] * seats
    for place, seat in enumerate(ranking):
        notoriety[seat] = place + 1
    return {
        "routes": sorted(routes, key=lambda r: int(r["space"])),
        "navy_display": navy_display,
        "nassau_display": nassau_display,
        "dice": dice,
        "notoriety": notoriety,
        "deck_sizes": deck_sizes,
        "navy_sizes": [len(phase1), len(phase2)],
        "pile_sizes": pile_sizes,
        "counter": rng.counter,
    }


def navegador(seed: str, seats: int, options: Mapping[str, str], tables: Mapping[str, Any]) -> Deal:
    """Navegador: the colours (shuffled only with random_colours) and the start player."""
    rng = Rng(seed)
    colours = list(tables["colours"])
    if options.get("random_colours", "false").lower() in _TRUE:
        colours = rng.shuffle(colours)
    start = rng.below(seats)
    return {"start_player": start, "colours": colours[:seats], "counter": rng.counter}


DEALERS = {
    "port_royal": port_royal,
    "sail_away": sail_away,
    "pirates_of_nassau": pirates_of_nassau,
    "navegador": navegador,
}
"""Game kind -> its deal; the counter game deals nothing."""


def deal(kind: str, seed: str, seats: int, options: Mapping[str, str], tables: Mapping[str, Any]) -> Deal:
    """The initial deal of a game of `kind` from its revealed seed, seat count, options and setup tables."""
    dealer = DEALERS.get(kind)
    if dealer is None:
        msg = f"no deal is specified for {kind!r}; known: {sorted(DEALERS)}"
        raise ValueError(msg)
    return dealer(seed, seats, options, tables)
