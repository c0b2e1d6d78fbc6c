"""Every limit venedig-rules puts on its input, in one place: rule files, the DSL, actions,
seeds. Input past a limit is refused with a typed error (its code is named beside each
limit and in docs/errors.md), never a traceback, a hang or a crash of the interpreter.

The limits are far above what any board game needs, and low enough that checking a file
or an action stays fast on hostile input.

>>> MAX_FILE_BYTES, MAX_INT == 2**53 - 1
(4194304, True)
"""

from __future__ import annotations

# -- rule files (rules/file, rules/yaml) -------------------------------------------------------
#: Largest rule file (or variant file) read, in bytes: a larger one is refused unread
#: (``rules/file``), as is anything that is not a regular file (a pipe, a device).
MAX_FILE_BYTES = 4 * 1024 * 1024
#: Most values one YAML document may hold, aliases counted each time they expand (``rules/yaml``).
MAX_YAML_NODES = 200_000
#: Deepest nesting of mappings and lists in a rule file (``rules/yaml``).
MAX_YAML_DEPTH = 64
#: Largest whole number (in absolute value) in rule data and in DSL literals, so that every
#: number survives JSON in a browser (``rules/yaml``, ``dsl/syntax``).
MAX_INT = 2**53 - 1
#: Most variants in one chain of ``extends`` (``rules/variant``).
MAX_VARIANT_CHAIN = 32

# -- the effect DSL (dsl/syntax, dsl/limit, dsl/value) -----------------------------------------
#: Deepest nesting of a DSL program's expressions and blocks (``dsl/syntax``).
MAX_DSL_DEPTH = 100
#: Most times a ``repeat`` runs its body, and most times nested loops with counts known
#: when the ruleset loads may run their innermost body (``dsl/limit`` when the count is
#: known then, ``play/rule`` when it is only known in play).
MAX_REPEAT = 100_000
#: Most items one list may hold in play (``play/rule``); ``range(low, high)`` gives at most
#: this many numbers (``dsl/limit`` when known as the ruleset loads).
MAX_LIST = 10_000
MAX_RANGE = MAX_LIST
#: Most items one value may hold in play, counting the items of the lists inside it (a list
#: inside counts as one item plus its own items) (``play/rule``).
MAX_ITEMS = 100_000
#: Deepest nesting of lists in one value in play: a value made deeper is refused where it
#: is made, before it can reach the state (``play/rule``).
MAX_VALUE_DEPTH = 64
#: Most steps of work one action may do (``new_game`` counts as one action): a loop counts
#: its rounds when it starts, each call of a procedure, item effect or scoring rule counts
#: one, and each primitive that walks lists counts the items of the longest list it is
#: given or gives back (``sorted`` of 10,000 items: 10,000; a game module's primitive only
#: when it takes a list) (``play/rule``). A primitive
#: that changes the state is bounded by MAX_EVENTS instead: each change is an event.
MAX_STEPS = 1_000_000
#: Most events one action may emit, the state's changes counted (``play/rule``); the
#: bundled games emit at most about sixty.
MAX_EVENTS = 10_000
#: Deepest nesting of effects calling each other in play: procedures, item effects,
#: scoring rules (``play/rule``).
MAX_CALL_DEPTH = 64

# -- rule data that must fit a game (rules/limit) ---------------------------------------------
#: Most cards, tiles and buildings of one kind (copies counted), and most board spaces:
#: each is a list in play, so more could never start a game (``rules/limit`` at validate).
MAX_COMPONENTS = MAX_LIST

# -- actions, seeds and saves (play/action_syntax, play/illegal_action, play/setup, save/invalid)
#: Longest action text ``parse_action`` reads (``play/action_syntax``).
MAX_ACTION_TEXT = 65_536
#: Deepest nesting of lists in an action's value (``play/action_syntax``, ``play/illegal_action``).
MAX_ACTION_DEPTH = 32
#: Most digits of a number in an action's text (``play/action_syntax``); an Action whose
#: numbers are larger is refused by ``apply`` (``play/illegal_action``).
MAX_ACTION_DIGITS = 1000
#: Most bits of a seed (``play/setup`` from ``new_game``, ``save/invalid`` from ``game_from_json``).
MAX_SEED_BITS = 256
#: Bits of the seed ``new_game`` draws from :mod:`secrets` when given none: the width of the
#: generator's state, so every state is equally likely.
SEED_BITS = 64
