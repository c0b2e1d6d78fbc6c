"""The engine's floor for search and learning: games one seat cannot tell from the real one
(``sampling``), observations as numbers and information-state strings (``observation``,
``compact``, ``kinds``) and the numbered action space (``actions``, ``describe``).

May import: ``errors``, ``limits``, ``data``, ``effects``, the engine's ``run`` and ``seat``
floors (never the engine's top modules).
"""
