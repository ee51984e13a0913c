"""MatchmakingService and RatingService: authenticate, convert, delegate to `lobby.tickets` / `lobby.ratings`."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2_grpc as pb_grpc
from flotilla.app import inputs
from flotilla.app.errors import InvalidRequest
from flotilla.app.games import check_request_id
from flotilla.app.host import host_for
from flotilla.gateway.auth import Principal, Tokens
from flotilla.gateway.errors import maps_errors, maps_stream_errors
from flotilla.gateway.game_servicer import MAX_PAGE
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.lobby_servicer import principal
from flotilla.lobby.ratings import Rating, Ratings
from flotilla.lobby.tickets import (
    CANCELLED,
    CLAIMED,
    EXPIRED,
    MATCHED,
    MAX_PARTY,
    SEARCHING,
    Tickets,
    parse_ticket_name,
    ticket_name,
)
from flotilla.store.lobby_store import StoredTicket

log = structlog.get_logger("flotilla.gateway")

Context = grpc.aio.ServicerContext[Any, Any]
STATES = {
    SEARCHING: pb.TICKET_STATE_SEARCHING,
    CLAIMED: pb.TICKET_STATE_SEARCHING,
    MATCHED: pb.TICKET_STATE_MATCHED,
    EXPIRED: pb.TICKET_STATE_EXPIRED,
    CANCELLED: pb.TICKET_STATE_CANCELLED,
}
_USER = re.compile(r"^users/([0-9a-zA-Z_-]{1,64})$")


def _page(size: int, token: str) -> tuple[int, int]:
    size = size or 50
    if not 0 < size <= MAX_PAGE:
        raise InvalidRequest(f"page_size must be 1..{MAX_PAGE}", field="page_size")
    return size, inputs.page_number(token) or 0


class MatchmakingServicer(pb_grpc.MatchmakingServiceServicer):
    """The matchmaking API of one gateway process."""

    def __init__(self, tickets: Tickets, tokens: Tokens, limits: CallLimits) -> None:
        self.tickets = tickets
        self.tokens = tokens
        self.limits = limits

    def render(self, queue: str, ticket: StoredTicket, who: Principal) -> pb.Ticket:
        data = ticket.data
        out = pb.Ticket(
            name=ticket_name(queue, ticket.ticket_id),
            kind=data["kind"],
            options=data["options"],
            seat_counts=data["seat_counts"],
            party=[f"users/{m['user']}" for m in data["party"]],
            state=STATES.get(ticket.state, pb.TICKET_STATE_UNSPECIFIED),
            rating=data["rating"],
        )
        out.create_time.FromMilliseconds(data["enqueued_ms"])
        if ticket.state == MATCHED and ticket.seats is not None and who.user in ticket.seats:
            seat = ticket.seats[who.user]
            out.game = f"games/{ticket.game}"
            out.seat = seat
            out.seat_token = self.tokens.seat(ticket.game, seat, who.user, who.name)
        return out

    @maps_errors
    async def CreateTicket(self, request: pb.CreateTicketRequest, context: Context) -> pb.CreateTicketResponse:
        who = principal(self.tokens, context)
        if len(request.party) > MAX_PARTY:
            raise InvalidRequest(f"a party has at most {MAX_PARTY} members", field="party")
        await self.limits.check("ticket", context, who.user)
        queue, ticket = await self.tickets.create(
            who.user,
            who.name,
            request.kind,
            inputs.options(request.options),
            list(request.seat_counts),
            list(request.party),
            check_request_id(request.request_id),
        )
        log.info("ticket.created", ticket=ticket.ticket_id, queue=queue)
        return pb.CreateTicketResponse(ticket=self.render(queue, ticket, who))

    @maps_errors
    async def GetTicket(self, request: pb.GetTicketRequest, context: Context) -> pb.GetTicketResponse:
        who = principal(self.tokens, context)
        queue, ticket_id = parse_ticket_name(request.ticket)
        return pb.GetTicketResponse(ticket=self.render(queue, await self.tickets.get(queue, ticket_id, who.user), who))

    @maps_errors
    async def CancelTicket(self, request: pb.CancelTicketRequest, context: Context) -> pb.CancelTicketResponse:
        who = principal(self.tokens, context)
        queue, ticket_id = parse_ticket_name(request.ticket)
        ticket = await self.tickets.cancel(queue, ticket_id, who.user)
        return pb.CancelTicketResponse(ticket=self.render(queue, ticket, who))

    @maps_stream_errors
    async def WatchTicket(
        self, request: pb.WatchTicketRequest, context: Context
    ) -> AsyncIterator[pb.WatchTicketResponse]:
        who = principal(self.tokens, context)
        queue, ticket_id = parse_ticket_name(request.ticket)
        async with self.limits.stream(context, who.user):
            async for ticket in self.tickets.watch(queue, ticket_id, who.user):
                if ticket is None:
                    yield pb.WatchTicketResponse(is_checkpoint=True)
                else:
                    yield pb.WatchTicketResponse(ticket=self.render(queue, ticket, who))


def _rating(user: str, name: str, rating: Rating, rank: int = 0) -> pb.PlayerRating:
    return pb.PlayerRating(
        user=f"users/{user}",
        display_name=name,
        mu=rating.mu,
        sigma=rating.sigma,
        ordinal=rating.ordinal,
        games=rating.games,
        rank=rank,
    )


class RatingServicer(pb_grpc.RatingServiceServicer):
    """Leaderboards and rating histories."""

    def __init__(self, ratings: Ratings, tokens: Tokens) -> None:
        self.ratings = ratings
        self.tokens = tokens

    def _user(self, name: str, context: Context) -> str:
        if not name:
            return principal(self.tokens, context).user
        match = _USER.match(name)
        if match is None:
            raise InvalidRequest("user must look like users/<id>", field="user")
        return match.group(1)

    @maps_errors
    async def ListLeaderboard(self, request: pb.ListLeaderboardRequest, context: Context) -> pb.ListLeaderboardResponse:
        host_for(request.kind)
        size, offset = _page(request.page_size, request.page_token)
        rows = await self.ratings.leaderboard(request.kind, offset, size)
        return pb.ListLeaderboardResponse(
            ratings=[_rating(u, n, r, offset + i + 1) for i, (u, n, r) in enumerate(rows)],
            next_page_token=str(offset + size) if len(rows) == size else "",
        )

    @maps_errors
    async def GetRating(self, request: pb.GetRatingRequest, context: Context) -> pb.GetRatingResponse:
        host_for(request.kind)
        user = self._user(request.user, context)
        rating = await self.ratings.rating(request.kind, user)
        names = await self.ratings.store.user_names([user])
        return pb.GetRatingResponse(rating=_rating(user, names[0], rating))

    @maps_errors
    async def ListRatingHistory(
        self, request: pb.ListRatingHistoryRequest, context: Context
    ) -> pb.ListRatingHistoryResponse:
        host_for(request.kind)
        user = self._user(request.user, context)
        size, offset = _page(request.page_size, request.page_token)
        rows = await self.ratings.history(request.kind, user, offset, size)
        changes = []
        for r in rows:
            change = pb.RatingChange(
                game=f"games/{r['game']}", rank=r["rank"], mu=r["mu"], sigma=r["sigma"], ordinal=r["ordinal"]
            )
            change.rate_time.FromMilliseconds(r["time_ms"])
            changes.append(change)
        return pb.ListRatingHistoryResponse(
            changes=changes,
            next_page_token=str(offset + size) if len(rows) == size else "",
        )
