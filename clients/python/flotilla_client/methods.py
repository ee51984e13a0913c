"""Every call of the API but Play as a typed method, written once for both clients (see `calls`).

Reads go with the session token; acts in a game with the seat's token. Request ids that make a
retry safe are made here when the caller gives none, so a retried call reuses its id.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from flotilla.api.catalog.v1 import catalog_service_pb2 as cat
from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm
from flotilla_client.calls import Call, call, fresh_request_id, operation, same, streaming
from flotilla_client.rpcs import (
    ACCEPT_PARTY_INVITE,
    ADD_BOT,
    CANCEL_TICKET,
    CREATE_GAME,
    CREATE_PARTY,
    CREATE_ROOM,
    CREATE_TICKET,
    DECLINE_PARTY_INVITE,
    GET_CATALOG,
    GET_GAME,
    GET_GAME_RECORD,
    GET_PARTY,
    GET_RATING,
    GET_ROOM,
    GET_TICKET,
    GET_VIEW,
    GET_VIEW_AT,
    INVITE_TO_PARTY,
    JOIN_GAME,
    JOIN_ROOM,
    KICK_SEAT,
    LEAVE_GAME,
    LEAVE_PARTY,
    LEAVE_ROOM,
    LIST_GAME_KINDS,
    LIST_GAMES,
    LIST_LEADERBOARD,
    LIST_PARTY_INVITES,
    LIST_RATING_HISTORY,
    LIST_ROOMS,
    REFRESH_TOKEN,
    SET_READY,
    SIGN_IN_AS_GUEST,
    SIGN_IN_WITH_API_KEY,
    START_ROOM,
    SUBMIT_ACTION,
    TRANSFER_HOST,
)
from flotilla_client.seat import Seat
from flotilla_client.session import Session
from flotilla_client.streams import Resume, watch_game, watch_room, watch_ticket


def _new_table(kind: str, seats: int, options: Mapping[str, str] | None, request_id: str) -> dict[str, Any]:
    """The fields a new game and a new room share (a fresh request id unless one is given)."""
    return {
        "kind": kind,
        "seat_count": seats,
        "options": dict(options or {}),
        "request_id": fresh_request_id(request_id),
    }


class Api(Session):
    """The methods of `FlotillaClient` and `FlotillaSyncClient` (Play is in each client)."""

    # --- AuthService -----------------------------------------------------------------------
    @operation
    def sign_in(self, display_name: str) -> Call[str]:
        """Sign in as a guest; later calls use the session token (returned)."""

        def then(reply: g.SignInAsGuestResponse) -> str:
            self.session_token, self.user = reply.session_token, reply.user
            return reply.session_token

        return call(SIGN_IN_AS_GUEST, g.SignInAsGuestRequest(display_name=display_name), "", then)

    @operation
    def sign_in_with_api_key(self, api_key: str) -> Call[str]:
        """Sign in as an operator-made bot account; the session is refreshed (and, past its expiry,
        made again with the key) by itself."""

        def then(reply: g.SignInWithApiKeyResponse) -> str:
            self.session_token, self.user, self.api_key = reply.session_token, reply.user, api_key
            return reply.session_token

        return call(SIGN_IN_WITH_API_KEY, g.SignInWithApiKeyRequest(api_key=api_key), "", then)

    @operation
    def refresh_token(self, token: str) -> Call[g.RefreshTokenResponse]:
        """Exchange `token` for a fresh one (the clients do it by themselves before expiry)."""
        return call(REFRESH_TOKEN, g.RefreshTokenRequest(token=token), "", same)

    # --- GameService -----------------------------------------------------------------------
    @operation
    def create_game(
        self,
        kind: str,
        seats: int,
        options: Mapping[str, str] | None = None,
        *,
        clock: game_pb2.Clock | None = None,
        request_id: str = "",
    ) -> Call[game_pb2.Game]:
        """A new game of `kind` with `seats` open seats (retried with the same request id: made once)."""
        request = g.CreateGameRequest(**_new_table(kind, seats, options, request_id), clock=clock)
        return call(CREATE_GAME, request, self.session_token, lambda reply: reply.game)

    @operation
    def join(self, game: str, seat: int | None = None) -> Call[Seat]:
        """Take a seat (`seat`, or any open one); the returned Seat's token acts for it."""
        request = g.JoinGameRequest(game=game, seat=seat)
        return call(JOIN_GAME, request, self.session_token, lambda reply: Seat(game, reply.seat, reply.seat_token))

    @operation
    def leave(self, seat: Seat, *, request_id: str = "") -> Call[g.LeaveGameResponse]:
        """Give up `seat` (its token is revoked; the server plays it from now on)."""
        request = g.LeaveGameRequest(game=seat.game, request_id=fresh_request_id(request_id))
        return call(LEAVE_GAME, request, seat.token, same)

    @operation
    def get_game(self, game: str, *, join_code: str = "", seat: Seat | None = None) -> Call[game_pb2.Game]:
        """The game resource (seats, state, result, seed commitment); a private room's game needs
        a seat in it (the session's, or `seat`'s token) or the room's `join_code`."""
        request = g.GetGameRequest(game=game, join_code=join_code)
        token = seat.token if seat else self.session_token
        return call(GET_GAME, request, token, lambda reply: reply.game)

    @operation
    def list_games(
        self,
        kind: str = "",
        state: game_pb2.GameState = game_pb2.GAME_STATE_UNSPECIFIED,
        page_size: int = 50,
        page_token: str = "",
    ) -> Call[g.ListGamesResponse]:
        """A page of games (filtered by kind and state); pass `next_page_token` for the next."""
        request = g.ListGamesRequest(kind=kind, state=state, page_size=page_size, page_token=page_token)
        return call(LIST_GAMES, request, self.session_token, same)

    @operation
    def view(self, game: str, seat: Seat | None = None, *, join_code: str = "") -> Call[g.GetViewResponse]:
        """The game as `seat` sees it (the session's seat, or a spectator's view) and its prompt."""
        token = seat.token if seat else self.session_token
        return call(GET_VIEW, g.GetViewRequest(game=game, join_code=join_code), token, same)

    @operation
    def submit(
        self, game: str, seat: Seat, action: game_pb2.Action, *, etag: str = "", request_id: str = ""
    ) -> Call[g.SubmitActionResponse]:
        """Submit an action; retried (after UNAVAILABLE, failing over) with the same request id, so
        it is applied once. With `etag`, refused (ABORTED) if the game moved on since."""
        request = g.SubmitActionRequest(game=game, action=action, etag=etag, request_id=fresh_request_id(request_id))
        return call(SUBMIT_ACTION, request, seat.token, same)

    @streaming
    def watch(
        self, game: str, seat: Seat | None = None, after_event_id: int = 0, after_etag: str = "", *, join_code: str = ""
    ) -> Resume[g.WatchGameRequest, g.WatchGameResponse]:
        """Updates from `after_etag` (or `after_event_id`); reconnects (and fails over) and resumes
        where it stopped, by etag, so the server can tell when the game's history changed under it.

        Ends when the game is over. Each event arrives exactly once, in order; an update with a
        `view` replaces everything known so far (its `resync_reason` says why, mid-stream).
        """
        token = seat.token if seat else self.session_token
        return watch_game(game, token, after_event_id, after_etag, join_code)

    @operation
    def record(self, game: str, *, join_code: str = "") -> Call[g.GetGameRecordResponse]:
        """A finished game's record: the revealed seed and every action in order (a private room's
        game: a seat in it or the room's `join_code`)."""
        return call(GET_GAME_RECORD, g.GetGameRecordRequest(game=game, join_code=join_code), self.session_token, same)

    @operation
    def view_at(
        self, game: str, event_id: int, seat: Seat | None = None, *, join_code: str = ""
    ) -> Call[game_pb2.GameView]:
        """A finished game's view at `event_id` as `seat` (or the session's seat, or a spectator) saw it."""
        token = seat.token if seat else self.session_token
        request = g.GetViewAtRequest(game=game, event_id=event_id, join_code=join_code)
        return call(GET_VIEW_AT, request, token, lambda reply: reply.view)

    # --- LobbyService ----------------------------------------------------------------------
    @operation
    def create_room(
        self,
        kind: str,
        seats: int,
        options: Mapping[str, str] | None = None,
        *,
        visibility: lb.RoomVisibility = lb.ROOM_VISIBILITY_PUBLIC,
        display_name: str = "",
        clock: game_pb2.Clock | None = None,
        request_id: str = "",
        rated: bool = False,
    ) -> Call[lb.Room]:
        """A room you host (seat 0 is yours); a private one answers with its `join_code`;
        `clock`: its game's turn clock; `rated`: its game moves ratings (no guests may sit)."""
        table = _new_table(kind, seats, options, request_id)
        request = lb.CreateRoomRequest(
            **table, visibility=visibility, display_name=display_name, clock=clock, rated=rated
        )
        return call(CREATE_ROOM, request, self.session_token, lambda reply: reply.room)

    @operation
    def list_rooms(
        self,
        kind: str = "",
        *,
        min_open_seats: int = 0,
        options: Mapping[str, str] | None = None,
        page_size: int = 50,
        page_token: str = "",
    ) -> Call[lb.ListRoomsResponse]:
        """A page of open public rooms (with at least `min_open_seats`, and these `options`)."""
        request = lb.ListRoomsRequest(
            kind=kind, min_open_seats=min_open_seats, page_size=page_size, page_token=page_token
        )
        request.options.update(options or {})
        return call(LIST_ROOMS, request, self.session_token, same)

    @operation
    def get_room(self, room: str, *, join_code: str = "") -> Call[lb.GetRoomResponse]:
        """The room, and your seat token once it started; `room` "" finds the private room whose
        `join_code` that is."""
        return call(
            GET_ROOM, lb.GetRoomRequest(room=room, join_code=join_code), self.session_token, lambda reply: reply
        )

    @operation
    def join_room(self, room: str, *, join_code: str = "", seat: int | None = None) -> Call[lb.Room]:
        """Take a seat in a room (a private room needs its join code; `room` "": the room of that code)."""
        request = lb.JoinRoomRequest(room=room, join_code=join_code, seat=seat)
        return call(JOIN_ROOM, request, self.session_token, lambda reply: reply.room)

    @operation
    def leave_room(self, room: str) -> Call[lb.Room]:
        """Give up your seat in a room (the host's leaving hands the room on)."""
        return call(LEAVE_ROOM, lb.LeaveRoomRequest(room=room), self.session_token, lambda reply: reply.room)

    @operation
    def set_ready(self, room: str, ready: bool = True) -> Call[lb.Room]:
        """Say you are (or are no longer) ready to start."""
        return call(SET_READY, lb.SetReadyRequest(room=room, ready=ready), self.session_token, lambda reply: reply.room)

    @operation
    def kick_seat(self, room: str, seat: int) -> Call[lb.Room]:
        """The host frees a seat."""
        return call(KICK_SEAT, lb.KickSeatRequest(room=room, seat=seat), self.session_token, lambda reply: reply.room)

    @operation
    def transfer_host(self, room: str, user: str) -> Call[lb.Room]:
        """The host hands the room to a seated `user`."""
        request = lb.TransferHostRequest(room=room, user=user)
        return call(TRANSFER_HOST, request, self.session_token, lambda reply: reply.room)

    @operation
    def add_bot(
        self, room: str, *, seat: int | None = None, policy: str = "", difficulty: int | None = None
    ) -> Call[lb.Room]:
        """The host seats a server bot (`policy`, `difficulty`: the server's defaults when not given)."""
        request = lb.AddBotRequest(room=room, seat=seat, policy=policy, difficulty=difficulty)
        return call(ADD_BOT, request, self.session_token, lambda reply: reply.room)

    @operation
    def start_room(self, room: str) -> Call[lb.StartRoomResponse]:
        """The host starts the game (every seat taken and ready); the reply has its seat token."""
        return call(START_ROOM, lb.StartRoomRequest(room=room), self.session_token, same)

    @streaming
    def watch_room(
        self, room: str, after_version: int = 0, *, join_code: str = ""
    ) -> Resume[lb.WatchRoomRequest, lb.WatchRoomResponse]:
        """The room now, then every change (resumed by version); a started room's update carries
        your seat token."""
        return watch_room(room, self.session_token, after_version, join_code)

    # --- MatchmakingService ----------------------------------------------------------------
    @operation
    def create_ticket(
        self,
        kind: str,
        seat_counts: Iterable[int] = (),
        options: Mapping[str, str] | None = None,
        *,
        party: Iterable[str] = (),
        party_name: str = "",
        request_id: str = "",
    ) -> Call[mm.Ticket]:
        """Look for a game of `kind` (any of `seat_counts`), alone or with your party."""
        request = mm.CreateTicketRequest(
            kind=kind,
            seat_counts=list(seat_counts),
            options=dict(options or {}),
            party=list(party),
            party_name=party_name,
            request_id=fresh_request_id(request_id),
        )
        return call(CREATE_TICKET, request, self.session_token, lambda reply: reply.ticket)

    @operation
    def get_ticket(self, ticket: str) -> Call[mm.Ticket]:
        """A ticket: once MATCHED it names the game, your seat and its token."""
        return call(GET_TICKET, mm.GetTicketRequest(ticket=ticket), self.session_token, lambda reply: reply.ticket)

    @operation
    def cancel_ticket(self, ticket: str) -> Call[mm.Ticket]:
        """Stop looking."""
        request = mm.CancelTicketRequest(ticket=ticket)
        return call(CANCEL_TICKET, request, self.session_token, lambda reply: reply.ticket)

    @streaming
    def watch_ticket(self, ticket: str) -> Resume[mm.WatchTicketRequest, mm.WatchTicketResponse]:
        """The ticket now, then every change until it is matched, expired or cancelled."""
        return watch_ticket(ticket, self.session_token)

    @operation
    def create_party(self, *, request_id: str = "") -> Call[mm.Party]:
        """A party you lead, to queue together."""
        request = mm.CreatePartyRequest(request_id=fresh_request_id(request_id))
        return call(CREATE_PARTY, request, self.session_token, lambda reply: reply.party)

    @operation
    def get_party(self, party: str) -> Call[mm.Party]:
        """A party you are in."""
        return call(GET_PARTY, mm.GetPartyRequest(party=party), self.session_token, lambda reply: reply.party)

    @operation
    def invite_to_party(self, party: str, user: str) -> Call[mm.PartyInvite]:
        """The leader invites `user`."""
        request = mm.InviteToPartyRequest(party=party, user=user)
        return call(INVITE_TO_PARTY, request, self.session_token, lambda reply: reply.invite)

    @operation
    def accept_party_invite(self, party: str) -> Call[mm.Party]:
        """Join a party you were invited to."""
        request = mm.AcceptPartyInviteRequest(party=party)
        return call(ACCEPT_PARTY_INVITE, request, self.session_token, lambda reply: reply.party)

    @operation
    def decline_party_invite(self, party: str) -> Call[None]:
        """Turn an invitation down."""
        request = mm.DeclinePartyInviteRequest(party=party)
        return call(DECLINE_PARTY_INVITE, request, self.session_token, lambda reply: None)

    @operation
    def leave_party(self, party: str) -> Call[None]:
        """Leave a party (the leader's leaving ends it)."""
        return call(LEAVE_PARTY, mm.LeavePartyRequest(party=party), self.session_token, lambda reply: None)

    @operation
    def list_party_invites(self) -> Call[list[mm.PartyInvite]]:
        """The invitations waiting for you."""
        request = mm.ListPartyInvitesRequest()
        return call(LIST_PARTY_INVITES, request, self.session_token, lambda reply: list(reply.invites))

    # --- RatingService ---------------------------------------------------------------------
    @operation
    def list_leaderboard(
        self, kind: str, page_size: int = 50, page_token: str = ""
    ) -> Call[mm.ListLeaderboardResponse]:
        """A page of `kind`'s leaderboard, best first."""
        request = mm.ListLeaderboardRequest(kind=kind, page_size=page_size, page_token=page_token)
        return call(LIST_LEADERBOARD, request, self.session_token, same)

    @operation
    def get_rating(self, kind: str, user: str = "") -> Call[mm.PlayerRating]:
        """A user's rating in `kind` (yours when `user` is empty)."""
        request = mm.GetRatingRequest(kind=kind, user=user)
        return call(GET_RATING, request, self.session_token, lambda reply: reply.rating)

    @operation
    def list_rating_history(
        self, kind: str, user: str = "", page_size: int = 50, page_token: str = ""
    ) -> Call[mm.ListRatingHistoryResponse]:
        """A page of a user's rating changes in `kind`, newest first."""
        request = mm.ListRatingHistoryRequest(kind=kind, user=user, page_size=page_size, page_token=page_token)
        return call(LIST_RATING_HISTORY, request, self.session_token, same)

    # --- CatalogService --------------------------------------------------------------------
    @operation
    def list_game_kinds(self) -> Call[cat.ListGameKindsResponse]:
        """Every game kind this server runs: rules version, modes, seat counts, options."""
        return call(LIST_GAME_KINDS, cat.ListGameKindsRequest(), "", same)

    @operation
    def get_catalog(self, kind: str, rules_version: str = "") -> Call[cat.Catalog]:
        """Everything static about `kind` at `rules_version` (empty: the current one): cards,
        tiles, boards with layout hints, setup tables. One version's catalogue never changes."""
        request = cat.GetCatalogRequest(kind=kind, rules_version=rules_version)
        return call(GET_CATALOG, request, "", lambda reply: reply.catalog)
