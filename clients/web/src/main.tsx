/** The page: a banner with who is playing, then the page of the route (docs: web-contract). */
import { render } from "preact";
import { useState } from "preact/hooks";

import { Alert } from "./Alert";
import { Game } from "./game/Game";
import { Replay } from "./game/Replay";
import { Join } from "./lobby/Join";
import { Lobby } from "./lobby/Lobby";
import { Room } from "./lobby/Room";
import { SignIn } from "./lobby/SignIn";
import { useRoute } from "./route";
import { type Session, loadSession } from "./session";
import { type PageConfig, loadConfig } from "./signin/config";
import { Expired, useExpired } from "./signin/Expired";
import { finishSignIn } from "./signin/oidc";
import "./style.css";

/** Forgets this tab's session and seats (e.g. after the server was reset), back to sign-in. */
function signOut(): void {
  sessionStorage.clear();
  location.hash = "#/";
  location.reload();
}

function App({ config, signedIn, failure }: { config: PageConfig; signedIn?: Session; failure?: unknown }) {
  const [session, setSession] = useState<Session | undefined>(() => signedIn ?? loadSession());
  const expired = useExpired(session);
  const route = useRoute();
  const spectating = route.page === "game" && route.mode !== "play";
  return (
    <>
      <header role="banner">
        <a href="#/" class="brand">
          Flotilla
        </a>
        {session ? <span class="who">Playing as {session.name}</span> : null}
        {session ? (
          <button type="button" class="signout" onClick={signOut}>
            Sign out
          </button>
        ) : null}
      </header>
      {session && expired ? <Expired session={session} provider={config.signIn} failure={failure} /> : null}
      {session && !expired && failure ? (
        <div class="expired">
          <Alert error={failure} />
        </div>
      ) : null}
      {!session && !spectating ? (
        <SignIn config={config} failure={failure} onSignedIn={setSession} />
      ) : route.page === "room" ? (
        <Room key={route.id} id={route.id} />
      ) : route.page === "join" ? (
        <Join key={route.code} code={route.code} room={route.room} />
      ) : route.page === "game" && route.mode === "replay" ? (
        <Replay key={route.id} id={route.id} />
      ) : route.page === "game" ? (
        <Game key={`${route.id}/${route.mode}`} id={route.id} watch={route.mode === "watch"} />
      ) : (
        <Lobby />
      )}
    </>
  );
}

/** The page's configuration, and the sign-in the provider sent this page back with (if so). */
async function start(): Promise<void> {
  const config = await loadConfig();
  let signedIn: Session | undefined;
  let failure: unknown;
  try {
    signedIn = await finishSignIn(config.signIn);
  } catch (error) {
    failure = error;
  }
  render(<App config={config} signedIn={signedIn} failure={failure} />, document.getElementById("app") as HTMLElement);
}

void start();
