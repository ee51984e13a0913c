"""Generic conversion between rules dataclasses and protobuf messages (docs/wire.md).

A game's proto mirrors its dataclasses field by field, so one reflective converter serves
every game: it walks the message descriptor and the Python value together. Conversion
plans are cached per (class, descriptor), so the per-message cost is attribute access.

It sits below the wire edge, outside the layers (it imports only `flotilla.rules` and, by name,
each game's generated module): the gateway renders with it, and remote bots (run by the
matchmaker), `flotilla.verify` and `flotilla.openspiel` decode views and actions with it.
"""

from __future__ import annotations

import dataclasses
import enum
import importlib
import re
import types
import typing
from collections.abc import Callable
from functools import cache
from typing import Any, Union

from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from flotilla.rules import GameRules, InvalidAction

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")


@cache
def snake(name: str) -> str:
    """`PlaceCrate` -> `place_crate` (oneof case names)."""
    return _CAMEL.sub("_", name).lower()


@cache
def enum_prefix(cls: type) -> str:
    """`SlotName` -> `SLOT_NAME_` (proto enum value prefix)."""
    return snake(cls.__name__).upper() + "_"


def _is_repeated(fd: Any) -> bool:
    return bool(fd.is_repeated) if hasattr(fd, "is_repeated") else fd.label == FieldDescriptor.LABEL_REPEATED


@cache
def _union_cases(descriptor: Any) -> frozenset[str] | None:
    """The case names if `descriptor` is a union wrapper (one oneof `kind` holding every field)."""
    oneof = descriptor.oneofs_by_name.get("kind")
    if oneof is None or len(oneof.fields) != len(descriptor.fields):
        return None
    return frozenset(f.name for f in oneof.fields)


@cache
def _strip_optional(hint: Any) -> tuple[Any, bool]:
    if typing.get_origin(hint) is Union or isinstance(hint, types.UnionType):
        args = [a for a in typing.get_args(hint) if a is not type(None)]
        optional = len(args) < len(typing.get_args(hint))
        if len(args) == 1:
            return args[0], optional
        return Union[tuple(args)], optional  # noqa: UP007 - built at run time
    return hint, False


@cache
def _base(hint: Any) -> Any:
    while hasattr(hint, "__supertype__"):  # typing.NewType such as Seat
        hint = hint.__supertype__
    return hint


@cache
def _hints(cls: Any) -> dict[str, Any]:
    return typing.get_type_hints(cls)


@cache
def _field_names(cls: Any) -> tuple[str, ...]:
    return tuple(f.name for f in dataclasses.fields(cls))


class _Encoder:
    """Python value -> message, with plans cached per (class, descriptor)."""

    def __init__(self) -> None:
        self._plans: dict[tuple[type, Any], list[tuple[str, Any]]] = {}

    def plan(self, cls: type, descriptor: Any) -> list[tuple[str, Any]]:
        key = (cls, descriptor)
        plan = self._plans.get(key)
        if plan is None:
            plan = []
            for name in _field_names(cls):
                fd = descriptor.fields_by_name.get(name)
                if fd is None:
                    msg = f"{descriptor.full_name} has no field {name!r} for {cls.__qualname__}"
                    raise TypeError(msg)
                plan.append((name, fd))
            self._plans[key] = plan
        return plan

    def fill(self, msg: Message, value: Any) -> None:
        """Write dataclass `value` into `msg` (a direct mirror or a union wrapper)."""
        descriptor = msg.DESCRIPTOR
        cases = _union_cases(descriptor)
        if cases is not None:
            case = snake(type(value).__name__)
            if case not in cases:
                msg_text = f"{descriptor.full_name} has no case {case!r}"
                raise TypeError(msg_text)
            inner = getattr(msg, case)
            inner.SetInParent()
            self.fill(inner, value)
            return
        for name, fd in self.plan(type(value), descriptor):
            item = getattr(value, name)
            if item is None:
                continue
            if _is_repeated(fd):
                items = sorted(item) if isinstance(item, frozenset) else item
                target = getattr(msg, name)
                if fd.message_type is not None:
                    for element in items:
                        self.fill(target.add(), element)
                else:
                    target.extend([self.scalar(fd, x) for x in items])
            elif fd.message_type is not None:
                sub = getattr(msg, name)
                sub.SetInParent()
                self.fill(sub, item)
            else:
                setattr(msg, name, self.scalar(fd, item))

    @staticmethod
    def scalar(fd: Any, value: Any) -> Any:
        if isinstance(value, enum.Enum):
            return fd.enum_type.values_by_name[enum_prefix(type(value)) + value.name].number
        return value


