"""TLS to a gateway: which roots verify it and which certificate, if any, the client presents.

FlotillaClient("play.example.org:443", tls=Tls())                      # the system's roots
FlotillaClient("10.0.0.5:50051", tls=Tls(ca_file="ca.pem", server_name="gateway.internal"))
FlotillaClient(target, tls=Tls(ca_file="ca.pem", cert_file="bot.pem", key_file="bot-key.pem"))  # mTLS
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import grpc

# HTTP/2 keepalive: a connection that answers nothing (a gateway gone, a black-holed path) is
# closed `KEEPALIVE_TIME_MS + KEEPALIVE_TIMEOUT_MS` after it last received anything, so its calls
# fail UNAVAILABLE and are retried on the next target. The gateway accepts pings this often
# (its floor, `gateway/server.py` SERVER_OPTIONS, is half of it).
KEEPALIVE_TIME_MS = 10_000
KEEPALIVE_TIMEOUT_MS = 5_000
KEEPALIVE_OPTIONS: list[tuple[str, int]] = [
    ("grpc.keepalive_time_ms", KEEPALIVE_TIME_MS),
    ("grpc.keepalive_timeout_ms", KEEPALIVE_TIMEOUT_MS),
    ("grpc.keepalive_permit_without_calls", 1),  # an idle channel is checked too
    ("grpc.http2.max_pings_without_data", 0),  # keep pinging a connection that sends nothing
    # Any ping unanswered this long ends the connection: grpc core sends no keepalive ping while
    # another ping (its flow-control probe) is in flight, and waits 60 s for that one by default.
    ("grpc.http2.ping_timeout_ms", KEEPALIVE_TIMEOUT_MS),
]


def _read(path: str) -> bytes | None:
    return Path(path).read_bytes() if path else None


@dataclass(frozen=True, slots=True)
class Tls:
    """How a client reaches a gateway over TLS (file paths of PEM files).

    `ca_file`: the CA bundle that signed the gateway's certificate (empty: the system's roots);
    `cert_file` / `key_file`: a client certificate, for gateways that require one (both or neither);
    `server_name`: the name the gateway's certificate must carry when it is not the target's host.
    """

    ca_file: str = ""
    cert_file: str = ""
    key_file: str = ""
    server_name: str = ""

    def __post_init__(self) -> None:
        if bool(self.cert_file) != bool(self.key_file):
            msg = "a client certificate needs both cert_file and key_file"
            raise ValueError(msg)

    def credentials(self) -> grpc.ChannelCredentials:
        """Channel credentials (the files are read now)."""
        return grpc.ssl_channel_credentials(
            root_certificates=_read(self.ca_file),
            private_key=_read(self.key_file),
            certificate_chain=_read(self.cert_file),
        )

    def options(self) -> list[tuple[str, str | int]]:
        """Channel options: keepalive, and the expected server name when given."""
        named = [("grpc.ssl_target_name_override", self.server_name)] if self.server_name else []
        return [*KEEPALIVE_OPTIONS, *named]

    def aio_channel(self, target: str) -> grpc.aio.Channel:
        return grpc.aio.secure_channel(target, self.credentials(), options=self.options())

    def channel(self, target: str) -> grpc.Channel:
        """A blocking channel (health checks, scripts)."""
        return grpc.secure_channel(target, self.credentials(), options=self.options())
