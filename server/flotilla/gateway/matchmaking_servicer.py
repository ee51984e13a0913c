"""MatchmakingService and RatingService: authenticate, convert, delegate to `lobby.tickets` / `lobby.ratings`."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from typing import Any

import grpc
import structlog

from flotilla.api.matchmaking.v1 import matchmaking_service_pb2 as pb
from flotilla.api.matchmaking.v1 import matchmaking_service_pb2_grpc as pb_grpc
from flotilla.app import inputs, listing
from flotilla.app.errors import InvalidRequest
from flotilla.app.games import check_request_id
from flotilla.gateway.auth import Principal, Tokens
from flotilla.gateway.errors import maps_errors, maps_stream_errors
from flotilla.gateway.limiting import CallLimits
from flotilla.gateway.lobby_servicer import principal
from flotilla.gateway.user_kinds import user_kind
from flotilla.lobby.parties import Invite, Parties
from flotilla.lobby.ratings import Rating, Ratings
from flotilla.lobby.tickets import (
    CANCELLED,
    CLAIMED,
    EXPIRED,
    MATCHED,
    SEARCHING,
    Tickets,
    parse_ticket_name,
    ticket_name,
)
from flotilla.store.lobby_store import StoredTicket
from flotilla.store.party_store import StoredParty

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
    """(page size, offset) of an offset-paged list (app/listing.py)."""
    return listing.page_size(size), inputs.page_number(token) or 0


class MatchmakingServicer(pb_grpc.MatchmakingServiceServicer):
    """The matchmaking API of one gateway process."""

    def __init__(self, tickets: Tickets, tokens: Tokens, limits: CallLimits) -> None:
        self.tickets = tickets
        self.parties: Parties = tickets.parties
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
            party_name=f"parties/{data['party_id']}" if data.get("party_id") else "",
        )
        out.create_time.FromMilliseconds(data["enqueued_ms"])
        if ticket.state == MATCHED and ticket.seats is not None and who.user in ticket.seats:
            seat = ticket.seats[who.user]
            out.game = f"games/{ticket.game}"
            out.seat = seat
            out.seat_token = self.tokens.seat(ticket.game, seat, who.user, who.name, api_key=who.api_key)
        return out

    @maps_errors
    async def CreateTicket(self, request: pb.CreateTicketRequest, context: Context) -> pb.CreateTicketResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("ticket", context, who.user)
        queue, ticket = await self.tickets.create(
            who.user,
            who.name,
            request.kind,
            inputs.options(request.options),
            list(request.seat_counts),
            list(request.party),
            check_request_id(request.request_id),
            request.party_name,
            address=self.limits.address(context),
            bot=who.is_bot_account,
        )
        log.info("ticket.created", ticket=ticket.ticket_id, queue=queue)
        return pb.CreateTicketResponse(ticket=self.render(queue, ticket, who))

    @maps_errors
    async def GetTicket(self, request: pb.GetTicketRequest, context: Context) -> pb.GetTicketResponse:
        who = await principal(self.tokens, context)
        queue, ticket_id = parse_ticket_name(request.ticket)
        return pb.GetTicketResponse(ticket=self.render(queue, await self.tickets.get(queue, ticket_id, who.user), who))

    @maps_errors
    async def CancelTicket(self, request: pb.CancelTicketRequest, context: Context) -> pb.CancelTicketResponse:
        who = await principal(self.tokens, context)
        queue, ticket_id = parse_ticket_name(request.ticket)
        ticket = await self.tickets.cancel(queue, ticket_id, who.user)
        return pb.CancelTicketResponse(ticket=self.render(queue, ticket, who))

    # --- parties -------------------------------------------------------------------------
    @maps_errors
    async def CreateParty(self, request: pb.CreatePartyRequest, context: Context) -> pb.CreatePartyResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("party", context, who.user)
        request_id = check_request_id(request.request_id) if request.request_id else ""
        party = await self.parties.create(who.user, who.name, request_id)
        log.info("party.created", party=party.party_id)
        return pb.CreatePartyResponse(party=_party(party, who.user))

    @maps_errors
    async def GetParty(self, request: pb.GetPartyRequest, context: Context) -> pb.GetPartyResponse:
        who = await principal(self.tokens, context)
        return pb.GetPartyResponse(party=_party(await self.parties.get(request.party, who.user), who.user))

    @maps_errors
    async def InviteToParty(self, request: pb.InviteToPartyRequest, context: Context) -> pb.InviteToPartyResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("party", context, who.user)
        invite = await self.parties.invite(request.party, who.user, request.user)
        return pb.InviteToPartyResponse(invite=_invite(invite))

    @maps_errors
    async def AcceptPartyInvite(
        self, request: pb.AcceptPartyInviteRequest, context: Context
    ) -> pb.AcceptPartyInviteResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("party", context, who.user)
        party = await self.parties.accept(request.party, who.user, who.name)
        return pb.AcceptPartyInviteResponse(party=_party(party, who.user))

    @maps_errors
    async def DeclinePartyInvite(
        self, request: pb.DeclinePartyInviteRequest, context: Context
    ) -> pb.DeclinePartyInviteResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("party", context, who.user)
        await self.parties.decline(request.party, who.user)
        return pb.DeclinePartyInviteResponse()

    @maps_errors
    async def LeaveParty(self, request: pb.LeavePartyRequest, context: Context) -> pb.LeavePartyResponse:
        who = await principal(self.tokens, context)
        await self.limits.check("party", context, who.user)
        await self.tickets.leave_party(request.party, who.user)
        return pb.LeavePartyResponse()

    @maps_errors
    async def ListPartyInvites(
        self, request: pb.ListPartyInvitesRequest, context: Context
    ) -> pb.ListPartyInvitesResponse:
        who = await principal(self.tokens, context)
        return pb.ListPartyInvitesResponse(invites=[_invite(i) for i in await self.parties.invites(who.user)])

    @maps_stream_errors
    async def WatchTicket(
        self, request: pb.WatchTicketRequest, context: Context
    ) -> AsyncIterator[pb.WatchTicketResponse]:
        who = await principal(self.tokens, context)
        queue, ticket_id = parse_ticket_name(request.ticket)
        async with self.limits.stream(context, who.user, bot=who.is_bot_account):
            async for ticket in self.tickets.watch(queue, ticket_id, who.user):
                if ticket is None:
                    yield pb.WatchTicketResponse(is_checkpoint=True)
                else:
                    yield pb.WatchTicketResponse(ticket=self.render(queue, ticket, who))


def _invite(invite: Invite) -> pb.PartyInvite:
    out = pb.PartyInvite(
        party=f"parties/{invite.party_id}", user=f"users/{invite.user}", leader=f"users/{invite.leader}"
    )
    out.expire_time.FromMilliseconds(invite.lapses_ms)
    return out


def _party(party: StoredParty, viewer: str) -> pb.Party:
    """The party as `viewer` may see it: pending invitations only for members."""
    out = pb.Party(
        name=f"parties/{party.party_id}",
        leader=f"users/{party.leader}",
        members=[
            pb.PartyMember(user=f"users/{u}", display_name=n, user_kind=user_kind(u, kind))
            for (u, n), kind in zip(party.members, party.kinds, strict=True)
        ],
    )
    if party.has(viewer):
        out.invites.extend(_invite(Invite(party.party_id, u, party.leader, ms)) for u, ms in party.invites)
    out.expire_time.FromMilliseconds(party.expires_ms)
    return out


def _rating(user: str, named: tuple[str, str], rating: Rating, rank: int = 0) -> pb.PlayerRating:
    """`named`: the user's (display name, kind)."""
    return pb.PlayerRating(
        user=f"users/{user}",
        display_name=named[0],
        user_kind=user_kind(user, named[1]),
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

    async def _user(self, name: str, context: Context) -> str:
        if not name:
            return (await principal(self.tokens, context)).user
        match = _USER.match(name)
        if match is None:
            raise InvalidRequest("user must look like users/<id>", field="user")
        return match.group(1)

    @maps_errors
    async def ListLeaderboard(self, request: pb.ListLeaderboardRequest, context: Context) -> pb.ListLeaderboardResponse:
        size, offset = _page(request.page_size, request.page_token)
        rows = await self.ratings.leaderboard(request.kind, offset, size)
        return pb.ListLeaderboardResponse(
            ratings=[_rating(u, n, r, offset + i + 1) for i, (u, n, r) in enumerate(rows)],
            next_page_token=str(offset + size) if len(rows) == size else "",
        )

    @maps_errors
    async def GetRating(self, request: pb.GetRatingRequest, context: Context) -> pb.GetRatingResponse:
        user = await self._user(request.user, context)
        name, rating = await self.ratings.player(request.kind, user)
        return pb.GetRatingResponse(rating=_rating(user, name, rating))

    @maps_errors
    async def ListRatingHistory(
        self, request: pb.ListRatingHistoryRequest, context: Context
    ) -> pb.ListRatingHistoryResponse:
        user = await self._user(request.user, context)
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
