/** The lobby: open rooms (by game), a new room, a private room by code, the matchmaking queue. */
import { lobby } from "@flotilla/client/browser";
import { useEffect, useState } from "preact/hooks";

import { Alert } from "../Alert";
import { client, gameKinds, idOf } from "../api";
import { seatName } from "../names";
import { go } from "../route";
import { useAction } from "../useAction";
import { type Choice, choices } from "./choices";
import { CLOCK_PRESETS, clockLabel } from "./clocks";
import { Matchmaking } from "./Matchmaking";

const REFRESH_MS = 2000;

export function Lobby() {
  const [games, setGames] = useState<Choice[]>([]);
  const [choice, setChoice] = useState("");
  const [seats, setSeats] = useState(2);
  const [privateRoom, setPrivate] = useState(false);
  const [clock, setClock] = useState("none");
  const [rooms, setRooms] = useState<lobby.Room[]>([]);
  const [code, setCode] = useState("");
  const { act, busy, error, setError } = useAction();
  const chosen = games.find((g) => g.value === choice);

  useEffect(() => {
    gameKinds().then((kinds) => {
      const found = choices(kinds);
      setGames(found);
      const first = found.find((g) => g.kind !== "counter") ?? found[0];
      if (first) {
        setChoice(first.value);
        setSeats(first.seatCounts[0] ?? 2);
      }
    }, setError);
  }, []);

  useEffect(() => {
    if (!chosen) return;
    let stopped = false;
    const refresh = async () => {
      try {
        const page = await client.lobby.listRooms({ kind: chosen.kind, options: chosen.options, pageSize: 50 });
        if (!stopped) setRooms(page.rooms);
      } catch (failure) {
        if (!stopped) setError(failure);
      }
    };
    void refresh();
    const timer = setInterval(refresh, REFRESH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  }, [choice, games]);

  const create = (event: Event) => {
    event.preventDefault();
    if (!chosen) return;
    const preset = CLOCK_PRESETS.find((p) => p.value === clock)?.clock; // none: no clock
    void act(async () => {
      const room = await client.lobby.createRoom(chosen.kind, seats, {
        options: chosen.options,
        visibility: privateRoom ? lobby.RoomVisibility.PRIVATE : lobby.RoomVisibility.PUBLIC,
        ...(preset ? { clock: preset } : {}),
      });
      if (room.joinCode) sessionStorage.setItem(`flotilla.code.${room.name}`, room.joinCode);
      go(`#/rooms/${idOf(room.name)}`);
    });
  };
  const join = (room: lobby.Room, joinCode = "") =>
    act(async () => {
      const seated = room.seats.some((s) => s.taken && s.user === client.user);
      if (!seated) await client.lobby.joinRoom(room.name, { joinCode });
      if (joinCode) sessionStorage.setItem(`flotilla.code.${room.name}`, joinCode);
      go(`#/rooms/${idOf(room.name)}`);
    });
  const joinByCode = (event: Event) => {
    event.preventDefault();
    void act(async () => {
      const { room, joinCode } = parseRoomCode(code);
      const joined = await client.lobby.joinRoom(room, { joinCode });
      sessionStorage.setItem(`flotilla.code.${joined.name}`, joinCode);
      go(`#/rooms/${idOf(joined.name)}`);
    });
  };

  return (
    <main>
      <h1>Lobby</h1>
      <Alert error={error} onClose={() => setError(undefined)} />
      <section aria-labelledby="new-game">
        <h2 id="new-game">New game</h2>
        <form onSubmit={create} class="row">
          <label>
            Game{" "}
            <select
              value={choice}
              onChange={(e) => {
                const next = games.find((g) => g.value === e.currentTarget.value);
                setChoice(e.currentTarget.value);
                if (next && !next.seatCounts.includes(seats)) setSeats(next.seatCounts[0] ?? 2);
              }}
            >
              {games.map((g) => (
                <option key={g.value} value={g.value}>
                  {g.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            Seats{" "}
            <input
              type="number"
              min={Math.min(...(chosen?.seatCounts ?? [1]))}
              max={Math.max(...(chosen?.seatCounts ?? [6]))}
              value={seats}
              onInput={(e) => setSeats(Number(e.currentTarget.value))}
            />
          </label>
          <label>
            Turn clock{" "}
            <select value={clock} onChange={(e) => setClock(e.currentTarget.value)}>
              {CLOCK_PRESETS.map((p) => (
                <option key={p.value} value={p.value}>
                  {p.label}
                </option>
              ))}
            </select>
          </label>
          <label>
            <input type="checkbox" checked={privateRoom} onChange={(e) => setPrivate(e.currentTarget.checked)} /> Private room
          </label>
          <button type="submit" disabled={busy || !chosen}>
            Create room
          </button>
        </form>
        {chosen ? <Matchmaking choice={chosen} seats={seats} onError={setError} /> : null}
      </section>
      <section aria-labelledby="open-rooms">
        <h2 id="open-rooms">Open rooms</h2>
        <ul aria-label="Rooms" class="rooms">
          {rooms.map((room) => (
            <li key={room.name}>
              <span class="title">{roomTitle(room)}</span>{" "}
              <span class="muted">
                {room.seats.filter((s) => s.taken).length}/{room.seatCount} seated
                {clockLabel(room.clock) ? `, ${clockLabel(room.clock)}` : ""}
              </span>{" "}
              <button type="button" disabled={busy} onClick={() => join(room)}>
                Join {roomTitle(room)}
              </button>
            </li>
          ))}
        </ul>
        {rooms.length === 0 ? <p class="muted">No open rooms for this game yet: create one.</p> : null}
        <form onSubmit={joinByCode} class="row">
          <label>
            Room code <input value={code} maxLength={64} onInput={(e) => setCode(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy || !code.trim()}>
            Join by code
          </button>
        </form>
      </section>
    </main>
  );
}

/** A room's title: its name, or its host's name (marked "guest" or "bot" as in the seats). */
export function roomTitle(room: lobby.Room): string {
  if (room.displayName) return room.displayName;
  const host = room.seats.find((s) => s.user === room.host);
  return `${host ? seatName(host) : "someone"}'s room`;
}

/** The code a private room shows, in two halves to read aloud ("K7MQ-2XWD"; the server ignores
 * dashes and case). Rooms made before codes were 8 long show "<room id>-<code>": the server finds
 * only 8-character codes alone. */
export const roomCode = (room: lobby.Room): string =>
  room.joinCode.length === 8 ? `${room.joinCode.slice(0, 4)}-${room.joinCode.slice(4)}` : `${idOf(room.name)}-${room.joinCode}`;

/** The invite link of a private room: opening it signs in (if needed) and joins with the code. */
export const inviteLink = (room: lobby.Room): string =>
  `${location.origin}${location.pathname}#/join/${encodeURIComponent(room.joinCode)}/${idOf(room.name)}`;

/** What the "Room code" box was given: a code alone (room "", the server finds it), or the old
 * "<room id>-<code>" form. */
export function parseRoomCode(text: string): { room: string; joinCode: string } {
  const trimmed = text.trim();
  const old = /^([0-9a-f]{32})-(.+)$/i.exec(trimmed);
  return old ? { room: `rooms/${old[1]!.toLowerCase()}`, joinCode: old[2]! } : { room: "", joinCode: trimmed };
}
