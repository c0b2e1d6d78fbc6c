"""Action numbers for a decision the ``action_space`` of ``game.yaml`` does not list,
derived from the type its ``decisions`` entry declares.

A designer who adds a decision in a variant (a new card's ``choose ... as "steal"``) need not
write its ``action_space`` entry when its options are one id of a kind, one player or one of
named words: every value it can ever take is known from the rule data alone. Such a label gets
its block of numbers after the declared ones (docs/research.md). A decision of another type
(a number, a list) still needs an entry; ``validate`` says so at the ``choose``.

>>> data = {"game": {"decisions": {"steal": {"value": "card"}, "pick": {"value": {"word": ["up", "down"]}}}},
...         "cards": {"cards": [{"id": "a"}, {"id": "b"}]}}
>>> derived_values(data, "steal", players=3), derived_values(data, "pick", players=3)
(('a', 'b'), ('up', 'down'))
>>> derived_values({"game": {"decisions": {"bid": {"value": "number"}}}}, "bid", players=3) is None
True
"""

from __future__ import annotations

from typing import Any

from . import board as boardlib
from .checks import NAMESPACES
from .valuetypes import ID_KINDS, TypeSpecError, parse_type


def derived_values(data: dict[str, Any], label: str, players: int) -> tuple[Any, ...] | None:
    """Every value decision ``label`` can take, from the type ``game.yaml`` declares for it
    (``players``: the most seats the ruleset allows); None when its type lists no values."""
    game = data.get("game")
    decisions = game.get("decisions") if isinstance(game, dict) else None
    decl = decisions.get(label) if isinstance(decisions, dict) else None
    if not isinstance(decl, dict):
        return None
    try:
        kind = parse_type(decl.get("value"))
    except TypeSpecError:
        return None
    if kind.kind == "word" and kind.words:
        return kind.words
    if kind.kind == "player":
        return tuple(range(players))
    if kind.kind not in ID_KINDS:
        return None
    namespace = ID_KINDS[kind.kind]
    if namespace == "space":
        board = data.get("board")
        return tuple(boardlib.grid_spaces(board if isinstance(board, dict) else {}))
    where = NAMESPACES.get(namespace)
    items = data.get(where.kind, {}).get(where.key) if where is not None else None
    if not isinstance(items, list):
        return None
    return tuple(item["id"] for item in items if isinstance(item, dict) and isinstance(item.get("id"), str))
