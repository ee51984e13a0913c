/** Reading a game's typed view and catalogue generically, as JSON (the proto3 JSON mapping). */
import { type JsonObject, type JsonValue, toJson } from "@bufbuild/protobuf";
import { type GameView, GameViewSchema, catalog } from "@flotilla/client/browser";

/** A catalogue entry by the id views and events carry: its name and what else it says. */
export interface Piece {
  readonly id: string;
  readonly name: string;
  readonly details: JsonObject;
}

/** Every entry of a catalogue that has an `id` (and a `name` or `title`). */
export function pieces(found: catalog.Catalog | undefined): Map<string, Piece> {
  const map = new Map<string, Piece>();
  if (!found) return map;
  const walk = (value: JsonValue | undefined): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (value && typeof value === "object") {
      const id = value["id"];
      const name = value["name"] ?? value["title"];
      if (typeof id === "string" && typeof name === "string" && !map.has(id)) map.set(id, { id, name, details: value });
      Object.values(value).forEach(walk);
    }
  };
  walk(toJson(catalog.CatalogSchema, found));
  return map;
}

/** The game's own part of a catalogue (`{portRoyal: {...}}` -> its object), as JSON. */
export function catalogJson(found: catalog.Catalog | undefined): JsonObject | undefined {
  if (!found?.game.case) return undefined;
  const json = toJson(catalog.CatalogSchema, found) as JsonObject;
  const own = json[found.game.case];
  return own && typeof own === "object" && !Array.isArray(own) ? own : undefined;
}

/** The game's own part of a view (`{portRoyal: {...}}` -> its object), as JSON. */
export function gameJson(view: GameView | undefined): JsonObject | undefined {
  if (!view) return undefined;
  const json = toJson(GameViewSchema, view, { alwaysEmitImplicit: true }) as JsonObject; // zeros and empty hands too
  const own = view.view.case ? json[view.view.case] : undefined;
  return own && typeof own === "object" && !Array.isArray(own) ? own : undefined;
}

/** The per-seat entries of a view (its `players` or `seats` list), by seat. */
export function seatEntries(json: JsonObject | undefined): Map<number, JsonObject> {
  const found = new Map<number, JsonObject>();
  const list = json?.["players"] ?? json?.["seats"];
  if (!Array.isArray(list)) return found;
  list.forEach((entry, index) => {
    if (entry && typeof entry === "object" && !Array.isArray(entry)) {
      const seat = typeof entry["seat"] === "number" ? entry["seat"] : index;
      found.set(seat, entry);
    }
  });
  return found;
}

const SCORE_FIELDS = ["vp", "score", "points", "notoriety", "basePoints"];

/** A seat's score as the view shows it mid-game ("" when the game shows none before its end). */
export function scoreOf(json: JsonObject | undefined, seat: number): string {
  const scores = json?.["scores"];
  if (Array.isArray(scores) && scores.length > seat) return String(scores[seat]);
  const entry = seatEntries(json).get(seat);
  for (const field of SCORE_FIELDS) {
    const value = entry?.[field];
    if (typeof value === "number") return String(value);
  }
  return entry ? "0" : "";
}

/** An enum value or a field name in words: "PHASE_KIND_TRADE" of field `kind` -> "trade",
 * "RESOURCE_COTTON" of `resources` -> "cotton", "coinCount" -> "coin count". */
export function words(text: string, field = ""): string {
  if (!/^[A-Z][A-Z0-9_]*$/.test(text)) return text.replace(/([a-z])([A-Z])/g, "$1 $2").toLowerCase();
  const name = field.replace(/([a-z0-9])([A-Z])/g, "$1_$2").toUpperCase();
  for (const prefix of [name, name.replace(/S$/, "")]) {
    if (!prefix) continue;
    const at = `_${text}`.indexOf(`_${prefix}_`);
    if (at >= 0) return text.slice(at + prefix.length + 1).toLowerCase().replaceAll("_", " ");
  }
  return text.toLowerCase().replaceAll("_", " ");
}

/** Fields whose numbers are seats (shown as the player's name). */
export const SEAT_FIELDS = new Set([
  "seat",
  "owner",
  "active",
  "startPlayer",
  "winners",
  "order",
  "queue",
  "passed",
  "displacedSeat",
  "publicObjectiveWinner",
  "endTrigger",
]);
