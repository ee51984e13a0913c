/** Guest sign-in: a name, then a session token kept in sessionStorage. */
import { useState } from "preact/hooks";

import { Alert } from "../Alert";
import { client } from "../api";
import { type Session, saveSession } from "../session";

export function SignIn({ onSignedIn }: { onSignedIn: (session: Session) => void }) {
  const [name, setName] = useState("");
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const reply = await client.signIn(name.trim());
      const session = { token: reply.sessionToken, user: reply.user, name: name.trim() };
      saveSession(session);
      onSignedIn(session);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Welcome aboard</h1>
      <p>Play Sail Away, Port Royal, Pirates of Nassau and Navegador in your browser.</p>
      <form onSubmit={submit}>
        <label>
          Name <input name="name" value={name} maxLength={40} required onInput={(e) => setName(e.currentTarget.value)} />
        </label>
        <button type="submit" disabled={busy}>
          Play as guest
        </button>
      </form>
      <Alert error={error} />
    </main>
  );
}
