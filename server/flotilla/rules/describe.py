"""Text for humans: an English label, a stable message key and its arguments, per action and event.

Each game declares templates per dataclass (its `describe.py`); a `Describer` turns a value into
a `Text`. Arguments are the value's fields as strings (ids and numbers as on the wire, enums in
lower case, tuples comma-joined, booleans "true"/"false", absent values left out) plus
`<field>_name` for fields the game can name from its data tables. A template's placeholders
name arguments only, so a client that translates `key` can rebuild the English from `args`.

Describing is pure: the text of an event is a function of the (already redacted) event, the
text of an action a function of the action, so a label shows exactly what its value shows.
"""

from __future__ import annotations

import dataclasses
import enum
import re
import string
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

_CAMEL = re.compile(r"(?<!^)(?=[A-Z])")
_FORMATTER = string.Formatter()
_CACHE = 8192


def snake(name: str) -> str:
    """`PlaceCrate` -> `place_crate`."""
    return _CAMEL.sub("_", name).lower()


@dataclass(frozen=True, slots=True)
class Text:
    """A label in English, the key a translation is looked up by, and the values it interpolates."""

    label: str
    key: str
    args: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True, slots=True)
class V:
    """One variant of a template: used when the fields of `when` are set (true, non-zero, non-empty), those
    of `unless` are not, and every placeholder has a value. Its key ends in `.<name>`."""

    name: str
    text: str
    when: tuple[str, ...] = ()
    unless: tuple[str, ...] = ()


Template = str | V
Templates = Mapping[type, Template | tuple[Template, ...]]
"""A game's templates: per dataclass one template or variants, tried in order."""
Namer = Callable[[Any], str]


def text(key: str, template: str, **args: object) -> Text:
    """A `Text` from a key, a template and its arguments (for texts outside any game)."""
    plain = {k: _plain(v) for k, v in args.items()}
    return Text(template.format(**plain), key, tuple(sorted(plain.items())))


def _plain(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, enum.Enum):
        return value.name.lower().replace("_", " ")
    if isinstance(value, tuple | frozenset | list):
        items = sorted(value) if isinstance(value, frozenset) else value
        return ", ".join(_plain(v) for v in items)
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        parts = [f"{getattr(value, f.name)} {f.name}" for f in dataclasses.fields(value) if getattr(value, f.name)]
        return ", ".join(parts) or "nothing"
    return str(value)


def _placeholders(template: str) -> tuple[str, ...]:
    return tuple(name for _, name, _, _ in _FORMATTER.parse(template) if name)


def _present(value: Any) -> bool:
    return bool(value)


class Describer:
    """Texts of one game's actions and events, from templates per dataclass.

    `names` maps a field name to a function naming its value (e.g. a card id to the card's
    name): the name becomes the argument `<field>_name` (`<field>_names` for a tuple of ids).
    `extra` maps a type to a function of its value giving more arguments (e.g. a list of options
    in words), for texts that need more than one field at a time.
    """

    def __init__(
        self,
        game: str,
        actions: Templates,
        events: Templates,
        names: Mapping[str, Namer] | None = None,
        extra: Mapping[type, Callable[[Any], Mapping[str, str]]] | None = None,
    ) -> None:
        self.game = game
        self._names = dict(names or {})
        self._extra = dict(extra or {})
        self._templates: dict[type, tuple[str, tuple[V, ...]]] = {}
        for kind, table in (("action", actions), ("event", events)):
            for cls, entry in table.items():
                variants = entry if isinstance(entry, tuple) else (entry,)
                base = f"{game}.{kind}.{snake(cls.__name__)}"
                self._templates[cls] = (base, tuple(v if isinstance(v, V) else V("", v) for v in variants))
        self.describe: Callable[[Any], Text] = lru_cache(maxsize=_CACHE)(self._describe)

    @property
    def templates(self) -> dict[str, str]:
        """Every message key this game's texts may carry (its documented key set), with its English
        template: `templates[text.key].format(**dict(text.args)) == text.label`."""
        return {self._key(base, v): v.text for base, variants in self._templates.values() for v in variants}

    @property
    def keys(self) -> frozenset[str]:
        """Every message key this game's texts may carry."""
        return frozenset(self.templates)

    def covers(self, types: Iterable[type]) -> list[type]:
        """The types among `types` without a template (a test asks for none)."""
        return [t for t in types if t not in self._templates]

    @staticmethod
    def _key(base: str, variant: V) -> str:
        return f"{base}.{variant.name}" if variant.name else base

    def args(self, value: Any) -> dict[str, str]:
        """The arguments of `value`: its present fields and the names of those the game can name."""
        out: dict[str, str] = {}
        for field in dataclasses.fields(value):
            item = getattr(value, field.name)
            if item is None or item == ():
                continue
            out[field.name] = _plain(item)
            namer = self._names.get(field.name)
            if namer is None or isinstance(item, bool):
                continue
            if isinstance(item, tuple):
                out[f"{field.name}_names"] = ", ".join(str(namer(x)) for x in item)
            else:
                out[f"{field.name}_name"] = str(namer(item))
        more = self._extra.get(type(value))
        if more is not None:
            out.update(more(value))
        return out

    @staticmethod
    def _fits(value: Any, variant: V, args: Mapping[str, str]) -> bool:
        return (
            all(_present(getattr(value, f)) for f in variant.when)
            and not any(_present(getattr(value, f)) for f in variant.unless)
            and all(name in args for name in _placeholders(variant.text))
        )

    def _describe(self, value: Any) -> Text:
        entry = self._templates.get(type(value))
        if entry is None:
            msg = f"{self.game} has no text for {type(value).__name__}"
            raise KeyError(msg)
        base, variants = entry
        args = self.args(value)
        chosen = variants[-1]
        for variant in variants:
            if self._fits(value, variant, args):
                chosen = variant
                break
        label = chosen.text.format_map(_Missing(args))
        return Text(label, self._key(base, chosen), tuple(sorted(args.items())))


def generic(game: str, kind: str, value: Any) -> Text:
    """The text of a value whose game has no describer: its type and fields, `name: field=value ...`."""
    name = _CAMEL.sub(" ", type(value).__name__).lower()
    args = {
        f.name: _plain(getattr(value, f.name)) for f in dataclasses.fields(value) if getattr(value, f.name) is not None
    }
    label = f"{name}: {' '.join(f'{k}={v}' for k, v in args.items())}" if args else name
    return Text(label, f"{game}.{kind}.{snake(type(value).__name__)}", tuple(sorted(args.items())))


def describe_action(describer: Describer | None, game: str, action: Any) -> Text:
    """The text of an action, by the game's describer or generically."""
    return describer.describe(action) if describer is not None else generic(game, "action", action)


def describe_event(describer: Describer | None, game: str, event: Any) -> Text:
    """The text of an (already redacted) event, by the game's describer or generically."""
    return describer.describe(event) if describer is not None else generic(game, "event", event)


class _Missing(dict[str, str]):
    """Format arguments where a missing one reads "?" (a template bug the tests catch, never a crash)."""

    def __missing__(self, key: str) -> str:
        return "?"
