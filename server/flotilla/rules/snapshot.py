"""Versioned, compiled snapshots of game states.

A snapshot is the plain list `["~snap", version, flags, layout, body]`:

- `version` is the game's schema version: `SCHEMA_VERSION` in the module that defines its
  state type (1 if it declares none);
- `layout` names the fields of every state dataclass, in order: `"State:config,rng;Rng:seed,counter"`;
- `body` is the state in `Codec` plain form (`{"Tag": [fields...]}`, enums `{"Tag": value}`),
  byte for byte what the generic codec writes, but built and read by per-type functions
  generated once from the type hints.

Decoding takes the compiled path when the snapshot's version and layout are this process's.
Otherwise (an older version, a field added or dropped, or version 0: the untagged plain form
written before snapshots carried a version) it reads the body by field NAME into a tree of
`Record`s, runs the game's `UPCASTERS[v]` for each version v from the snapshot's up to the
current one, fills fields the snapshot lacks from their defaults, and builds the state with
the generic codec. Only types reachable from the state type can be built (a whitelist), and
malformed input raises ValueError or TypeError.
"""

from __future__ import annotations

import dataclasses
import enum
import sys
import types
import typing
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from typing import Any, Union

from flotilla.rules.codec import Codec, reachable_types

MARK = "~snap"
GENERIC = 1  # flags bit: the body was written by the generic codec (an int beyond 64 bits in a tuple)
_INT64 = 1 << 63
_BIG = "~big"


@dataclass(slots=True)
class Record:
    """A dataclass value as a snapshot of some schema version holds it: tag and fields by name.

    Upcasters rename, add, drop and convert fields in `fields` (values are plain forms:
    nested records, lists, scalars, `{"EnumTag": value}`).
    """

    tag: str
    fields: dict[str, Any]


Upcaster = Callable[[Record], Record]
"""Turns the root record of a version-n snapshot into the root record of version n+1."""


def records(tree: Any, tag: str) -> Iterator[Record]:
    """Every record with this tag in a tree (for upcasters that change one record type)."""
    if isinstance(tree, Record):
        if tree.tag == tag:
            yield tree
        for value in tree.fields.values():
            yield from records(value, tag)
    elif isinstance(tree, list):
        for value in tree:
            yield from records(value, tag)
    elif isinstance(tree, dict):
        for value in tree.values():
            yield from records(value, tag)


def _big(value: int) -> Any:
    return {_BIG: str(value)}


def _unbig(value: Any) -> Any:
    return int(value[_BIG]) if type(value) is dict else value


def _is_union(hint: Any) -> bool:
    return typing.get_origin(hint) is Union or isinstance(hint, types.UnionType)


def _plain_scalar(hint: Any) -> bool:
    """Whether values of `hint` are their own plain form (and orjson writes them as they are)."""
    hint = getattr(hint, "__supertype__", hint)
    if hint in (str, bool, float, type(None)):
        return True
    return _is_union(hint) and all(_plain_scalar(a) for a in typing.get_args(hint))


def _int_like(hint: Any) -> bool:
    hint = getattr(hint, "__supertype__", hint)
    if hint is int:
        return True
    args = typing.get_args(hint)
    return _is_union(hint) and all(_int_like(a) or a is type(None) for a in args)


