"""Showing games to people: event sentences, ruleset descriptions, text and pictures.

May import: ``errors``, ``data``, ``effects``, ``engine`` (never ``bots``, ``testing`` or ``cli``).
"""
