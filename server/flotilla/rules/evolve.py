"""`evolve(obj, field=value, ...)`: the one way rules engines update their frozen state.

It means exactly `dataclasses.replace` (mypy checks every call as that: the field names and their
types), and runs about 3x faster: `dataclasses.replace` walks the field list and calls `__init__`
on every call, which was half of an engine's time in random playouts. Like `dataclasses` itself,
this module builds one small copy function per class from its field names (identifiers, never user
data) and caches it. A class with a `__post_init__` or an `init=False` field is copied by
`dataclasses.replace` itself, so its checks still run; for every other class skipping `__init__`
changes nothing. docs/rules-engines.md says how engines use it.
"""

from __future__ import annotations

import dataclasses
import types
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING, Any, TypeVar

T = TypeVar("T")

_COPIERS: dict[type, Callable[[Any, dict[str, Any]], Any]] = {}


def _refuse(cls: type, changes: dict[str, Any], names: frozenset[str]) -> None:
    msg = f"{cls.__name__} has no field(s) {sorted(changes.keys() - names)}"
    raise TypeError(msg)


def _copier(cls: type) -> Callable[[Any, dict[str, Any]], Any]:
    fields = dataclasses.fields(cls)
    names = [f.name for f in fields]
    copier: Callable[[Any, dict[str, Any]], Any]
    if hasattr(cls, "__post_init__") or not all(f.init for f in fields):

        def copier(obj: Any, changes: dict[str, Any]) -> Any:
            return dataclasses.replace(obj, **changes)

    else:
        # every field copied as it is (through its slot's descriptor where there is one), then the changes
        scope: dict[str, Any] = {
            "_new": object.__new__,
            "_set": object.__setattr__,
            "_refuse": _refuse,
            "cls": cls,
            "names": frozenset(names),
        }
        lines = field_stores(cls, names, "new", "obj.{name}", scope)
        source = (
            "def copy(obj, changes):\n    new = _new(cls)\n" + "".join(lines) + "    if changes:\n"
            "        if not changes.keys() <= names:\n            _refuse(cls, changes, names)\n"
            "        for name, value in changes.items():\n            _set(new, name, value)\n    return new\n"
        )
        exec(source, scope)
        copier = scope["copy"]
    _COPIERS[cls] = copier
    return copier


def field_stores(cls: type, names: Iterable[str], target: str, value: str, scope: dict[str, Any]) -> list[str]:
    """Generated code's lines storing each field of `names` on `target`: `value` (a template of
    `{i}`, the field's index, and `{name}`) through the field's slot descriptor where it has one (put
    in `scope` as `_set<i>`), else through `_set` (`object.__setattr__`, which the caller puts in
    `scope`): what a frozen dataclass's own `__init__` does, without looking the setter up each time."""
    lines = []
    for i, name in enumerate(names):
        slot = cls.__dict__.get(name)
        stored = value.format(i=i, name=name)
        if isinstance(slot, types.MemberDescriptorType):
            scope[f"_set{i}"] = slot.__set__
            lines.append(f"    _set{i}({target}, {stored})\n")
        else:
            lines.append(f"    _set({target}, {name!r}, {stored})\n")
    return lines


def _evolve(obj: T, /, **changes: Any) -> T:
    """A copy of the dataclass `obj` with `changes` applied."""
    cls = type(obj)
    result: T = (_COPIERS.get(cls) or _copier(cls))(obj, changes)
    return result


if TYPE_CHECKING:
    from dataclasses import replace as evolve
else:
    evolve = _evolve

__all__ = ["evolve"]
