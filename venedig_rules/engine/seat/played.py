"""What the modules that describe a game (its decisions, views, table undo and refusals)
read of it: the :class:`~venedig_rules.engine.game.Game` seen as a Protocol, so that they
need not import the module that uses them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from ..run.events import Event
    from ..run.machine import State
    from ..run.notation import Action
    from ..run.ruleset_base import RulesetBase
    from ..run.undohistory import UndoPoint
    from ..run.views import GameView


class PlayedGame(Protocol):
    """A game in progress (``engine.game.Game`` is one): its rules, its state and its log."""

    rules: RulesetBase
    players: int
    _state: State
    _events: list[Event]
    _actions: list[Action]

    @property
    def to_move(self) -> tuple[int, ...]: ...

    @property
    def is_over(self) -> bool: ...

    @property
    def winners(self) -> tuple[int, ...]: ...

    @property
    def scores(self) -> dict[int, int]: ...

    @property
    def actions(self) -> list[str]: ...

    def legal_actions(self, player: int | None = None) -> list[Action]: ...

    def view(
        self,
        player: int | None,
        since: int = 0,
        *,
        compact: bool = False,
        lang: str = "en",
        names: Sequence[str] | None = None,
    ) -> GameView: ...

    def _undo_point(self) -> UndoPoint: ...
