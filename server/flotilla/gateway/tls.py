"""TLS of the gateway (server side).

Server: FLOTILLA_TLS_CERT + FLOTILLA_TLS_KEY (PEM files) make the gateway serve TLS only;
FLOTILLA_TLS_CLIENT_CA also requires every client to present a certificate that CA signed
(mTLS). The files are checked again at each new connection's handshake (a `stat` of each) and
re-read when one changed, so a renewed certificate (cert-manager, a Secret update) is served to
new connections without a restart; a file that cannot be read or parsed keeps the previous
certificate (logged). Replace the files atomically (rename; a Kubernetes Secret volume does).

The client side (processes that call a gateway: the matchmaker's bots, `flotilla bot`, `flotilla up`)
is flotilla/client_tls.py.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import grpc
import structlog

from flotilla.settings import Settings

log = structlog.get_logger("flotilla.gateway")

Stamp = tuple[tuple[int, int, int], ...]


def _pem(path: str, marker: str, what: str) -> bytes:
    data = Path(path).read_bytes()
    if f"-----BEGIN {marker}".encode() not in data and not (marker == "PRIVATE KEY" and b"PRIVATE KEY-----" in data):
        msg = f"{what} {path} holds no PEM {marker}"
        raise ValueError(msg)
    return data


class CertificateFiles:
    """The gateway's certificate, key and (optional) client CA, from PEM files re-read when they change."""

    def __init__(self, cert_file: str, key_file: str, client_ca_file: str = "") -> None:
        if not cert_file or not key_file:
            msg = "TLS needs both FLOTILLA_TLS_CERT and FLOTILLA_TLS_KEY"
            raise ValueError(msg)
        self.files = tuple(f for f in (cert_file, key_file, client_ca_file) if f)
        self.cert_file, self.key_file, self.client_ca_file = cert_file, key_file, client_ca_file
        self.reloads = 0
        self._stamp = self._stat()
        self._config = self._load()  # at start, unreadable files are an error, not a warning

    @classmethod
    def from_settings(cls, settings: Settings) -> CertificateFiles | None:
        """None when the gateway serves plaintext (neither FLOTILLA_TLS_CERT nor FLOTILLA_TLS_KEY set)."""
        if not settings.tls_cert and not settings.tls_key:
            if settings.tls_client_ca:
                msg = "FLOTILLA_TLS_CLIENT_CA needs FLOTILLA_TLS_CERT and FLOTILLA_TLS_KEY"
                raise ValueError(msg)
            return None
        return cls(settings.tls_cert, settings.tls_key, settings.tls_client_ca)

    @property
    def mutual(self) -> bool:
        """Whether clients must present a certificate."""
        return bool(self.client_ca_file)

    def _stat(self) -> Stamp:
        stats = [Path(f).stat() for f in self.files]
        return tuple((s.st_ino, s.st_mtime_ns, s.st_size) for s in stats)

    def _load(self) -> grpc.ServerCertificateConfiguration:
        chain = _pem(self.cert_file, "CERTIFICATE", "FLOTILLA_TLS_CERT")
        key = _pem(self.key_file, "PRIVATE KEY", "FLOTILLA_TLS_KEY")
        roots = _pem(self.client_ca_file, "CERTIFICATE", "FLOTILLA_TLS_CLIENT_CA") if self.client_ca_file else None
        return grpc.ssl_server_certificate_configuration([(key, chain)], root_certificates=roots)

    def fetch(self) -> grpc.ServerCertificateConfiguration | None:
        """grpc's per-handshake callback: a new configuration when a file changed, else None (keep)."""
        try:
            stamp = self._stat()
            if stamp == self._stamp:
                return None
            config = self._load()
        except (OSError, ValueError) as exc:
            log.warning("tls.reload_failed", error=str(exc))
            return None
        self._stamp = stamp
        self.reloads += 1
        log.info("tls.reloaded", files=list(self.files))
        return config

    def credentials(self) -> grpc.ServerCredentials:
        # The stubs want a configuration from the callback; grpc documents None as "keep the current one".
        fetch: Callable[[], grpc.ServerCertificateConfiguration] = self.fetch  # type: ignore[assignment]
        return grpc.dynamic_ssl_server_credentials(self._config, fetch, require_client_authentication=self.mutual)