class _Compiler:
    """Generates one encoder and one decoder function per dataclass of a state's type tree."""

    def __init__(self, generic: Codec) -> None:
        self.generic = generic
        self.env: dict[str, Any] = {"_big": _big, "_unbig": _unbig, "_generic": generic, "_new": object.__new__}
        self.env["_setattr"] = object.__setattr__
        self.lines: list[str] = []
        self.names: dict[Any, str] = {}

    def name(self, obj: Any, prefix: str) -> str:
        key = id(obj) if not isinstance(obj, type) else obj
        if key not in self.names:
            self.names[key] = f"{prefix}{len(self.names)}"
            self.env[self.names[key]] = obj
        return self.names[key]

    # --- expressions for one value of a hint -------------------------------------------
    def enc(self, hint: Any, x: str, depth: int) -> str:
        hint = getattr(hint, "__supertype__", hint)
        if _plain_scalar(hint):
            return x
        if _int_like(hint):
            return f"({x} if {x} is None or -{_INT64} <= {x} < {_INT64} else _big({x}))"
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            return f"{{{hint.__qualname__!r}: {x}._value_}}"
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return f"enc_{self.name(hint, 'T')}({x})"
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if _is_union(hint) and all(a is type(None) or dataclasses.is_dataclass(a) for a in args):
            table = {a: (lambda _: None) if a is type(None) else None for a in args}
            self.env[name := self.name(table, "U")] = table
            self.deferred.append((table, args))
            return f"{name}[{x}.__class__]({x})"
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if _plain_scalar(item):
                return x
            if _int_like(item):
                return x  # an int beyond 64 bits here: the JSON encoder fails, see to_plain
            v = f"e{depth}"
            return f"[{self.enc(item, v, depth + 1)} for {v} in {x}]"
        return f"_generic.to_plain({x})"

    def dec(self, hint: Any, x: str, depth: int) -> str:
        hint = getattr(hint, "__supertype__", hint)
        if _plain_scalar(hint):
            return x
        if _int_like(hint):
            return f"({x} if {x}.__class__ is not dict else _unbig({x}))"
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            members = {m.value: m for m in hint}
            return f"{self.name(members, 'M')}[{x}[{hint.__qualname__!r}]]"
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            return f"dec_{self.name(hint, 'T')}({x})"
        origin, args = typing.get_origin(hint), typing.get_args(hint)
        if _is_union(hint) and all(a is type(None) or dataclasses.is_dataclass(a) for a in args):
            table = {a.__qualname__: None for a in args if a is not type(None)}
            name = self.name(table, "V")
            self.deferred_dec.append((table, args))
            if type(None) in args:
                return f"(None if {x} is None else {name}[next(iter({x}))]({x}))"
            return f"{name}[next(iter({x}))]({x})"
        if origin is tuple and len(args) == 2 and args[1] is Ellipsis:
            item = args[0]
            if _plain_scalar(item) or _int_like(item):
                return f"tuple({x})"
            v = f"e{depth}"
            return f"tuple([{self.dec(item, v, depth + 1)} for {v} in {x}])"
        return f"_generic.from_plain({x})"

    # --- one function pair per dataclass -----------------------------------------------
    def compile(self, classes: tuple[type, ...]) -> None:
        self.deferred: list[tuple[dict[Any, Any], tuple[Any, ...]]] = []
        self.deferred_dec: list[tuple[dict[Any, Any], tuple[Any, ...]]] = []
        for cls in classes:
            if not dataclasses.is_dataclass(cls):
                continue
            n = self.name(cls, "T")
            tag = cls.__qualname__
            hints = typing.get_type_hints(cls)
            fields = [f.name for f in dataclasses.fields(cls)]
            parts = ", ".join(self.enc(hints[f], f"v.{f}", 0) for f in fields)
            self.lines.append(f"def enc_{n}(v):\n    return {{{tag!r}: [{parts}]}}\n")
            body = [f"def dec_{n}(x):", f"    b = x[{tag!r}]"]
            if fields:
                local = [f"f_{f}" for f in fields]
                body.append(f"    {', '.join(local)}{',' if len(local) == 1 else ''} = b")
            else:
                body.append("    if b: raise ValueError('a record of ' + %r + ' with fields')" % tag)
            body.append(f"    o = _new({n})")
            for f in fields:
                value = self.dec(hints[f], f"f_{f}", 0)
                slot = cls.__dict__.get(f)
                if isinstance(slot, types.MemberDescriptorType):  # a slot: set it directly (frozen or not)
                    body.append(f"    {self.name(slot.__set__, 'S')}(o, {value})")
                else:
                    body.append(f"    _setattr(o, {f!r}, {value})")
            body.append("    return o\n")
            self.lines.append("\n".join(body))
        exec("\n".join(self.lines), self.env)  # noqa: S102 - source built above from type hints only
        for table, args in self.deferred:
            for a in args:
                if a is not type(None):
                    table[a] = self.env[f"enc_{self.names[a]}"]
        for table, args in self.deferred_dec:
            for a in args:
                if a is not type(None):
                    table[a.__qualname__] = self.env[f"dec_{self.names[a]}"]


def layout_of(classes: tuple[type, ...]) -> str:
    """The field names of every dataclass, in order: `"Tag:a,b;Other:c"`."""
    return ";".join(
        f"{c.__qualname__}:{','.join(f.name for f in dataclasses.fields(c))}"
        for c in classes
        if dataclasses.is_dataclass(c)
    )


def parse_layout(layout: str) -> dict[str, list[str]]:
    """`layout_of`'s string as {tag: field names}."""
    out: dict[str, list[str]] = {}
    for part in layout.split(";") if layout else ():
        tag, _, names = part.partition(":")
        out[tag] = names.split(",") if names else []
    return out


