"""How a client command (`flotilla bot`, `flotilla arena --target`) reaches a gateway: TLS and an API key."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

from flotilla.settings import Settings

if TYPE_CHECKING:  # the SDK (grpc, the generated API) is imported when a command connects
    from flotilla_client.tls import Tls


def add_connection_arguments(parser: argparse.ArgumentParser) -> None:
    """The connection flags. They default to FLOTILLA_GATEWAY_* and FLOTILLA_API_KEY (docs/security.md),
    read from the settings when the command runs (`connection_of`)."""
    parser.add_argument(
        "--tls", action="store_true", default=None, help="TLS (implied by --ca/--cert; default: $FLOTILLA_GATEWAY_TLS)"
    )
    parser.add_argument("--ca", help="PEM CA bundle the gateway's certificate chains to ($FLOTILLA_GATEWAY_CA)")
    parser.add_argument("--cert", help="PEM client certificate, for gateways that require one ($FLOTILLA_GATEWAY_CERT)")
    parser.add_argument("--key", help="its PEM private key ($FLOTILLA_GATEWAY_KEY)")
    parser.add_argument("--server-name", help="name the gateway's certificate carries ($FLOTILLA_GATEWAY_SERVER_NAME)")
    parser.add_argument(
        "--api-key", default=None, help="sign in with this API key (default: $FLOTILLA_API_KEY) instead of as a guest"
    )


def tls_of(args: argparse.Namespace) -> Tls | None:
    """The TLS settings of `add_connection_arguments`' flags, else FLOTILLA_GATEWAY_*'s (None: plaintext)."""
    gw = Settings.from_env()

    def flag(given: str | None, default: str) -> str:
        return default if given is None else given

    ca, cert = flag(args.ca, gw.gateway_ca), flag(args.cert, gw.gateway_cert)
    key, name = flag(args.key, gw.gateway_key), flag(args.server_name, gw.gateway_server_name)
    if args.tls or gw.gateway_tls or ca or cert or key:
        from flotilla_client.tls import Tls  # noqa: PLC0415

        return Tls(ca, cert, key, name)
    return None


def connection_of(args: argparse.Namespace) -> Tls | None:
    """`tls_of(args)`; and `args.api_key` set to the flag's value, else FLOTILLA_API_KEY's."""
    if args.api_key is None:
        args.api_key = Settings.from_env().api_key
    return tls_of(args)
