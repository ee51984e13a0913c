"""Text for humans: an English label, a stable message key and its arguments, per action and event.

Each game declares templates per dataclass (its `describe.py`); a `Describer` turns a value into
a `Text`. Arguments are the value's fields as strings (ids and numbers as on the wire, enums in
lower case, tuples comma-joined, booleans "true"/"false", absent values left out) plus
`<field>_name` for fields the game can name from its data tables, and `<field>_number` (one more
than the field; `<field>_numbers` for a tuple, comma-joined) for 0-based positions and seats, which
read 1-based in English ("Seat 1" is seat 0) while `<field>` stays as on the wire. A count followed
by a noun of `PLURALS` ("{count} workers") gets a singular variant (key `.one`, "1 worker") by
itself. A template's placeholders name arguments only, so a client
that translates `key` can rebuild the English from `args`.

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
_NAMES_CACHE = 4096  # names of ids: static, from the game's tables

PLURALS = {
    p: p[:-1]
    for p in (
        "cards",
        "coins",
        "crates",
        "cubes",
        "knights",
        "pesos",
        "points",
        "ships",
        "spaces",
        "steps",
        "units",
        "workers",
    )
}
"""Nouns whose count reads singular for 1: `{field} <plural>` gets a `.one` variant saying `1 <singular>`."""
_COUNTED = re.compile(r"\{(\w+)\} (" + "|".join(PLURALS) + r")\b")


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
    one: tuple[str, ...] = ()  # and these fields are 1 (the singular variants `PLURALS` makes)


Template = str | V
Templates = Mapping[type, Template | tuple[Template, ...]]
"""A game's templates: per dataclass one template or variants, tried in order."""
Namer = Callable[[Any], str]


def text(key: str, template: str, **args: object) -> Text:
    """A `Text` from a key, a template and its arguments (for texts outside any game)."""
    plain = {k: _plain(v) for k, v in args.items()}
    return Text(template.format(**plain), key, tuple(sorted(plain.items())))


def _plain(value: Any) -> str:
    kind = type(value)
    if kind is str:
        return value  # type: ignore[no-any-return]
    if kind is int:
        return str(value)
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


@dataclass(frozen=True, slots=True)
class _Variant:
    """A variant compiled for one type: its key, the placeholders it needs and the arguments it sends."""

    key: str
    text: str
    when: tuple[str, ...]
    unless: tuple[str, ...]
    one: tuple[str, ...]
    needs: tuple[str, ...]
    sends: tuple[str, ...]
    order: tuple[str, ...]  # `sends` sorted: the order of the text's arguments