class SnapshotCodec:
    """Snapshots of one game's state type (see the module docstring for the format)."""

    def __init__(
        self, state_type: type, *, version: int | None = None, upcasters: Mapping[int, Upcaster] | None = None
    ) -> None:
        module = sys.modules.get(state_type.__module__)
        self.state_type = state_type
        self.version: int = version if version is not None else getattr(module, "SCHEMA_VERSION", 1)
        self.upcasters: Mapping[int, Upcaster] = (
            upcasters if upcasters is not None else getattr(module, "UPCASTERS", {})
        )
        self.generic = Codec(state_type)
        classes = reachable_types(state_type)
        self.layout = layout_of(classes)
        self.fields = {c.__qualname__: dataclasses.fields(c) for c in classes if dataclasses.is_dataclass(c)}
        compiler = _Compiler(self.generic)
        compiler.compile(classes)
        root = compiler.names[state_type]
        self._encode: Callable[[Any], Any] = compiler.env[f"enc_{root}"]
        self._decode: Callable[[Any], Any] = compiler.env[f"dec_{root}"]

    def to_plain(self, state: Any, *, generic: bool = False) -> list[Any]:
        """The snapshot of `state` as plain data.

        Tuples of ints are passed through as they are, so a JSON encoder refuses one holding an
        int beyond 64 bits: encode again with `generic=True` then (the slower generic form).
        """
        if generic:
            return [MARK, self.version, GENERIC, self.layout, self.generic.to_plain(state)]
        return [MARK, self.version, 0, self.layout, self._encode(state)]

    @staticmethod
    def is_snapshot(plain: Any) -> bool:
        """Whether `plain` is a versioned snapshot (and not some other plain value)."""
        return type(plain) is list and len(plain) == 5 and plain[0] == MARK

    def from_plain(self, plain: Any) -> Any:
        """The state of a snapshot (versioned or version 0). Raises ValueError or TypeError."""
        try:
            if self.is_snapshot(plain):
                _, version, flags, layout, body = plain
                if version == self.version and layout == self.layout and flags == 0:
                    return self._decode(body)
                state = self._upcast(body, version, layout)
            elif type(plain) is dict:
                state = self._upcast(plain, 0, self.layout)
            else:
                msg = "not a snapshot"
                raise ValueError(msg)
        except (ValueError, TypeError):
            raise
        except Exception as exc:  # KeyError, IndexError, AttributeError, RecursionError, ...
            msg = f"malformed snapshot ({type(exc).__name__})"
            raise ValueError(msg) from exc
        if type(state) is not self.state_type:
            msg = f"snapshot holds a {type(state).__qualname__}, not a {self.state_type.__qualname__}"
            raise ValueError(msg)
        return state

    # --- the slow path: by name, upcast, defaults --------------------------------------
    def _upcast(self, body: Any, version: Any, layout: Any) -> Any:
        if type(version) is not int or not 0 <= version <= self.version:
            msg = f"snapshot schema version {version!r} is not one this process reads (0..{self.version})"
            raise ValueError(msg)
        if type(layout) is not str:
            msg = "snapshot layout is not a string"
            raise TypeError(msg)
        tree = _to_tree(body, parse_layout(layout))
        for v in range(version, self.version):
            upcaster = self.upcasters.get(v)
            if upcaster is not None:
                tree = upcaster(tree)
        return self.generic.from_plain(self._from_tree(tree))

    def _from_tree(self, tree: Any) -> Any:
        if isinstance(tree, Record):
            fields = self.fields.get(tree.tag)
            if fields is None:
                msg = f"unknown record type {tree.tag[:40]!r}"
                raise ValueError(msg)
            values = []
            for f in fields:
                if f.name in tree.fields:
                    values.append(self._from_tree(tree.fields[f.name]))
                elif f.default is not dataclasses.MISSING:
                    values.append(self.generic.to_plain(f.default))
                elif f.default_factory is not dataclasses.MISSING:
                    values.append(self.generic.to_plain(f.default_factory()))
                else:
                    msg = f"snapshot lacks {tree.tag}.{f.name}, which has no default: add an upcaster"
                    raise ValueError(msg)
            return {tree.tag: values}
        if isinstance(tree, list):
            return [self._from_tree(v) for v in tree]
        if isinstance(tree, dict):
            return {k: self._from_tree(v) for k, v in tree.items()}
        return tree


def _to_tree(plain: Any, layout: dict[str, list[str]]) -> Any:
    """A plain body as records by field name (other tagged forms stay as they are)."""
    if isinstance(plain, list):
        return [_to_tree(v, layout) for v in plain]
    if isinstance(plain, dict):
        if len(plain) != 1:
            msg = "a tagged value with more than one key"
            raise ValueError(msg)
        ((tag, body),) = plain.items()
        names = layout.get(tag)
        if names is None:
            return {tag: _to_tree(body, layout)}
        if not isinstance(body, list) or len(body) != len(names):
            msg = f"{tag[:40]} has {len(names)} fields in the snapshot's layout"
            raise ValueError(msg)
        return Record(tag, {n: _to_tree(v, layout) for n, v in zip(names, body, strict=True)})
    return plain
