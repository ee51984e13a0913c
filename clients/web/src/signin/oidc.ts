/**
 * Signing in with the operator's identity provider: OpenID Connect's authorization code flow with
 * PKCE (S256), `state` and `nonce`, as a public client; oauth4webapi does the protocol and its checks
 * (discovery's issuer, the answer's state, the token response, the ID token's iss, aud, exp, nonce).
 * The page sends the provider's ID token as its session token: its `aud` is this page's client id
 * at every provider (FLOTILLA_OIDC_AUDIENCE must be that id), and the gateway verifies its signature.
 * The server's answer to a first call (GetRating of the caller) proves the token works and gives the
 * user id and display name the other players see.
 */
import * as oauth from "oauth4webapi";

import { client, gameKinds, messageOf } from "../api";
import { type Session, loadSession, saveSession } from "../session";
import type { Provider } from "./config";

const PENDING = "flotilla.signin"; // this tab's sign-in in progress (one at a time)
const PENDING_MS = 10 * 60_000; // an answer later than this is not taken
const MAX_TEXT = 160; // of a provider's error text shown

/** What the tab keeps between leaving for the provider and coming back. */
interface Pending {
  readonly issuer: string;
  readonly clientId: string;
  readonly state: string;
  readonly nonce: string;
  readonly verifier: string;
  readonly redirect: string;
  readonly back: string; // the route (hash) to return to
  readonly at: number;
}

type Options = { [oauth.allowInsecureRequests]?: boolean };

const short = (text: string | undefined): string => (text ?? "").slice(0, MAX_TEXT);

/** Plain http only for an issuer on a loopback address (tests, local runs); the gateway refuses others. */
function options(issuer: URL): Options {
  const loopback = ["localhost", "[::1]"].includes(issuer.hostname) || issuer.hostname.startsWith("127.");
  return issuer.protocol === "http:" && loopback ? { [oauth.allowInsecureRequests]: true } : {};
}

async function discover(provider: Provider): Promise<{ as: oauth.AuthorizationServer; opts: Options }> {
  const issuer = new URL(provider.issuer);
  const opts = options(issuer);
  try {
    const as = await oauth.processDiscoveryResponse(issuer, await oauth.discoveryRequest(issuer, opts));
    return { as, opts };
  } catch (error) {
    throw new Error(`Cannot reach ${provider.provider} to sign in (${short(messageOf(error))}). Try again later.`);
  }
}

/** Leaves for the provider's sign-in page; it sends the browser back to this page with a code. */
export async function startSignIn(provider: Provider): Promise<void> {
  if (!isSecureContext) throw new Error("Signing in needs this page over https (or on localhost).");
  const { as } = await discover(provider);
  const methods = as.code_challenge_methods_supported;
  if (!as.authorization_endpoint || (Array.isArray(methods) && !methods.includes("S256"))) {
    throw new Error(`${provider.provider} does not offer the authorization code flow with PKCE (S256).`);
  }
  const pending: Pending = {
    issuer: provider.issuer,
    clientId: provider.clientId,
    state: oauth.generateRandomState(),
    nonce: oauth.generateRandomNonce(),
    verifier: oauth.generateRandomCodeVerifier(),
    redirect: location.origin + location.pathname,
    back: location.hash,
    at: Date.now(),
  };
  const url = new URL(as.authorization_endpoint);
  const query = {
    client_id: provider.clientId,
    redirect_uri: pending.redirect,
    response_type: "code",
    scope: provider.scopes,
    state: pending.state,
    nonce: pending.nonce,
    code_challenge: await oauth.calculatePKCECodeChallenge(pending.verifier),
    code_challenge_method: "S256",
  };
  for (const [name, value] of Object.entries(query)) url.searchParams.set(name, value);
  sessionStorage.setItem(PENDING, JSON.stringify(pending));
  location.assign(url.href);
}

/** The sign-in this tab started (taken: an answer is used once), if it is recent and for `provider`. */
function takePending(provider: Provider): Pending | undefined {
  let pending: Pending | undefined;
  try {
    pending = JSON.parse(sessionStorage.getItem(PENDING) ?? "null") ?? undefined;
  } catch {
    pending = undefined;
  }
  sessionStorage.removeItem(PENDING);
  if (!pending || pending.issuer !== provider.issuer || pending.clientId !== provider.clientId) return undefined;
  return Date.now() - pending.at < PENDING_MS ? pending : undefined;
}

/**
 * Completes a sign-in when the page is the provider's redirect back (`?code=` or `?error=`): the
 * query leaves the address bar at once, and the session is saved. Undefined when the page was
 * opened otherwise; an Error saying what failed (the tab stays signed out) when it did not work.
 */
export async function finishSignIn(provider: Provider | null): Promise<Session | undefined> {
  const answer = new URL(location.href);
  if (!answer.searchParams.has("code") && !answer.searchParams.has("error")) return undefined;
  const pending = provider ? takePending(provider) : undefined;
  history.replaceState(null, "", location.pathname + (pending?.back ?? location.hash));
  if (!provider) throw new Error("Sign-in failed: this server no longer offers an identity provider.");
  const name = provider.provider;
  if (!pending) {
    throw new Error(`Sign-in with ${name} failed: this tab did not start it, or too long ago. Sign in again.`);
  }
  const { as, opts } = await discover(provider);
  const me: oauth.Client = { client_id: provider.clientId };
  let params: URLSearchParams;
  try {
    params = oauth.validateAuthResponse(as, me, answer, pending.state);
  } catch (error) {
    if (error instanceof oauth.AuthorizationResponseError) {
      throw new Error(`${name} refused the sign-in: ${short(error.error)} ${short(error.error_description)}`.trim());
    }
    const why = short(messageOf(error));
    throw new Error(`Sign-in with ${name} failed: the answer is not for this tab's request (${why}). Sign in again.`);
  }
  let token: string;
  let expiresAt: number;
  try {
    const { redirect, verifier } = pending;
    const response = await oauth.authorizationCodeGrantRequest(as, me, oauth.None(), params, redirect, verifier, opts);
    const result = await oauth.processAuthorizationCodeResponse(as, me, response, {
      expectedNonce: pending.nonce,
      requireIdToken: true,
    });
    const claims = oauth.getValidatedIdTokenClaims(result);
    if (!result.id_token || !claims) throw new Error("no ID token");
    token = result.id_token;
    expiresAt = claims.exp * 1000;
  } catch (error) {
    const why =
      error instanceof oauth.ResponseBodyError
        ? `${short(error.error)} ${short(error.error_description)}`.trim()
        : short(messageOf(error));
    throw new Error(`Sign-in with ${name} failed: it gave no token (${why}). Sign in again.`);
  }
  return await useToken(token, expiresAt, name);
}

/** The session of a provider's token, once the server took it (GetRating of the caller: its user id
 * and display name); the seats of another user this tab held are forgotten. */
async function useToken(token: string, expiresAt: number, provider: string): Promise<Session> {
  client.useToken(token);
  let user: string;
  let name: string;
  try {
    const kinds = await gameKinds();
    const kind = kinds[0]?.kind;
    if (!kind) throw new Error("it plays no game");
    const rating = await client.ratings.getRating(kind);
    user = rating.user;
    name = rating.displayName;
  } catch (error) {
    client.useToken("");
    throw new Error(`The server refused ${provider}'s sign-in: ${short(messageOf(error))}`);
  }
  if (loadSession()?.user !== user) sessionStorage.clear();
  const session: Session = { token, user, name, expiresAt, provider };
  saveSession(session);
  client.user = user;
  return session;
}
