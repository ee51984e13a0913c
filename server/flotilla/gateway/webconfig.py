"""What the web client needs to know before anyone signs in: `GET /config.json` on the browser listener.

`{"guests": bool, "signIn": null | {"issuer", "clientId", "scopes", "provider"}}`: whether "Play as
guest" works (FLOTILLA_GUESTS) and the identity provider browsers sign in with (FLOTILLA_OIDC_ISSUER
with FLOTILLA_WEB_OIDC_*). The page runs the authorization code flow with PKCE against that issuer
as a public client and sends the provider's **ID token** as its session token: an ID token's `aud`
is the client id by the OpenID Connect spec at every provider, while an access token's audience
(and whether it is a JWT at all) differs from provider to provider; so FLOTILLA_OIDC_AUDIENCE must
be the web client id. The page's Content-Security-Policy lets it `fetch` the issuer's origin
(discovery and the token endpoint) and nothing else but its own.
"""

from __future__ import annotations

import ipaddress
import json
import re
from dataclasses import dataclass
from urllib.parse import urlsplit

import structlog

from flotilla.gateway.static import REVALIDATE, File, page_policy
from flotilla.settings import Settings

log = structlog.get_logger("flotilla.gateway")

PATH = "/config.json"
_TOKEN = re.compile(r"[\x21-\x7e]{1,255}")  # a client id or a scope: printable ASCII, no spaces
_ORIGIN_UNSAFE = re.compile(r"[\s;,'\"\\]")  # would end a CSP source expression
MAX_PROVIDER = 40


@dataclass(frozen=True, slots=True)
class WebSignIn:
    """The identity provider browsers sign in with (the page's "Sign in with <provider>")."""

    issuer: str
    client_id: str
    scopes: str
    provider: str

    @property
    def origin(self) -> str:
        """The issuer's origin (scheme://host[:port]): discovery and the token endpoint live there."""
        parts = urlsplit(self.issuer)
        return f"{parts.scheme}://{parts.netloc}".lower()


@dataclass(frozen=True, slots=True)
class PageConfig:
    """What `/config.json` says, and the page's CSP that goes with it."""

    guests: bool = True
    sign_in: WebSignIn | None = None

    @classmethod
    def from_settings(cls, settings: Settings) -> PageConfig:
        """The page's configuration; ValueError naming the setting when the web sign-in cannot work."""
        return cls(settings.guests, web_sign_in(settings))

    def file(self) -> File:
        """`/config.json` as served (revalidated on each load, like index.html)."""
        sign_in = None
        if self.sign_in is not None:
            s = self.sign_in
            sign_in = {"issuer": s.issuer, "clientId": s.client_id, "scopes": s.scopes, "provider": s.provider}
        body = json.dumps({"guests": self.guests, "signIn": sign_in}, separators=(",", ":")).encode()
        return File(body, b"application/json", REVALIDATE)

    def policy(self) -> bytes:
        """The Content-Security-Policy of the page: its own origin, and the issuer's for sign-in."""
        return page_policy(() if self.sign_in is None else (self.sign_in.origin,))


def web_sign_in(settings: Settings) -> WebSignIn | None:
    """The provider of FLOTILLA_WEB_OIDC_CLIENT_ID at FLOTILLA_OIDC_ISSUER, or None (not configured)."""
    client_id = settings.web_oidc_client_id.strip()
    if not client_id:
        return None
    issuer = settings.oidc_issuer
    if not issuer:
        msg = "FLOTILLA_WEB_OIDC_CLIENT_ID needs FLOTILLA_OIDC_ISSUER (the gateways must accept its tokens)"
        raise ValueError(msg)
    problem = _issuer_problem(issuer)
    if problem:
        msg = f"FLOTILLA_OIDC_ISSUER={issuer[:80]!r} cannot be a browser sign-in's issuer: {problem}"
        raise ValueError(msg)
    if not _TOKEN.fullmatch(client_id):
        msg = "FLOTILLA_WEB_OIDC_CLIENT_ID must be 1-255 printable ASCII characters without spaces"
        raise ValueError(msg)
    scopes = settings.web_oidc_scopes.split()
    if "openid" not in scopes or not all(_TOKEN.fullmatch(s) for s in scopes):
        msg = "FLOTILLA_WEB_OIDC_SCOPES must be space-separated scopes including openid (the page needs an ID token)"
        raise ValueError(msg)
    provider = " ".join(settings.web_oidc_provider.split()) or urlsplit(issuer).hostname or issuer
    if len(provider) > MAX_PROVIDER or not provider.isprintable():
        msg = f"FLOTILLA_WEB_OIDC_PROVIDER must be at most {MAX_PROVIDER} printable characters"
        raise ValueError(msg)
    if settings.oidc_audience != client_id:  # an ID token may carry more audiences, rarely
        log.warning(
            "gateway.web_sign_in_audience",
            hint="the page sends ID tokens, whose aud is FLOTILLA_WEB_OIDC_CLIENT_ID: set FLOTILLA_OIDC_AUDIENCE to it",
        )
    return WebSignIn(issuer, client_id, " ".join(scopes), provider)


def _issuer_problem(issuer: str) -> str:
    """Why a page cannot use `issuer` ("" when it can): https, or http on a loopback address only."""
    if _ORIGIN_UNSAFE.search(issuer):
        return "it contains spaces, quotes, commas or semicolons"
    parts = urlsplit(issuer)
    if parts.username is not None or parts.password is not None or not parts.hostname:
        return "it must be scheme://host[:port][/path], without credentials"
    if parts.scheme == "https":
        return ""
    if parts.scheme == "http" and _loopback(parts.hostname):
        return ""
    return "browsers sign in over https (http only on a loopback address, for tests and local runs)"


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False
