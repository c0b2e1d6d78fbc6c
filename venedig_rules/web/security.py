"""The web server's guards around every request (ASGI middleware, in ``middleware``'s order):

- ``SecurityHeaders``: a Content-Security-Policy with ``frame-ancestors 'none'`` (no page of
  this server can be framed), ``Referrer-Policy: no-referrer`` (a seat's token in its URL never
  leaves in a Referer), ``X-Content-Type-Options: nosniff``, and ``Cache-Control: no-store`` on
  everything but the static files (page data holds a seat's hand).
- ``CloseCodes``: a WebSocket refused by anything inside (a wrong token, no such table, another
  site's page, too many connections) is accepted and closed with 4000 + the HTTP status
  (``4403``, ``4404``, ``4429``...) and the sentence as reason, so the page can show it, rather
  than refused with a bare HTTP status it cannot read.
- Starlette's ``TrustedHostMiddleware``: only the ``--allowed-hosts`` names (so a DNS
  rebinding site cannot reach a server on localhost).
- ``SameOrigin``: a request that changes something (any method but GET, HEAD and OPTIONS) and
  every WebSocket must come from this server's own pages: an ``Origin`` header, when there is
  one, names this very host and port, and ``Sec-Fetch-Site`` says no other site sent it.
  Scripts and command-line clients send neither and are served.
- ``Visitors``: the visitor cookie (``venedig_visitor``: 128 random bits, HttpOnly,
  SameSite=Lax), whose SHA-256 the server keeps to list a visitor's own saves and know the
  tables a visitor made. A random name needs no signature, so it outlives a restart.

>>> allowed_hosts("0.0.0.0")[:3], allowed_hosts("::1"), normal_host("::1")
(['localhost', '127.0.0.1', '[::1]'], ['localhost', '127.0.0.1', '[::1]'], '[::1]')
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import re
import secrets
import socket
from collections.abc import Sequence
from urllib.parse import urlsplit

from starlette.datastructures import Headers, MutableHeaders
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import HTTPConnection, cookie_parser
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

#: The host names a server on this machine answers to by default.
LOCAL_HOSTS = ("localhost", "127.0.0.1", "[::1]")
#: The host name of Starlette's TestClient, allowed by ``create_app`` when no list is given.
TEST_HOST = "testserver"
#: The Content-Security-Policy of every response: this server's own scripts, styles (inline
#: style attributes too: the board's SVG has some), images and sockets only; never framed. No
#: inline script runs. ``'unsafe-eval'`` because browser automation (Playwright's
#: ``wait_for_function``, which the browser tests use) evaluates its checks as strings in the
#: page; the pages' own scripts never evaluate a string.
CSP = (
    "default-src 'self'; script-src 'self' 'unsafe-eval'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
HEADERS = {
    "Content-Security-Policy": CSP,
    "Referrer-Policy": "no-referrer",
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Cross-Origin-Opener-Policy": "same-origin",
    "Cross-Origin-Resource-Policy": "same-origin",
}
#: The cookie naming a visitor.
VISITOR_COOKIE = "venedig_visitor"
_VISITOR = re.compile(r"[A-Za-z0-9_-]{22}")
#: The scope key where ``Visitors`` leaves the hashed visitor cookie.
VISITOR_KEY = "venedig.visitor"
#: Seconds a visitor cookie lasts (a year: the visitor's saves stay listed).
VISITOR_AGE = 365 * 24 * 3600
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})
#: The longest reason a WebSocket close frame carries, in bytes.
MAX_REASON = 123


def middleware(hosts: Sequence[str]) -> list[Middleware]:
    """The guards of every request, outermost first, for a server answering to ``hosts``."""
    return [
        Middleware(SecurityHeaders),
        Middleware(CloseCodes),
        Middleware(TrustedHostMiddleware, allowed_hosts=[normal_host(h) for h in hosts], www_redirect=False),
        Middleware(SameOrigin),
        Middleware(Visitors),
    ]


def allowed_hosts(bind: str) -> list[str]:
    """The default ``--allowed-hosts`` of a server listening on ``bind``: this machine's local
    names, the address it listens on, and, listening on every address, the machine's name and
    its addresses (other names need ``--allowed-hosts``)."""
    hosts = list(LOCAL_HOSTS)
    if bind in ("0.0.0.0", "::", ""):
        name = socket.gethostname()
        hosts += [name, socket.getfqdn()]
        with contextlib.suppress(OSError):  # a name without addresses: the names above still work
            hosts += [str(info[4][0]) for info in socket.getaddrinfo(name, None)]
    else:
        hosts.append(bind)
    return list(dict.fromkeys(normal_host(h) for h in hosts if h))


def normal_host(host: str) -> str:
    """A host as a Host header names it, lower case; an IPv6 address in brackets."""
    host = host.strip().lower()
    return f"[{host}]" if ":" in host and not host.startswith("[") else host


def visitor(connection: HTTPConnection) -> str:
    """The hashed visitor cookie of a request ("" when ``Visitors`` did not run)."""
    return str(connection.scope.get(VISITOR_KEY, ""))


class SecurityHeaders:
    """Adds ``HEADERS`` to every HTTP response (and ``Cache-Control: no-store`` but for
    ``/static/``)."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        static = str(scope.get("path", "")).startswith("/static/")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                for name, value in HEADERS.items():
                    headers.setdefault(name, value)
                if not static:
                    headers["Cache-Control"] = "no-store"
            await send(message)

        await self.app(scope, receive, send_with_headers)


