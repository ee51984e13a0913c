/** What a tab remembers across reloads (sessionStorage: a second tab is a second player). */
import type { Seat } from "@flotilla/client/browser";

const SESSION = "flotilla.session";
const SEAT = "flotilla.seat.";
const LOG = "flotilla.log.";
const MAX_LOG = 400; // events kept per game for the log after a reload

/** The signed-in user: a guest, or the identity provider's (its token lasts until `expiresAt`, ms). */
export interface Session {
  readonly token: string;
  readonly user: string;
  readonly name: string;
  readonly expiresAt?: number;
  readonly provider?: string;
}

/** One entry of a game's event log. */
export interface LogEntry {
  readonly id: string; // the event id (a bigint as text)
  readonly text: string;
}

/** The log and resume point a game page saved. */
export interface SavedLog {
  readonly etag: string;
  readonly through: string;
  readonly entries: LogEntry[];
}

function read<T>(key: string): T | undefined {
  try {
    const text = sessionStorage.getItem(key);
    return text === null ? undefined : (JSON.parse(text) as T);
  } catch {
    return undefined;
  }
}

function write(key: string, value: unknown): void {
  try {
    sessionStorage.setItem(key, JSON.stringify(value));
  } catch {
    // storage full or off: the page still works, a reload starts over
  }
}

export const loadSession = (): Session | undefined => read<Session>(SESSION);
export const saveSession = (session: Session): void => write(SESSION, session);

/** The seat this tab holds in `game` (games/{id}), if any. */
export function loadSeat(game: string): Seat | undefined {
  const saved = read<{ seat: number; token: string }>(SEAT + game);
  return saved ? { game, seat: saved.seat, token: saved.token } : undefined;
}

export function saveSeat(seat: Seat): void {
  write(SEAT + seat.game, { seat: seat.seat, token: seat.token });
}

export const loadLog = (game: string): SavedLog | undefined => read<SavedLog>(LOG + game);

export function saveLog(game: string, log: SavedLog): void {
  write(LOG + game, { ...log, entries: log.entries.slice(-MAX_LOG) });
}
