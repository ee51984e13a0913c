/** Hash routes (a static server is enough): #/, #/rooms/<id>, #/games/<id>[/watch|/replay], and
 * #/join/<code>[/<room id>] (a private room's invite link). */
import { useEffect, useState } from "preact/hooks";

export type Route =
  | { page: "lobby" }
  | { page: "room"; id: string }
  | { page: "join"; code: string; room: string }
  | { page: "game"; id: string; mode: "play" | "watch" | "replay" };

export function parse(hash: string): Route {
  const parts = hash.replace(/^#\/?/, "").split("/").filter(Boolean).map(decodeURIComponent);
  if (parts[0] === "rooms" && parts[1]) return { page: "room", id: parts[1] };
  if (parts[0] === "join" && parts[1]) return { page: "join", code: parts[1], room: parts[2] ?? "" };
  if (parts[0] === "games" && parts[1]) {
    const mode = parts[2] === "watch" || parts[2] === "replay" ? parts[2] : "play";
    return { page: "game", id: parts[1], mode };
  }
  return { page: "lobby" };
}

export function go(hash: string): void {
  location.hash = hash;
}

/** The current route, updated on every hash change. */
export function useRoute(): Route {
  const [route, setRoute] = useState(() => parse(location.hash));
  useEffect(() => {
    const changed = () => setRoute(parse(location.hash));
    addEventListener("hashchange", changed);
    return () => removeEventListener("hashchange", changed);
  }, []);
  return route;
}
