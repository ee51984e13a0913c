/** Sail Away's board: the island row, pirate action cards, the ship market and each seat's ships. */
import type { JsonObject } from "@bufbuild/protobuf";

import { words } from "../view";
import { Area, type BoardData, Pile, PlayerArea, Stats, Tile, Tiles, nameOf, num, object, objects, str, strings, who } from "./parts";

/** The view fields this board draws. */
export const SAIL_AWAY_DRAWN = [
  "phase", "decision", "turn", "maxRounds", "startPlayer", "active", "players", "islands", "islandDeckSize", "islandDiscard",
  "pirateCards", "market", "shipDeckSize", "publicObjective", "publicResource", "placed", "crateLimit", "finalTurns", "dealt", "kept", "returned",
];

export function SailAwayBoard({ data }: { data: BoardData }) {
  const { json, pieces, names } = data;
  const decision = object(json, "decision");
  const islands = objects(json, "islands");
  const market = objects(json, "market");
  return (
    <div class="board sa">
      <Stats
        items={[
          ["Turn", `${num(json, "turn")} (at most ${num(json, "maxRounds")} rounds)`],
          ["Phase", words(str(json, "phase"), "phase")],
          ["Active player", who(names, num(json, "active"))],
          decision !== undefined && ["Decision", words(str(decision, "kind"), "kind")],
          num(json, "crateLimit") > 0 && ["Crates placed", `${num(json, "placed")} of ${num(json, "crateLimit")}`],
          ["Public objective", `${str(json, "publicObjective")} ${words(str(json, "publicResource"), "resource")}`],
          num(json, "finalTurns") > 0 && ["Final turns left", num(json, "finalTurns")],
        ]}
      />
      <Setup data={data} />
      <Area label="Islands" count={islands.length}>
        <Tiles label="Island row">
          {islands.map((island) => (
            <Tile
              key={str(island, "card")}
              tone={`island${str(decision, "island") === str(island, "card") ? " focus" : ""}`}
              title={nameOf(pieces, str(island, "card"))}
              facts={[`${num(island, "value")} coins`, island["post"] !== undefined && `post: ${who(names, num(island, "post"))}`]}
              note={<Spaces spaces={objects(island, "spaces")} names={names} />}
            />
          ))}
        </Tiles>
      </Area>
      <div class="piles" role="group" aria-label="Piles">
        <Pile label="Island deck" count={num(json, "islandDeckSize")} />
        <Pile label="Island discard" count={strings(json, "islandDiscard").length} />
        <Pile label="Ship deck" count={num(json, "shipDeckSize")} />
      </div>
      <Area label="Pirate action cards">
        <Tiles label="Pirate action cards">
          {objects(json, "pirateCards").map((card) => (
            <Tile
              key={str(card, "card")}
              tone="pirate"
              title={str(card, "name") || nameOf(pieces, str(card, "card"))}
              facts={[card["persistent"] === true ? "persistent" : "one-time"]}
              text={str(pieces.get(str(card, "card"))?.details, "rulesText")}
              note={`spaces: ${objects(card, "spaces").map((s) => (s["owner"] === undefined ? "free" : who(names, num(s, "owner")))).join(", ")}`}
            />
          ))}
        </Tiles>
      </Area>
      <Area label="Ship market" count={market.length}>
        <Tiles label="Market ships">
          {market.map((m) => {
            const ship = object(m, "ship");
            return <Ship key={str(ship, "card")} ship={ship} data={data} />;
          })}
        </Tiles>
      </Area>
      <div class="players">
        {objects(json, "players").map((p) => (
          <Seat key={num(p, "seat")} player={p} data={data} />
        ))}
      </div>
    </div>
  );
}

/** The viewer's own ships at setup: dealt, kept and given back (from the catalogue: no crates yet). */
function Setup({ data }: { data: BoardData }) {
  const groups = [
    ["Your dealt ships", strings(data.json, "dealt")],
    ["Ships you keep", strings(data.json, "kept")],
    ["Ships you give back", strings(data.json, "returned")],
  ] as const;
  return (
    <>
      {groups
        .filter(([, ids]) => ids.length > 0)
        .map(([label, ids]) => (
          <Area key={label} label={label} count={ids.length}>
            <Tiles label={label}>
              {ids.map((id) => (
                <PrintedShip key={id} id={id} data={data} />
              ))}
            </Tiles>
          </Area>
        ))}
    </>
  );
}

