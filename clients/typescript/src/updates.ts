/** Reading stream updates. */
import type { Action, Prompt } from "./gen/flotilla/api/game/v1/game_pb.js";
import type { WatchGameResponse } from "./gen/flotilla/api/game/v1/game_service_pb.js";

/** Whether `update` carries the game's last event (GameFinished or GameAborted). */
export function endsGame(update: WatchGameResponse): boolean {
  return update.events.some((e) => e.event.case === "gameFinished" || e.event.case === "gameAborted");
}

/**
 * The action the server plays for the prompted seat when its clock runs out
 * (`Prompt.defaultActionIndex` into `legalActions`): a bot's fallback. The first legal action
 * from a server that names none; undefined when nothing is legal.
 */
export function defaultAction(prompt: Prompt): Action | undefined {
  const index = prompt.defaultActionIndex ?? 0;
  return prompt.legalActions[index >= 0 && index < prompt.legalActions.length ? index : 0];
}
