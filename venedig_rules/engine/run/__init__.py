"""The engine's lowest floor, what runs a game: the ruleset's data and compiled effects as
the machine sees them (``ruleset_base``), the machine with its frames, states and pending
decisions (``machine``), the events it writes (``events``), the random generator (``rng``),
action notation (``notation``), what a seat may see of a state or an event (``views``) and
the undo history (``undohistory``). Nothing here knows a ``Game``.

May import: ``errors``, ``limits``, ``data``, ``effects`` (never another floor of the
engine: ``seat``, ``research``, or the engine's top modules).
"""