/** A ship card as printed (its catalogue entry). */
function PrintedShip({ id, data }: { id: string; data: BoardData }) {
  const d = data.pieces.get(id)?.details;
  const spaces = strings(d, "spaces").map((r, i) => `${words(r, "resource")}${num(d, "coinSpace") === i ? " (gold coin)" : ""}`);
  return <Tile tone="ship-card" title={nameOf(data.pieces, id)} facts={[`${num(d, "points")} points`]} note={`spaces: ${spaces.join(", ")}`} />;
}

/** Island or ship spaces: each its resource and the crate on it. */
function Spaces({ spaces, names }: { spaces: readonly JsonObject[]; names: readonly string[] }) {
  return (
    <span class="spaces">
      {spaces.map((s, i) => {
        const crate = object(s, "crate");
        const resource = s["coin"] === true ? "gold coin" : words(str(s, "resource"), "resource");
        const holder = crate ? `${who(names, num(crate, "owner"))}${crate["pirate"] === true ? " (pirate)" : ""}` : "empty";
        const cover = s["cover"] !== undefined ? `, covered by ${who(names, num(s, "cover"))}` : "";
        return (
          <span key={i} class={`space res-${resource.replaceAll(" ", "-")}${crate ? " filled" : ""}`}>
            {resource}: {holder}
            {cover}
          </span>
        );
      })}
    </span>
  );
}

function Ship({ ship, data }: { ship: JsonObject | undefined; data: BoardData }) {
  const id = str(ship, "card");
  return (
    <Tile
      tone={`ship-card${ship?.["launchable"] === true ? " focus" : ""}`}
      title={nameOf(data.pieces, id)}
      facts={[`${num(ship, "points")} points`, ship?.["launchable"] === true && "ready to launch"]}
      note={<Spaces spaces={objects(ship, "spaces")} names={data.names} />}
    />
  );
}

function Seat({ player, data }: { player: JsonObject; data: BoardData }) {
  const seat = num(player, "seat");
  const launched = objects(player, "launched");
  const abilities = objects(data.catalog, "launchAbilities");
  const reserve = num(player, "reserveStandard") + num(player, "reservePirate");
  return (
    <PlayerArea seat={seat} data={data} extra={num(data.json, "active") === seat ? "active player" : undefined}>
      <Stats
        items={[
          ["Coins", num(player, "coins")],
          ["Crates", num(player, "standard")],
          ["Pirate crates", num(player, "pirate")],
          reserve > 0 && ["Reserve", `${num(player, "reserveStandard")} + ${num(player, "reservePirate")} pirate`],
          ["Posts", num(player, "posts")],
          str(player, "objective") !== "" && ["Objective", `${str(player, "objective")} ${words(str(player, "objectiveResource"), "resource")}`],
        ]}
      />
      <h4>Ships in port</h4>
      <Tiles label={`${who(data.names, seat)}'s ships`} empty="No ships in port.">
        {objects(player, "ships").map((ship) => (
          <Ship key={str(ship, "card")} ship={ship} data={data} />
        ))}
      </Tiles>
      {launched.length ? (
        <>
          <h4>Launched</h4>
          <Tiles label={`${who(data.names, seat)}'s launched ships`}>
            {launched.map((ship) => {
              const ability = abilities.find((a) => num(a, "slot") === num(ship, "slot"));
              return (
                <Tile
                  key={str(ship, "card")}
                  tone="ship-card launched"
                  title={nameOf(data.pieces, str(ship, "card"))}
                  facts={[`${num(ship, "points")} points`, num(ship, "slot") > 0 ? `slot ${num(ship, "slot")}` : "beside the board", ship["used"] === true && "used", ship["ready"] === true && "ability ready"]}
                  text={ability ? `${str(ability, "name")}: ${str(ability, "rulesText")}` : undefined}
                />
              );
            })}
          </Tiles>
        </>
      ) : null}
    </PlayerArea>
  );
}
