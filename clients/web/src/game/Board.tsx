/** The board: a game's own drawing where there is one, and the view's other fields drawn generically
 * (field by field, catalogue ids shown as named cards). */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { FunctionComponent } from "preact";

import { PORT_ROYAL_DRAWN, PortRoyalBoard } from "./boards/PortRoyal";
import { NAVEGADOR_DRAWN, NavegadorBoard } from "./boards/Navegador";
import { PIRATES_DRAWN, PiratesBoard } from "./boards/PiratesOfNassau";
import { SAIL_AWAY_DRAWN, SailAwayBoard } from "./boards/SailAway";
import type { BoardData } from "./boards/parts";
import { type Piece, SEAT_FIELDS, words } from "./view";

export interface BoardProps {
  readonly kind: string; // the game kind ("port_royal"), "" while unknown
  readonly json: JsonObject | undefined;
  readonly pieces: Map<string, Piece>;
  readonly names: readonly string[]; // player names by seat
  readonly toAct: readonly number[];
  readonly catalog: JsonObject | undefined;
}

/** Fields drawn elsewhere on the page (turn, scores) or of no use to a player. */
const SKIP = new Set(["viewer", "toAct"]);

/** Each game's own board and the view fields it draws. */
const BOARDS: Record<string, { readonly draw: FunctionComponent<{ data: BoardData }>; readonly drawn: readonly string[] }> = {
  port_royal: { draw: PortRoyalBoard, drawn: PORT_ROYAL_DRAWN },
  sail_away: { draw: SailAwayBoard, drawn: SAIL_AWAY_DRAWN },
  pirates_of_nassau: { draw: PiratesBoard, drawn: PIRATES_DRAWN },
  navegador: { draw: NavegadorBoard, drawn: NAVEGADOR_DRAWN },
};

export function Board({ kind, json, pieces, names, toAct, catalog }: BoardProps) {
  if (!json) return <p class="muted">Waiting for the game…</p>;
  const own = BOARDS[kind];
  if (!own) return <Generic json={json} pieces={pieces} names={names} />;
  const drawn = new Set(own.drawn);
  const rest = Object.fromEntries(Object.entries(json).filter(([key]) => !drawn.has(key)));
  const Draw = own.draw;
  return (
    <>
      <Draw data={{ json, pieces, names, toAct, catalog }} />
      <details class="more">
        <summary>More of the view</summary>
        <Generic json={rest} pieces={pieces} names={names} />
      </details>
    </>
  );
}

/** The view field by field (its `players`/`seats` list as one area per seat). */
function Generic({ json, pieces, names }: { json: JsonObject; pieces: Map<string, Piece>; names: readonly string[] }) {
  const players = json["players"] ?? json["seats"];
  const rest = Object.entries(json).filter(([key]) => !SKIP.has(key) && key !== "players" && key !== "seats");
  return (
    <div class="board">
      <dl class="fields">
        {rest.map(([key, value]) => (
          <Field key={key} name={key} value={value} pieces={pieces} names={names} />
        ))}
      </dl>
      {Array.isArray(players) ? (
        <div class="players">
          {players.map((entry, index) => {
            const seat = entry && typeof entry === "object" && !Array.isArray(entry) && typeof entry["seat"] === "number" ? entry["seat"] : index;
            return (
              <section key={seat} class="player" aria-label={`Seat ${seat + 1}: ${names[seat] ?? ""}`}>
                <h3>
                  Seat {seat + 1}: {names[seat] ?? ""}
                </h3>
                <Value value={entry} pieces={pieces} names={names} skip="seat" />
              </section>
            );
          })}
        </div>
      ) : null}
    </div>
  );
}

function Field({ name, value, pieces, names }: { name: string; value: JsonValue; pieces: Map<string, Piece>; names: readonly string[] }) {
  return (
    <>
      <dt>{words(name)}</dt>
      <dd>
        <Value value={value} pieces={pieces} names={names} field={name} />
      </dd>
    </>
  );
}

