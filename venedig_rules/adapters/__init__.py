"""Adapters to research frameworks: OpenSpiel games (``adapters.openspiel``) and PettingZoo
environments (``adapters.pettingzoo``), built on integer actions and observations.

May import: ``errors``, ``data``, ``effects``, ``games``, ``engine``, ``bots`` (each adapter
imports its framework itself, lazily: install the ``[openspiel]`` or ``[pettingzoo]`` extra).
"""
