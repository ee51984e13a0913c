"""`run_bot` and the outcomes its Play stream passes on (in process, a scripted stream): an OK outcome
(a submit answered from an earlier attempt of its request id, e.g. resent after a refusal whose
first attempt was applied after all) is a move made, not an error; a refusal other than a lost race
or an absent seat is still raised."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import pytest

from flotilla.api.game.v1 import game_pb2
from flotilla.api.game.v1 import game_service_pb2 as g
from flotilla_client import FlotillaError, Seat, run_bot

SEAT = Seat("games/g1", 0, "seat-token")


class ScriptedPlay:
    """A Play stream that yields `responses` and records what the bot sends."""

    def __init__(self, responses: list[g.PlayResponse]) -> None:
        self.responses = responses
        self.sent: list[tuple[game_pb2.Action, str]] = []

    def __aiter__(self) -> AsyncIterator[g.PlayResponse]:
        return self._iterate()

    async def _iterate(self) -> AsyncIterator[g.PlayResponse]:
        for response in self.responses:
            yield response

    def send(self, action: game_pb2.Action, *, etag: str) -> None:
        self.sent.append((action, etag))

    def cancel(self) -> None:
        pass


class ScriptedClient:
    def __init__(self, stream: ScriptedPlay) -> None:
        self.stream = stream

    def play(self, seat: Seat) -> ScriptedPlay:
        assert seat == SEAT
        return self.stream


def prompted(etag: str) -> g.PlayResponse:
    """An update with the seat's view and a prompt of one legal action, both at `etag`."""
    update = g.WatchGameResponse(etag=etag, view=game_pb2.GameView(etag=etag))
    update.prompt.etag = etag
    update.prompt.legal_actions.add().counter.SetInParent()
    return g.PlayResponse(update=update)


def outcome(code: int, reason: str = "") -> g.PlayResponse:
    answer = g.PlayResponse(outcome=g.ActionOutcome(request_id="r1", etag="v2" if code == 0 else ""))
    answer.outcome.status.code = code
    if reason:
        answer.outcome.status.message = reason
    return answer


def first_action(_view: game_pb2.GameView, prompt: game_pb2.Prompt) -> game_pb2.Action:
    return prompt.legal_actions[0]


async def test_an_ok_outcome_is_a_move_made_and_the_bot_plays_on() -> None:
    stream = ScriptedPlay([prompted("v1"), outcome(0), prompted("v2")])
    client: Any = ScriptedClient(stream)
    played = await run_bot(client, SEAT, first_action)
    assert played.decisions == 2
    assert [etag for _, etag in stream.sent] == ["v1", "v2"]
    assert not played.absent


async def test_any_other_refusal_is_still_raised() -> None:
    stream = ScriptedPlay([prompted("v1"), outcome(13, "internal")])  # INTERNAL: neither a lost race nor absent
    client: Any = ScriptedClient(stream)
    with pytest.raises(FlotillaError):
        await run_bot(client, SEAT, first_action)
