/** The page's one FlotillaClient (Connect over fetch, same origin) and cached catalogue data. */
import { createConnectTransport } from "@connectrpc/connect-web";
import { FlotillaClient, FlotillaError, type catalog, retryDelay } from "@flotilla/client/browser";

import { loadSession } from "./session";

export const client = new FlotillaClient(location.origin, {
  transport: (baseUrl) => ({ transport: createConnectTransport({ baseUrl }), close: () => {} }),
  retries: 6,
});

const saved = loadSession();
if (saved) {
  client.useToken(saved.token);
  client.user = saved.user;
}

let kinds: Promise<catalog.GameKind[]> | undefined;

/** Every game kind the server plays (ListGameKinds, once per page). */
export function gameKinds(): Promise<catalog.GameKind[]> {
  kinds ??= client
    .call((s, o) => s.catalog.listGameKinds({}, o), { idempotent: true })
    .then((reply) => reply.kinds)
    .catch((error: unknown) => {
      kinds = undefined;
      throw error;
    });
  return kinds;
}

const catalogues = new Map<string, Promise<catalog.Catalog | undefined>>();

/** One rules version's catalogue (it never changes: cached for the page's life). */
export function catalogue(kind: string, rulesVersion: string): Promise<catalog.Catalog | undefined> {
  const key = `${kind}@${rulesVersion}`;
  let found = catalogues.get(key);
  if (!found) {
    found = client
      .call((s, o) => s.catalog.getCatalog({ kind, rulesVersion }, o), { idempotent: true })
      .then((reply) => reply.catalog);
    found.catch(() => catalogues.delete(key));
    catalogues.set(key, found);
  }
  return found;
}

/** The display name of `kind` ("" when unknown yet). */
export async function kindName(kind: string): Promise<string> {
  return (await gameKinds()).find((k) => k.kind === kind)?.displayName ?? kind;
}

/** "games/abc" -> "abc". */
export const idOf = (name: string): string => name.slice(name.indexOf("/") + 1);

/** A failure as the server said it (its message, without the code prefix). */
export function messageOf(error: unknown): string {
  if (error && typeof error === "object" && "rawMessage" in error) return String(error.rawMessage);
  return error instanceof Error ? error.message : String(error);
}

/** Whether `error` is a connection's failure that a retry may get past (a gateway restarting). */
export function transient(error: unknown): boolean {
  return retryDelay(FlotillaError.from(error), true) !== undefined;
}
