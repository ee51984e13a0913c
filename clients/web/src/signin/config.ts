/** What the server tells the page before anyone signs in: GET ./config.json (gateway/webconfig.py). */

/** The operator's identity provider for browsers (an OpenID Connect issuer and this page's client id). */
export interface Provider {
  readonly issuer: string;
  readonly clientId: string;
  readonly scopes: string;
  readonly provider: string; // its name on the button
}

/** Whether guests may play, and the provider to sign in with (null: none). */
export interface PageConfig {
  readonly guests: boolean;
  readonly signIn: Provider | null;
}

const GUESTS_ONLY: PageConfig = { guests: true, signIn: null };

function provider(value: unknown): Provider | null {
  if (typeof value !== "object" || value === null) return null;
  const { issuer, clientId, scopes, provider: name } = value as Record<string, unknown>;
  if (typeof issuer !== "string" || typeof clientId !== "string" || typeof scopes !== "string") return null;
  return { issuer, clientId, scopes, provider: typeof name === "string" && name ? name : new URL(issuer).host };
}

/** The page's configuration; a server without one (an older gateway, Vite's dev server) has guests only. */
export async function loadConfig(): Promise<PageConfig> {
  try {
    const reply = await fetch("./config.json", { cache: "no-cache" });
    if (!reply.ok) return GUESTS_ONLY;
    const body = (await reply.json()) as Record<string, unknown>;
    return { guests: body.guests !== false, signIn: provider(body.signIn) };
  } catch {
    return GUESTS_ONLY;
  }
}
