/** What a tab remembers across reloads (sessionStorage: a second tab is a second player). */
import type { Seat } from "@flotilla/client/browser";

const SESSION = "flotilla.session";
const SEAT = "flotilla.seat.";
const LOG = "flotilla.log.";
const MAX_LOG = 400; // events kept per game for the log after a reload
const MAX_LOG_CHARS = 200_000; // a saved log longer than this (~0.4 MB of UTF-16) is dropped: the ~5 MB quota is shared

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

function put(key: string, text: string): boolean {
  try {
    sessionStorage.setItem(key, text);
    return true;
  } catch {
    return false; // storage full (QuotaExceededError) or off
  }
}

const write = (key: string, value: unknown): boolean => put(key, JSON.stringify(value));

export const loadSession = (): Session | undefined => read<Session>(SESSION);
export const saveSession = (session: Session): void => void write(SESSION, session);

/** The seat this tab holds in `game` (games/{id}), if any. */
export function loadSeat(game: string): Seat | undefined {
  const saved = read<{ seat: number; token: string }>(SEAT + game);
  return saved ? { game, seat: saved.seat, token: saved.token } : undefined;
}

export function saveSeat(seat: Seat): void {
  write(SEAT + seat.game, { seat: seat.seat, token: seat.token });
}

export const loadLog = (game: string): SavedLog | undefined => read<SavedLog>(LOG + game);

/** Save the game's log and resume point; when it is too long or storage is full, the other games'
 * logs go and then the log itself: a reload resumes from the etag alone (its log starts empty). */
export function saveLog(game: string, log: SavedLog): void {
  const text = JSON.stringify({ ...log, entries: log.entries.slice(-MAX_LOG) });
  if (text.length <= MAX_LOG_CHARS && put(LOG + game, text)) return;
  keepOnlyLog(game);
  if (write(LOG + game, { ...log, entries: [] })) return;
  try {
    sessionStorage.removeItem(LOG + game); // not even the etag fits: a reload starts the game's watch over
  } catch {
    // storage off
  }
}

/** Remove the saved logs of every game but `game` (a tab keeps one game's log: the one it plays). */
export function keepOnlyLog(game: string): void {
  try {
    const others = Array.from({ length: sessionStorage.length }, (_, i) => sessionStorage.key(i)).filter(
      (key): key is string => key !== null && key.startsWith(LOG) && key !== LOG + game,
    );
    for (const key of others) sessionStorage.removeItem(key);
  } catch {
    // storage off
  }
}
