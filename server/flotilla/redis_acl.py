"""Who may do what on Flotilla's Redis: the ACL users, and the private files `flotilla up` keeps them in.

Two users, the same in `flotilla up`, deploy/compose.yaml and the Helm chart's trial Redis
(docs/deploy.md, "Redis users"); the `default` user is off, so a client without a password gets
NOAUTH:

* `flotilla`, the application: every key, the data commands Flotilla runs (strings, hashes,
  lists, sets, sorted sets, streams, transactions, scripts, WAIT) and nothing that changes the
  server: no CONFIG, SAVE/BGSAVE, MODULE, DEBUG, SHUTDOWN, ACL, FLUSHALL, KEYS, MONITOR, ...
  (Redis's `@dangerous` category), no SCRIPT FLUSH/KILL, no FUNCTION.
* `admin`, for operators: everything.

Passwords are made at the first start (`secrets.token_urlsafe`: URL-safe, 256 bits) and kept in a
0600 file; the ACL file Redis reads holds only their SHA-256, and no password ever appears on a
command line (where `ps` would show it to every local user).
"""

from __future__ import annotations

import hashlib
import os
import secrets
from dataclasses import dataclass
from pathlib import Path

APP_USER = "flotilla"
ADMIN_USER = "admin"

APP_RULES: tuple[str, ...] = (
    "-@all",
    "+@read",
    "+@write",
    "+@keyspace",
    "+@string",
    "+@hash",
    "+@list",
    "+@set",
    "+@sortedset",
    "+@stream",
    "+@transaction",
    "+@connection",
    "-@dangerous",  # CONFIG, SAVE, BGSAVE, MODULE, DEBUG, SHUTDOWN, ACL, FLUSHALL, KEYS, SORT, INFO, CLIENT...
    "+time",  # the store's scripts read the server's clock
    "+eval",
    "+evalsha",
    "+script|load",
    "+script|exists",  # redis-py's scripts; never SCRIPT FLUSH or KILL
    "+client|id",
    "+client|unblock",  # a stream reader woken up (store/feeds.py, store/lobby_store.py)
    "+client|setname",  # redis-py's handshake (its CLIENT SETINFO: @connection on 7.2+, absent before)
    "+cluster|slots",  # a Redis Cluster's topology, for the cluster client
)
"""The application user's commands, in order (Redis applies ACL rules left to right). Valid on
Redis 6.2 (the embedded server) and 7.0+ (which refuses a file naming a subcommand it lacks)."""

ADMIN_RULES: tuple[str, ...] = ("allchannels", "+@all")

PASSWORDS_FILE = "redis.passwords"
"""Beside the data directory, under `flotilla up`'s state directory: `user password` lines."""

URL_FILE = "redis.url"
"""The application's REDIS_URL of the running embedded Redis (for operator commands)."""


def acl_user_line(user: str, password: str, rules: tuple[str, ...]) -> str:
    """One `user` line of an ACL file: on, the password's SHA-256 (never the password), every key,
    no pub/sub channels, then `rules`."""
    digest = hashlib.sha256(password.encode()).hexdigest()
    return " ".join(("user", user, "on", f"#{digest}", "resetkeys", "~*", "resetchannels", *rules))


@dataclass(frozen=True, slots=True)
class RedisUsers:
    """The passwords of the application's and the operators' Redis users."""

    app_password: str
    admin_password: str

    @classmethod
    def generate(cls) -> RedisUsers:
        return cls(secrets.token_urlsafe(32), secrets.token_urlsafe(32))

    def acl_file(self) -> str:
        """An ACL file (`--aclfile`): the default user off, the application's and the admin's users."""
        return "\n".join(
            (
                "user default off resetkeys resetchannels -@all",
                acl_user_line(APP_USER, self.app_password, APP_RULES),
                acl_user_line(ADMIN_USER, self.admin_password, ADMIN_RULES),
                "",
            )
        )

    def app_url(self, port: int, host: str = "127.0.0.1") -> str:
        return f"redis://{APP_USER}:{self.app_password}@{host}:{port}/0"

    def admin_url(self, port: int, host: str = "127.0.0.1") -> str:
        return f"redis://{ADMIN_USER}:{self.admin_password}@{host}:{port}/0"

    @classmethod
    def load_or_create(cls, path: Path) -> RedisUsers:
        """The passwords kept at `path`, made and written there (0600) when it does not exist yet."""
        if path.exists():
            path.chmod(0o600)
            found = dict(line.split(" ", 1) for line in path.read_text().splitlines() if " " in line)
            if APP_USER in found and ADMIN_USER in found:
                return cls(found[APP_USER].strip(), found[ADMIN_USER].strip())
        users = cls.generate()
        write_private(path, f"{APP_USER} {users.app_password}\n{ADMIN_USER} {users.admin_password}\n")
        return users


def write_private(path: Path, text: str) -> None:
    """Write `text` to `path`, readable and writable by this user only (0600, whatever the umask
    and whatever mode an older file had)."""
    descriptor = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(descriptor, "w") as file:
        os.fchmod(file.fileno(), 0o600)
        file.write(text)


def make_private(directory: Path) -> None:
    """`directory` and every directory under it 0700, every file 0600 (made if missing): what an
    older run left readable to other local users (the AOF holds the signing keys) is closed."""
    directory.mkdir(parents=True, exist_ok=True)
    directory.chmod(0o700)
    for root, dirs, files in os.walk(directory):
        for name in dirs:
            (Path(root) / name).chmod(0o700)
        for name in files:
            (Path(root) / name).chmod(0o600)


def masked(url: str) -> str:
    """`url` with its password, if any, shown as `***` (for logs and the console)."""
    scheme, sep, rest = url.partition("://")
    userinfo, at, host = rest.rpartition("@")
    if not sep or not at or ":" not in userinfo:
        return url
    return f"{scheme}://{userinfo.split(':', 1)[0]}:***@{host}"
