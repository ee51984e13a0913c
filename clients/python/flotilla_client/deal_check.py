"""Check a finished game's opening deal against the catalogue, in one call (docs/fairness.md):

    record = await client.record(game.name)                  # the revealed seed
    catalog = await client.get_catalog(game.kind, game.rules_version)
    problems = deal_check.verify(record, catalog, first_view)  # [] when the deal is fair
    check_deal(record, catalog, first_view)                   # or: VerificationFailed unless fair

`first_view` is the first `GameView` a seat or spectator received (the game before any action).
The seed must match the game's commitment, and what that view shows of the deal (start player,
face-up cards, piles' sizes, and the viewer's own hidden cards) must be what `fairness.deal`
recomputes from the seed and the catalogue's setup tables (`setup_tables`).
"""

from __future__ import annotations

from typing import Any

from flotilla.api.catalog.v1 import catalog_service_pb2 as cat
from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.api.navegador.v1 import navegador_pb2
from flotilla.api.pirates_of_nassau.v1 import pirates_of_nassau_pb2
from flotilla.api.port_royal.v1 import port_royal_pb2
from flotilla_client import fairness
from flotilla_client.commitment import VerificationFailed

# The few setup numbers the catalogue does not carry (docs/fairness.md gives them per rules version).
PORT_ROYAL_TIME_PILE_BASE = 13
NASSAU_DICE_PER_SEAT = 3
NASSAU_DIE_FACES = 6


def _enum(value: int, enum: Any, prefix: str) -> str:
    return str(enum.Name(value)).removeprefix(prefix)


def setup_tables(catalog: cat.Catalog) -> dict[str, Any]:
    """The `tables` argument of `fairness.deal` for this catalogue's game kind and rules version."""
    kind = catalog.WhichOneof("game")
    if kind == "port_royal":
        pr = catalog.port_royal
        coop = {s.seat_count: s.face_up_contracts for s in pr.setups if s.mode == port_royal_pb2.MODE_CONTRACT_COOP}
        competitive = {s.face_up_contracts for s in pr.setups if s.mode == port_royal_pb2.MODE_CONTRACT_COMP}
        five = [e for s in pr.setups if s.seat_count == 5 for e in s.expedition_display]
        return {
            "canonical_order": [c.id for c in pr.cards],
            "expansion_cards": [c.id for c in pr.cards if c.expansion],
            "five_player_expedition": five[0],
            "contracts": [
                {"id": c.id, "seal_number": c.seal_number, "seal_letter": c.seal_letter, "coop_only": c.coop_only}
                for c in pr.contracts
            ],
            "face_up_competitive": competitive.pop(),
            "face_up_coop": [coop.get(n, 0) for n in range(max(coop) + 1)],
            "starting_coins": pr.numbers.starting_coins,
            "time_pile_base": PORT_ROYAL_TIME_PILE_BASE,
        }
    if kind == "sail_away":
        sa = catalog.sail_away
        setup = sa.setups[0]
        return {
            "objectives": sorted(o.id for o in sa.objectives),
            "islands": sorted(i.id for i in sa.islands),
            "pirate_cards": sorted(p.id for p in sa.pirate_actions),
            "ships": sorted(s.id for s in sa.ships),
            "pirate_cards_in_play": setup.pirate_cards,
            "ships_dealt": setup.ships_dealt,
            "ships_kept": setup.ships_kept,
            "market_size": setup.market_ships,
        }
    if kind == "pirates_of_nassau":
        pn = catalog.pirates_of_nassau
        piles: dict[str, list[str]] = {}
        for token in sorted(pn.tokens, key=lambda t: t.pile):
            piles.setdefault(_enum(token.pile, pirates_of_nassau_pb2.Pile, "PILE_"), []).append(token.id)
        return {
            "merchants": [
                {
                    "zone": z.zone,
                    "cards": sorted(m.id for m in pn.merchants if m.zone == z.zone),
                    "routes": list(z.routes),
                }
                for z in pn.zones
            ],
            "navy": [{"id": c.id, "phase": c.phase, "min_players": c.min_players} for c in pn.navy if not c.end],
            "end_card": next(c.id for c in pn.navy if c.end),
            "token_piles": [{"pile": pile, "tokens": sorted(tokens)} for pile, tokens in piles.items()],
            "dice_per_seat": NASSAU_DICE_PER_SEAT,
            "die_faces": NASSAU_DIE_FACES,
        }
    if kind == "navegador":
        colours = navegador_pb2.Colour
        return {"colours": [colours.Name(v) for v in colours.values() if v != 0]}
    msg = f"no deal is specified for a catalogue of {kind or 'no game'}"
    raise ValueError(msg)


