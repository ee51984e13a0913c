/** A finished game move by move: GetGameRecord's actions, with the events each produced. */
import type { GameEvent, GetGameRecordResponse } from "@flotilla/client/browser";
import { useEffect, useState } from "preact/hooks";

import { Alert } from "../Alert";
import { client, kindName } from "../api";

export function Replay({ id }: { id: string }) {
  const name = `games/${id}`;
  const [record, setRecord] = useState<GetGameRecordResponse>();
  const [events, setEvents] = useState<GameEvent[]>([]);
  const [title, setTitle] = useState("");
  const [move, setMove] = useState(0);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    const stop = new AbortController();
    (async () => {
      try {
        const found = await client.getGameRecord(name);
        setRecord(found);
        if (found.game) void kindName(found.game.kind).then(setTitle);
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
  const names = (record?.game?.seats ?? []).map((s) => s.displayName || `Seat ${s.seat + 1}`);
  const upTo = move === 0 ? 1n : (actions[move - 1]?.throughEventId ?? 0n);
  const before = move <= 1 ? 1n : (actions[move - 2]?.throughEventId ?? 0n);
  const current = actions[move - 1];
  const shown = events.filter((e) => e.eventId <= upTo);
  const latest = events.filter((e) => e.eventId > before && e.eventId <= upTo);
  const who = current ? (current.seat === undefined ? "the server" : (names[current.seat] ?? `Seat ${current.seat + 1}`)) : "";
  return (
    <main class="replay">
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
      <section aria-label="Board" class="board-region">
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
        {record?.seed ? <p class="muted">Seed {record.seed} (its SHA-256 was published when the game was created).</p> : null}
      </section>
      <h2>Event log</h2>
      <ol aria-label="Event log" class="log">
        {shown.map((e) => (
          <li key={String(e.eventId)}>{e.text?.label || e.summary}</li>
        ))}
      </ol>
      <a href={`#/games/${id}`}>Back to the game</a>
    </main>
  );
}
