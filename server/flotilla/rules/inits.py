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
import inspect
import types
from typing import Any

from flotilla.rules.codec import reachable_types
from flotilla.rules.types import GameRules

_DONE: set[type] = set()
GENERATED: dict[type, Any] = {}
"""The `__init__` dataclasses generated for each class given a compiled one (tests compare them)."""


def _fast_init(cls: type) -> Any | None:
    """The compiled `__init__` for `cls`, or None if it must keep the generated one."""
    params = getattr(cls, "__dataclass_params__", None)
    if params is None or not params.frozen or "__slots__" not in cls.__dict__ or hasattr(cls, "__post_init__"):
        return None
    fields = dataclasses.fields(cls)
    if any(not f.init or f.default_factory is not dataclasses.MISSING for f in fields):
        return None
    original = cls.__dict__.get("__init__")
    if original is None or original.__code__.co_filename != "<string>":  # not generated: written by hand
        return None
    names = [f.name for f in fields]
    parameters = list(inspect.signature(original).parameters.values())[1:]
    if [p.name for p in parameters] != names:  # an InitVar, or an __init__ written by hand
        return None
    scope: dict[str, Any] = {}
    args: list[str] = []
    for p in parameters:
        if p.kind is p.KEYWORD_ONLY and "*" not in args:
            args.append("*")
        elif p.kind is not p.POSITIONAL_OR_KEYWORD and p.kind is not p.KEYWORD_ONLY:
            return None
        if p.default is p.empty:
            args.append(p.name)
        else:
            scope[f"_default_{p.name}"] = p.default
            args.append(f"{p.name}=_default_{p.name}")
    lines = []
    for i, name in enumerate(names):
        slot = cls.__dict__.get(name)
        if not isinstance(slot, types.MemberDescriptorType):
            return None
        scope[f"_set{i}"] = slot.__set__
        lines.append(f"    _set{i}(self, {name})\n")
    source = f"def __init__(self, {', '.join(args)}):\n" + ("".join(lines) or "    pass\n")
    exec(source, scope)
    init = scope["__init__"]
    init.__qualname__ = original.__qualname__
    init.__module__ = original.__module__
    init.__annotations__ = dict(original.__annotations__)
    init.__doc__ = original.__doc__
    return init


def compile_inits(rules: GameRules[Any, Any, Any, Any, Any]) -> None:
    """Give every frozen slotted dataclass reachable from `rules`' types the faster `__init__`."""
    roots = (rules.state_type, *rules.action_types, *rules.event_types, rules.view_type, rules.config_type)
    for cls in reachable_types(*roots):
        if cls in _DONE:
            continue
        _DONE.add(cls)
        init = _fast_init(cls)
        if init is not None:
            GENERATED[cls] = cls.__dict__["__init__"]
            type.__setattr__(cls, "__init__", init)
