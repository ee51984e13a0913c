"""The game registry: `REGISTRY[name]` is the `GameRules` a new game of that kind is created with;
`served(name)` every rules version this server runs for it.

Every subpackage of `flotilla.games` that defines `RULES` is a game; adding a game is
adding a package, nothing here changes. A package keeps the older rules versions that games in
flight may still need as `LEGACY_RULES` (a tuple of `GameRules` of the same name): games record
the version they were created with (meta `rules_version`) and are run by that version until they
end. This module is the one place that decides which versions are served.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Iterator, Mapping
from typing import Any

from flotilla.rules import GameRules

AnyRules = GameRules[Any, Any, Any, Any, Any]


def _discover() -> dict[str, tuple[AnyRules, ...]]:
    """Each game's served rules, the current version first."""
    found: dict[str, tuple[AnyRules, ...]] = {}
    for module in pkgutil.iter_modules(__path__):
        if not module.ispkg:
            continue
        package = importlib.import_module(f"{__name__}.{module.name}")
        rules = getattr(package, "RULES", None)
        if not isinstance(rules, GameRules):
            continue
        served = (rules, *getattr(package, "LEGACY_RULES", ()))
        for r in served:
            if not isinstance(r, GameRules) or r.name != module.name:
                msg = f"flotilla.games.{module.name}: RULES and LEGACY_RULES must be GameRules named {module.name!r}"
                raise RuntimeError(msg)
        if len({r.version for r in served}) != len(served):
            msg = f"flotilla.games.{module.name} serves a rules version twice"
            raise RuntimeError(msg)
        found[rules.name] = served
    return dict(sorted(found.items()))


class _Registry(Mapping[str, AnyRules]):
    """Read-only mapping of game name to its current rules, loaded on first use."""

    _games: dict[str, tuple[AnyRules, ...]] | None = None

    def load(self) -> dict[str, tuple[AnyRules, ...]]:
        if self._games is None:
            self._games = _discover()
        return self._games

    def __getitem__(self, name: str) -> AnyRules:
        return self.load()[name][0]

    def __iter__(self) -> Iterator[str]:
        return iter(self.load())

    def __len__(self) -> int:
        return len(self.load())


_REGISTRY = _Registry()
REGISTRY: Mapping[str, AnyRules] = _REGISTRY


def served(name: str) -> tuple[AnyRules, ...]:
    """Every rules version of game `name` this server runs, the current one first (() if none)."""
    return _REGISTRY.load().get(name, ())


def rules_at(name: str, version: str) -> AnyRules | None:
    """The rules of game `name` at `version`, if this server runs that version."""
    return next((r for r in served(name) if r.version == version), None)
