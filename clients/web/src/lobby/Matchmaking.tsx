/** The matchmaking queue: a ticket for the chosen game, watched until it is matched. */
import { matchmaking } from "@flotilla/client/browser";
import { useEffect, useRef, useState } from "preact/hooks";

import { client, idOf } from "../api";
import { go } from "../route";
import { saveSeat } from "../session";
import type { Choice } from "./choices";

export function Matchmaking({ choice, seats, onError }: { choice: Choice; seats: number; onError: (e: unknown) => void }) {
  const [ticket, setTicket] = useState<string>();
  const [note, setNote] = useState("");
  const stop = useRef<AbortController>();
  useEffect(() => () => stop.current?.abort(), []);

  const find = async () => {
    try {
      const made = await client.matchmaking.createTicket(choice.kind, [seats], { options: choice.options });
      setTicket(made.name);
      setNote("");
      const controller = new AbortController();
      stop.current = controller;
      for await (const update of client.matchmaking.watchTicket(made.name, { signal: controller.signal })) {
        const now = update.ticket;
        if (!now) continue;
        if (now.state === matchmaking.TicketState.MATCHED) {
          saveSeat({ game: now.game, seat: now.seat, token: now.seatToken });
          go(`#/games/${idOf(now.game)}`);
          return;
        }
        if (now.state === matchmaking.TicketState.EXPIRED || now.state === matchmaking.TicketState.CANCELLED) break;
      }
      if (!controller.signal.aborted) setNote("No match found in time: search again.");
      setTicket(undefined);
    } catch (failure) {
      setTicket(undefined);
      onError(failure);
    }
  };
  const cancel = async () => {
    const name = ticket;
    stop.current?.abort();
    setTicket(undefined);
    if (name) await client.matchmaking.cancelTicket(name).catch(onError);
  };

  return (
    <div class="row">
      {ticket ? (
        <>
          <span role="status">Searching…</span>
          <button type="button" onClick={cancel}>
            Cancel search
          </button>
        </>
      ) : (
        <button type="button" onClick={find}>
          Find a match
        </button>
      )}
      {note ? <span class="muted">{note}</span> : null}
    </div>
  );
}
