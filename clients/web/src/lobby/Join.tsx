/** An invite link (#/join/<code>[/<room id>]): join the private room with its code, then show it. */
import { useEffect } from "preact/hooks";

import { Alert } from "../Alert";
import { client, idOf } from "../api";
import { go } from "../route";
import { useAction } from "../useAction";

export function Join({ code, room }: { code: string; room: string }) {
  const { act, error } = useAction();
  useEffect(() => {
    void act(async () => {
      const joined = await client.lobby.joinRoom(room ? `rooms/${room}` : "", { joinCode: code });
      sessionStorage.setItem(`flotilla.code.${joined.name}`, code);
      go(`#/rooms/${idOf(joined.name)}`);
    });
  }, [code, room]);
  return (
    <main>
      <h1>Joining a private room</h1>
      <Alert error={error} />
      {error ? <a href="#/">Back to the lobby</a> : <p>Joining with code {code}…</p>}
    </main>
  );
}
