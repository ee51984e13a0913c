/** Scores now (from the view) and the final scores (from the game's result). */
import type { JsonObject } from "@bufbuild/protobuf";
import type { Game } from "@flotilla/client/browser";

import { scoreOf } from "./view";

export function Scores({ game, json, names, toAct }: { game: Game | undefined; json: JsonObject | undefined; names: readonly string[]; toAct: readonly number[] }) {
  const result = game?.result;
  return (
    <table aria-label="Scores" class="scores">
      <caption>Scores</caption>
      <tbody>
        {names.map((player, seat) => (
          <tr key={seat} class={toAct.includes(seat) ? "acting" : ""}>
            <td>{player}</td>
            <td>{result && result.scores.length > seat ? String(result.scores[seat]) : scoreOf(json, seat)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

export function FinalScores({ game, names }: { game: Game; names: readonly string[] }) {
  const result = game.result;
  if (!result) return null;
  return (
    <section aria-label="Final scores" class="final">
      <h2>Final scores</h2>
      <table>
        <caption>Seat, player, score, rank</caption>
        <tbody>
          {names.map((player, seat) => (
            <tr key={seat}>
              <td>Seat {seat + 1}</td>
              <td>{player}</td>
              <td>{String(result.scores[seat] ?? 0n)}</td>
              <td>{result.ranks[seat] ?? ""}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {Object.entries(result.detail).map(([key, value]) => (
        <p key={key}>
          {key}: {value}
        </p>
      ))}
    </section>
  );
}
