"""Game modules: the few mechanics of a game too procedural for the effect DSL, as
primitives. A ruleset names the modules it uses in ``game.yaml`` (``flow.modules``); each
module defines ``PRIMITIVES``, a :class:`venedig_rules.effects.registry.Registry`, of
functions typed against :class:`venedig_rules.effects.context.Context` whose annotations
are their DSL types.

May import: ``errors``, ``data``, ``effects`` (the running game reaches a primitive as ``ctx``).

Game facts still live in ``rules/``: a module reads numbers, shapes and names from the
ruleset it runs with, never from literals of its own.
"""
