/** Port Royal's board: the harbor, the piles, expeditions, contracts and each seat's area. */
import type { JsonObject } from "@bufbuild/protobuf";

import { type Piece, words } from "../view";
import { Area, type BoardData, Pile, PlayerArea, Stats, Tile, Tiles, grouped, nameOf, num, numbers, object, objects, str, strings, who } from "./parts";

/** The view fields this board draws (the rest go to the generic renderer). */
export const PORT_ROYAL_DRAWN = [
  "active", "startPlayer", "turn", "revealed", "baseAllowance", "phase", "harbor", "expeditions", "discard",
  "drawPileSize", "players", "contracts", "contractPileSize", "timePileSize", "victoryPileSize", "endTriggered",
];

export function PortRoyalBoard({ data }: { data: BoardData }) {
  const { json, pieces, names } = data;
  const harbor = strings(json, "harbor");
  const discard = strings(json, "discard");
  const contracts = objects(json, "contracts");
  return (
    <div class="board pr">
      <Phase data={data} />
      <Area label="Harbor" count={harbor.length}>
        <Tiles label="Harbor cards" empty="The harbor is empty.">
          {harbor.map((id, i) => (
            <Card key={`${id}/${i}`} card={pieces.get(id)} id={id} />
          ))}
        </Tiles>
      </Area>
      <div class="piles" aria-label="Piles" role="group">
        <Pile label="Draw pile" count={num(json, "drawPileSize")} />
        <Pile label="Discard" count={discard.length} top={discard.length ? nameOf(pieces, discard[discard.length - 1] ?? "") : undefined} />
        {contracts.length || num(json, "contractPileSize") ? <Pile label="Contract pile" count={num(json, "contractPileSize")} /> : null}
        {num(json, "timePileSize") ? <Pile label="Time pile" count={num(json, "timePileSize")} /> : null}
        {num(json, "victoryPileSize") ? <Pile label="Victory pile" count={num(json, "victoryPileSize")} /> : null}
      </div>
      <Area label="Expeditions" count={strings(json, "expeditions").length}>
        <Tiles label="Expedition cards">
          {strings(json, "expeditions").map((id, i) => (
            <Card key={`${id}/${i}`} card={pieces.get(id)} id={id} />
          ))}
        </Tiles>
      </Area>
      {contracts.length ? (
        <Area label="Contracts" count={contracts.length}>
          <Tiles label="Contract cards">
            {contracts.map((c, i) => (
              <ContractTile key={`${str(c, "contract")}/${i}`} contract={c} pieces={pieces} names={names} />
            ))}
          </Tiles>
        </Area>
      ) : null}
      <div class="players">
        {objects(json, "players").map((p) => (
          <Seat key={num(p, "seat")} player={p} data={data} />
        ))}
      </div>
    </div>
  );
}

function Phase({ data }: { data: BoardData }) {
  const { json, pieces, names } = data;
  const phase = object(json, "phase");
  const ship = str(phase, "ship");
  const contract = str(phase, "contract");
  const tax = str(phase, "tax");
  return (
    <Stats
      items={[
        ["Turn", num(json, "turn")],
        ["Active player", who(names, num(json, "active"))],
        ["Phase", words(str(phase, "kind"), "kind")],
        ship !== "" && ["Ship", nameOf(pieces, ship)],
        contract !== "" && ["Contract", nameOf(pieces, contract)],
        tax !== "" && ["Tax", nameOf(pieces, tax)],
        num(phase, "allowance") > 0 && ["Allowance", num(phase, "allowance")],
        ["Revealed", num(json, "revealed")],
        ["Base allowance", num(json, "baseAllowance")],
        ["Start player", who(names, num(json, "startPlayer"))],
        json["endTriggered"] === true && ["End", "triggered: last round"],
      ]}
    />
  );
}

const SYMBOL = (s: string): string => words(s, "expeditionSymbol");

