/** Navegador's board: the rondel, the market, the sea regions with the ships, colonies, buildings
 * and each seat's holdings. */
import type { JsonObject } from "@bufbuild/protobuf";

import { words } from "../view";
import { Area, type BoardData, PlayerArea, Stats, Tile, Tiles, nameOf, num, numbers, objects, str, strings, who } from "./parts";

/** The view fields this board draws. */
export const NAVEGADOR_DRAWN = ["step", "active", "turn", "startPlayer", "players", "buildings", "colonies", "regions", "cubes", "knightPhase", "knightPrice", "knightsSold", "shipsOwed", "destination", "pickedPlace", "fleetOrigin", "fleetDestination", "displacedSeat", "displacedWorkers", "displacedFrom"];

const GOODS = ["GOOD_SUGAR", "GOOD_GOLD", "GOOD_SPICE"];

export function NavegadorBoard({ data }: { data: BoardData }) {
  const { json, names } = data;
  return (
    <div class="board nv">
      <Stats
        items={[
          ["Turn", num(json, "turn")],
          ["Step", words(str(json, "step"), "step")],
          json["active"] !== undefined && ["Active player", who(names, num(json, "active"))],
          ["Knights", `phase ${num(json, "knightPhase")}, price ${num(json, "knightPrice")}, ${num(json, "knightsSold")} sold`],
          str(json, "pickedPlace") !== "" && ["Picked", nameOf(data.pieces, str(json, "pickedPlace"))],
          str(json, "fleetOrigin") !== "" && ["Fleet", `from ${nameOf(data.pieces, str(json, "fleetOrigin"))}${str(json, "fleetDestination") ? ` to ${nameOf(data.pieces, str(json, "fleetDestination"))}` : ""}`],
          json["displacedSeat"] !== undefined && ["Displaced", `${who(names, num(json, "displacedSeat"))}: ${num(json, "displacedWorkers")} workers from ${nameOf(data.pieces, str(json, "displacedFrom"))}`],
          num(json, "shipsOwed") > 0 && ["Ships owed", `${num(json, "shipsOwed")} to move to ${words(str(json, "destination"), "space")}`],
        ]}
      />
      <Rondel data={data} />
      <Market data={data} />
      <Regions data={data} />
      <Holdings label="Colonies" field="colonies" data={data} />
      <Holdings label="Buildings" field="buildings" data={data} />
      <div class="players">
        {objects(json, "players").map((p) => (
          <Seat key={num(p, "seat")} player={p} data={data} />
        ))}
      </div>
    </div>
  );
}

function Rondel({ data }: { data: BoardData }) {
  const players = objects(data.json, "players");
  const spaces = [...objects(data.catalog, "rondel")].sort((a, b) => num(a, "position") - num(b, "position"));
  return (
    <Area label="Rondel">
      <Tiles label="Rondel spaces">
        {spaces.map((s) => {
          const here = players.filter((p) => str(p, "rondel") === str(s, "space")).map((p) => who(data.names, num(p, "seat")));
          return <Tile key={str(s, "space")} tone={`rondel${here.length ? " focus" : ""}`} title={str(s, "name")} text={str(s, "rulesText")} note={here.length ? `here: ${here.join(", ")}` : undefined} />;
        })}
      </Tiles>
    </Area>
  );
}

function Market({ data }: { data: BoardData }) {
  const cubes = numbers(data.json, "cubes");
  const tracks = objects(data.catalog, "market");
  return (
    <Area label="Market">
      <table class="grid" aria-label="Market prices">
        <thead>
          <tr>
            <th>Good</th>
            <th>Cubes on the track</th>
            <th>Price now</th>
            <th>Track</th>
          </tr>
        </thead>
        <tbody>
          {GOODS.map((good, i) => {
            const prices = numbers(tracks.find((t) => str(t, "good") === good), "prices");
            const n = cubes[i] ?? 0;
            return (
              <tr key={good}>
                <td>{words(good, "good")}</td>
                <td>{n}</td>
                <td>{prices[Math.min(n, prices.length - 1)] ?? ""}</td>
                <td>{prices.join(" · ")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Area>
  );
}

function Regions({ data }: { data: BoardData }) {
  const { json, pieces, names } = data;
  const players = objects(json, "players");
  return (
    <Area label="Sea regions">
      <table class="grid" aria-label="Sea regions and ships">
        <thead>
          <tr>
            <th>Region</th>
            <th>Explored</th>
            <th>Bonus</th>
            <th>Ships</th>
          </tr>
        </thead>
        <tbody>
          {objects(json, "regions").map((r) => {
            const id = str(r, "region");
            const index = Number(id.replace(/\D/g, ""));
            const ships = players
              .map((p) => [num(p, "seat"), numbers(p, "ships")[index] ?? 0] as const)
              .filter(([, n]) => n > 0)
              .map(([seat, n]) => `${who(names, seat)} ${n}`);
            const explored = r["explored"] === true;
            return (
              <tr key={id} class={ships.length ? "occupied" : ""}>
                <td>{nameOf(pieces, id)}</td>
                <td>{explored ? (r["tileOwner"] !== undefined ? `yes, tile: ${who(names, num(r, "tileOwner"))}` : "yes") : "no"}</td>
                <td>{num(r, "bonus") || ""}</td>
                <td>{ships.join(", ")}</td>
              </tr>
            );
          })}
        </tbody>
      </table>
    </Area>
  );
}

function Holdings({ label, field, data }: { label: string; field: string; data: BoardData }) {
  const { json, pieces, names } = data;
  const places = objects(json, field);
  return (
    <Area label={label} count={places.length}>
      <Tiles label={label}>
        {places.map((h) => {
          const d = pieces.get(str(h, "place"))?.details;
          const owned = h["owner"] !== undefined;
          return (
            <Tile
              key={str(h, "place")}
              tone={`holding${owned ? " owned" : ""}`}
              title={nameOf(pieces, str(h, "place"))}
              facts={[str(d, "good") !== "" && words(str(d, "good"), "good"), str(d, "region") !== "" && nameOf(pieces, str(d, "region")), owned ? `${who(names, num(h, "owner"))}: ${num(h, "workers")} workers` : "free"]}
              text={str(d, "rulesText")}
            />
          );
        })}
      </Tiles>
    </Area>
  );
}

function Seat({ player, data }: { player: JsonObject; data: BoardData }) {
  const { pieces } = data;
  const seat = num(player, "seat");
  const ships = numbers(player, "ships").reduce((a, b) => a + b, 0);
  const named = (key: string): string => strings(player, key).map((id) => nameOf(pieces, id)).join(", ") || "none";
  return (
    <PlayerArea seat={seat} data={data} extra={words(str(player, "colour"), "colour")}>
      <Stats
        items={[
          ["Money", num(player, "money")],
          ["Workers in Lisbon", num(player, "lisbon")],
          ["Ships", ships],
          ["Knights", num(player, "knights")],
          ["Rondel", player["rondel"] !== undefined ? words(str(player, "rondel"), "space") : "not placed"],
          ["Base points", num(player, "basePoints")],
        ]}
      />
      <p>
        <strong>Buildings:</strong> {named("buildings")}
      </p>
      <p>
        <strong>Colonies:</strong> {named("colonies")}
      </p>
      <p>
        <strong>Exploration tiles:</strong> {named("tiles")}
        {num(player, "bonusSum") ? ` (bonus ${num(player, "bonusSum")})` : ""}
      </p>
    </PlayerArea>
  );
}
