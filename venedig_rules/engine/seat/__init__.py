"""The engine's middle floor, what a seat is told: a game's play as one record
(``played``), the texts of events and decisions (``wording``), the pending decisions for
people (``decisions``), why an action is refused (``refusal``), a seat's view with its own
event log (``seatview``) and whether a seat may take back its last action at the table
(``tableundo``).

May import: ``errors``, ``limits``, ``data``, ``effects``, the engine's ``run`` floor (never
``research`` or the engine's top modules).
"""