/** A card of the deck (ship, person, expedition or tax) as a tile, from its catalogue entry. */
function Card({ card, id }: { card: Piece | undefined; id: string }) {
  if (!card) return <Tile title={words(id)} />;
  const d = card.details;
  const type = str(d, "type");
  const text = str(d, "rulesText");
  if (type === "CARD_TYPE_SHIP") {
    const colour = words(str(d, "colour"), "colour");
    return (
      <Tile
        tone={`ship ship-${colour}`}
        title={card.name}
        facts={[`${num(d, "coins")} coin${num(d, "coins") === 1 ? "" : "s"}`, num(d, "swordsToRepel") > 0 ? `repel: ${num(d, "swordsToRepel")} swords` : "cannot be repelled", d["skull"] === true && "skull"]}
        text={text}
      />
    );
  }
  if (type === "CARD_TYPE_PERSON") return <Person card={card} />;
  if (type === "CARD_TYPE_EXPEDITION") {
    const needs = strings(d, "needs").map(SYMBOL);
    return <Tile tone="expedition" title={card.name} facts={[`needs ${needs.join(" + ")}`, `${num(d, "victoryPoints")} VP`, num(d, "coins") > 0 && `${num(d, "coins")} coins`]} text={text} />;
  }
  return <Tile tone="tax" title={card.name} facts={[words(str(d, "taxBonus"), "taxBonus")]} text={text} />;
}

function Person({ card, count = 1 }: { card: Piece; count?: number }) {
  const d = card.details;
  return (
    <Tile
      tone="person"
      title={count > 1 ? `${card.name} ×${count}` : card.name}
      facts={[`cost ${num(d, "cost")}`, `${num(d, "victoryPoints")} VP`, num(d, "swords") > 0 && `${num(d, "swords")} swords`, str(d, "symbol") !== "" && SYMBOL(str(d, "symbol"))]}
      text={str(d, "rulesText")}
    />
  );
}

function ContractTile({ contract, pieces, names }: { contract: JsonObject; pieces: Map<string, Piece>; names: readonly string[] }) {
  const card = pieces.get(str(contract, "contract"));
  const d = card?.details;
  const coinSlots = numbers(d, "coinSlots");
  const slots = numbers(contract, "slots");
  const boxes = objects(contract, "boxes");
  return (
    <Tile
      tone="contract"
      title={card?.name ?? words(str(contract, "contract"))}
      facts={[
        coinSlots.length > 0 && `coin slots: ${coinSlots.join(" · ")}`,
        num(d, "preparationBoxes") > 0 && `${num(d, "preparationBoxes")} preparation boxes`,
        d?.["activePlayerOnly"] === true && "active player only",
      ]}
      text={card ? str(card.details, "rulesText") : undefined}
      note={[
        slots.length ? `slots taken: ${slots.map((seat, i) => `${who(names, seat)} (${coinSlots[i] ?? 0} coins)`).join(", ")}` : "",
        boxes.length ? `prepared: ${boxes.map((b) => `${who(names, num(b, "seat"))} in box ${num(b, "box") + 1}`).join(", ")}` : "",
      ]
        .filter(Boolean)
        .join("; ") || undefined}
    />
  );
}

function Seat({ player, data }: { player: JsonObject; data: BoardData }) {
  const { pieces } = data;
  const seat = num(player, "seat");
  const display = grouped(strings(player, "display"));
  const completed = strings(player, "completed");
  const collection = strings(player, "collection");
  return (
    <PlayerArea seat={seat} data={data} extra={num(data.json, "active") === seat ? "active player" : undefined}>
      <Stats
        items={[
          ["Coins", num(player, "coinCount")],
          ["VP", num(player, "vp")],
          ["Swords", num(player, "swords")],
          num(player, "vpTokens") > 0 && ["VP tokens", num(player, "vpTokens")],
          (num(player, "freeCubes") > 0 || completed.length > 0) && ["Free cubes", num(player, "freeCubes")],
        ]}
      />
      <h4>Display</h4>
      <Tiles label={`${who(data.names, seat)}'s display`} empty="No persons yet.">
        {display.map(([id, count]) => {
          const card = pieces.get(id);
          return card && str(card.details, "type") === "CARD_TYPE_PERSON" ? <Person key={id} card={card} count={count} /> : <Card key={id} card={card} id={id} />;
        })}
      </Tiles>
      {completed.length ? (
        <>
          <h4>Completed contracts</h4>
          <Tiles label={`${who(data.names, seat)}'s completed contracts`}>
            {completed.map((id, i) => (
              <Tile key={`${id}/${i}`} tone="contract small" title={nameOf(pieces, id)} />
            ))}
          </Tiles>
        </>
      ) : null}
      {collection.length ? (
        <>
          <h4>Collection</h4>
          <Tiles label={`${who(data.names, seat)}'s collection`}>
            {collection.map((id, i) => (
              <Card key={`${id}/${i}`} card={pieces.get(id)} id={id} />
            ))}
          </Tiles>
        </>
      ) : null}
    </PlayerArea>
  );
}
