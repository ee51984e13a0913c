/** Small pieces every game's board is drawn with: tiles, piles, player areas, typed JSON reads. */
import type { JsonObject, JsonValue } from "@bufbuild/protobuf";
import type { ComponentChildren } from "preact";

import { type Piece, words } from "../view";

/** What a game's board gets: the view's own part, the catalogue and who is who. */
export interface BoardData {
  readonly json: JsonObject;
  readonly pieces: Map<string, Piece>;
  readonly names: readonly string[];
  readonly toAct: readonly number[];
  readonly catalog: JsonObject | undefined; // the game's own catalogue, as JSON
}

/** A number field (0 when the JSON leaves it out). */
export const num = (o: JsonObject | undefined, key: string): number => {
  const v = o?.[key];
  return typeof v === "number" ? v : 0;
};
/** A string field ("" when absent). */
export const str = (o: JsonObject | undefined, key: string): string => {
  const v = o?.[key];
  return typeof v === "string" ? v : "";
};
/** A list field ([] when absent). */
export const list = (o: JsonObject | undefined, key: string): JsonValue[] => {
  const v = o?.[key];
  return Array.isArray(v) ? v : [];
};
/** A list of strings. */
export const strings = (o: JsonObject | undefined, key: string): string[] => list(o, key).filter((v): v is string => typeof v === "string");
/** A list of numbers. */
export const numbers = (o: JsonObject | undefined, key: string): number[] => list(o, key).filter((v): v is number => typeof v === "number");
/** A list of objects. */
export const objects = (o: JsonObject | undefined, key: string): JsonObject[] =>
  list(o, key).filter((v): v is JsonObject => v !== null && typeof v === "object" && !Array.isArray(v));
/** An object field. */
export const object = (o: JsonObject | undefined, key: string): JsonObject | undefined => {
  const v = o?.[key];
  return v !== null && typeof v === "object" && !Array.isArray(v) ? v : undefined;
};

/** The player at `seat` by name. */
export const who = (names: readonly string[], seat: number): string => names[seat] ?? `Seat ${seat + 1}`;

/** A labelled group of the board with a heading (a `region` landmark: it has a name). */
export function Area({ label, count, children, class: extra = "" }: { label: string; count?: number; children: ComponentChildren; class?: string }) {
  return (
    <section aria-label={label} class={`area ${extra}`}>
      <h3>
        {label}
        {count !== undefined ? <span class="count"> ({count})</span> : null}
      </h3>
      {children}
    </section>
  );
}

/** A row of tiles as a list (empty: "none"). */
export function Tiles({ label, children, empty = "none" }: { label: string; children: ComponentChildren[]; empty?: string }) {
  if (children.length === 0) return <p class="muted">{empty}</p>;
  return (
    <ul class="tiles" aria-label={label}>
      {children}
    </ul>
  );
}

/** One tile: a title, facts as small badges, and its rules text. Not a button. */
export function Tile({
  title,
  facts = [],
  text,
  tone = "",
  note,
}: {
  title: ComponentChildren;
  facts?: readonly (string | false | undefined)[];
  text?: string;
  tone?: string;
  note?: ComponentChildren;
}) {
  const shown = facts.filter((f): f is string => Boolean(f));
  return (
    <li class={`tile ${tone}`}>
      <strong class="tile-title">{title}</strong>
      {shown.length ? (
        <span class="facts">
          {shown.map((f, i) => (
            <span key={i} class="fact">
              {f}
            </span>
          ))}
        </span>
      ) : null}
      {text ? <span class="rules">{text}</span> : null}
      {note ? <span class="note">{note}</span> : null}
    </li>
  );
}

/** A face-down stack with its count (and optionally the card on top). */
export function Pile({ label, count, top }: { label: string; count: number; top?: ComponentChildren }) {
  return (
    <div class="pile" role="group" aria-label={`${label}: ${count}`}>
      <span class="pile-count">{count}</span>
      <span class="pile-label">{label}</span>
      {top ? <span class="pile-top">top: {top}</span> : null}
    </div>
  );
}

/** Key figures as a small definition list ("Coins 5", "VP 3"). */
export function Stats({ items }: { items: readonly (readonly [string, ComponentChildren] | false)[] }) {
  return (
    <dl class="stats">
      {items
        .filter((i): i is readonly [string, ComponentChildren] => Boolean(i))
        .map(([k, v]) => (
          <div key={k}>
            <dt>{k}</dt>
            <dd>{v}</dd>
          </div>
        ))}
    </dl>
  );
}

/** A seat's area; highlighted while that seat is to act. */
export function PlayerArea({ seat, data, children, extra }: { seat: number; data: BoardData; children: ComponentChildren; extra?: string }) {
  const acting = data.toAct.includes(seat);
  const name = who(data.names, seat);
  return (
    <section aria-label={`Seat ${seat + 1}: ${name}`} class={`player${acting ? " acting" : ""}`}>
      <h3>
        {name} <span class="muted">seat {seat + 1}</span>
        {extra ? <span class="muted"> · {extra}</span> : null}
        {acting ? <span class="to-act"> · to act</span> : null}
      </h3>
      {children}
    </section>
  );
}

/** Ids counted: ["a", "b", "a"] -> [["a", 2], ["b", 1]] in first-seen order. */
export function grouped(ids: readonly string[]): [string, number][] {
  const counts = new Map<string, number>();
  for (const id of ids) counts.set(id, (counts.get(id) ?? 0) + 1);
  return [...counts];
}

/** A catalogue entry's name (the id in words when the catalogue lacks it). */
export const nameOf = (pieces: Map<string, Piece>, id: string): string => pieces.get(id)?.name ?? words(id);

/** The catalogue entry of `list` whose `id` is `id` (entries without a name are not in `pieces`). */
export const entry = (catalog: JsonObject | undefined, key: string, id: string): JsonObject | undefined => objects(catalog, key).find((e) => str(e, "id") === id);
