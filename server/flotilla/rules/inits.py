"""Faster constructors for a game's frozen dataclasses (states, actions, events, views).

A frozen dataclass's generated `__init__` sets each field through `object.__setattr__` (looked up
and called once per field), which made building views, events and the next state a large part of
an engine's time in random playouts. For a frozen class with `__slots__` this module compiles an
`__init__` with the same signature (names, order, defaults, keyword-only marker, annotations) that
stores each argument through its slot's descriptor, like `evolve`'s copiers: the same object as
before, built about twice as fast. Classes with a `__post_init__`, an `init=False` field, a
`default_factory` or an `InitVar` keep the `__init__` dataclasses generated (their logic runs).
Like `dataclasses` and `evolve`, it builds code from field names (identifiers), never from data.

Each engine calls `compile_inits(RULES)` once, at import.
"""

from __future__ import annotations

import dataclasses
import sys
import types
from typing import Any

from flotilla.rules.evolve import field_stores
from flotilla.rules.rng import Rng
from flotilla.rules.types import GameRules

_DONE: set[type] = set()
GENERATED: dict[type, Any] = {}
"""The `__init__` dataclasses generated for each class given a compiled one (tests compare them)."""


def _fast_init(cls: type) -> Any | None:
    """The compiled `__init__` for `cls`, or None if it must keep the generated one."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return None
    original = cls.__dict__.get("__init__")
    if original is None or original.__code__.co_filename != "<string>":  # not generated: written by hand
        return None
    fields = dataclasses.fields(cls)
    if any(not f.init or f.default_factory is not dataclasses.MISSING for f in fields):
        return None
    if original.__code__.co_argcount + original.__code__.co_kwonlyargcount != len(fields) + 1:
        return None  # an InitVar
    scope: dict[str, Any] = {}
    positional: list[str] = []
    keyword: list[str] = []
    for f in fields:
        if not isinstance(cls.__dict__.get(f.name), types.MemberDescriptorType):
            return None
        if f.default is dataclasses.MISSING:
            arg = f.name
        else:
            scope[f"_default_{f.name}"] = f.default
            arg = f"{f.name}=_default_{f.name}"
        (keyword if f.kw_only else positional).append(arg)
    lines = field_stores(cls, [f.name for f in fields], "self", "{name}", scope)  # every one a slot
    args = ", ".join(["self", *positional, *(["*", *keyword] if keyword else [])])
    exec(f"def __init__({args}):\n" + ("".join(lines) or "    pass\n"), scope)
    init = scope["__init__"]
    init.__qualname__ = original.__qualname__
    init.__module__ = original.__module__
    init.__annotations__ = dict(original.__annotations__)
    init.__doc__ = original.__doc__
    return init


def _classes(rules: GameRules[Any, Any, Any, Any, Any]) -> list[type]:
    """The classes defined in the modules of the rules' package (which hold every type reachable
    from its state, actions, events and views), and `Rng`; found without walking type hints."""
    package = rules.state_type.__module__.rpartition(".")[0]
    found: list[type] = [Rng]
    for name, module in list(sys.modules.items()):
        if name == package or name.startswith(package + "."):
            namespace: dict[str, Any] = getattr(module, "__dict__", {})  # a module entry may be None
            found.extend(v for v in namespace.values() if isinstance(v, type) and v.__module__ == name)
    return found


def compile_inits(rules: GameRules[Any, Any, Any, Any, Any]) -> None:
    """Give every frozen slotted dataclass of the rules' package (and `Rng`) the faster `__init__`."""
    for cls in _classes(rules):
        if cls in _DONE:
            continue
        _DONE.add(cls)
        init = _fast_init(cls)
        if init is not None:
            GENERATED[cls] = cls.__dict__["__init__"]
            type.__setattr__(cls, "__init__", init)
