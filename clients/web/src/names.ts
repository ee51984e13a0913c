/** Names as players see them: guests and bots marked beside their names (the server's UserKind), so
 * nobody passes for another kind of user by the name they picked. */
import { UserKind } from "@flotilla/client/browser";

/** The mark shown beside a name of this kind: "guest", "bot", or "" (an account, or not known). */
export function kindMark(kind: UserKind): string {
  switch (kind) {
    case UserKind.GUEST:
      return "guest";
    case UserKind.BOT_ACCOUNT:
    case UserKind.SERVER_BOT:
      return "bot";
    default:
      return "";
  }
}

/** A seat's name with its mark, e.g. "Ada (guest)" ("Seat 2" while open); a bot account's name
 * ends with "(bot)" already and is not marked twice. */
export function seatName(seat: { seat: number; displayName: string; userKind: UserKind }): string {
  const name = seat.displayName || `Seat ${seat.seat + 1}`;
  const mark = kindMark(seat.userKind);
  return mark && !name.endsWith(`(${mark})`) ? `${name} (${mark})` : name;
}
