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
    """Python value -> message. Per (class, descriptor) one generated function returns the message's
    constructor keywords (nested dicts and lists, None for an unset field), so a whole message is
    built by one constructor call; generated like the codec's encoders, from field names that are
    identifiers, never from data."""

    def __init__(self) -> None:
        self._fns: dict[tuple[type, Any], Callable[[Any], dict[str, Any]]] = {}

    def message(self, new: Any, value: Any) -> Message:
        """`value` (a dataclass) as the message `new` builds (a direct mirror or a union wrapper)."""
        msg: Message = new(**self.kwargs(value, new.DESCRIPTOR))
        return msg

    def kwargs(self, value: Any, descriptor: Any) -> dict[str, Any]:
        """The constructor keywords of `descriptor`'s message for `value`."""
        fn = self._fns.get((type(value), descriptor)) or self._compile(type(value), descriptor)
        return fn(value)

    def _compile(self, cls: type, descriptor: Any) -> Callable[[Any], dict[str, Any]]:
        cases = _union_cases(descriptor)
        fn: Callable[[Any], dict[str, Any]]
        if cases is not None:
            case = snake(cls.__name__)
            if case not in cases:
                msg_text = f"{descriptor.full_name} has no case {case!r}"
                raise TypeError(msg_text)
            inner, kwargs = descriptor.fields_by_name[case].message_type, self.kwargs

            def fn(value: Any) -> dict[str, Any]:
                return {case: kwargs(value, inner)}

        else:
            scope: dict[str, Any] = {"_sub": self.kwargs, "_fs": frozenset, "_sorted": sorted}
            items = [
                f"{name!r}: {self._field(i, name, descriptor, cls, scope)}" for i, name in enumerate(_field_names(cls))
            ]
            reads = "".join(f"    x{i} = value.{name}\n" for i, name in enumerate(_field_names(cls)))
            exec(f"def encode(value):\n{reads}    return {{{', '.join(items)}}}\n", scope)
            fn = scope["encode"]
        self._fns[(cls, descriptor)] = fn
        return fn

    @staticmethod
    def _field(i: int, name: str, descriptor: Any, cls: type, scope: dict[str, Any]) -> str:
        """The expression of field `name` (read into `x<i>`): None stays None (the field unset)."""
        fd = descriptor.fields_by_name.get(name)
        if fd is None:
            msg = f"{descriptor.full_name} has no field {name!r} for {cls.__qualname__}"
            raise TypeError(msg)
        if fd.message_type is not None:
            scope[f"d{i}"] = fd.message_type
            one = f"_sub({{}}, d{i})"
        elif fd.enum_type is not None:
            scope[f"e{i}"] = _enum_numbers(fd)
            one = f"e{i}({{}})"
        else:
            one = "{}"
        if _is_repeated(fd):
            items = f"(_sorted(x{i}) if isinstance(x{i}, _fs) else x{i})"
            whole = items if one == "{}" else f"[{one.format('e')} for e in {items}]"
        else:
            whole = one.format(f"x{i}")
        return f"x{i}" if whole == f"x{i}" else f"(None if x{i} is None else {whole})"


def _enum_numbers(fd: Any) -> Callable[[Any], Any]:
    """An enum field's value: a member's number in the proto enum (by the prefixed name), else as is."""
    numbers: dict[type, dict[Any, int]] = {}

    def number(value: Any) -> Any:
        if not isinstance(value, enum.Enum):
            return value
        by = numbers.setdefault(type(value), {})
        found = by.get(value)
        if found is None:
            found = by[value] = fd.enum_type.values_by_name[enum_prefix(type(value)) + value.name].number
        return found

    return number


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
        return _ENCODER.message(self.Action, action)

    def action_fields(self, action: Any) -> dict[str, Any]:
        """A game action as the constructor keywords of the game's `Action` message (what a message
        holding one, e.g. the envelope's game case, is built from without building this one first)."""
        return _ENCODER.kwargs(action, self.Action.DESCRIPTOR)  # type: ignore[attr-defined]

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
        return _ENCODER.message(self.Event, event)

    def event_fields(self, event: Any) -> dict[str, Any]:
        """A rules event as the constructor keywords of the game's `Event` message (what the
        `GameEvent` holding it is built from in one call, like `action_fields`)."""
        return _ENCODER.kwargs(event, self.Event.DESCRIPTOR)  # type: ignore[attr-defined]

    def view_to_pb(self, view: Any) -> Message:
        """A rules view as the game's `View` message."""
        return _ENCODER.message(self.View, view)

    def view_from_pb(self, msg: Message) -> Any:
        """The game's `View` message as the rules view (what a bot over RPC rebuilds worlds from,
        `GameRules.from_view`); InvalidAction when malformed."""
        return _DECODER.read(msg, self.rules.view_type, "view")
