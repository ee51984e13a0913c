/** The lobby's game choices: one per game kind, one per mode of a game with modes. */
import type { catalog } from "@flotilla/client/browser";

export interface Choice {
  readonly value: string;
  readonly label: string; // the kind's display name, then the mode ("Port Royal contract_coop")
  readonly kind: string;
  readonly options: Record<string, string>;
  readonly seatCounts: readonly number[];
}

export function choices(kinds: readonly catalog.GameKind[]): Choice[] {
  return kinds.flatMap((kind) =>
    kind.modes.map((mode) => ({
      value: mode.name ? `${kind.kind}:${mode.name}` : kind.kind,
      label: mode.name ? `${kind.displayName} ${mode.name}` : kind.displayName,
      kind: kind.kind,
      options: mode.name ? { mode: mode.name } : ({} as Record<string, string>),
      seatCounts: mode.seatCounts.length ? mode.seatCounts : [2],
    })),
  );
}
