/** A provider's token that expired: the page says so and offers to sign in again (the tab's seats
 * stay: their seat tokens outlive the provider's token, so a game in progress goes on). */
import { useEffect, useState } from "preact/hooks";

import { Alert } from "../Alert";
import type { Session } from "../session";
import type { Provider } from "./config";
import { startSignIn } from "./oidc";

const MAX_TIMER_MS = 2 ** 31 - 1; // setTimeout's longest delay

/** Whether `session`'s token has expired (false for a session without an expiry), updated when it does. */
export function useExpired(session: Session | undefined): boolean {
  const [expired, setExpired] = useState(false);
  useEffect(() => {
    setExpired(false);
    const at = session?.expiresAt;
    if (at === undefined) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const check = () => {
      const left = at - Date.now();
      if (left <= 0) setExpired(true);
      else timer = setTimeout(check, Math.min(left, MAX_TIMER_MS));
    };
    check();
    return () => clearTimeout(timer);
  }, [session]);
  return expired;
}

/** The expiry notice; `failure`: how the last "Sign in again" failed (the page came back without a token). */
export function Expired({
  session,
  provider,
  failure,
}: {
  session: Session;
  provider: Provider | null;
  failure?: unknown;
}) {
  const [error, setError] = useState<unknown>(failure);
  const [busy, setBusy] = useState(false);
  const again = async () => {
    if (!provider) return;
    setBusy(true);
    try {
      await startSignIn(provider);
    } catch (problem) {
      setError(problem);
      setBusy(false);
    }
  };
  return (
    <div role="alert" class="alert expired">
      Your sign-in with {session.provider ?? "the identity provider"} has expired.{" "}
      {provider ? (
        <button type="button" disabled={busy} onClick={again}>
          Sign in again
        </button>
      ) : (
        "Sign out, then sign in again."
      )}
      <Alert error={error} />
    </div>
  );
}
