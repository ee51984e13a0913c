/**
 * The typed lobby, matchmaking and rating calls against a real server at the gateways in
 * FLOTILLA_GATEWAYS (pytest's tests/typescript starts them). Run with `node --test dist/test/`.
 */
import assert from "node:assert/strict";
import { randomUUID } from "node:crypto";
import { after, describe, it } from "node:test";

import { Code, ErrorReason, FlotillaClient, FlotillaError, lobby, matchmaking } from "../src/index.js";

const GATEWAYS = (process.env.FLOTILLA_GATEWAYS ?? "").split(",").filter(Boolean);

async function rejects(call: Promise<unknown>, code: Code, reason: ErrorReason): Promise<void> {
  await assert.rejects(call, (error: unknown) => {
    assert.ok(error instanceof FlotillaError, `not a FlotillaError: ${String(error)}`);
    assert.equal(error.code, code, error.message);
    assert.ok(error.is(reason), `reason ${error.reason}, wanted ${ErrorReason[reason]}`);
    return true;
  });
}

describe("lobby, matchmaking and ratings against a server", { skip: GATEWAYS.length < 2 ? "set FLOTILLA_GATEWAYS to two gateways" : false }, () => {
  const clients: FlotillaClient[] = [];
  const signedIn = async (name: string, addresses: readonly string[] = GATEWAYS) => {
    const made = new FlotillaClient(addresses, { backoffMs: 20 });
    clients.push(made);
    await made.signIn(name);
    return made;
  };
  after(() => {
    for (const made of clients.splice(0)) made.close();
  });

  it("creates a room, a friend joins it and gets a seat token once the host starts it", { timeout: 20_000 }, async () => {
    const [first, second] = GATEWAYS as [string, string];
    const host = await signedIn("host", [first, second]);
    const friend = await signedIn("friend", [second, first]);
    const displayName = `ts room ${randomUUID().slice(0, 8)}`;
    const requestId = randomUUID();
    const room = await host.lobby.createRoom("counter", 2, { options: { moves: "4" }, displayName, requestId });
    assert.equal(room.state, lobby.RoomState.OPEN);
    assert.equal(room.host, host.user);
    assert.equal((await host.lobby.createRoom("counter", 2, { options: { moves: "4" }, displayName, requestId })).name, room.name, "a retry finds the same room");
    let listed = false;
    for (let page = 0, pageToken = ""; page < 50 && !listed; page++) {
      const rooms = await friend.lobby.listRooms({ kind: "counter", pageSize: 100, pageToken });
      listed = rooms.rooms.some((r) => r.name === room.name);
      pageToken = rooms.nextPageToken;
      if (!pageToken) break;
    }
    assert.ok(listed, "ListRooms lists the public room");

    const joined = await friend.lobby.joinRoom(room.name);
    assert.equal(joined.seats[1]?.user, friend.user);
    assert.equal(joined.openSeats, 0);
    const updates: lobby.WatchRoomResponse[] = [];
    const watching = (async () => {
      for await (const update of friend.lobby.watchRoom(room.name)) updates.push(update); // ends once started
    })();
    assert.equal((await friend.lobby.setReady(room.name)).seats[1]?.ready, true);
    await rejects(friend.lobby.startRoom(room.name), Code.PermissionDenied, ErrorReason.NOT_ROOM_HOST);
    const started = await host.lobby.startRoom(room.name);
    assert.ok(started.room?.game.startsWith("games/"), "the started room names its game");
    await watching;
    const last = updates.at(-1);
    assert.equal(last?.room?.state, lobby.RoomState.STARTED);
    assert.ok(last?.seatToken, "the friend's watch ends with its seat token");
    const versions = updates.map((u) => u.room?.version ?? 0n);
    assert.deepEqual(versions, [...versions].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)), "each version once, in order");
    assert.equal(new Set(versions).size, versions.length);

    const game = started.room?.game as string;
    const friendView = await friend.getView(game, { seat: { game, seat: 1, token: last.seatToken } });
    assert.equal(friendView.view?.viewerSeat, 1);
    assert.equal((await friend.lobby.getRoom(room.name)).seatToken.length > 0, true, "GetRoom gives the seat token too");
    await rejects(friend.lobby.joinRoom(`rooms/${"0".repeat(32)}`), Code.NotFound, ErrorReason.ROOM_NOT_FOUND);
  });

  it("queues a matchmaking ticket, watches it and cancels it; parties and ratings", { timeout: 20_000 }, async () => {
    const player = await signedIn("queued");
    const friend = await signedIn("party-friend");
    const requestId = randomUUID();
    const ticket = await player.matchmaking.createTicket("counter", [2], { options: { moves: "4" }, requestId });
    assert.equal(ticket.state, matchmaking.TicketState.SEARCHING);
    assert.equal((await player.matchmaking.createTicket("counter", [2], { options: { moves: "4" }, requestId })).name, ticket.name, "a retry finds the same ticket");
    assert.equal((await player.matchmaking.getTicket(ticket.name)).name, ticket.name);
    const states: matchmaking.TicketState[] = [];
    for await (const update of player.matchmaking.watchTicket(ticket.name)) {
      states.push(update.ticket?.state ?? matchmaking.TicketState.UNSPECIFIED);
      if (states.length === 1) {
        const cancelled = await player.matchmaking.cancelTicket(ticket.name);
        assert.equal(cancelled.state, matchmaking.TicketState.CANCELLED);
      }
    }
    assert.deepEqual(states, [matchmaking.TicketState.SEARCHING, matchmaking.TicketState.CANCELLED]);
    await rejects(player.matchmaking.getTicket(ticket.name.replace(/-[0-9a-f]{32}$/, `-${"0".repeat(32)}`)), Code.NotFound, ErrorReason.TICKET_NOT_FOUND);

    const party = await player.matchmaking.createParty();
    assert.equal(party.leader, player.user);
    await player.matchmaking.inviteToParty(party.name, friend.user);
    assert.deepEqual((await friend.matchmaking.listPartyInvites()).map((i) => i.party), [party.name]);
    const joined = await friend.matchmaking.acceptPartyInvite(party.name);
    assert.deepEqual(joined.members.map((m) => m.user).sort(), [player.user, friend.user].sort());
    await friend.matchmaking.leaveParty(party.name);
    assert.equal((await player.matchmaking.getParty(party.name)).members.length, 1);
    await player.matchmaking.leaveParty(party.name);

    const rating = await player.ratings.getRating("counter");
    assert.equal(rating.user, player.user);
    assert.equal(rating.games, 0, "unrated so far");
    assert.deepEqual((await player.ratings.listRatingHistory("counter")).changes, []);
    assert.ok((await player.ratings.listLeaderboard("counter", { pageSize: 10 })).ratings.length <= 10);
  });
});
