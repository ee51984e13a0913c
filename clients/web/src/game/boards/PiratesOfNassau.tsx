/** Pirates of Nassau's board: the sea (20 spaces with their merchants and ships), decks and piles,
 * the supply and each seat's ship. */
import type { JsonObject } from "@bufbuild/protobuf";

import { words } from "../view";
import { Area, type BoardData, Pile, PlayerArea, Stats, Tile, Tiles, entry, nameOf, num, numbers, object, objects, str, strings, who } from "./parts";

/** The view fields this board draws. */
export const PIRATES_DRAWN = ["round", "phase", "routes", "decks", "navySize", "navyBottom", "navyDisplay", "piles", "nassauDisplay", "supply", "sacked", "seats"];

const CARGO = ["pesos", "gunpowder", "goods", "rum", "hostages"];

/** A card or token by its name, else its id as printed ("Z2-16"). */
const label = (data: BoardData, id: string): string => data.pieces.get(id)?.name ?? id.toUpperCase();

export function PiratesBoard({ data }: { data: BoardData }) {
  const { json, pieces, names } = data;
  const phase = object(json, "phase");
  const supply = object(json, "supply");
  const card = str(phase, "card");
  return (
    <div class="board pn">
      <Stats
        items={[
          ["Round", num(json, "round")],
          ["Step", words(str(phase, "step"), "step")],
          phase?.["active"] !== undefined && ["To act", who(names, num(phase, "active"))],
          numbers(phase, "order").length > 0 && ["Order", numbers(phase, "order").map((s) => who(names, s)).join(", ")],
          card !== "" && ["Card", label(data, card)],
          numbers(json, "sacked").length > 0 && ["Sacked ports", numbers(json, "sacked").join(", ")],
        ]}
      />
      <Sea data={data} />
      <div class="piles" role="group" aria-label="Decks and piles">
        {objects(json, "decks").map((d) => (
          <Pile key={num(d, "zone")} label={`Zone ${num(d, "zone")} merchants`} count={num(d, "size")} />
        ))}
        <Pile label="Navy deck" count={num(json, "navySize")} />
        {objects(json, "piles").map((p) => (
          <Pile key={str(p, "pile")} label={`${words(str(p, "pile"), "pile")} tokens`} count={num(p, "size")} />
        ))}
      </div>
      <Area label="Supply">
        <Stats items={[...CARGO.slice(1), "winds"].map((k) => [words(k), num(supply, k)] as const)} />
      </Area>
      <Area label="Navy" count={strings(json, "navyDisplay").length}>
        <Tiles label="Navy display" empty="No warships showing.">
          {strings(json, "navyDisplay").map((id, i) => {
            const d = pieces.get(id)?.details;
            return <Tile key={`${id}/${i}`} tone="navy" title={nameOf(pieces, id)} facts={[`sail ${num(d, "sail")}`, `cannon ${num(d, "cannon")}`, d?.["end"] === true && "ends the game"]} />;
          })}
        </Tiles>
      </Area>
      <Area label="Nassau market" count={strings(json, "nassauDisplay").length}>
        <Tiles label="Tokens for sale">
          {strings(json, "nassauDisplay").map((id, i) => (
            <Token key={`${id}/${i}`} id={id} data={data} />
          ))}
        </Tiles>
      </Area>
      <div class="players">
        {objects(json, "seats").map((s) => (
          <Seat key={num(s, "seat")} seat={s} data={data} />
        ))}
      </div>
    </div>
  );
}

