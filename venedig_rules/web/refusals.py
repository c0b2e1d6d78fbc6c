"""What the server refuses, each with its HTTP status and a sentence for the person at the page.

>>> str(Forbidden("this page is p1's seat; the action is p0's")), Forbidden.status
("this page is p1's seat; the action is p0's", 403)
"""

from __future__ import annotations

from typing import ClassVar


class Refused(Exception):
    """A request the server does not carry out; ``status`` is its HTTP status."""

    status: ClassVar[int] = 400


class BadRequest(Refused):
    """The request itself is wrong: unreadable, missing a field, a value out of range."""

    status = 400


class Forbidden(Refused):
    """The page is not allowed to do this: an unknown token, another seat's action."""

    status = 403


class NotFound(Refused):
    """No such table, game or save."""

    status = 404


class Conflict(Refused):
    """Not possible now: an action that is not legal at this moment, an undo the table forbids."""

    status = 409


class TooLarge(Refused):
    """The request is larger than the server reads."""

    status = 413


class TooMany(Refused):
    """The client asks too often (a rate limit) or holds too much (its own games, its sockets);
    a table has as many spectator pages open as the server allows one table."""

    status = 429


class Full(Refused):
    """The server has no room: every table is a game people are still playing."""

    status = 503


class Unavailable(Refused):
    """The server cannot carry the request out now (its database refused a write)."""

    status = 503
