"""Builds the wire messages a viewer receives: games, views, prompts and redacted events.

Rendered events are cached per (game, lineage of the commit, event id, viewer), so a game
with many watchers on one gateway decodes each event once, redacts it once per distinct viewer,
and converts and describes it once per distinct redaction (viewers who see the same thing share
one message); an event id that a rewound history reused is never served from the cache. Texts
of actions and events are cached per value (the same action recurs in prompts).
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Mapping, Sequence
from typing import Any

from google.protobuf.timestamp_pb2 import Timestamp

from flotilla.api.game.v1 import game_pb2, game_service_pb2
from flotilla.app import clocks
from flotilla.app.errors import InvalidRequest
from flotilla.app.host import AnyRules, GameHost
from flotilla.app.host_events import ABSENT, FINISHED, RULES_EVENT, STARTED, TIMED_OUT
from flotilla.app.lineage import etag
from flotilla.app.watching import RESUME_POINT_UNKNOWN, REWOUND, Batch, PlainPrompt
from flotilla.convert import GameConverter
from flotilla.gateway.user_kinds import user_kind
from flotilla.records import EventRow
from flotilla.rules import InvalidAction, Seat
from flotilla.rules.describe import Text, describe_action, describe_event, number, text
from flotilla.store.meta import GameMeta

_CACHE_SIZE = 20_000
_TEXT_CACHE_SIZE = 8192
_STATE = {
    "waiting": game_pb2.GAME_STATE_WAITING,
    "active": game_pb2.GAME_STATE_ACTIVE,
    "finished": game_pb2.GAME_STATE_FINISHED,
    "abandoned": game_pb2.GAME_STATE_ABANDONED,
}
STATE_NAMES = {v: k for k, v in _STATE.items()}
_RESYNC = {
    REWOUND: game_service_pb2.RESYNC_REASON_HISTORY_REWOUND,
    RESUME_POINT_UNKNOWN: game_service_pb2.RESYNC_REASON_RESUME_POINT_UNKNOWN,
}


def _timestamp(ms: int) -> Timestamp:
    ts = Timestamp()
    ts.FromMilliseconds(ms)
    return ts


POLICY_PB = {
    clocks.BOT: game_pb2.ABSENCE_POLICY_BOT,
    clocks.ABORT: game_pb2.ABSENCE_POLICY_ABORT,
    clocks.FORFEIT: game_pb2.ABSENCE_POLICY_FORFEIT,
}
POLICY_OF_PB = {v: k for k, v in POLICY_PB.items()} | {game_pb2.ABSENCE_POLICY_UNSPECIFIED: clocks.BOT}


def clock_pb(config: clocks.ClockConfig) -> game_pb2.Clock:
    return game_pb2.Clock(
        turn_seconds=config.turn_ms // 1000,
        bank_seconds=config.bank_ms // 1000,
        increment_seconds=config.increment_ms // 1000,
        max_timeouts=config.max_timeouts,
        absence_policy=POLICY_PB[config.policy],
    )


def clock_from_pb(msg: game_pb2.Clock) -> clocks.ClockConfig:
    """A clock from a request; InvalidRequest on values a client could fix."""
    day = 24 * 3600
    for name in ("turn_seconds", "bank_seconds", "increment_seconds"):
        value = getattr(msg, name)
        if not 0 <= value <= day:
            raise InvalidRequest(f"clock.{name} must be 0..{day}", field=f"clock.{name}")
    if msg.turn_seconds and msg.bank_seconds:
        raise InvalidRequest("set clock.turn_seconds or clock.bank_seconds, not both", field="clock")
    if not 0 <= msg.max_timeouts <= 100:
        raise InvalidRequest("clock.max_timeouts must be 0..100 (0: the default, 3)", field="clock.max_timeouts")
    policy = POLICY_OF_PB.get(msg.absence_policy)
    if policy is None:
        raise InvalidRequest("clock.absence_policy is not a known AbsencePolicy", field="clock.absence_policy")
    return clocks.ClockConfig(
        turn_ms=msg.turn_seconds * 1000,
        bank_ms=msg.bank_seconds * 1000,
        increment_ms=msg.increment_seconds * 1000,
        max_timeouts=msg.max_timeouts or clocks.DEFAULT_MAX_TIMEOUTS,
        policy=policy,
    )


def text_pb(value: Text) -> game_pb2.Text:
    """A text as its wire message."""
    return game_pb2.Text(label=value.label, message_key=value.key, args=dict(value.args))


_HIDDEN_TEXT = text("game.event.hidden", "hidden event")
_HIDDEN = (_HIDDEN_TEXT.label, text_pb(_HIDDEN_TEXT))


def result_pb(raw: Mapping[str, Any]) -> game_pb2.Result:
    return game_pb2.Result(
        scores=raw["scores"], winners=raw["winners"], ranks=raw["ranks"], detail=raw.get("detail", {})
    )


class Renderer:
    """Wire messages for one gateway process (holds converters and the event cache)."""

    def __init__(self) -> None:
        self._converters: dict[tuple[str, str], GameConverter] = {}
        self._events: OrderedDict[tuple[str, str, int, int], game_pb2.GameEvent] = OrderedDict()
        self._rows: OrderedDict[tuple[str, str, int], tuple[Any, list[tuple[Any, game_pb2.GameEvent]]]] = OrderedDict()
        self._texts: OrderedDict[tuple[str, Any], tuple[str, game_pb2.Text]] = OrderedDict()

    def text(self, rules: AnyRules, value: Any, *, action: bool) -> tuple[str, game_pb2.Text]:
        """The label and wire text of a rules action or (redacted) event, cached per value: the
        same action recurs in prompts, the same event for every viewer it is not redacted for."""
        key = (rules.name, value)
        hit = self._texts.get(key)
        if hit is None:
            described = (describe_action if action else describe_event)(rules.describer, rules.name, value)
            hit = self._texts[key] = (described.label, text_pb(described))
            if len(self._texts) > _TEXT_CACHE_SIZE:
                self._texts.popitem(last=False)
        return hit

    def converter(self, host: GameHost) -> GameConverter:
        key = (host.rules.name, host.rules.version)  # versions may differ in their actions and events
        conv = self._converters.get(key)
        if conv is None:
            conv = self._converters[key] = GameConverter(host.rules)
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

    def prompt(
        self, host: GameHost, seat: Seat, actions: Sequence[Any], version: int, lineage: str, default: int | None = None
    ) -> game_pb2.Prompt:
        """`seat`'s prompt; `default`: the index in `actions` of the game's default action."""
        rules, conv = host.rules, self.converter(host)
        return game_pb2.Prompt(
            seat=seat,
            etag=etag(version, lineage),
            legal_actions=[{rules.name: conv.action_fields(a)} for a in actions],  # built in one call
            legal_action_texts=[self.text(rules, a, action=True)[1] for a in actions],
            default_action_index=default,
        )

    def batch_prompt(self, batch: Batch, viewer: Seat | None) -> game_pb2.Prompt | None:
        """The viewer's prompt in `batch`, if it has one."""
        prompt = batch.prompt
        if prompt is None or viewer is None:
            return None
        if isinstance(prompt, PlainPrompt):
            prompt = [batch.host.codec.from_plain(a) for a in prompt.actions]
        return self.prompt(batch.host, viewer, prompt, batch.version, batch.lineage, batch.default)

    # --- events ------------------------------------------------------------------------
    def event(
        self, game_id: str, host: GameHost, row: EventRow, viewer: Seat | None, lineage: str
    ) -> game_pb2.GameEvent:
        """One stored event row (of the commit `lineage`) as `viewer` may see it (a bare
        placeholder when hidden from them)."""
        event_id, tag = row.event_id, row.tag
        key = (game_id, lineage, event_id, -1 if viewer is None else viewer)
        if key in self._events:
            return self._events[key]
        if tag == RULES_EVENT:
            msg = self._rules_event(host, row, viewer, (game_id, lineage, event_id))
        else:
            msg = self._host_event(row)
        self._events[key] = msg
        if len(self._events) > _CACHE_SIZE:
            self._events.popitem(last=False)
        return msg

    def _rules_event(
        self, host: GameHost, row: EventRow, viewer: Seat | None, row_key: tuple[str, str, int]
    ) -> game_pb2.GameEvent:
        """A rules event as `viewer` may see it: decoded once per row, and rendered once per
        distinct redaction (the viewers who see the same thing share one message)."""
        entry = self._rows.get(row_key)
        if entry is None:
            entry = self._rows[row_key] = (host.codec.from_plain(row.payload), [])
            if len(self._rows) > _CACHE_SIZE:
                self._rows.popitem(last=False)
        value, rendered = entry
        rules = host.rules
        shown = rules.redact(value, viewer)
        for seen, earlier in rendered:
            if seen == shown:
                return earlier
        ms = row.time_ms
        when = {"seconds": ms // 1000, "nanos": ms % 1000 * 1_000_000}  # as Timestamp.FromMilliseconds
        if shown is None:  # hidden from this viewer: an empty placeholder keeps the ids gapless
            summary, wire = _HIDDEN
            msg = game_pb2.GameEvent(event_id=row.event_id, event_time=when, summary=summary, text=wire)
        else:  # built in one constructor call (the game's event as keywords, not a message copied in)
            summary, wire = self.text(rules, shown, action=False)
            fields = {rules.name: self.converter(host).event_fields(shown)}
            msg = game_pb2.GameEvent(event_id=row.event_id, event_time=when, summary=summary, text=wire, **fields)
        rendered.append((shown, msg))
        return msg

    def _host_event(self, row: EventRow) -> game_pb2.GameEvent:
        """An event of the host (started, finished, timed out, absent, aborted)."""
        tag, payload = row.tag, row.payload
        msg = game_pb2.GameEvent(event_id=row.event_id, event_time=_timestamp(row.time_ms))
        described: Text
        if tag == STARTED:
            described = text(
                "game.event.game_started", "The game starts with {seat_count} seats", seat_count=payload["seat_count"]
            )
            msg.game_started.CopyFrom(game_pb2.GameStarted(**payload))
        elif tag == FINISHED:
            described = text("game.event.game_finished", "The game is over")
            msg.game_finished.CopyFrom(game_pb2.GameFinished(result=result_pb(payload["result"]), seed=payload["seed"]))
        elif tag == TIMED_OUT:
            described = text(
                "game.event.seat_timed_out",
                "Seat {seat_number} timed out ({consecutive} in a row)",
                seat_number=number(payload["seat"]),
                **payload,
            )
            msg.seat_timed_out.CopyFrom(game_pb2.SeatTimedOut(**payload))
        elif tag == ABSENT:
            described = text(
                "game.event.seat_absent",
                "Seat {seat_number} is absent ({reason}): {policy}",
                seat=payload["seat"],
                seat_number=number(payload["seat"]),
                reason=payload["reason"],
                policy=payload["policy"],
            )
            msg.seat_absent.CopyFrom(
                game_pb2.SeatAbsent(seat=payload["seat"], reason=payload["reason"], policy=POLICY_PB[payload["policy"]])
            )
        else:
            described = text("game.event.game_aborted", "The game is aborted: {reason}", reason=payload["reason"])
            msg.game_aborted.CopyFrom(game_pb2.GameAborted(reason=payload["reason"]))
        msg.summary = described.label
        msg.text.CopyFrom(text_pb(described))
        return msg

    def events(
        self, game_id: str, host: GameHost, rows: Sequence[EventRow], viewer: Seat | None, lineages: Sequence[str]
    ) -> list[Any]:
        """Rows with the lineage of each one's commit (one for all: a sequence of one)."""
        if len(lineages) == 1 and len(rows) != 1:
            lineages = [lineages[0]] * len(rows)
        return [self.event(game_id, host, row, viewer, lin) for row, lin in zip(rows, lineages, strict=True)]

    # --- views and batches -------------------------------------------------------------
    def view(self, game_id: str, batch: Batch, viewer: Seat | None) -> game_pb2.GameView:
        msg = game_pb2.GameView(
            game=f"games/{game_id}",
            etag=etag(batch.version, batch.lineage),
            through_event_id=batch.version,
            to_act=batch.to_act,
        )
        if viewer is not None:
            msg.viewer_seat = viewer
        getattr(msg, batch.host.rules.name).CopyFrom(self.converter(batch.host).view_to_pb(batch.view))
        return msg

    def watch_response(self, game_id: str, batch: Batch, viewer: Seat | None) -> game_service_pb2.WatchGameResponse:
        msg = game_service_pb2.WatchGameResponse(
            through_event_id=batch.version, etag=etag(batch.version, batch.lineage)
        )
        if batch.view is not None:
            msg.view.CopyFrom(self.view(game_id, batch, viewer))
            msg.resync_reason = _RESYNC.get(batch.resync, game_service_pb2.RESYNC_REASON_UNSPECIFIED)
        elif batch.events:
            msg.events.extend(self.events(game_id, batch.host, batch.events, viewer, batch.lineages))
        else:
            msg.is_checkpoint = True
        if (prompt := self.batch_prompt(batch, viewer)) is not None:
            msg.prompt.CopyFrom(prompt)
        return msg

    # --- games -------------------------------------------------------------------------
    def game(self, meta: GameMeta, seats: Mapping[int, Mapping[str, str]]) -> game_pb2.Game:
        msg = game_pb2.Game(
            name=f"games/{meta.game_id}",
            kind=meta.kind,
            seat_count=meta.seat_count,
            options=meta.options,
            state=_STATE.get(meta.status, game_pb2.GAME_STATE_UNSPECIFIED),
            etag=etag(meta.version, meta.head),
            rules_version=meta.rules_version,
            create_time=_timestamp(meta.created_ms),
            last_event_id=meta.version,
            to_act=meta.to_act,
            seed_sha256=meta.seed_sha256,
        )
        config = clocks.ClockConfig.from_plain(meta.clock) if meta.clock else None
        if config is not None:
            msg.clock.CopyFrom(clock_pb(config))
        seat_clocks = clocks.load(meta.seatclock, config or clocks.ClockConfig(), meta.seat_count)
        for seat in range(meta.seat_count):
            holder = seats.get(seat)
            clock = seat_clocks[seat]
            info = game_pb2.SeatInfo(
                seat=seat,
                taken=holder is not None,
                display_name=(holder or {}).get("name", ""),
                user=f"users/{holder['user']}" if holder else "",
                user_kind=user_kind(holder["user"], holder.get("kind")) if holder else game_pb2.USER_KIND_UNSPECIFIED,
                bank_ms=clock.bank_ms,
                timeouts=clock.timeouts,
                absent=clock.absent,
                forfeited=clock.forfeited,
            )
            if clock.deadline_ms is not None:
                info.deadline.CopyFrom(_timestamp(clock.deadline_ms))
            msg.seats.append(info)
        if meta.result is not None:
            msg.result.CopyFrom(result_pb(meta.result))
        return msg
