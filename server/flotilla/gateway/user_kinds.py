"""The API's UserKind of a user shown by name: what clients mark beside the name ("guest", "bot")."""

from __future__ import annotations

from flotilla.api.game.v1 import game_pb2
from flotilla.identity.principal import ACCOUNT, BOT_ACCOUNT, GUEST
from flotilla.lobby.room_document import is_bot

_KINDS = {
    ACCOUNT: game_pb2.USER_KIND_ACCOUNT,
    GUEST: game_pb2.USER_KIND_GUEST,
    BOT_ACCOUNT: game_pb2.USER_KIND_BOT_ACCOUNT,
}


def user_kind(user: str, kind: str | None) -> game_pb2.UserKind:
    """The kind of `user` (an id, without users/) whose record, seat or membership says `kind`
    (identity/principal.py); a server bot by its id; UNSPECIFIED when nothing says (older records)."""
    if is_bot(user):
        return game_pb2.USER_KIND_SERVER_BOT
    return _KINDS.get(kind or "", game_pb2.USER_KIND_UNSPECIFIED)