class _Decoder:
    """Message -> Python value, typed by the dataclass hints; InvalidAction on bad input."""

    def read(self, msg: Message, cls: type, path: str) -> Any:
        hints = _hints(cls)
        kwargs: dict[str, Any] = {}
        for name in _field_names(cls):
            fd = msg.DESCRIPTOR.fields_by_name[name]
            kwargs[name] = self.value(msg, fd, hints[name], f"{path}.{name}")
        try:
            return cls(**kwargs)
        except InvalidAction:
            raise
        except (TypeError, ValueError) as exc:
            raise InvalidAction(f"{path}: {exc}", field=path) from None

    def value(self, msg: Message, fd: Any, hint: Any, path: str) -> Any:
        hint, optional = _strip_optional(hint)
        if optional and not _is_repeated(fd) and fd.has_presence and not msg.HasField(fd.name):
            return None
        raw = getattr(msg, fd.name)
        origin = typing.get_origin(hint)
        if origin in (tuple, frozenset):
            args = [a for a in typing.get_args(hint) if a is not Ellipsis]
            element = args[0] if args else Any
            items = [self.element(x, fd, element, f"{path}[{i}]") for i, x in enumerate(raw)]
            fixed = origin is tuple and Ellipsis not in typing.get_args(hint)
            if fixed and len(items) != len(typing.get_args(hint)):
                msg_text = f"{path} needs {len(typing.get_args(hint))} values, got {len(items)}"
                raise InvalidAction(msg_text, field=path)
            return frozenset(items) if origin is frozenset else tuple(items)
        if fd.message_type is not None and not msg.HasField(fd.name):
            raise InvalidAction(f"{path} is required", field=path)
        return self.element(raw, fd, hint, path)

    def element(self, raw: Any, fd: Any, hint: Any, path: str) -> Any:
        hint = _base(hint)
        if fd.message_type is not None:
            members = typing.get_args(hint) if typing.get_origin(hint) in (Union, types.UnionType) else (hint,)
            if len(members) > 1 or _union_cases(raw.DESCRIPTOR) is not None:
                case = raw.WhichOneof("kind")
                by_case = {snake(m.__name__): m for m in members}
                if case is None or case not in by_case:
                    raise InvalidAction(f"{path} must set one of {sorted(by_case)}", field=path)
                return self.read(getattr(raw, case), by_case[case], f"{path}.{case}")
            return self.read(raw, hint, path)
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            value_descriptor = fd.enum_type.values_by_number.get(raw)
            prefix = enum_prefix(hint)
            name = value_descriptor.name[len(prefix) :] if value_descriptor is not None else ""
            member = hint.__members__.get(name)
            if member is None:
                raise InvalidAction(f"{path}: {raw} is not a valid {hint.__name__}", field=path)
            return member
        if hint is bool or hint is int or hint is str:
            return raw
        return raw


_ENCODER = _Encoder()
_DECODER = _Decoder()


class GameConverter:
    """Converts one game's actions, events and views; finds its `<game>_pb2` module by name."""

    def __init__(self, rules: GameRules[Any, Any, Any, Any, Any]) -> None:
        self.rules = rules
        self.pb = importlib.import_module(f"flotilla.api.{rules.name}.v1.{rules.name}_pb2")
        self._actions: dict[str, type] = {snake(t.__name__): t for t in rules.action_types}
        self.Action: Callable[[], Message] = self.pb.Action
        self.Event: Callable[[], Message] = self.pb.Event
        self.View: Callable[[], Message] = self.pb.View

    def action_to_pb(self, action: Any) -> Message:
        """A game action as the game's `Action` message."""
        msg = self.Action()
        _ENCODER.fill(msg, action)
        return msg

    def action_from_pb(self, msg: Message) -> Any:
        """The game's `Action` message as a rules action; InvalidAction when malformed."""
        case = msg.WhichOneof("kind")
        if case is None:
            raise InvalidAction(f"the {self.rules.name} action sets no move; one of {sorted(self._actions)}")
        cls = self._actions.get(case)
        if cls is None:  # a case newer than these rules
            raise InvalidAction(f"{case!r} is not a {self.rules.name} action", action=case)
        return _DECODER.read(getattr(msg, case), cls, case)

    def event_to_pb(self, event: Any) -> Message:
        """A rules event as the game's `Event` message."""
        msg = self.Event()
        _ENCODER.fill(msg, event)
        return msg

    def view_to_pb(self, view: Any) -> Message:
        """A rules view as the game's `View` message."""
        msg = self.View()
        _ENCODER.fill(msg, view)
        return msg

    def view_from_pb(self, msg: Message) -> Any:
        """The game's `View` message as the rules view (what a bot over RPC rebuilds worlds from,
        `GameRules.from_view`); InvalidAction when malformed."""
        return _DECODER.read(msg, self.rules.view_type, "view")
