"""The game registry: `REGISTRY[name]` is that game's `GameRules` bundle.

Every subpackage of `flotilla.games` that defines `RULES` is a game; adding a game is
adding a package, nothing here changes.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any

from flotilla.rules import GameRules

AnyRules = GameRules[Any, Any, Any, Any, Any]


def _discover() -> dict[str, AnyRules]:
    found: dict[str, AnyRules] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{module.name}")
        rules = getattr(package, "RULES", None)
        if isinstance(rules, GameRules):
            if rules.name != module.name:
                msg = f"flotilla.games.{module.name}.RULES is named {rules.name!r}"
                raise RuntimeError(msg)
            found[rules.name] = rules
    return dict(sorted(found.items()))


class _Registry(Mapping[str, AnyRules]):
    """Read-only mapping of game name to rules, loaded on first use."""

    _games: dict[str, AnyRules] | None = None

    def _load(self) -> dict[str, AnyRules]:
        if self._games is None:
            self._games = _discover()
        return self._games

    def __getitem__(self, name: str) -> AnyRules:
        return self._load()[name]

    def __iter__(self) -> Iterator[str]:
        return iter(self._load())

    def __len__(self) -> int:
        return len(self._load())


REGISTRY: Mapping[str, AnyRules] = _Registry()
