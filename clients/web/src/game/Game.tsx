/** A game page: plays the tab's seat (or spectates), resuming from the saved etag after a reload. */
import {
  ErrorReason,
  FlotillaError,
  type Game as GameInfo,
  type GameView,
  GameState,
  type Prompt,
  type Seat,
  endsGame,
  retryPauseMs,
} from "@flotilla/client/browser";
import type { JsonObject } from "@bufbuild/protobuf";
import { useEffect, useMemo, useRef, useState } from "preact/hooks";

import { Alert } from "../Alert";
import { catalogue, client, kindName, transient } from "../api";
import { seatName } from "../names";
import { type LogEntry, keepOnlyLog, loadLog, loadSeat, saveLog } from "../session";
import { Board } from "./Board";
import { Clock } from "./Clock";
import { FinalScores, Scores } from "./Scores";
import { type Piece, catalogJson, gameJson, pieces } from "./view";

/** Tries of a submit that failed in transport (each one the client's own retries) before an alert. */
const SUBMIT_TRIES = 4;

/** How long a move refused by a race waits for the stream's next prompt before reading it. */
const RACE_GRACE_MS = 1500;

/** A move refused because the game moved on under it (another seat acted first): ABORTED /
 * STALE_GAME_VERSION or NOT_YOUR_TURN. The next prompt replaces it; no alert. */
function raced(failure: unknown): boolean {
  const refused = FlotillaError.from(failure);
  return refused.is(ErrorReason.STALE_GAME_VERSION) || refused.is(ErrorReason.NOT_YOUR_TURN);
}