/** The sea as a table: each space's zone, what it is, the merchant on it and the ships there. */
function Sea({ data }: { data: BoardData }) {
  const { json, names, catalog } = data;
  const merchants = new Map(objects(json, "routes").map((r) => [num(r, "space"), str(r, "card")]));
  const seats = objects(json, "seats");
  const ships = (space: number): string =>
    seats
      .filter((s) => num(s, "space") === space)
      .map((s) => who(names, num(s, "seat")))
      .join(", ");
  const sea = objects(catalog, "sea");
  return (
    <Area label="Sea">
      <p>
        <strong>Nassau:</strong> {ships(0) || <span class="muted">no ships</span>}
      </p>
      <table class="grid sea" aria-label="Sea spaces">
        <thead>
          <tr>
            <th>Space</th>
            <th>Zone</th>
            <th>What</th>
            <th>Merchant</th>
            <th>Ships</th>
          </tr>
        </thead>
        <tbody>
          {sea.map((space) => {
            const n = num(space, "space");
            const merchant = merchants.get(n);
            const m = merchant ? entry(catalog, "merchants", merchant) : undefined;
            const here = ships(n);
            return (
              <tr key={n} class={here ? "occupied" : ""}>
                <td>{n}</td>
                <td>{num(space, "zone")}</td>
                <td>
                  {str(space, "portName") || words(str(space, "type"), "type")}
                  {space["spanish"] === true ? " (Spanish)" : ""}
                </td>
                <td>{merchant ? `${merchant.toUpperCase()}: sail ${num(m, "sail")}, cannon ${num(m, "cannon")}, loot ${strings(m, "loot").map((l) => words(l, "item")).join(", ")}` : ""}</td>
                <td>{here}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Area>
  );
}

function Token({ id, data }: { id: string; data: BoardData }) {
  const d = data.pieces.get(id)?.details;
  const facts = ["sail", "cannon", "bestShip", "motley"].filter((k) => num(d, k) > 0).map((k) => `${words(k)} ${num(d, k)}`);
  return <Tile tone="token" title={nameOf(data.pieces, id)} facts={[str(d, "slot") !== "" && words(str(d, "slot"), "slotType"), ...facts, d?.["oneShot"] === true && "one-shot"]} text={str(d, "rulesText")} />;
}

function Seat({ seat: s, data }: { seat: JsonObject; data: BoardData }) {
  const seat = num(s, "seat");
  const hold = object(s, "hold");
  const held = CARGO.reduce((n, k) => n + (k === "pesos" ? 0 : num(hold, k)), 0);
  const hand = strings(s, "hand");
  const fitted = objects(s, "fitted");
  const plundered = strings(s, "plundered");
  return (
    <PlayerArea seat={seat} data={data}>
      <Stats
        items={[
          ["Notoriety", num(s, "notoriety")],
          ["At", num(s, "space") === 0 ? "Nassau" : `space ${num(s, "space")}`],
          ["Sail", num(s, "baseSail")],
          ["Cannon", num(s, "baseCannon")],
          ["Hold", `${held} of ${num(s, "capacity")}`],
          ["Dice", numbers(s, "dice").join(", ") || "none"],
          s["chest"] !== undefined && ["Chest", `${num(s, "chest")} pesos`],
          ["Sections", num(s, "sections")],
          num(s, "plank") > 0 && ["Plank", num(s, "plank")],
          s["windHeld"] === true && ["Trade wind", "held"],
        ]}
      />
      <p class="cargo">
        {CARGO.map((k) => (
          <span key={k} class="fact">
            {words(k)} {num(hold, k)}
          </span>
        ))}
      </p>
      {hand.length ? (
        <>
          <h4>Captain cards</h4>
          <Tiles label={`${who(data.names, seat)}'s captain cards`}>
            {hand.map((id, i) => {
              const d = entry(data.catalog, "captainCards", id);
              return <Tile key={`${id}/${i}`} tone="captain small" title={`Captain ${id.toUpperCase()}`} facts={[`sail ${num(d, "sail")}`, `cannon ${num(d, "cannon")}`]} />;
            })}
          </Tiles>
        </>
      ) : null}
      <h4>Ship</h4>
      <Tiles label={`${who(data.names, seat)}'s fitted tokens`} empty="Nothing fitted.">
        {fitted.map((f) => (
          <Token key={`${str(f, "slot")}/${str(f, "token")}`} id={str(f, "token")} data={data} />
        ))}
      </Tiles>
      {plundered.length ? <p>Plundered this round: {plundered.map((id) => label(data, id)).join(", ")}</p> : null}
    </PlayerArea>
  );
}
