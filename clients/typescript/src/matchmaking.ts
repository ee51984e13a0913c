/** Matchmaking and ratings: typed MatchmakingService and RatingService calls, reached as
 * `client.matchmaking` and `client.ratings`. */

import type { CallOptions } from "@connectrpc/connect";

import type { FlotillaClient } from "./client.js";
import type { Stubs } from "./gateways.js";
import type {
  ListLeaderboardResponse,
  ListRatingHistoryResponse,
  Party,
  PartyInvite,
  PlayerRating,
  Ticket,
  WatchTicketResponse,
} from "./gen/flotilla/api/matchmaking/v1/matchmaking_service_pb.js";
import { required } from "./replies.js";
import { resumed } from "./streams.js";

/** What a ticket looks for. */
export interface TicketOptions {
  /** The game's options (docs/games.md). */
  options?: Record<string, string>;
  /** Queue with these party members (users/{id}) ... */
  party?: readonly string[];
  /** ... or with your party (parties/{id}). */
  partyName?: string;
  /** Makes the call safe to retry: the same id finds the same ticket (default: a fresh UUID). */
  requestId?: string;
}

/**
 * Matchmaking: tickets (a matchmaker forms games from them: a MATCHED ticket names the game, your
 * seat and its token) and parties to queue together. Every call goes with the session token.
 */
export class Matchmaking {
  constructor(private readonly client: FlotillaClient) {}

  /** Looks for a game of `kind` with any of `seatCounts` seats, alone or with a party. */
  async createTicket(kind: string, seatCounts: readonly number[], options: TicketOptions = {}): Promise<Ticket> {
    const request = {
      kind,
      seatCounts: [...seatCounts],
      options: options.options ?? {},
      party: [...(options.party ?? [])],
      partyName: options.partyName ?? "",
      requestId: options.requestId ?? crypto.randomUUID(),
    };
    const reply = await this.run((s, o) => s.matchmaking.createTicket(request, o), true);
    return required(reply.ticket, "CreateTicket");
  }

  /** A ticket: once MATCHED it names the game, your seat and its token. */
  async getTicket(ticket: string): Promise<Ticket> {
    const reply = await this.run((s, o) => s.matchmaking.getTicket({ ticket }, o), true);
    return required(reply.ticket, "GetTicket");
  }

  /** Stops looking. */
  async cancelTicket(ticket: string): Promise<Ticket> {
    const reply = await this.run((s, o) => s.matchmaking.cancelTicket({ ticket }, o), false);
    return required(reply.ticket, "CancelTicket");
  }

  /** The ticket now, then every change until it is matched, expired or cancelled; reopened by
   * itself (failing over) after a retryable failure (each stream starts with the ticket's state). */
  watchTicket(ticket: string, options: { signal?: AbortSignal } = {}): AsyncGenerator<WatchTicketResponse> {
    const open = (s: Stubs, o: CallOptions) => s.matchmaking.watchTicket({ ticket }, o);
    return resumed(this.client, open, this.client.sessionToken, options.signal);
  }

  /** A party you lead, to queue together. */
  async createParty(options: { requestId?: string } = {}): Promise<Party> {
    const request = { requestId: options.requestId ?? crypto.randomUUID() };
    const reply = await this.run((s, o) => s.matchmaking.createParty(request, o), true);
    return required(reply.party, "CreateParty");
  }

  /** A party you are in (yours when `party` is empty). */
  async getParty(party = ""): Promise<Party> {
    const reply = await this.run((s, o) => s.matchmaking.getParty({ party }, o), true);
    return required(reply.party, "GetParty");
  }

  /** The leader invites `user` (users/{id}). */
  async inviteToParty(party: string, user: string): Promise<PartyInvite> {
    const reply = await this.run((s, o) => s.matchmaking.inviteToParty({ party, user }, o), false);
    return required(reply.invite, "InviteToParty");
  }

  /** Joins a party you were invited to. */
  async acceptPartyInvite(party: string): Promise<Party> {
    const reply = await this.run((s, o) => s.matchmaking.acceptPartyInvite({ party }, o), false);
    return required(reply.party, "AcceptPartyInvite");
  }

  /** Turns an invitation down. */
  async declinePartyInvite(party: string): Promise<void> {
    await this.run((s, o) => s.matchmaking.declinePartyInvite({ party }, o), false);
  }

  /** Leaves a party (the leader's leaving ends it). */
  async leaveParty(party: string): Promise<void> {
    await this.run((s, o) => s.matchmaking.leaveParty({ party }, o), false);
  }

  /** The invitations waiting for you. */
  async listPartyInvites(): Promise<PartyInvite[]> {
    return (await this.run((s, o) => s.matchmaking.listPartyInvites({}, o), true)).invites;
  }

  private run<T>(fn: (stubs: Stubs, options: CallOptions) => Promise<T>, idempotent: boolean): Promise<T> {
    return this.client.call(fn, { token: this.client.sessionToken, idempotent });
  }
}

/** Ratings: leaderboards and each user's rating per game kind (reads, retried like every read). */
export class Ratings {
  constructor(private readonly client: FlotillaClient) {}

  /** One page of `kind`'s leaderboard, best first. */
  listLeaderboard(kind: string, page: { pageSize?: number; pageToken?: string } = {}): Promise<ListLeaderboardResponse> {
    return this.run((s, o) => s.ratings.listLeaderboard({ kind, ...page }, o));
  }

  /** A user's rating in `kind` (yours when `user` is empty). */
  async getRating(kind: string, user = ""): Promise<PlayerRating> {
    const reply = await this.run((s, o) => s.ratings.getRating({ kind, user }, o));
    return required(reply.rating, "GetRating");
  }

  /** One page of a user's rating changes in `kind` (yours when `user` is empty), newest first. */
  listRatingHistory(
    kind: string,
    options: { user?: string; pageSize?: number; pageToken?: string } = {},
  ): Promise<ListRatingHistoryResponse> {
    return this.run((s, o) => s.ratings.listRatingHistory({ kind, ...options }, o));
  }

  private run<T>(fn: (stubs: Stubs, options: CallOptions) => Promise<T>): Promise<T> {
    return this.client.call(fn, { token: this.client.sessionToken, idempotent: true });
  }
}
