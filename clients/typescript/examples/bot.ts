import { ErrorReason, FlotillaClient, FlotillaError } from "../src/index.js";

const client = new FlotillaClient(["127.0.0.1:50051", "127.0.0.1:50052"]); // fails over between them
await client.signIn("ada");
const game = await client.createGame("sail_away", 2); // a request id makes retries create it once
const seat = await client.join(game.name);            // a second player or bot joins too
const play = client.play(seat);                       // GameService.Play: updates in, actions out
for await (const response of play) {                  // ends when the game is over
  if (response.kind.case !== "update") continue;
  const update = response.kind.value;
  for (const event of update.events) console.log(event.eventId, event.summary);
  if (!update.prompt) continue;
  const { legalActions, etag } = update.prompt;
  const action = legalActions[Math.floor(Math.random() * legalActions.length)]!;
  play.submit(action, { etag }).catch((error: FlotillaError) => {
    if (!error.is(ErrorReason.STALE_GAME_VERSION)) console.error(error.message); // stale: another seat moved first
  });
}
console.log((await client.getGame(game.name)).result?.scores);
client.close();
