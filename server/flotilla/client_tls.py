"""TLS of the processes that call a gateway: the matchmaker's bots, `flotilla bot` and `flotilla up`.

They reach a gateway over TLS per FLOTILLA_GATEWAY_TLS / _CA / _CERT / _KEY / _SERVER_NAME. The
gateway's own (server) side is gateway/tls.py; this lives apart so that a process calling a gateway
does not import the gateway (the layers contract in pyproject.toml).
"""

from __future__ import annotations

from flotilla.settings import Settings
from flotilla_client.tls import Tls


def client_tls(settings: Settings) -> Tls | None:
    """How this process reaches gateways (FLOTILLA_GATEWAY_*): None for plaintext."""
    wanted = settings.gateway_tls or settings.gateway_ca or settings.gateway_cert or settings.gateway_key
    if not wanted:
        return None
    return Tls(settings.gateway_ca, settings.gateway_cert, settings.gateway_key, settings.gateway_server_name)