class CloseCodes:
    """Turns a WebSocket's refusal as an HTTP response (Starlette's denial response, which a
    Response sends for a WebSocket) into an accepted socket closed with 4000 + the status and
    the response's ``error`` (or text) as reason."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "websocket":
            await self.app(scope, receive, send)
            return
        connected = accepted = False
        status, body = 0, bytearray()

        async def receive_noting_connect() -> Message:
            nonlocal connected
            message = await receive()
            connected = connected or message["type"] == "websocket.connect"
            return message

        async def send_refusal_as_close(message: Message) -> None:
            nonlocal status, accepted
            if message["type"] == "websocket.http.response.start":
                status = int(message["status"])
            elif message["type"] == "websocket.http.response.body":
                body.extend(message.get("body", b""))
                if not message.get("more_body", False):
                    if not connected:
                        await receive_noting_connect()
                    if not accepted:  # a refusal raised after the accept only closes
                        await send({"type": "websocket.accept"})
                    await send({"type": "websocket.close", "code": 4000 + status, "reason": _reason(bytes(body))})
            else:
                accepted = accepted or message["type"] == "websocket.accept"
                await send(message)

        extensions = {**scope.get("extensions", {}), "websocket.http.response": {}}
        await self.app({**scope, "extensions": extensions}, receive_noting_connect, send_refusal_as_close)


def _reason(body: bytes) -> str:
    """The sentence of a refusal's body, cut to what a close frame carries."""
    text = body.decode("utf-8", "replace")
    try:
        data = json.loads(text)
    except ValueError:
        data = None
    if isinstance(data, dict) and isinstance(data.get("error"), str):
        text = data["error"]
    return text.encode()[:MAX_REASON].decode("utf-8", "ignore")


class SameOrigin:
    """Refuses (403) a state-changing request or a WebSocket that another site's page sent."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "websocket" or (scope["type"] == "http" and scope["method"] not in SAFE_METHODS):
            refusal = cross_origin(Headers(scope=scope))
            if refusal is not None:
                await JSONResponse({"error": refusal}, status_code=403)(scope, receive, send)
                return
        await self.app(scope, receive, send)


def cross_origin(headers: Headers) -> str | None:
    """Why a request with these headers comes from another site's page (None: it does not).

    >>> cross_origin(Headers({"host": "127.0.0.1:8000", "origin": "http://127.0.0.1:8000"})) is None
    True
    >>> cross_origin(Headers({"host": "127.0.0.1:8000", "origin": "https://evil.example"}))
    "a page of https://evil.example cannot change games here; only this server's own pages can"
    """
    origin = headers.get("origin")
    site = headers.get("sec-fetch-site")
    if origin is None:
        if site in ("cross-site", "same-site"):
            return f"a page of another site ({site}) cannot change games here; only this server's own pages can"
        return None
    parts = urlsplit(origin)
    if parts.scheme not in ("http", "https") or parts.netloc.lower() != headers.get("host", "").lower():
        return f"a page of {origin[:60]} cannot change games here; only this server's own pages can"
    return None


class Visitors:
    """Reads the visitor cookie (making one for a visitor without) and leaves its SHA-256 in the
    scope (``visitor``); a new cookie goes out with the HTTP response."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = cookie_parser(Headers(scope=scope).get("cookie", "")).get(VISITOR_COOKIE, "")
        known = _VISITOR.fullmatch(given) is not None
        name = given if known else secrets.token_urlsafe(16)
        scope[VISITOR_KEY] = hashlib.sha256(name.encode()).hexdigest()
        if known or scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        secure = "; Secure" if scope.get("scheme") == "https" else ""
        set_cookie = f"{VISITOR_COOKIE}={name}; Path=/; Max-Age={VISITOR_AGE}; HttpOnly; SameSite=Lax{secure}"

        async def send_with_cookie(message: Message) -> None:
            if message["type"] == "http.response.start":
                MutableHeaders(scope=message).append("Set-Cookie", set_cookie)
            await send(message)

        await self.app(scope, receive, send_with_cookie)