interface ValueProps {
  readonly value: JsonValue;
  readonly pieces: Map<string, Piece>;
  readonly names: readonly string[];
  readonly field?: string;
  readonly skip?: string;
}

function Value({ value, pieces, names, field = "", skip }: ValueProps) {
  if (value === null) return <span class="muted">none</span>;
  if (typeof value === "string") return <Text text={value} pieces={pieces} field={field} />;
  if (typeof value === "number" && SEAT_FIELDS.has(field)) return <Player seat={value} names={names} />;
  if (typeof value !== "object") return <span>{String(value)}</span>;
  if (Array.isArray(value)) {
    if (value.length === 0) return <span class="muted">none</span>;
    if (value.every((v) => typeof v === "string")) {
      return (
        <ul class="cards">
          {value.map((v, i) => (
            <li key={i}>
              <Text text={v as string} pieces={pieces} field={field} />
            </li>
          ))}
        </ul>
      );
    }
    if (value.every((v) => typeof v === "number") && SEAT_FIELDS.has(field)) {
      return (
        <span>
          {value.map((v, i) => (
            <span key={i}>
              {i ? ", " : ""}
              <Player seat={v as number} names={names} />
            </span>
          ))}
        </span>
      );
    }
    if (value.every((v) => typeof v !== "object" || v === null)) return <span>{value.join(", ")}</span>;
    if (value.every(flat)) return <Table rows={value as JsonObject[]} pieces={pieces} names={names} />;
    return (
      <ol class="items">
        {value.map((v, i) => (
          <li key={i}>
            <Value value={v} pieces={pieces} names={names} />
          </li>
        ))}
      </ol>
    );
  }
  const entries = Object.entries(value).filter(([key]) => key !== skip);
  if (entries.length === 0) return <span class="muted">none</span>;
  return (
    <dl class="fields nested">
      {entries.map(([key, v]) => (
        <Field key={key} name={key} value={v} pieces={pieces} names={names} />
      ))}
    </dl>
  );
}

/** An object whose fields are all strings, numbers or booleans (a row of a table). */
function flat(value: JsonValue): boolean {
  return (
    value !== null &&
    typeof value === "object" &&
    !Array.isArray(value) &&
    Object.values(value).every((v) => v === null || typeof v !== "object")
  );
}

/** A list of flat objects as a small table, one column per field any of them has. */
function Table({ rows, pieces, names }: { rows: readonly JsonObject[]; pieces: Map<string, Piece>; names: readonly string[] }) {
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  return (
    <table class="grid">
      <thead>
        <tr>
          <th>#</th>
          {columns.map((c) => (
            <th key={c}>{words(c)}</th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.map((row, i) => (
          <tr key={i}>
            <td>{i + 1}</td>
            {columns.map((c) => {
              const v = row[c];
              return <td key={c}>{v === undefined ? "" : <Value value={v} pieces={pieces} names={names} field={c} />}</td>;
            })}
          </tr>
        ))}
      </tbody>
    </table>
  );
}

function Player({ seat, names }: { seat: number; names: readonly string[] }) {
  return <span class="player-name">{names[seat] ?? `seat ${seat}`}</span>;
}

/** A string: a catalogue id as its card (name, and its rules text on hover), else the text. */
function Text({ text, pieces, field }: { text: string; pieces: Map<string, Piece>; field: string }) {
  const piece = pieces.get(text);
  if (!piece) return <span>{words(text, field)}</span>;
  const about = describe(piece);
  return (
    <span class="card" title={about}>
      {piece.name}
    </span>
  );
}

function describe(piece: Piece): string {
  return Object.entries(piece.details)
    .filter(([key, v]) => key !== "id" && key !== "name" && (typeof v === "string" || typeof v === "number"))
    .map(([key, v]) => `${words(key)}: ${String(v)}`)
    .join("; ");
}