export function Game({ id, watch }: { id: string; watch: boolean }) {
  const name = `games/${id}`;
  const seat = useMemo<Seat | undefined>(() => (watch ? undefined : loadSeat(name)), [name, watch]);
  const logKey = `${name}#${seat ? seat.seat : "spectator"}`;
  const [info, setInfo] = useState<GameInfo>();
  const [title, setTitle] = useState("");
  const [view, setView] = useState<GameView>();
  const [prompt, setPrompt] = useState<Prompt>();
  const [log, setLog] = useState<LogEntry[]>([]);
  const [through, setThrough] = useState(0n);
  const [over, setOver] = useState(false);
  const [pending, setPending] = useState(false);
  const [named, setNamed] = useState<Map<string, Piece>>(new Map());
  const [catalog, setCatalog] = useState<JsonObject>();
  const [error, setError] = useState<unknown>();
  const [reconnecting, setReconnecting] = useState(false); // the watch lost its connection and resumes
  const [fresh, setFresh] = useState(""); // the first event of the latest update: what just happened
  const refreshes = useRef(0);
  const shown = useRef<Prompt | undefined>(undefined); // the prompt on the buttons now (for a submit's outcome)
  const resync = useRef<() => void>(() => {}); // re-reads the view and the prompt (after a refused move)
  shown.current = prompt;
  const logEnd = useRef<HTMLOListElement>(null);
  useEffect(() => {
    const list = logEnd.current;
    if (list) list.scrollTop = list.scrollHeight; // newest last, in view
  }, [log]);

  useEffect(() => {
    const stop = new AbortController();
    keepOnlyLog(logKey); // the saved logs of other games go: only this game's resumes from here
    const saved = loadLog(logKey);
    const joinCode = sessionStorage.getItem(`flotilla.code.${name}`) ?? ""; // a private room's game
    let entries: LogEntry[] = saved?.entries ?? [];
    setLog(entries);
    setThrough(saved ? BigInt(saved.through) : 0n); // the restored log is applied; the watch resumes after it
    const quiet = (failure: unknown) => (transient(failure) ? setReconnecting(true) : setError(failure));
    let viewThrough = -1n; // the event the board's view is at
    // What the stream brought is shown (log, event id, prompt, the end) only once the board's view
    // has caught up with it, so the log never shows an event the board does not (a player decides
    // on the board the prompt belongs to). `publish(true)`: show it anyway (the board cannot be read).
    let streamAt = saved ? BigInt(saved.through) : 0n; // the last update the stream brought
    let held: { log?: boolean; fresh?: string; prompt?: [Prompt | undefined]; unpend?: boolean; over?: boolean } = {};
    const publish = (force = false) => {
      if (!force && viewThrough < streamAt) return;
      const now = held;
      held = {};
      setThrough(streamAt);
      if (now.log) setLog(entries);
      if (now.fresh) setFresh(now.fresh);
      if (now.prompt) setPrompt(now.prompt[0]);
      if (now.unpend) setPending(false);
      if (now.over) setOver(true);
    };
    const showView = (next: GameView | undefined) => {
      if (!next || next.throughEventId < viewThrough) return; // an older read than the board shows
      viewThrough = next.throughEventId;
      setView(next);
      publish();
    };
    let clocked = false; // the game has turn clocks: each turn's deadlines are in GetGame
    // The stream's events are the game's own and its views come only at the start and on a resync,
    // so the board (drawn from the typed view, not by replaying events: that would be the rules
    // engine again) is re-read with GetView after commits: at most one read in flight, and one more
    // when updates arrived meanwhile (a burst of updates costs two reads, not one per update).
    // GetGame only at the start, the end and, when the game has clocks, with the view.
    let wanted = 0n;
    let asked = 0n;
    let reading = false;
    let failures = 0; // reads of the view failed in a row (in transport: read again after a pause)
    const readView = (through: bigint) => {
      if (through > wanted) wanted = through;
      if (reading) return;
      reading = true;
      void (async () => {
        try {
          while (asked < wanted && !stop.signal.aborted) {
            asked = wanted;
            const [now, game] = await Promise.all([
              client.getView(name, seat ? { seat } : { joinCode }),
              clocked ? client.getGame(name, { joinCode }) : undefined,
            ]);
            if (stop.signal.aborted) return;
            if (game) setInfo(game);
            showView(now.view);
            const at = now.view?.throughEventId ?? asked;
            if (at >= asked) failures = 0;
            else {
              asked = at; // a read behind the stream's event (a store that lags): read again after a pause
              await new Promise((resolve) => setTimeout(resolve, retryPauseMs(++failures, 200)));
            }
          }
        } catch (failure) {
          asked = 0n;
          quiet(failure);
          if (transient(failure))
            setTimeout(() => stop.signal.aborted || readView(0n), retryPauseMs(++failures, 500));
          else publish(true); // the log goes on without the board
        } finally {
          reading = false;
        }
      })();
    };
    const refresh = async () => {
      const turn = ++refreshes.current;
      const [game, now] = await Promise.all([client.getGame(name, { joinCode }), client.getView(name, seat ? { seat } : { joinCode })]);
      if (turn !== refreshes.current || stop.signal.aborted) return;
      setInfo(game);
      showView(now.view);
      if (game.state === GameState.FINISHED || game.state === GameState.ABANDONED) setOver(true);
    };
    resync.current = () => {
      void client
        .getView(name, seat ? { seat } : { joinCode })
        .then((now) => {
          if (stop.signal.aborted || !now.view || now.view.throughEventId < streamAt) return; // the stream is ahead
          showView(now.view);
          setPrompt(now.prompt && seat && now.prompt.seat === seat.seat ? now.prompt : undefined);
          setPending(false);
        })
        .catch(quiet);
    };
    (async () => {
      try {
        const game = await client.getGame(name, { joinCode });
        setInfo(game);
        clocked = Boolean(game.clock && (game.clock.turnSeconds || game.clock.bankSeconds));
        void kindName(game.kind).then((kind) => setTitle(game.options["mode"] ? `${kind} (${game.options["mode"]})` : kind));
        void catalogue(game.kind, game.rulesVersion).then((found) => {
          setNamed(pieces(found));
          setCatalog(catalogJson(found));
        }, setError);
        const options = {
          signal: stop.signal,
          joinCode,
          retries: Infinity, // a dropped connection resumes after the last etag, with backoff, for as long as the page is open
          onRetry: () => setReconnecting(true),
          ...(seat ? { seat } : {}),
          ...(saved?.etag ? { afterEtag: saved.etag } : {}),
        };
        if (saved?.etag) readView(BigInt(saved.through)); // a resume carries no view: read the board now
        let applied = saved ? BigInt(saved.through) : 0n; // the last event in the log
        for await (const update of client.watch(name, options)) {
          setReconnecting(false);
          if (update.view) {
            if (update.resyncReason || !saved) entries = []; // a view replaces everything known
            if (update.resyncReason || !saved) applied = 0n;
            if (update.resyncReason) [viewThrough, wanted, asked] = [-1n, 0n, 0n]; // the history rewound: this view replaces the board whatever its event
          }
          const news = update.events.filter((e) => e.eventId > applied); // never an event twice
          if (news.length) {
            held.fresh ||= String(news[0]?.eventId ?? "");
            entries = [...entries, ...news.map((e) => ({ id: String(e.eventId), text: e.text?.label || e.summary }))];
            applied = news[news.length - 1]?.eventId ?? applied;
          }
          if (news.length || update.view) held.log = true;
          const mine = update.prompt && seat && update.prompt.seat === seat.seat ? update.prompt : undefined;
          if (mine || update.events.length || update.view) held.prompt = [mine];
          if (!update.isCheckpoint || mine) held.unpend = true;
          if (endsGame(update)) held.over = true;
          streamAt = update.throughEventId;
          saveLog(logKey, { etag: update.etag, through: String(update.throughEventId), entries });
          if (update.view) showView(update.view);
          else if (viewThrough < streamAt) readView(streamAt);
          publish(); // now if the board is there already (a view, or nothing new)
        }
        await refresh(); // the watch ends only with the game (a cut stream resumes): read the result
        publish(true);
        setOver(true);
      } catch (failure) {
        if (!stop.signal.aborted) setError(failure);
      }
    })();
    return () => stop.abort();
  }, [logKey]);

  const names = useMemo(() => (info?.seats ?? []).map(seatName), [info]);
  const toAct = useMemo(() => view?.toAct ?? info?.toAct ?? [], [view, info]);
  const finished = over || info?.state === GameState.FINISHED || info?.state === GameState.ABANDONED;
  const myTurn = !finished && prompt !== undefined;
  const turn = finished
    ? info?.state === GameState.ABANDONED
      ? "The game was abandoned"
      : "Game over"
    : myTurn
      ? "Your turn"
      : toAct.length
        ? `Waiting for ${toAct.map((s) => names[s] ?? `Seat ${s + 1}`).join(", ")}`
        : "Waiting…";

  const submit = async (index: number) => {
    const action = prompt?.legalActions[index];
    if (!seat || !prompt || !action) return;
    setPending(true);
    setError(undefined);
    try {
      // One request id for every try: the server applies the action once and answers a retry with
      // the first outcome. The client retries transport failures itself; the page keeps trying
      // (showing "Reconnecting…") while a gateway restarts, then alerts.
      const requestId = crypto.randomUUID();
      for (let attempt = 1; ; attempt++) {
        try {
          await client.submit(seat, action, { etag: prompt.etag, requestId });
          break;
        } catch (failure) {
          if (!transient(failure) || attempt >= SUBMIT_TRIES) throw failure;
          setReconnecting(true);
          await new Promise((resolve) => setTimeout(resolve, retryPauseMs(attempt, 500)));
        }
      }
      setReconnecting(false);
    } catch (failure) {
      setReconnecting(false);
      if (raced(failure)) {
        // Another seat acted first (simultaneous decisions): not an error for a player. The update
        // with the next prompt is on its way (or here already); read it ourselves if it is late.
        setTimeout(() => {
          if (shown.current === prompt) resync.current();
        }, RACE_GRACE_MS);
        return;
      }
      setError(failure);
      setPending(false);
    }
  };

  // The view as JSON and the board drawn from it change only with the view (or the game, catalogue):
  // a render for anything else (the log, the prompt, a pending move) neither converts the view again
  // nor diffs the board (the same element is handed back, which Preact skips).
  const json = useMemo(() => gameJson(view), [view]);
  const board = useMemo(
    () => <Board kind={info?.kind ?? ""} json={json} pieces={named} names={names} toAct={toAct} catalog={catalog} />,
    [info?.kind, json, named, names, toAct, catalog],
  );
  return (
    <main data-through-event-id={String(through)} data-game-status={finished ? "finished" : "running"} class="game">
      <h1>
        {title || "Game"} {seat ? <span class="muted">(you are seat {seat.seat + 1})</span> : <span class="muted">(spectating)</span>}
      </h1>
      <p role="status" aria-label="Turn" class={myTurn ? "turn mine" : "turn"}>
        {turn}
      </p>
      {info && !finished ? <Clock game={info} toAct={toAct} /> : null}
      {reconnecting ? (
        <p role="status" aria-label="Connection" class="reconnecting">
          Reconnecting…
        </p>
      ) : null}
      <Alert error={error} onClose={() => setError(undefined)} />
      <section aria-label="Your move" class="prompt">
        <h2>Your move</h2>
        {myTurn && prompt
          ? prompt.legalActionTexts.map((text, index) => (
              <button type="button" key={`${prompt.etag}/${index}`} disabled={pending} onClick={() => submit(index)}>
                {text.label}
              </button>
            ))
          : null}
        {!myTurn && !finished ? <p class="muted">{seat ? "Not your turn." : "You are watching."}</p> : null}
      </section>
      {finished && info?.result ? <FinalScores game={info} names={names} /> : null}
      <div class="columns">
        <section aria-label="Board" class="board-region" data-view-event-id={view ? String(view.throughEventId) : undefined}>
          <h2>Board</h2>
          {board}
        </section>
        <aside>
          <Scores game={info} json={json} names={names} toAct={toAct} />
          <h2 id="log-heading">Event log</h2>
          <ol aria-label="Event log" class="log" ref={logEnd}>
            {log.map((entry) => (
              <li key={entry.id} class={fresh && BigInt(entry.id) >= BigInt(fresh) ? "new" : ""}>
                {entry.text}
              </li>
            ))}
          </ol>
          {finished ? <a href={`#/games/${id}/replay`}>Replay this game</a> : null}
        </aside>
      </div>
    </main>
  );
}
