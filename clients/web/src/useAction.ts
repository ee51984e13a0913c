/** A page's calls the player starts: one at a time (buttons disabled while `busy`), the last failure kept for an alert. */
import { useState } from "preact/hooks";

export function useAction() {
  const [error, setError] = useState<unknown>();
  const [busy, setBusy] = useState(false);
  const act = async (fn: () => Promise<unknown>) => {
    setBusy(true);
    setError(undefined);
    try {
      await fn();
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  return { act, busy, error, setError };
}
