/** A room: its seats, ready marks, bots; the host starts it and everyone goes to the game. */
import { lobby } from "@flotilla/client/browser";
import { useEffect, useState } from "preact/hooks";

import { Alert } from "../Alert";
import { client, idOf, kindName } from "../api";
import { kindMark } from "../names";
import { go } from "../route";
import { useAction } from "../useAction";
import { saveSeat } from "../session";
import { clockLabel } from "./clocks";
import { inviteLink, roomCode, roomTitle } from "./Lobby";

export function Room({ id }: { id: string }) {
  const name = `rooms/${id}`;
  const [room, setRoom] = useState<lobby.Room>();
  const [game, setGame] = useState("");
  const { act, busy, error, setError } = useAction();

  const enter = (started: lobby.Room, seatToken: string) => {
    const mine = started.seats.find((s) => s.taken && s.user === client.user);
    if (seatToken && mine) saveSeat({ game: started.game, seat: mine.seat, token: seatToken });
    const code = started.joinCode || sessionStorage.getItem(`flotilla.code.${name}`);
    if (code) sessionStorage.setItem(`flotilla.code.${started.game}`, code); // to spectate a private game
    go(`#/games/${idOf(started.game)}`);
  };

  useEffect(() => {
    const stop = new AbortController();
    const joinCode = sessionStorage.getItem(`flotilla.code.${name}`) ?? "";
    (async () => {
      try {
        for await (const update of client.lobby.watchRoom(name, { joinCode, signal: stop.signal })) {
          if (!update.room) continue;
          setRoom(update.room);
          if (update.room.state === lobby.RoomState.STARTED && update.room.game) {
            enter(update.room, update.seatToken);
            return;
          }
        }
      } catch (failure) {
        if (!stop.signal.aborted) setError(failure);
      }
    })();
    return () => stop.abort();
  }, [id]);

  useEffect(() => {
    if (room) void kindName(room.kind).then(setGame);
  }, [room?.kind]);


  if (!room) {
    return (
      <main>
        <h1>Room</h1>
        <Alert error={error} />
        {error ? <a href="#/">Back to the lobby</a> : <p>Loading…</p>}
      </main>
    );
  }
  const host = room.host === client.user;
  const me = room.seats.find((s) => s.taken && s.user === client.user);
  const mode = room.options["mode"];
  return (
    <main>
      <h1>{roomTitle(room)}</h1>
      <p>
        {game}
        {mode ? ` (${mode})` : ""}, {room.seatCount} seats. {host ? "You host this room." : ""}
      </p>
      <p aria-label="Turn clock">Turn clock: {clockLabel(room.clock) || "none"}</p>
      {room.visibility === lobby.RoomVisibility.PRIVATE && room.joinCode ? (
        <>
          <p>
            Code: <code>{roomCode(room)}</code> <span class="muted">(give it to the players you invite)</span>
          </p>
          <p>
            Invite link: <a href={inviteLink(room)}>{inviteLink(room)}</a>{" "}
            {navigator.clipboard ? (
              <button type="button" onClick={() => void navigator.clipboard.writeText(inviteLink(room))}>
                Copy invite link
              </button>
            ) : null}
          </p>
        </>
      ) : null}
      <Alert error={error} onClose={() => setError(undefined)} />
      {room.startError ? <p role="status">The last start failed, so the room is open again: {room.startError}</p> : null}
      <ul aria-label="Seats" class="seats">
        {room.seats.map((seat) => (
          <li key={seat.seat}>
            <span class="seatno">Seat {seat.seat + 1}</span>{" "}
            {seat.taken ? (
              <>
                <span class="name">{seat.displayName}</span>
                {seat.user === room.host ? <span class="mark"> (host)</span> : null}
                {kindMark(seat.userKind) ? <span class="mark"> ({kindMark(seat.userKind)})</span> : null}
                <span class="mark">{seat.ready ? " ready" : " not ready"}</span>
                {host && seat.user !== client.user ? (
                  <>
                    {" "}
                    <button type="button" disabled={busy} onClick={() => act(() => client.lobby.kickSeat(name, seat.seat))}>
                      Kick {seat.displayName}
                    </button>
                  </>
                ) : null}
              </>
            ) : (
              <span class="muted">open</span>
            )}
          </li>
        ))}
      </ul>
      <div class="row">
        {host ? (
          <button type="button" disabled={busy || room.openSeats === 0} onClick={() => act(() => client.lobby.addBot(name))}>
            Add bot
          </button>
        ) : null}
        {me ? (
          <button type="button" disabled={busy} onClick={() => act(() => client.lobby.setReady(name, !me.ready))}>
            {me.ready ? "Not ready" : "Ready"}
          </button>
        ) : (
          <button type="button" disabled={busy} onClick={() => act(() => client.lobby.joinRoom(name))}>
            Take a seat
          </button>
        )}
        {host ? (
          <button
            type="button"
            disabled={busy}
            onClick={() =>
              act(async () => {
                const started = await client.lobby.startRoom(name);
                if (started.room?.game) enter(started.room, started.seatToken);
              })
            }
          >
            Start game
          </button>
        ) : null}
        <button
          type="button"
          disabled={busy}
          onClick={() =>
            act(async () => {
              if (me) await client.lobby.leaveRoom(name);
              go("#/");
            })
          }
        >
          Leave room
        </button>
      </div>
    </main>
  );
}
