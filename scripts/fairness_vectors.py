"""Write tests/data/fairness_vectors.json: test vectors for docs/fairness.md, taken from the engines.

Every figure comes from the server's own `flotilla.rules.rng.Rng` and each game's `new_game`
(the deal is read back from the engine's state), and the setup tables from the engines' data
tables, so a client in another language can check its generator and its deal against them.
`tests/rules/test_fairness_vectors.py` checks that the committed file equals what this script
builds; after a change that alters the dealing, run it again:

    .venv/bin/python scripts/fairness_vectors.py
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path
from typing import Any

from flotilla.app.host import seed_commitment, seed_hex
from flotilla.convert import enum_prefix
from flotilla.games import REGISTRY
from flotilla.games.navegador import tables as nv
from flotilla.games.pirates_of_nassau import tables as pn
from flotilla.games.port_royal import cards as pr_cards
from flotilla.games.port_royal import tables as pr
from flotilla.games.sail_away import cards as sa_cards
from flotilla.games.sail_away import tables as sa
from flotilla.games.sail_away.actions import KeepShips
from flotilla.rules import Rng, Seat, draw_many, shuffled
from flotilla.rules.options import config_from_options

OUT = Path(__file__).resolve().parent.parent / "tests" / "data" / "fairness_vectors.json"

SEEDS = (
    "00112233445566778899aabbccddeeff",
    "00000000000000000000000000000001",  # leading zero bytes: the key is still 16 bytes
    "ffffffffffffffffffffffffffffffff",
)
WORDS = 8
FAR_COUNTERS = (2**32, 2**63, 2**64 - 1)
"""Counters past 32 bits and the last one: an encoding of the counter in fewer bytes shows."""
BELOW_N = (1, 2, 6, 52, 1_000_003, 2**32 + 15, 3 * 2**62, 2**63 + 1, 2**64)
"""The last but one two reject often: 2**64 mod n is 2**62 and 2**63 - 1 there."""
BELOW_DRAWS = 8
FORK_SALTS = (0, 1, 2**128 - 1)
SHUFFLE_SIZES = (1, 2, 5, 10, 52)
PILE = tuple(f"c{i:02d}" for i in range(10))


def game_seed(label: str) -> int:
    """A fixed, well-spread seed for one deal vector."""
    return int.from_bytes(hashlib.sha256(f"flotilla fairness vectors/{label}".encode()).digest()[:16], "big")


def words(rng: Rng, count: int) -> list[str]:
    """The words at counters rng.counter .. + count - 1, as 16 hex digits (below(2**64) is the word itself)."""
    return [f"{Rng(rng.seed, rng.counter + i).below(2**64)[0]:016x}" for i in range(count)]


def below_vector(seed: int, n: int) -> dict[str, Any]:
    """BELOW_DRAWS successive below(n) from counter 0, with the counter after each."""
    rng = Rng(seed)
    values, counters = [], []
    for _ in range(BELOW_DRAWS):
        value, rng = rng.below(n)
        values.append(str(value))
        counters.append(rng.counter)
    return {"n": str(n), "values": values, "counters": counters}


def generator_vector(seed_text: str) -> dict[str, Any]:
    seed = int(seed_text, 16)
    rng = Rng(seed)
    forks = []
    for salt in FORK_SALTS:
        child = rng.fork(salt)
        forks.append({"salt": str(salt), "seed": seed_hex(child.seed), "words": words(child, 4)})
    shuffles = []
    for k in SHUFFLE_SIZES:
        out, after = shuffled(range(k), rng)
        shuffles.append({"k": k, "result": list(out), "counter": after.counter})
    drawn, _, after = draw_many(PILE, len(PILE), rng)
    return {
        "seed": seed_hex(seed),
        "seed_sha256": seed_commitment(seed),
        "words": words(rng, WORDS),
        "words_at": {str(c): words(Rng(seed, c), 1)[0] for c in FAR_COUNTERS},
        "below": [below_vector(seed, n) for n in BELOW_N],
        "fork": forks,
        "fork_at_counter_5_salt_1": seed_hex(Rng(seed, 5).fork(1).seed),
        "shuffle": shuffles,
        "draw": {"pile": list(PILE), "drawn": list(drawn), "counter": after.counter},
    }


# ------------------------------------------------------------------ setup tables (the deal's inputs)


def port_royal_tables() -> dict[str, Any]:
    return {
        "canonical_order": [c.card for c in pr_cards.ALL_CARDS],
        "expansion_cards": [c.card for c in pr_cards.ALL_CARDS if c.expansion],
        "five_player_expedition": pr_cards.FIVE_PLAYER_EXPEDITION,
        "contracts": [
            {"id": c.contract, "seal_number": c.seal_number, "seal_letter": c.seal_letter, "coop_only": c.coop_only}
            for c in pr_cards.CONTRACTS.values()
        ],
        "face_up_competitive": pr.FACE_UP_COMPETITIVE,
        "face_up_coop": list(pr.FACE_UP_COOP),
        "starting_coins": pr.STARTING_COINS,
        "time_pile_base": pr.TIME_PILE_BASE,
    }


def sail_away_tables() -> dict[str, Any]:
    return {
        "objectives": list(sa_cards.OBJECTIVE_IDS),
        "islands": list(sa_cards.ISLAND_IDS),
        "pirate_cards": list(sa_cards.PIRATE_IDS),
        "ships": list(sa_cards.SHIP_IDS),
        "pirate_cards_in_play": sa.PIRATE_CARDS_IN_PLAY,
        "ships_dealt": sa.SHIPS_DEALT,
        "ships_kept": sa.SHIPS_KEPT,
        "market_size": sa.MARKET_SIZE,
    }


def nassau_tables() -> dict[str, Any]:
    return {
        "merchants": [
            {
                "zone": zone,
                "cards": sorted(c for c, m in pn.MERCHANTS.items() if m.zone == zone),
                "routes": list(spaces),
            }
            for zone, spaces in enumerate(pn.ZONE_ROUTES, start=1)
        ],
        "navy": [{"id": c.id, "phase": c.phase, "min_players": c.min_players} for c in pn.NAVY.values()],
        "end_card": pn.END_CARD,
        "token_piles": [{"pile": pile.name, "tokens": list(pn.PILE_TOKENS[pile])} for pile in pn.PILE_ORDER],
        "dice_per_seat": 3,
        "die_faces": 6,
    }


def navegador_tables() -> dict[str, Any]:
    return {"colours": [enum_prefix(nv.Colour) + c.name for c in nv.COLOURS]}


# ------------------------------------------------------------------ deals, read back from the engine's state


def new_state(kind: str, seats: int, options: dict[str, str], seed: int) -> Any:
    rules = REGISTRY[kind]
    return rules.new_game(config_from_options(rules.config_type, seats, options), seed)


def port_royal_deal(s: Any) -> dict[str, Any]:
    return {
        "start_player": s.start,
        "contracts": [c.contract for c in s.contracts],
        "contract_pile": list(s.contract_pile),
        "coins": [list(p.coins) for p in s.players],
        "time_pile": list(s.time_pile),
        "victory_pile": list(s.victory_pile),
        "expeditions": list(s.expeditions),
        "draw_pile_size": len(s.draw_pile),
        "counter": s.rng.counter,
    }


def sail_away_deal(s: Any) -> dict[str, Any]:
    return {
        "start_player": s.start_player,
        "public_objective": s.public_objective,
        "objectives": [p.objective for p in s.players],
        "islands": [i.card for i in s.islands],
        "pirate_cards": [c.card for c in s.pirate_cards],
        "ships": [list(p.dealt) for p in s.players],
        "island_deck": list(s.island_deck),
        "ship_deck": list(s.ship_deck),
        "counter": s.rng.counter,
    }


def sail_away_market(s: Any) -> dict[str, Any]:
    """The market once every seat has kept its first three dealt ships (the SD1 default)."""
    rules = REGISTRY["sail_away"]
    kept = [list(p.dealt[: sa.SHIPS_KEPT]) for p in s.players]
    for seat, ships in enumerate(kept):
        s = rules.apply(s, Seat(seat), KeepShips(tuple(ships))).state
    return {"kept": kept, "market": list(s.market), "counter": s.rng.counter}


def nassau_deal(s: Any) -> dict[str, Any]:
    return {
        "routes": [{"space": r.space, "card": r.card} for r in s.routes],
        "navy_display": list(s.navy_display),
        "nassau_display": list(s.display),
        "dice": [list(p.dice) for p in s.players],
        "notoriety": [p.notoriety for p in s.players],
        "deck_sizes": [d.size for d in s.decks],
        "navy_sizes": [len(s.navy.phase1), len(s.navy.phase2)],
        "pile_sizes": [len(p.hidden) for p in s.piles],
        "counter": s.rng.counter,
    }


def navegador_deal(s: Any) -> dict[str, Any]:
    return {
        "start_player": s.start_player,
        "colours": [enum_prefix(nv.Colour) + p.colour.name for p in s.players],
        "counter": s.rng.counter,
    }


def cases() -> list[tuple[str, int, dict[str, str]]]:
    """(kind, seats, options) of every deal vector: one seed per seat count and mode."""
    out: list[tuple[str, int, dict[str, str]]] = []
    for mode, low in (("base", 2), ("base_plus", 2), ("contract_comp", 2), ("contract_coop", 1)):
        for seats in range(low, 6):
            options = {"mode": mode}
            if mode == "contract_coop":
                options["difficulty"] = str(seats - 1)
            out.append(("port_royal", seats, options))
    out += [("sail_away", seats, {}) for seats in range(2, 5)]
    out += [("pirates_of_nassau", seats, {}) for seats in range(2, 6)]
    for colours in ("false", "true"):
        out += [("navegador", seats, {"random_colours": colours}) for seats in range(2, 6)]
    return out


DEALS = {
    "port_royal": (port_royal_tables, port_royal_deal),
    "sail_away": (sail_away_tables, sail_away_deal),
    "pirates_of_nassau": (nassau_tables, nassau_deal),
    "navegador": (navegador_tables, navegador_deal),
}


def build() -> dict[str, Any]:
    """Every vector, as written to OUT."""
    games: dict[str, Any] = {
        kind: {"rules_version": REGISTRY[kind].version, "tables": tables(), "deals": []}
        for kind, (tables, _) in DEALS.items()
    }
    for kind, seats, options in cases():
        label = f"{kind}/{seats}/" + ",".join(f"{k}={v}" for k, v in sorted(options.items()))
        seed = game_seed(label)
        state = new_state(kind, seats, options, seed)
        entry = {
            "seed": seed_hex(seed),
            "seed_sha256": seed_commitment(seed),
            "seats": seats,
            "options": options,
            "deal": DEALS[kind][1](state),
        }
        if kind == "sail_away":
            entry["after_keep"] = sail_away_market(state)
        games[kind]["deals"].append(entry)
    return {
        "about": "Test vectors of docs/fairness.md, written by scripts/fairness_vectors.py from the engines.",
        "generator": [generator_vector(s) for s in SEEDS],
        "games": games,
    }


def dump(vectors: dict[str, Any]) -> str:
    """The file's text: one JSON value, keys in insertion order, indented one space."""
    return json.dumps(vectors, indent=1) + "\n"


def main() -> None:
    OUT.write_text(dump(build()))
    print(f"wrote {OUT}")


if __name__ == "__main__":
    main()
