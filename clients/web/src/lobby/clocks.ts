/** Turn clocks a room can set (CreateRoomRequest.clock), and a clock in words. */
import type { Clock } from "@flotilla/client/browser";

export interface ClockPreset {
  readonly value: string;
  readonly label: string;
  /** The clock sent (absent: none). Unset fields take the server's defaults: 3 timeouts in a row,
   * then a bot plays the seat. */
  readonly clock?: { turnSeconds?: number; bankSeconds?: number; incrementSeconds?: number };
}

export const CLOCK_PRESETS: readonly ClockPreset[] = [
  { value: "none", label: "None" },
  { value: "30s", label: "30 s per move", clock: { turnSeconds: 30 } },
  { value: "2m", label: "2 min per move", clock: { turnSeconds: 120 } },
  { value: "bank10m", label: "10 min each, +10 s per move", clock: { bankSeconds: 600, incrementSeconds: 10 } },
];

const span = (seconds: number): string =>
  seconds % 60 === 0 && seconds >= 60 ? `${seconds / 60} min` : `${seconds} s`;

/** "30 s per move", "10 min each, +10 s per move", or "" for no clock. */
export function clockLabel(clock: Clock | undefined): string {
  if (!clock) return "";
  if (clock.turnSeconds) return `${span(clock.turnSeconds)} per move`;
  if (clock.bankSeconds) {
    return clock.incrementSeconds
      ? `${span(clock.bankSeconds)} each, +${span(clock.incrementSeconds)} per move`
      : `${span(clock.bankSeconds)} each`;
  }
  return "";
}
