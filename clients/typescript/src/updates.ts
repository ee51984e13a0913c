/** Reading stream updates. */
import type { WatchGameResponse } from "./gen/flotilla/api/game/v1/game_service_pb.js";

/** Whether `update` carries the game's last event (GameFinished or GameAborted). */
export function endsGame(update: WatchGameResponse): boolean {
  return update.events.some((e) => e.event.case === "gameFinished" || e.event.case === "gameAborted");
}
