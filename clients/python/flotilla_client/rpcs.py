"""Every RPC of the API with its request and response types, one typed table for both clients.

The clients build their calls from these (`channel.unary_unary(rpc.path, ...)`) instead of the
untyped generated `*_pb2_grpc` stubs, so every call is checked end to end by mypy.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Generic, TypeVar

from google.protobuf.message import Message

from flotilla.api.catalog.v1 import catalog_service_pb2 as cat
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla.api.lobby.v1 import lobby_service_pb2 as lb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as mm

Req = TypeVar("Req", bound=Message)
Resp = TypeVar("Resp", bound=Message)


@dataclass(frozen=True, slots=True)
class Rpc(Generic[Req, Resp]):
    """One method: its path (`/package.Service/Method`) and message types."""

    path: str
    request: type[Req]
    response: type[Resp]


class Unary(Rpc[Req, Resp]):
    """One request, one response."""


class ServerStream(Rpc[Req, Resp]):
    """One request, a stream of responses."""


class Bidi(Rpc[Req, Resp]):
    """A stream each way."""


_AUTH, _GAME = "/flotilla.api.game.v1.AuthService/", "/flotilla.api.game.v1.GameService/"
_LOBBY, _MM = "/flotilla.api.lobby.v1.LobbyService/", "/flotilla.api.matchmaking.v1.MatchmakingService/"
_RATING = "/flotilla.api.matchmaking.v1.RatingService/"

SIGN_IN_AS_GUEST = Unary(_AUTH + "SignInAsGuest", g.SignInAsGuestRequest, g.SignInAsGuestResponse)
SIGN_IN_WITH_API_KEY = Unary(_AUTH + "SignInWithApiKey", g.SignInWithApiKeyRequest, g.SignInWithApiKeyResponse)
REFRESH_TOKEN = Unary(_AUTH + "RefreshToken", g.RefreshTokenRequest, g.RefreshTokenResponse)

CREATE_GAME = Unary(_GAME + "CreateGame", g.CreateGameRequest, g.CreateGameResponse)
JOIN_GAME = Unary(_GAME + "JoinGame", g.JoinGameRequest, g.JoinGameResponse)
LEAVE_GAME = Unary(_GAME + "LeaveGame", g.LeaveGameRequest, g.LeaveGameResponse)
GET_GAME = Unary(_GAME + "GetGame", g.GetGameRequest, g.GetGameResponse)
LIST_GAMES = Unary(_GAME + "ListGames", g.ListGamesRequest, g.ListGamesResponse)
GET_VIEW = Unary(_GAME + "GetView", g.GetViewRequest, g.GetViewResponse)
SUBMIT_ACTION = Unary(_GAME + "SubmitAction", g.SubmitActionRequest, g.SubmitActionResponse)
WATCH_GAME = ServerStream(_GAME + "WatchGame", g.WatchGameRequest, g.WatchGameResponse)
PLAY = Bidi(_GAME + "Play", g.PlayRequest, g.PlayResponse)
GET_GAME_RECORD = Unary(_GAME + "GetGameRecord", g.GetGameRecordRequest, g.GetGameRecordResponse)
GET_VIEW_AT = Unary(_GAME + "GetViewAt", g.GetViewAtRequest, g.GetViewAtResponse)

CREATE_ROOM = Unary(_LOBBY + "CreateRoom", lb.CreateRoomRequest, lb.CreateRoomResponse)
LIST_ROOMS = Unary(_LOBBY + "ListRooms", lb.ListRoomsRequest, lb.ListRoomsResponse)
GET_ROOM = Unary(_LOBBY + "GetRoom", lb.GetRoomRequest, lb.GetRoomResponse)
JOIN_ROOM = Unary(_LOBBY + "JoinRoom", lb.JoinRoomRequest, lb.JoinRoomResponse)
LEAVE_ROOM = Unary(_LOBBY + "LeaveRoom", lb.LeaveRoomRequest, lb.LeaveRoomResponse)
SET_READY = Unary(_LOBBY + "SetReady", lb.SetReadyRequest, lb.SetReadyResponse)
KICK_SEAT = Unary(_LOBBY + "KickSeat", lb.KickSeatRequest, lb.KickSeatResponse)
TRANSFER_HOST = Unary(_LOBBY + "TransferHost", lb.TransferHostRequest, lb.TransferHostResponse)
ADD_BOT = Unary(_LOBBY + "AddBot", lb.AddBotRequest, lb.AddBotResponse)
START_ROOM = Unary(_LOBBY + "StartRoom", lb.StartRoomRequest, lb.StartRoomResponse)
WATCH_ROOM = ServerStream(_LOBBY + "WatchRoom", lb.WatchRoomRequest, lb.WatchRoomResponse)

CREATE_TICKET = Unary(_MM + "CreateTicket", mm.CreateTicketRequest, mm.CreateTicketResponse)
GET_TICKET = Unary(_MM + "GetTicket", mm.GetTicketRequest, mm.GetTicketResponse)
CANCEL_TICKET = Unary(_MM + "CancelTicket", mm.CancelTicketRequest, mm.CancelTicketResponse)
WATCH_TICKET = ServerStream(_MM + "WatchTicket", mm.WatchTicketRequest, mm.WatchTicketResponse)
CREATE_PARTY = Unary(_MM + "CreateParty", mm.CreatePartyRequest, mm.CreatePartyResponse)
GET_PARTY = Unary(_MM + "GetParty", mm.GetPartyRequest, mm.GetPartyResponse)
INVITE_TO_PARTY = Unary(_MM + "InviteToParty", mm.InviteToPartyRequest, mm.InviteToPartyResponse)
ACCEPT_PARTY_INVITE = Unary(_MM + "AcceptPartyInvite", mm.AcceptPartyInviteRequest, mm.AcceptPartyInviteResponse)
DECLINE_PARTY_INVITE = Unary(_MM + "DeclinePartyInvite", mm.DeclinePartyInviteRequest, mm.DeclinePartyInviteResponse)
LEAVE_PARTY = Unary(_MM + "LeaveParty", mm.LeavePartyRequest, mm.LeavePartyResponse)
LIST_PARTY_INVITES = Unary(_MM + "ListPartyInvites", mm.ListPartyInvitesRequest, mm.ListPartyInvitesResponse)

LIST_LEADERBOARD = Unary(_RATING + "ListLeaderboard", mm.ListLeaderboardRequest, mm.ListLeaderboardResponse)
GET_RATING = Unary(_RATING + "GetRating", mm.GetRatingRequest, mm.GetRatingResponse)
LIST_RATING_HISTORY = Unary(_RATING + "ListRatingHistory", mm.ListRatingHistoryRequest, mm.ListRatingHistoryResponse)

_CATALOG = "/flotilla.api.catalog.v1.CatalogService/"
LIST_GAME_KINDS = Unary(_CATALOG + "ListGameKinds", cat.ListGameKindsRequest, cat.ListGameKindsResponse)
GET_CATALOG = Unary(_CATALOG + "GetCatalog", cat.GetCatalogRequest, cat.GetCatalogResponse)
