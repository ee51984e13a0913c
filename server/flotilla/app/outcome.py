"""The outcome of a submitted action, as workers send it to gateways and cache it per (game, seat, request id)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.records import EventRow, OutcomeRecord
from flotilla.rules import errors as rules_errors

from . import errors as app_errors
from .lineage import etag


def _error_classes() -> dict[str, type[Exception]]:
    found: dict[str, type[Exception]] = {}
    for module, base in ((rules_errors, rules_errors.RulesError), (app_errors, app_errors.AppError)):
        for value in vars(module).values():
            if isinstance(value, type) and issubclass(value, base):
                found[value.reason] = value
    return found


ERROR_CLASSES = _error_classes()


@dataclass(frozen=True, slots=True)
class Outcome(OutcomeRecord):
    """An outcome (records.OutcomeRecord) with what the app does with it: its etag and its error.

    `game` and `seat` say whose request it answers: set from the inbox entry that carried it
    (empty and -1 where nobody asked, e.g. in a worker), and checked by the gateway before
    anything of it is shown (app.games.Games._queue). `announced`: the accepted outcome came
    from the committed entry on the feed the caller follows, whose update already told the client.
    """

    announced: bool = False

    @classmethod
    def accepted(cls, version: int, events: list[EventRow], lineage: str = "") -> Outcome:
        return cls(True, version, events, lineage=lineage)

    @property
    def etag(self) -> str:
        """The etag of the game version after an accepted action."""
        return etag(self.version, self.lineage)

    @classmethod
    def rejected(cls, error: rules_errors.RulesError | app_errors.AppError) -> Outcome:
        return cls(False, reason=error.reason, message=error.message, metadata=error.metadata)

    @classmethod
    def loads(cls, data: bytes, *, game: str = "", seat: int = -1) -> Outcome:
        """Decode `dumps`; `game` and `seat`: whose request it answers."""
        return cls(**cls.plain_args(data), game=game, seat=seat)

    def error(self) -> Exception:
        """The exception this rejection stands for (same class as where it was raised)."""
        cls = ERROR_CLASSES.get(self.reason, rules_errors.RulesError)
        return cls(self.message, **self.metadata)