def shown(view: game_pb2.GameView) -> dict[str, Any]:
    """What an opening view shows of the deal, keyed as `fairness.deal`'s fields (the viewer's own
    hidden cards under `own_*`)."""
    kind = view.WhichOneof("view")
    seat = view.viewer_seat if view.HasField("viewer_seat") else None
    if kind == "port_royal":
        pr = view.port_royal
        out: dict[str, Any] = {
            "start_player": pr.start_player,
            "contracts": [c.contract for c in pr.contracts],
            "expeditions": list(pr.expeditions),
            "draw_pile_size": pr.draw_pile_size,
            "coin_counts": [p.coin_count for p in pr.players],
        }
        return out
    if kind == "sail_away":
        sa = view.sail_away
        out = {
            "start_player": sa.start_player,
            "public_objective": sa.public_objective,
            "islands": [i.card for i in sorted(sa.islands, key=lambda i: i.position)],
            "pirate_cards": [p.card for p in sa.pirate_cards],
            "island_deck_size": sa.island_deck_size,
        }
        if seat is not None:
            out["own_objective"] = sa.players[seat].objective
            out["own_ships"] = list(sa.dealt)
        return out
    if kind == "pirates_of_nassau":
        pn = view.pirates_of_nassau
        return {
            "routes": [{"space": r.space, "card": r.card} for r in sorted(pn.routes, key=lambda r: r.space) if r.card],
            "navy_display": list(pn.navy_display),
            "nassau_display": list(pn.nassau_display),
            "dice": [sorted(s.dice) for s in pn.seats],
            "notoriety": [s.notoriety for s in pn.seats],
        }
    if kind == "navegador":
        colours = navegador_pb2.Colour
        return {
            "start_player": view.navegador.start_player,
            "colours": [colours.Name(p.colour) for p in view.navegador.players],
        }
    msg = f"no deal is specified for a view of {kind or 'no game'}"
    raise ValueError(msg)


def expected(deal: fairness.Deal, kind: str, seat: int | None) -> dict[str, Any]:
    """`shown`'s fields as the recomputed `deal` says they must be."""
    if kind == "port_royal":
        return {
            "start_player": deal["start_player"],
            "contracts": deal["contracts"],
            "expeditions": deal["expeditions"],
            "draw_pile_size": deal["draw_pile_size"],
            "coin_counts": [len(c) for c in deal["coins"]],
        }
    if kind == "sail_away":
        out = {k: deal[k] for k in ("start_player", "public_objective", "islands", "pirate_cards")}
        out["island_deck_size"] = len(deal["island_deck"])
        if seat is not None:
            out["own_objective"] = deal["objectives"][seat]
            out["own_ships"] = deal["ships"][seat]
        return out
    if kind == "pirates_of_nassau":
        return {k: deal[k] for k in ("routes", "navy_display", "nassau_display", "dice", "notoriety")}
    return {"start_player": deal["start_player"], "colours": deal["colours"]}


def verify(record: g.GetGameRecordResponse, catalog: cat.Catalog, first_view: game_pb2.GameView) -> list[str]:
    """What is wrong with the game's deal: [] when the revealed seed matches the commitment and the
    opening view shows exactly the deal it gives with the catalogue's setup tables."""
    game = record.game
    if (catalog.kind, catalog.rules_version) != (game.kind, game.rules_version):
        return [f"the catalogue is {catalog.kind}@{catalog.rules_version}, the game {game.kind}@{game.rules_version}"]
    if first_view.game != game.name:
        return [f"the view is of {first_view.game}, not {game.name}"]
    problems = []
    if not fairness.commitment_matches(record.seed, game.seed_sha256):
        problems.append("the revealed seed does not match the game's seed_sha256")
    deal = fairness.deal(game.kind, record.seed, game.seat_count, dict(game.options), setup_tables(catalog))
    seat = first_view.viewer_seat if first_view.HasField("viewer_seat") else None
    seen, want = shown(first_view), expected(deal, game.kind, seat)
    problems += [
        f"{field}: the view shows {seen[field]!r}, the seed deals {want[field]!r}"
        for field in want
        if seen[field] != want[field]
    ]
    return problems


def check_deal(record: g.GetGameRecordResponse, catalog: cat.Catalog, first_view: game_pb2.GameView) -> None:
    """Raise VerificationFailed with every problem `verify` finds."""
    problems = verify(record, catalog, first_view)
    if problems:
        raise VerificationFailed("; ".join(problems))
