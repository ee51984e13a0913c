/** The turn clock of the seats to act (games created with a clock). */
import type { Game } from "@flotilla/client/browser";
import { useEffect, useState } from "preact/hooks";

import { seatName } from "../names";

export function Clock({ game, toAct }: { game: Game; toAct: readonly number[] }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const clock = game.clock;
  if (!clock || (!clock.turnSeconds && !clock.bankSeconds)) return null;
  const left = toAct.map((seat) => {
    const deadline = game.seats[seat]?.deadline;
    const ms = deadline ? Number(deadline.seconds) * 1000 + deadline.nanos / 1e6 - now : 0;
    const info = game.seats[seat];
    const name = info ? seatName(info) : `Seat ${seat + 1}`;
    return `${name}: ${Math.max(0, Math.ceil(ms / 1000))} s`;
  });
  return (
    <p role="timer" aria-label="Turn clock" class="clock">
      {left.join(", ") || "—"}
    </p>
  );
}
