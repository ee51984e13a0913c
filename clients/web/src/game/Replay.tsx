/** A finished game move by move: GetGameRecord's actions, the events each produced, and the board
 * after it (GetViewAt: the view this tab's user could have seen then, the seat's if it held one). */
import type { JsonObject } from "@bufbuild/protobuf";
import type { GameEvent, GameView, GetGameRecordResponse } from "@flotilla/client/browser";
import { useEffect, useRef, useState } from "preact/hooks";

import { Alert } from "../Alert";
import { catalogue, client, kindName } from "../api";
import { seatName } from "../names";
import { Board } from "./Board";
import { type Piece, catalogJson, gameJson, pieces } from "./view";

export function Replay({ id }: { id: string }) {
  const name = `games/${id}`;
  const [record, setRecord] = useState<GetGameRecordResponse>();
  const [events, setEvents] = useState<GameEvent[]>([]);
  const [title, setTitle] = useState("");
  const [move, setMove] = useState(0);
  const [view, setView] = useState<GameView>();
  const [named, setNamed] = useState<Map<string, Piece>>(new Map());
  const [catalog, setCatalog] = useState<JsonObject>();
  const [error, setError] = useState<unknown>();
  const views = useRef(new Map<bigint, GameView>()); // by event id: a step back costs no call (at most one per move)

  useEffect(() => {
    const stop = new AbortController();
    (async () => {
      try {
        const joinCode = sessionStorage.getItem(`flotilla.code.${name}`) ?? ""; // a private room's game
        const found = await client.getGameRecord(name, { joinCode });
        setRecord(found);
        const game = found.game;
        if (game) {
          void kindName(game.kind).then(setTitle);
          void catalogue(game.kind, game.rulesVersion).then((c) => {
            setNamed(pieces(c));
            setCatalog(catalogJson(c));
          }, setError);
        }
        const seen: GameEvent[] = [];
        for await (const update of client.watch(name, { afterEventId: 1n, signal: stop.signal })) {
          seen.push(...update.events);
          setEvents([...seen]);
        }
      } catch (failure) {
        if (!stop.signal.aborted) setError(failure);
      }
    })();
    return () => stop.abort();
  }, [name]);

  const actions = record?.actions ?? [];
  const total = actions.length;
  const upTo = move === 0 ? 1n : (actions[move - 1]?.throughEventId ?? 0n);

  useEffect(() => {
    if (!record) return;
    const known = views.current.get(upTo);
    if (known) {
      setView(known);
      return;
    }
    let current = true; // only the latest step's answer is shown
    const joinCode = sessionStorage.getItem(`flotilla.code.${name}`) ?? ""; // a private room's game
    client.getViewAt(name, upTo, { joinCode }).then((reply) => {
      if (!reply.view) return;
      views.current.set(upTo, reply.view);
      if (current) setView(reply.view);
    }, setError);
    return () => {
      current = false;
    };
  }, [record, upTo]);

  const names = (record?.game?.seats ?? []).map(seatName);
  const before = move <= 1 ? 1n : (actions[move - 2]?.throughEventId ?? 0n);
  const current = actions[move - 1];
  const shown = events.filter((e) => e.eventId <= upTo);
  const latest = events.filter((e) => e.eventId > before && e.eventId <= upTo);
  const who = current ? (current.seat === undefined ? "the server" : (names[current.seat] ?? `Seat ${current.seat + 1}`)) : "";
  const board = view && view.throughEventId === upTo ? view : undefined; // never the board of another step
  return (
    <main class="replay" data-replay-event-id={board ? String(board.throughEventId) : ""}>
      <h1>Replay{title ? `: ${title}` : ""}</h1>
      <Alert error={error} />
      <div class="row">
        <button type="button" disabled={move === 0} onClick={() => setMove(0)}>
          First
        </button>
        <button type="button" disabled={move === 0} onClick={() => setMove(move - 1)}>
          Previous move
        </button>
        <button type="button" disabled={move >= total} onClick={() => setMove(move + 1)}>
          Next move
        </button>
        <button type="button" disabled={move >= total} onClick={() => setMove(total)}>
          Last
        </button>
        <span role="status" aria-label="Move">
          Move {move} of {total}
        </span>
      </div>
      <div class="columns">
        <section aria-label="Board" class="board-region">
          <h2>Board</h2>
          <Board
            kind={record?.game?.kind ?? ""}
            json={gameJson(board)}
            pieces={named}
            names={names}
            toAct={board?.toAct ?? []}
            catalog={catalog}
          />
        </section>
        <aside>
          <section aria-label="This move">
            <h2>This move</h2>
            {current ? (
              <p>
                By {who}
                {current.byServer ? " (played by the server)" : ""}:
              </p>
            ) : (
              <p class="muted">The game is set up.</p>
            )}
            <ul>
              {latest.map((e) => (
                <li key={String(e.eventId)}>{e.text?.label || e.summary}</li>
              ))}
            </ul>
          </section>
          <h2>Event log</h2>
          <ol aria-label="Event log" class="log">
            {shown.map((e) => (
              <li key={String(e.eventId)}>{e.text?.label || e.summary}</li>
            ))}
          </ol>
          {record?.seed ? <p class="muted">Seed {record.seed} (its SHA-256 was published when the game was created).</p> : null}
        </aside>
      </div>
      <a href={`#/games/${id}`}>Back to the game</a>
    </main>
  );
}
