"""Builds the wire messages a viewer receives: games, views, prompts and redacted events.

Rendered events are cached per (game, event id, viewer), so a game with many watchers on
one gateway decodes, redacts and converts each event once per distinct viewer.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.app.games import Batch
from flotilla.app.host import FINISHED, STARTED, GameHost
from flotilla.gateway.convert import GameConverter, summarize
from flotilla.rules import InvalidAction, Seat
from flotilla.store.redis_store import GameMeta

_CACHE_SIZE = 20_000
_STATE = {
    "waiting": game_pb2.GAME_STATE_WAITING,
    "active": game_pb2.GAME_STATE_ACTIVE,
    "finished": game_pb2.GAME_STATE_FINISHED,
    "abandoned": game_pb2.GAME_STATE_ABANDONED,
}
STATE_NAMES = {v: k for k, v in _STATE.items()}


def _timestamp(ms: int) -> Timestamp:
    ts = Timestamp()
    ts.FromMilliseconds(ms)
    return ts


def result_pb(raw: Mapping[str, Any]) -> game_pb2.Result:
    return game_pb2.Result(
        scores=raw["scores"], winners=raw["winners"], ranks=raw["ranks"], detail=raw.get("detail", {})
    )


class Renderer:
    """Wire messages for one gateway process (holds converters and the event cache)."""

    def __init__(self) -> None:
        self._converters: dict[str, GameConverter] = {}
        self._events: OrderedDict[tuple[str, int, int], game_pb2.GameEvent] = OrderedDict()

    def converter(self, host: GameHost) -> GameConverter:
        conv = self._converters.get(host.rules.name)
        if conv is None:
            conv = self._converters[host.rules.name] = GameConverter(host.rules)
        return conv

    # --- actions -----------------------------------------------------------------------
    def action_from_pb(self, host: GameHost, envelope: game_pb2.Action) -> Any:
        """The rules action in an envelope; InvalidAction when it is empty or for another game."""
        case = envelope.WhichOneof("game")
        if case is None:
            raise InvalidAction("the action is empty: set the oneof case named after the game", game=host.rules.name)
        if case != host.rules.name:
            raise InvalidAction(f"a {case} action was sent to a {host.rules.name} game", game=host.rules.name)
        return self.converter(host).action_from_pb(getattr(envelope, case))

    def action_to_pb(self, host: GameHost, action: Any) -> game_pb2.Action:
        envelope = game_pb2.Action()
        getattr(envelope, host.rules.name).CopyFrom(self.converter(host).action_to_pb(action))
        return envelope

    def prompt(self, host: GameHost, seat: Seat, actions: Sequence[Any], version: int) -> game_pb2.Prompt:
        return game_pb2.Prompt(
            seat=seat, etag=str(version), legal_actions=[self.action_to_pb(host, a) for a in actions]
        )

    # --- events ------------------------------------------------------------------------
    def event(self, game_id: str, host: GameHost, row: list[Any], viewer: Seat | None) -> game_pb2.GameEvent:
        """One stored event row as `viewer` may see it (a bare placeholder when hidden from them)."""
        event_id, time_ms, tag, payload = row
        key = (game_id, event_id, -1 if viewer is None else viewer)
        if key in self._events:
            return self._events[key]
        msg: game_pb2.GameEvent
        if tag == STARTED:
            msg = game_pb2.GameEvent(
                event_id=event_id,
                event_time=_timestamp(time_ms),
                summary="game started",
                game_started=game_pb2.GameStarted(**payload),
            )
        elif tag == FINISHED:
            msg = game_pb2.GameEvent(
                event_id=event_id,
                event_time=_timestamp(time_ms),
                summary="game finished",
                game_finished=game_pb2.GameFinished(result=result_pb(payload["result"]), seed=payload["seed"]),
            )
        else:
            shown = host.rules.redact(host.codec.from_plain(payload), viewer)
            if shown is None:  # hidden from this viewer: an empty placeholder keeps the ids gapless
                msg = game_pb2.GameEvent(event_id=event_id, event_time=_timestamp(time_ms), summary="hidden event")
            else:
                msg = game_pb2.GameEvent(event_id=event_id, event_time=_timestamp(time_ms), summary=summarize(shown))
                getattr(msg, host.rules.name).CopyFrom(self.converter(host).event_to_pb(shown))
        self._events[key] = msg
        if len(self._events) > _CACHE_SIZE:
            self._events.popitem(last=False)
        return msg

    def events(self, game_id: str, host: GameHost, rows: Sequence[list[Any]], viewer: Seat | None) -> list[Any]:
        return [self.event(game_id, host, row, viewer) for row in rows]

    # --- views and batches -------------------------------------------------------------
    def view(self, game_id: str, batch: Batch, viewer: Seat | None) -> game_pb2.GameView:
        msg = game_pb2.GameView(
            game=f"games/{game_id}", etag=str(batch.version), through_event_id=batch.version, to_act=batch.to_act
        )
        if viewer is not None:
            msg.viewer_seat = viewer
        getattr(msg, batch.host.rules.name).CopyFrom(self.converter(batch.host).view_to_pb(batch.view))
        return msg

    def watch_response(self, game_id: str, batch: Batch, viewer: Seat | None) -> game_service_pb2.WatchGameResponse:
        msg = game_service_pb2.WatchGameResponse(through_event_id=batch.version)
        if batch.view is not None:
            msg.view.CopyFrom(self.view(game_id, batch, viewer))
        elif batch.events:
            msg.events.extend(self.events(game_id, batch.host, batch.events, viewer))
        else:
            msg.is_checkpoint = True
        if batch.prompt is not None and viewer is not None:
            msg.prompt.CopyFrom(self.prompt(batch.host, viewer, batch.prompt, batch.version))
        return msg

    # --- games -------------------------------------------------------------------------
    def game(self, meta: GameMeta, seats: Mapping[int, Mapping[str, str]]) -> game_pb2.Game:
        msg = game_pb2.Game(
            name=f"games/{meta.game_id}",
            kind=meta.kind,
            seat_count=meta.seat_count,
            options=meta.options,
            state=_STATE.get(meta.status, game_pb2.GAME_STATE_UNSPECIFIED),
            etag=str(meta.version),
            rules_version=meta.rules_version,
            create_time=_timestamp(meta.created_ms),
            last_event_id=meta.version,
            to_act=meta.to_act,
            seed_sha256=meta.seed_sha256,
        )
        for seat in range(meta.seat_count):
            holder = seats.get(seat)
            msg.seats.append(
                game_pb2.SeatInfo(
                    seat=seat,
                    taken=holder is not None,
                    display_name=(holder or {}).get("name", ""),
                    user=f"users/{holder['user']}" if holder else "",
                )
            )
        if meta.result is not None:
            msg.result.CopyFrom(result_pb(meta.result))
        return msg
