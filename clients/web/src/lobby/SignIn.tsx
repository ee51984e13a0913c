/** Sign-in: with the operator's identity provider where configured, and as a guest (a name) unless
 * guests are off; either way a session token kept in sessionStorage. */
import { useState } from "preact/hooks";

import { Alert } from "../Alert";
import { client } from "../api";
import { type Session, saveSession } from "../session";
import type { PageConfig } from "../signin/config";
import { startSignIn } from "../signin/oidc";

export function SignIn({
  config,
  failure,
  onSignedIn,
}: {
  config: PageConfig;
  failure?: unknown; // how a sign-in with the provider failed, if it did
  onSignedIn: (session: Session) => void;
}) {
  const [name, setName] = useState("");
  const [error, setError] = useState<unknown>(failure);
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
    } catch (problem) {
      setError(problem);
    } finally {
      setBusy(false);
    }
  };
  const provider = config.signIn;
  const leave = async () => {
    if (!provider) return;
    setBusy(true);
    setError(undefined);
    try {
      await startSignIn(provider); // the page goes to the provider and comes back signed in
    } catch (problem) {
      setError(problem);
      setBusy(false);
    }
  };
  return (
    <main class="signin">
      <h1>Welcome aboard</h1>
      <p>Play Sail Away, Port Royal, Pirates of Nassau and Navegador in your browser.</p>
      {provider ? (
        <p>
          <button type="button" class="provider" disabled={busy} onClick={leave}>
            Sign in with {provider.provider}
          </button>
        </p>
      ) : null}
      {config.guests ? (
        <form onSubmit={submit}>
          <label>
            Name <input name="name" value={name} maxLength={40} required onInput={(e) => setName(e.currentTarget.value)} />
          </label>
          <button type="submit" disabled={busy}>
            Play as guest
          </button>
        </form>
      ) : null}
      {!config.guests && !provider ? (
        <p class="muted">This server does not let browsers sign in (guests are off and no identity provider is set).</p>
      ) : null}
      <Alert error={error} />
    </main>
  );
}
