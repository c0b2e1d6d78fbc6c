"""Showing games to people: event sentences, ruleset descriptions, text and pictures, and
``summary(game, seat, lang)``, a seat's position as labelled sections for a panel.

May import: ``errors``, ``data``, ``effects``, ``engine`` (never ``bots``, ``testing`` or ``cli``).
"""

from .summary import summary

__all__ = ["summary"]
