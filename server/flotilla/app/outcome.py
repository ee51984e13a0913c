"""The outcome of a submitted action, as workers send it to gateways and cache it per (game, seat, request id)."""

from __future__ import annotations

from dataclasses import dataclass

from flotilla.errors import FlotillaError
from flotilla.records import EventRow, OutcomeRecord

from .lineage import etag


@dataclass(frozen=True, slots=True)
class Outcome(OutcomeRecord):
    """An outcome (records.OutcomeRecord) with what the app does with it: its etag.

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
    def rejected(cls, error: FlotillaError) -> Outcome:
        return cls(False, reason=error.reason, message=error.message, metadata=error.metadata)

    @classmethod
    def loads(cls, data: bytes, *, game: str = "", seat: int = -1) -> Outcome:
        """Decode `dumps`; `game` and `seat`: whose request it answers."""
        return cls(**cls.plain_args(data), game=game, seat=seat)
