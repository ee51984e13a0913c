/** Reading a Flotilla token's lifetime (without verifying it: the server verifies). */

/** `iat` and `exp` (seconds since the epoch) of a Flotilla JWT; undefined for a token that is not
 * one (an external identity provider's is refreshed with that provider). */
export function tokenTimes(token: string): { issuedAt: number; expiresAt: number } | undefined {
  const payload = token.split(".")[1];
  if (payload === undefined) return undefined;
  let claims: unknown;
  try {
    claims = JSON.parse(base64urlText(payload));
  } catch {
    return undefined;
  }
  if (typeof claims !== "object" || claims === null) return undefined;
  const { iss, iat, exp } = claims as Record<string, unknown>;
  if (iss !== "flotilla" || typeof iat !== "number" || typeof exp !== "number") return undefined;
  return { issuedAt: iat, expiresAt: exp };
}

/** Whether `token` should be refreshed now: less than a third of its lifetime is left. */
export function needsRefresh(token: string, nowMs: number = Date.now()): boolean {
  const times = tokenTimes(token);
  if (!times) return false;
  const refreshAt = times.expiresAt - (times.expiresAt - times.issuedAt) / 3;
  return nowMs / 1000 >= refreshAt;
}

/** The metadata that sends `token` ("" sends none). */
export function bearer(token: string): Record<string, string> {
  return token ? { authorization: `Bearer ${token}` } : {};
}

/** The UTF-8 text of base64url `data` (atob and TextDecoder: Node and browsers alike). */
function base64urlText(data: string): string {
  const binary = atob(data.replace(/-/g, "+").replace(/_/g, "/"));
  return new TextDecoder().decode(Uint8Array.from(binary, (c) => c.charCodeAt(0)));
}