class Describer:
    """Texts of one game's actions and events, from templates per dataclass.

    `names` maps a field name to a function naming its value (e.g. a card id to the card's
    name): the name is the argument `<field>_name` (`<field>_names` for a tuple of ids).
    `extra` maps a type to a function of its value giving more arguments (e.g. a list of options
    in words), for texts that need more than one field at a time. A text's arguments are the
    placeholders of its template, plus the id behind each name it uses.
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
        self._names: dict[str, Namer] = {k: lru_cache(maxsize=_NAMES_CACHE)(f) for k, f in (names or {}).items()}
        self._resolvers: dict[type, dict[str, tuple[str, str, Namer | None]]] = {}
        self._extra = dict(extra or {})
        self._types: dict[type, tuple[_Variant, ...]] = {}
        for kind, table in (("action", actions), ("event", events)):
            for cls, entry in table.items():
                base = f"{game}.{kind}.{snake(cls.__name__)}"
                variants = entry if isinstance(entry, tuple) else (entry,)
                self._types[cls] = tuple(self._compile(base, cls, v) for v in _with_singulars(cls, variants))

    def _compile(self, base: str, cls: type, template: Template) -> _Variant:
        variant = template if isinstance(template, V) else V("", template)
        fields = {f.name for f in dataclasses.fields(cls)}
        needs = _placeholders(variant.text)
        derived = ("_name", "_names", "_number", "_numbers")
        behind = [n.rsplit("_", 1)[0] for n in needs if n.endswith(derived) and n not in fields]
        sends = tuple(dict.fromkeys([*needs, *(f for f in behind if f in fields), *variant.one]))
        for name in (*variant.when, *variant.unless, *variant.one):
            if name not in fields:
                msg = f"{cls.__name__} has no field {name!r} (variant {variant.name!r})"
                raise TypeError(msg)
        resolvers = self._resolvers.setdefault(cls, {})
        for name in sends:
            field, _, suffix = name.rpartition("_")
            if name in fields:
                resolvers[name] = ("field", name, None)
            elif suffix in ("name", "names") and field in fields and field in self._names:
                resolvers[name] = ("name", field, self._names[field])
            elif suffix in ("number", "numbers") and field in fields:
                resolvers[name] = ("name", field, number)
            else:
                resolvers[name] = ("extra", name, None)
        key = f"{base}.{variant.name}" if variant.name else base
        return _Variant(
            key, variant.text, variant.when, variant.unless, variant.one, needs, sends, tuple(sorted(sends))
        )

    @property
    def templates(self) -> dict[str, str]:
        """Every message key this game's texts may carry (its documented key set), with its English
        template: `templates[text.key].format(**dict(text.args)) == text.label`."""
        return {v.key: v.text for variants in self._types.values() for v in variants}

    @property
    def keys(self) -> frozenset[str]:
        """Every message key this game's texts may carry."""
        return frozenset(self.templates)

    def covers(self, types: Iterable[type]) -> list[type]:
        """The types among `types` without a template (a test asks for none)."""
        return [t for t in types if t not in self._types]

    def _arg(self, value: Any, name: str, extra: dict[str, Mapping[str, str]]) -> str | None:
        """One argument of `value`: a field, a field's name, or an extra argument; None when absent."""
        how, field, namer = self._resolvers[type(value)][name]
        if how == "extra":
            more = self._extra.get(type(value))
            if more is None:
                return None
            if "" not in extra:
                extra[""] = more(value)
            return extra[""].get(name)
        item = getattr(value, field)
        if item is None or item == () or (namer is not None and isinstance(item, bool)):
            return None
        if namer is None:
            return _plain(item)
        if isinstance(item, tuple):
            return ", ".join(str(namer(x)) for x in item)
        return str(namer(item))

    def describe(self, value: Any) -> Text:
        """The text of an action or an (already redacted) event; KeyError for a type it does not know."""
        variants = self._types.get(type(value))
        if variants is None:
            msg = f"{self.game} has no text for {type(value).__name__}"
            raise KeyError(msg)
        extra: dict[str, Mapping[str, str]] = {}
        known: dict[str, str | None] = {}
        for variant in variants:  # the conditions are mostly empty: tested before a generator is made
            if variant.when and not all(_present(getattr(value, f)) for f in variant.when):
                continue
            if variant.unless and any(_present(getattr(value, f)) for f in variant.unless):
                continue
            if variant.one and any(getattr(value, f) != 1 for f in variant.one):
                continue
            for name in variant.sends:
                if name not in known:
                    known[name] = self._arg(value, name, extra)
            if all(known[n] is not None for n in variant.needs):
                break
        else:
            variant = variants[-1]
        # the values sent, in sorted order; a missing one that the template needs is "?" (`needs` is in `sends`)
        items = tuple(
            (n, v if v is not None else "?")
            for n in variant.order
            if (v := known.get(n)) is not None or n in variant.needs
        )
        return Text(variant.text.format(**dict(items)), variant.key, items)


def number(position: Any) -> str:
    """A 0-based position or seat as English counts it (0 -> `1`)."""
    return str(position + 1) if type(position) is int else str(position)


def _with_singulars(cls: type, variants: tuple[Template, ...]) -> list[Template]:
    """`variants`, each preceded by its singular (`{n} workers` -> `1 worker` when n is 1) if it counts a
    noun of `PLURALS` by a field of `cls`: one count per variant (the first)."""
    fields = {f.name for f in dataclasses.fields(cls)}
    out: list[Template] = []
    for template in variants:
        variant = template if isinstance(template, V) else V("", template)
        found = next((m for m in _COUNTED.finditer(variant.text) if m.group(1) in fields), None)
        if found is not None:
            one = variant.text[: found.start()] + "1 " + PLURALS[found.group(2)] + variant.text[found.end() :]
            name = f"{variant.name}.one" if variant.name else "one"
            out.append(V(name, one, variant.when, variant.unless, (*variant.one, found.group(1))))
        out.append(template)
    return out


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
