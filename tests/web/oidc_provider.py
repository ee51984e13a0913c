"""A tiny OpenID provider for the browser tests, on 127.0.0.1 with a key pair made here: discovery, an
authorize endpoint that signs the user in at once and redirects back with a code, a token endpoint
that checks the code, client, redirect and PKCE (S256) and issues an RS256 ID token, a JWKS, and
CORS for the page's origin. `mode` makes it misbehave the ways a test needs."""

from __future__ import annotations

import base64
import hashlib
import json
import secrets
import threading
import time
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, Literal
from urllib.parse import parse_qs, urlencode, urlsplit

import jwt
from cryptography.hazmat.primitives.asymmetric import rsa
from jwt.algorithms import RSAAlgorithm

KID = "web-test-1"
Mode = Literal["ok", "wrong_state", "wrong_challenge"]


@dataclass
class Grant:
    """A code the authorize endpoint handed out, and what the token endpoint checks it against."""

    client_id: str
    redirect_uri: str
    challenge: str
    nonce: str


@dataclass
class Provider:
    """The provider's state: who signs in, the registered client, what it was asked (for assertions)."""

    client_id: str
    subject: str = "alice"
    name: str = "Alice Harbour"
    lifetime_s: int = 300
    mode: Mode = "ok"
    origin: str = ""  # the page's origin: its redirect URI is origin + "/", CORS allows it
    issuer: str = ""
    key: rsa.RSAPrivateKey = field(
        default_factory=lambda: rsa.generate_private_key(public_exponent=65537, key_size=2048)
    )
    grants: dict[str, Grant] = field(default_factory=dict)
    authorizations: list[dict[str, str]] = field(default_factory=list)
    exchanges: list[dict[str, str]] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def jwks_url(self) -> str:
        return f"{self.issuer}/jwks"

    def discovery(self) -> dict[str, Any]:
        return {
            "issuer": self.issuer,
            "authorization_endpoint": f"{self.issuer}/authorize",
            "token_endpoint": f"{self.issuer}/token",
            "jwks_uri": self.jwks_url,
            "response_types_supported": ["code"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "code_challenge_methods_supported": ["S256"],
            "grant_types_supported": ["authorization_code"],
            "token_endpoint_auth_methods_supported": ["none"],
        }

    def jwks(self) -> dict[str, Any]:
        jwk = RSAAlgorithm.to_jwk(self.key.public_key(), as_dict=True)
        return {"keys": [{**jwk, "kid": KID, "alg": "RS256", "use": "sig"}]}

    def authorize(self, query: dict[str, str]) -> tuple[int, str]:
        """(status, redirect location or an error text): the user is signed in at once."""
        self.authorizations.append(query)
        if query.get("client_id") != self.client_id or query.get("redirect_uri") != f"{self.origin}/":
            return 400, "unknown client or redirect_uri"
        if query.get("response_type") != "code" or query.get("code_challenge_method") != "S256":
            return 400, "only the code flow with PKCE S256"
        code = secrets.token_urlsafe(16)
        challenge = query.get("code_challenge", "")
        if self.mode == "wrong_challenge":  # as if the code were redeemed with another verifier
            challenge = _challenge("not-the-tabs-verifier-" + "x" * 30)
        self.grants[code] = Grant(self.client_id, query["redirect_uri"], challenge, query.get("nonce", ""))
        state = query.get("state", "") + ("-forged" if self.mode == "wrong_state" else "")
        return 302, f"{query['redirect_uri']}?{urlencode({'code': code, 'state': state})}"

    def token(self, form: dict[str, str]) -> tuple[int, dict[str, Any]]:
        self.exchanges.append(form)
        grant = self.grants.pop(form.get("code", ""), None)  # a code is used once
        if form.get("grant_type") != "authorization_code" or grant is None:
            return 400, {"error": "invalid_grant", "error_description": "unknown or used code"}
        if form.get("client_id") != grant.client_id or form.get("redirect_uri") != grant.redirect_uri:
            return 400, {"error": "invalid_grant", "error_description": "client or redirect_uri differs"}
        if _challenge(form.get("code_verifier", "")) != grant.challenge:
            return 400, {"error": "invalid_grant", "error_description": "PKCE verification failed"}
        now = int(time.time())
        claims = {
            "iss": self.issuer,
            "aud": self.client_id,
            "sub": self.subject,
            "name": self.name,
            "nonce": grant.nonce,
            "iat": now,
            "exp": now + self.lifetime_s,
        }
        id_token = jwt.encode(claims, self.key, algorithm="RS256", headers={"kid": KID})
        return 200, {"access_token": secrets.token_urlsafe(16), "token_type": "Bearer", "id_token": id_token}

    def start(self) -> Provider:
        self.server = ThreadingHTTPServer(("127.0.0.1", 0), _handler(self))
        self.issuer = f"http://127.0.0.1:{self.server.server_address[1]}/idp"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def _challenge(verifier: str) -> str:
    """PKCE S256: base64url(sha256(verifier)) without padding."""
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


def _handler(provider: Provider) -> type[BaseHTTPRequestHandler]:
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: Any) -> None:
            return

        def _cors(self) -> None:
            if provider.origin and self.headers.get("origin") == provider.origin:
                self.send_header("access-control-allow-origin", provider.origin)
                self.send_header("vary", "origin")

        def _json(self, status: int, body: dict[str, Any]) -> None:
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("content-type", "application/json")
            self.send_header("content-length", str(len(data)))
            self.send_header("cache-control", "no-store")
            self._cors()
            self.end_headers()
            self.wfile.write(data)

        def do_OPTIONS(self) -> None:
            self.send_response(204)
            self._cors()
            self.send_header("access-control-allow-methods", "GET, POST")
            self.send_header("access-control-allow-headers", "content-type, accept, dpop")
            self.send_header("content-length", "0")
            self.end_headers()

        def do_GET(self) -> None:
            url = urlsplit(self.path)
            path = url.path.removeprefix("/idp")
            if path == "/.well-known/openid-configuration":
                self._json(200, provider.discovery())
            elif path == "/jwks":
                self._json(200, provider.jwks())
            elif path == "/authorize":
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                status, where = provider.authorize(query)
                self.send_response(status)
                if status == 302:
                    self.send_header("location", where)
                data = where.encode() if status != 302 else b""
                self.send_header("content-length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)
            else:
                self._json(404, {"error": "not_found"})

        def do_POST(self) -> None:
            if urlsplit(self.path).path != "/idp/token":
                self._json(404, {"error": "not_found"})
                return
            length = min(int(self.headers.get("content-length") or 0), 64 * 1024)
            form = {k: v[0] for k, v in parse_qs(self.rfile.read(length).decode()).items()}
            self._json(*provider.token(form))

    return Handler
