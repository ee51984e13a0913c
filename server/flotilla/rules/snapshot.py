"""Versioned, compiled snapshots of game states (what GameHost.dumps/loads store for a state).

A snapshot is the plain list `["~snap", version, flags, layout, body]`:

- `version` is the game's schema version: `SCHEMA_VERSION` next to its state type (with
  `UPCASTERS`), 1 if it declares none;
- `layout` is the writer's schema: every state dataclass with its field names and, where
  not a scalar, their shapes: `"State:config=r:Config,turn,phase=u;Config:seats"`
  (`r:T` a record, `u` a union of records, `e:T` an enum, `t<shape>` a tuple, `w` an int
  written as hex digits when beyond 64 bits (`WIDE_INTS`), `g` the generic codec's form);
- `body` is the state: a record is the list of its field values, a union member
  `{"Tag": [...]}`, an enum its value, a tuple a list. Encoder and decoder are functions
  generated once per dataclass from the type hints (records of scalars decode to shared
  instances: they are frozen).

Decoding takes the compiled path when the snapshot's version and layout are this process's.
Otherwise (an older version, a field added or dropped, a body the generic codec wrote, or
version 0: a state in the generic codec's plain form, as stored before snapshots had a
version) it reads the body by field NAME into a tree of `Record`s, runs `UPCASTERS[v]` for
each version v from the snapshot's up to the current one, fills missing fields from their
defaults, and builds the state with the generic codec. Only types reachable from the state
type can be built (a whitelist); malformed input raises ValueError or TypeError.
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
from flotilla.rules.rng import Rng
from flotilla.rules.snapshot_v0 import V0_LAYOUTS

MARK = "~snap"
WIDE_INTS: frozenset[tuple[type, str]] = frozenset({(Rng, "seed")})
"""Int fields that may exceed 64 bits (written as a string of hex digits then); any other int that
does makes the JSON encoder fail, and the host encodes that state with the generic codec."""
GENERIC = 1  # flags bit: the body was written by the generic codec (an int beyond 64 bits in a tuple)
_INT64 = 1 << 63
_LEAF_CACHE = 2048  # shared instances kept per record type of scalar fields


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


def _unhex(value: Any) -> Any:
    return int(value, 16) if type(value) is str else value


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
    """Generates, once per state type, an encoder and a decoder function per dataclass.

    Each function handles its own fields with expressions chosen from the type hints: scalars
    and enums pass as they are (orjson writes enums by value), records are positional lists,
    unions of records are `{"Tag": [...]}`, anything else uses the generic codec.
    """

    def __init__(self, generic: Codec) -> None:
        self.env: dict[str, Any] = {"_hex": "{:x}".format, "_unhex": _unhex, "_generic": generic}
        self.env.update(_new=object.__new__, _setattr=object.__setattr__, _none=lambda _: None)
        self.names: dict[Any, str] = {}
        self.unions: list[tuple[dict[Any, Any], dict[Any, Any], tuple[type, ...]]] = []

    def name(self, obj: Any, prefix: str) -> str:
        key = obj if isinstance(obj, type) else id(obj)
        if key not in self.names:
            self.names[key] = f"{prefix}{len(self.names)}"
            self.env[self.names[key]] = obj
        return self.names[key]

    def union(self, members: tuple[type, ...]) -> tuple[str, str]:
        enc: dict[Any, Any] = {type(None): self.env["_none"]}
        dec: dict[Any, Any] = {}
        self.unions.append((enc, dec, members))
        return self.name(enc, "U"), self.name(dec, "V")

    def expr(self, hint: Any, x: str, depth: int, *, wide: bool = False) -> tuple[str, str, str]:
        """(shape, encode expression, decode expression) for a value `x` of `hint`.

        Ints pass as they are unless `wide` (a field in WIDE_INTS, which may exceed 64 bits).
        """
        hint = getattr(hint, "__supertype__", hint)
        if _plain_scalar(hint):
            return "s", x, x
        if _int_like(hint):
            if not wide:  # one beyond 64 bits makes the JSON encoder fail, see `to_plain`
                return "s", x, x
            maybe_none = f"{x} is None or " if _is_union(hint) else ""
            enc = f"({x} if {maybe_none}-{_INT64} <= {x} < {_INT64} else _hex({x}))"
            return "w", enc, f"({x} if {x}.__class__ is not str else _unhex({x}))"
        if isinstance(hint, type) and issubclass(hint, enum.Enum):
            members = self.name({m.value: m for m in hint}, "M")
            return f"e:{hint.__qualname__}", x, f"{members}[{x}]"
        if isinstance(hint, type) and dataclasses.is_dataclass(hint):
            n = self.name(hint, "T")
            return f"r:{hint.__qualname__}", f"enc_{n}({x})", f"dec_{n}({x})"
        args = typing.get_args(hint)
        if _is_union(hint) and all(a is type(None) or dataclasses.is_dataclass(a) for a in args):
            enc_table, dec_table = self.union(args)
            return (
                "u",
                f"{enc_table}[{x}.__class__]({x})",
                f"(None if {x} is None else {dec_table}[next(iter({x}))]({x}))",
            )
        if typing.get_origin(hint) is tuple and len(args) == 2 and args[1] is Ellipsis:
            e = f"e{depth}"
            shape, enc, dec = self.expr(args[0], e, depth + 1)
            # ints pass too: one beyond 64 bits makes the JSON encoder fail, see `to_plain`
            enc = x if enc == e else self.mapped(enc, e, x, "list")
            dec = f"tuple({x})" if dec == e else self.mapped(dec, e, x, "tuple")
            return f"t{shape}", enc, dec
        return "g", f"_generic.to_plain({x})", f"_generic.from_plain({x})"

    def mapped(self, item: str, e: str, x: str, into: str) -> str:
        """`item` (an expression of `e`) for each element of `x`: `map` when it is one call."""
        if item.endswith(f"({e})") and item.count("(") == 1 and "[" not in item:
            return f"{into}(map({item[: -len(e) - 2]}, {x}))"
        bracket = "[]" if into == "list" else ("tuple([", "])")
        if into == "list":
            return f"[{item} for {e} in {x}]"
        return f"{bracket[0]}{item} for {e} in {x}{bracket[1]}"

    def compile(self, classes: tuple[type, ...]) -> str:
        """Define the functions; returns the layout (every record's field names and shapes)."""
        lines: list[str] = []
        layout: list[str] = []
        for cls in classes:
            if not dataclasses.is_dataclass(cls):
                continue
            n = self.name(cls, "T")
            tag = cls.__qualname__
            hints = typing.get_type_hints(cls)
            fields = [f.name for f in dataclasses.fields(cls)]
            wide = {f: (cls, f) in WIDE_INTS for f in fields}
            exprs = {f: self.expr(hints[f], f"f_{f}", 0, wide=wide[f]) for f in fields}
            layout.append(f"{tag}:" + ",".join(f if exprs[f][0] == "s" else f"{f}={exprs[f][0]}" for f in fields))
            encs = ", ".join(self.expr(hints[f], f"v.{f}", 0, wide=wide[f])[1] for f in fields)
            lines.append(f"def enc_{n}(v):\n    return [{encs}]")
            lines.append(f"def enct_{n}(v):\n    return {{{tag!r}: [{encs}]}}")
            body = [f"def dec_{n}(x):"]
            frozen = cls.__dataclass_params__.frozen  # type: ignore[attr-defined]
            leaf = frozen and fields and all(e[0] == "s" or e[0][:2] == "e:" for e in exprs.values())
            if leaf:  # scalar fields only: equal records decode to one shared (frozen) instance
                cache = self.name({}, "C")
                body += ["    x = tuple(x)", f"    o = {cache}.get(x)", "    if o is not None:", "        return o"]
            body.append(f"    {''.join(f'f_{f}, ' for f in fields)}= x" if fields else "    () = x")
            body.append(f"    o = _new({n})")
            for f in fields:
                slot = cls.__dict__.get(f)
                if isinstance(slot, types.MemberDescriptorType):  # a slot: set it directly (frozen or not)
                    body.append(f"    {self.name(slot.__set__, 'S')}(o, {exprs[f][2]})")
                else:
                    body.append(f"    _setattr(o, {f!r}, {exprs[f][2]})")
            if leaf:
                body.append(f"    if len({cache}) < {_LEAF_CACHE}:\n        {cache}[x] = o")
            body.append("    return o")
            lines.append("\n".join(body))
            lines.append(f"def dect_{n}(x):\n    return dec_{n}(x[{tag!r}])")
        exec("\n".join(lines), self.env)  # source built above from type hints and field names only
        for enc, dec, members in self.unions:
            for m in members:
                if m is not type(None):
                    enc[m] = self.env[f"enct_{self.names[m]}"]
                    dec[m.__qualname__] = self.env[f"dect_{self.names[m]}"]
        return ";".join(layout)


def names_layout(classes: tuple[type, ...]) -> str:
    """The field names of every dataclass, in order: `"Tag:a,b;Other:c"` (version-0 bodies)."""
    return ";".join(
        f"{c.__qualname__}:{','.join(f.name for f in dataclasses.fields(c))}"
        for c in classes
        if dataclasses.is_dataclass(c)
    )


def parse_layout(layout: str) -> dict[str, list[tuple[str, str]]]:
    """A layout string as {tag: [(field name, shape)]} (shape "" where the layout has none)."""
    out: dict[str, list[tuple[str, str]]] = {}
    for part in layout.split(";") if layout else ():
        tag, _, fields = part.partition(":")
        out[tag] = [(name, shape) for name, _, shape in (f.partition("=") for f in fields.split(",") if f)]
    return out


class SnapshotCodec:
    """Snapshots of one game's state type (see the module docstring for the format)."""

    def __init__(
        self,
        state_type: type,
        *,
        version: int | None = None,
        upcasters: Mapping[int, Upcaster] | None = None,
        v0_layout: str | None = None,
    ) -> None:
        module = sys.modules.get(state_type.__module__)
        self.state_type = state_type
        self.version: int = version if version is not None else getattr(module, "SCHEMA_VERSION", 1)
        self.upcasters: Mapping[int, Upcaster] = (
            upcasters if upcasters is not None else getattr(module, "UPCASTERS", {})
        )
        self.generic = Codec(state_type)
        classes = reachable_types(state_type)
        self.v0_layout = (
            v0_layout if v0_layout is not None else V0_LAYOUTS.get(_type_key(state_type), names_layout(classes))
        )
        self.fields = {c.__qualname__: dataclasses.fields(c) for c in classes if dataclasses.is_dataclass(c)}
        compiler = _Compiler(self.generic)
        self.layout = compiler.compile(classes)
        self._root = f"r:{state_type.__qualname__}"
        root = compiler.names[state_type]
        self._encode: Callable[[Any], Any] = compiler.env[f"enc_{root}"]
        self._decode: Callable[[Any], Any] = compiler.env[f"dec_{root}"]

    def to_plain(self, state: Any, *, generic: bool = False) -> list[Any]:
        """The snapshot of `state` as plain data.

        Tuples of ints pass as they are, so a JSON encoder refuses one holding an int beyond
        64 bits: encode again with `generic=True` then (the generic codec's body, slower).
        """
        if generic:
            return [
                MARK,
                self.version,
                GENERIC,
                names_layout(reachable_types(self.state_type)),
                self.generic.to_plain(state),
            ]
        return [MARK, self.version, 0, self.layout, self._encode(state)]

    @staticmethod
    def is_snapshot(plain: Any) -> bool:
        """Whether `plain` is a versioned snapshot (and not some other plain value)."""
        return type(plain) is list and len(plain) > 0 and plain[0] == MARK

    def from_plain(self, plain: Any) -> Any:
        """The state of a snapshot (versioned, or version 0: a state in generic codec form).

        Raises ValueError or TypeError on anything malformed.
        """
        try:
            if type(plain) is list and plain and plain[0] == MARK:
                _, version, flags, layout, body = plain
                if layout == self.layout and version == self.version and flags == 0:
                    return self._decode(body)  # builds a state_type
                state = self._slow(body, version, flags, layout)
            elif type(plain) is dict:
                state = self._slow(plain, 0, GENERIC, self.v0_layout)
            else:
                msg = "not a snapshot"
                raise ValueError(msg)
        except (ValueError, TypeError):
            raise
        except Exception as exc:  # KeyError, IndexError, AttributeError, RecursionError, ...
            msg = f"malformed snapshot ({type(exc).__name__})"
            raise ValueError(msg) from exc
        if type(state) is not self.state_type:
            msg = f"the snapshot holds a {type(state).__qualname__}, not a {self.state_type.__qualname__}"
            raise ValueError(msg)
        return state

    # --- the slow path: by name, upcasters, defaults ------------------------------------
    def _slow(self, body: Any, version: Any, flags: Any, layout: Any) -> Any:
        if type(version) is not int or not 0 <= version <= self.version:
            msg = f"snapshot schema version {str(version)[:20]} is not one this process reads (0..{self.version})"
            raise ValueError(msg)
        if type(layout) is not str or type(flags) is not int:
            msg = "a snapshot's layout is a string and its flags an int"
            raise TypeError(msg)
        writer = parse_layout(layout)
        tree = _plain_to_tree(body, writer) if flags & GENERIC else _body_to_tree(body, self._root, writer)
        for v in range(version, self.version):
            upcaster = self.upcasters.get(v)
            if upcaster is not None:
                tree = upcaster(tree)
        return self.generic.from_plain(self._tree_to_plain(tree))

    def _tree_to_plain(self, tree: Any) -> Any:
        """A tree in generic codec form, by this process's fields (defaults where missing)."""
        if isinstance(tree, Record):
            fields = self.fields.get(tree.tag)
            if fields is None:
                msg = f"no record type {tree.tag[:40]!r} here"
                raise ValueError(msg)
            values = []
            for f in fields:
                if f.name in tree.fields:
                    values.append(self._tree_to_plain(tree.fields[f.name]))
                elif f.default is not dataclasses.MISSING:
                    values.append(self.generic.to_plain(f.default))
                elif f.default_factory is not dataclasses.MISSING:
                    values.append(self.generic.to_plain(f.default_factory()))
                else:
                    msg = f"the snapshot lacks {tree.tag}.{f.name}, which has no default: add an upcaster"
                    raise ValueError(msg)
            return {tree.tag: values}
        if isinstance(tree, list):
            return [self._tree_to_plain(v) for v in tree]
        if isinstance(tree, dict):
            return {k: self._tree_to_plain(v) for k, v in tree.items()}
        return tree


def _record(tag: str, body: Any, writer: dict[str, list[tuple[str, str]]], convert: Callable[..., Any]) -> Record:
    fields = writer.get(tag)
    if fields is None:
        msg = f"record type {tag[:40]!r} is not in the snapshot's layout"
        raise ValueError(msg)
    if not isinstance(body, list) or len(body) != len(fields):
        msg = f"{tag[:40]} has {len(fields)} fields in the snapshot's layout"
        raise ValueError(msg)
    return Record(tag, {name: convert(v, shape) for (name, shape), v in zip(fields, body, strict=True)})


def _tagged(value: Any) -> tuple[str, Any]:
    if not isinstance(value, dict) or len(value) != 1:
        msg = "a tagged value is an object with one key"
        raise ValueError(msg)
    ((tag, body),) = value.items()
    return tag, body


def _body_to_tree(value: Any, shape: str, writer: dict[str, list[tuple[str, str]]]) -> Any:
    """A compiled body (list records, shapes from the writer's layout) as a tree of records."""

    def convert(v: Any, s: str) -> Any:
        return _body_to_tree(v, s, writer)

    if shape in ("s", ""):  # a scalar ("" where the layout names the field alone)
        return value
    if shape == "w":  # an int that may be hex digits
        return _unhex(value)
    if shape.startswith("r:"):
        return _record(shape[2:], value, writer, convert)
    if shape == "u":
        if value is None:
            return None
        tag, body = _tagged(value)
        return _record(tag, body, writer, convert)
    if shape.startswith("e:"):
        return {shape[2:]: value}
    if shape.startswith("t"):
        if not isinstance(value, list):
            msg = "a tuple field that is not a list"
            raise TypeError(msg)
        return [convert(v, shape[1:]) for v in value]
    if shape == "g":
        return _plain_to_tree(value, writer)
    msg = f"unknown shape {shape[:20]!r} in the snapshot's layout"
    raise ValueError(msg)


def _plain_to_tree(plain: Any, writer: dict[str, list[tuple[str, str]]]) -> Any:
    """A body in generic codec form as a tree of records (other tagged forms stay as they are)."""

    def convert(v: Any, _shape: str) -> Any:
        return _plain_to_tree(v, writer)

    if isinstance(plain, list):
        return [_plain_to_tree(v, writer) for v in plain]
    if isinstance(plain, dict):
        tag, body = _tagged(plain)
        if tag in writer:
            return _record(tag, body, writer, convert)
        return {tag: _plain_to_tree(body, writer)}
    return plain


def _type_key(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"
