/** A failed call or refused action, in the server's words. */
import { messageOf } from "./api";

export function Alert({ error, onClose }: { error: unknown; onClose?: () => void }) {
  if (error === undefined) return null;
  return (
    <div role="alert" class="alert">
      {messageOf(error)}
      {onClose ? (
        <button type="button" class="close" onClick={onClose}>
          Dismiss
        </button>
      ) : null}
    </div>
  );
}
