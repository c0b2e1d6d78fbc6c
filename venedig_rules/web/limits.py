"""How much one client may ask of the server: token-bucket rate limits per client (new tables,
WebSocket connections) in bounded memory, and counts of what a client holds open.

A client is its remote address (an IPv6 address by its /64 network, which one machine usually
holds whole). Behind a reverse proxy that sets ``X-Forwarded-For``, uvicorn gives the address it
forwards (uvicorn's ``--forwarded-allow-ips``, 127.0.0.1 by default).

>>> clock = iter([0.0, 0.0, 0.0, 10.0]).__next__
>>> limiter = RateLimiter(Rate(burst=2, per_second=0.1), clock=clock)
>>> [limiter.allow("10.0.0.1") for _ in range(3)], limiter.allow("10.0.0.1")
([True, True, False], True)
>>> client_key("2001:db8::1") == client_key("2001:db8::ffff"), client_key("192.0.2.7")
(True, '192.0.2.7')
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

#: Clients a limiter remembers at most; the one unseen longest is forgotten first (its bucket
#: has refilled by then unless a flood of new addresses pushed it out).
MAX_CLIENTS = 10_000


@dataclass(frozen=True)
class Rate:
    """A token bucket: ``burst`` requests at once, then ``per_second`` more each second."""

    burst: int
    per_second: float


@dataclass(frozen=True)
class Limits:
    """What one client may do. ``create``: new tables and save files brought in (each loads and
    replays a game); ``connect``: WebSocket connections (each builds a page);
    ``sockets``: WebSockets open at once; ``tables``: unfinished tables the client made that are
    still open (a server keeps those with people until they end; bots' games take its time)."""

    create: Rate = field(default_factory=lambda: Rate(burst=30, per_second=0.5))
    connect: Rate = field(default_factory=lambda: Rate(burst=60, per_second=5.0))
    sockets: int = 100
    tables: int = 20

    @classmethod
    def generous(cls) -> Limits:
        """Limits no benchmark or test on one machine reaches (one client plays every role)."""
        return cls(Rate(10**6, 10**6), Rate(10**6, 10**6), 10**6, 10**6)


class RateLimiter:
    """Token buckets by client, for at most ``clients`` clients (the least recently seen is
    forgotten first)."""

    def __init__(self, rate: Rate, clients: int = MAX_CLIENTS, clock: Callable[[], float] = time.monotonic):
        self.rate = rate
        self.clients = clients
        self._clock = clock
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # tokens, when

    def allow(self, client: str) -> bool:
        """Take one token from the client's bucket; False when it is empty."""
        now = self._clock()
        tokens, then = self._buckets.pop(client, (float(self.rate.burst), now))
        tokens = min(float(self.rate.burst), tokens + (now - then) * self.rate.per_second)
        allowed = tokens >= 1.0
        self._buckets[client] = (tokens - 1.0 if allowed else tokens, now)
        while len(self._buckets) > self.clients:
            self._buckets.popitem(last=False)
        return allowed

    def __len__(self) -> int:
        return len(self._buckets)


class Holdings:
    """How many of something (open WebSockets) each client holds now; a client holding none
    is not remembered, so the memory is bounded by what is open.

    >>> open_sockets = Holdings(most=1)
    >>> open_sockets.take("a"), open_sockets.take("a"), open_sockets.release("a"), open_sockets.take("a")
    (True, False, None, True)
    """

    def __init__(self, most: int):
        self.most = most
        self._held: dict[str, int] = {}

    def take(self, client: str) -> bool:
        """Count one more for the client; False (and nothing counted) at the most."""
        held = self._held.get(client, 0)
        if held >= self.most:
            return False
        self._held[client] = held + 1
        return True

    def release(self, client: str) -> None:
        """Count one fewer for the client."""
        held = self._held.get(client, 0) - 1
        if held > 0:
            self._held[client] = held
        else:
            self._held.pop(client, None)


def client_key(host: str | None) -> str:
    """The client a remote address belongs to: an IPv4 address itself, an IPv6 address by its
    /64 network; anything else (a Unix socket, a test client's name) as given."""
    if not host:
        return "?"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is None:
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address.ipv4_mapped or address) if isinstance(address, ipaddress.IPv6Address) else str(address)
