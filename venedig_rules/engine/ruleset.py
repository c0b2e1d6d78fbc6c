"""A loaded, checked ruleset and the ways to play it: new games, replays and saved games.

>>> import venedig_rules as vr
>>> rules = vr.load("venedig")
>>> rules.id, rules.players
('venedig', range(2, 6))
>>> len(rules.rules_hash)
64
>>> vr.load("venedig", variants=["no_imaginary_player"]).rules_hash != rules.rules_hash
True
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .game import Game
from .run.notation import Action, parse_action
from .run.ruleset_base import RulesetBase

if TYPE_CHECKING:
    from .research.actions import ActionSpace
    from .seat.itemtext import ItemText


@dataclass(frozen=True)
class Ruleset(RulesetBase):
    """A loaded, checked ruleset. Treat ``data`` as read-only.

    ``data`` maps each file kind (``game``, ``cards``, ...) to its merged content;
    ``rules_hash`` is the sha256 of that data in canonical JSON, so it changes whenever
    any datum changes, and replays and save files record it.
    """

    def new_game(
        self, players: int, seed: int | None = None, record: bool = True, keep_events: Iterable[str] = ()
    ) -> Game:
        """A new game for ``players`` players; ``seed`` (a whole number of at most
        ``limits.MAX_SEED_BITS`` bits) fixes every random event. Without one, the game draws
        a secret seed from :mod:`secrets` (``game.seed`` tells it): what a server should do,
        keeping the seed and the save to itself. With ``record=False`` the game keeps no
        event log and no undo history: bots, playouts and simulations run faster in less
        memory (``undo`` and a view's past events then raise NotRecordedError). Such a game
        still keeps the events of the types ``keep_events`` names (``game.events`` gives
        them): ``keep_events=("choice", "game_over")`` keeps the decisions and the end.

        >>> import venedig_rules as vr
        >>> game = vr.load("tests/rulesets/lagoon").new_game(players=3, seed=1)
        >>> game.players, game.is_over
        (3, False)
        >>> fast = vr.load("tests/rulesets/lagoon").new_game(players=3, seed=1, record=False)
        >>> fast.legal_actions(0) == game.legal_actions(0)
        True
        >>> bids = vr.load("tests/rulesets/lagoon").new_game(3, seed=1, record=False, keep_events=["commit"])
        >>> bids.apply("p0 bid(five)").events
        [{'type': 'commit', 'player': 0, 'label': 'bid', 'value': 'five', 'hidden': True}]
        """
        return Game(self, players, seed, record=record, keep_events=keep_events)

    def replay(self, players: int, seed: int, actions: Iterable[Action | str]) -> Game:
        """The game reached by applying ``actions`` to a new game with that seed."""
        game = self.new_game(players, seed)
        for action in actions:
            game.apply(action)
        return game

    def game_from_json(self, data: Any) -> Game:
        """A game saved with ``game.to_json()``; refuses corrupt data, or data played with
        another ``rules_hash``, with a reason (:class:`~venedig_rules.engine.SaveFileError`)."""
        return Game.from_json(self, data)

    def describe_item(self, item_id: str, lang: str = "en") -> ItemText:
        """What a card, card type, building or tile does, for people: ``{"name", "text"}``
        from the language's ``texts.yaml`` ``items:`` (see
        :mod:`venedig_rules.engine.seat.itemtext`).

        >>> import venedig_rules as vr
        >>> vr.load("rialto").describe_item("blue_3")
        {'name': 'blue building 3', 'text': 'Phase III: score 2 victory points. Worth 3 at the end.'}
        """
        from .seat.itemtext import describe_item

        return describe_item(self, item_id, lang)

    @staticmethod
    def parse_action(text: str) -> Action:
        """The Action a text like ``"p1 drain(c4)"`` names."""
        return parse_action(text)

    # -- research (docs/research.md) ---------------------------------------------------------
    def action_space(self, players: int) -> ActionSpace:
        """The integer actions at ``players`` players: an int (how many) that also holds
        their layout (``labels``) and ``encode``/``decode``; see
        :mod:`venedig_rules.engine.research.actions` and docs/research.md.

        >>> import venedig_rules as vr
        >>> space = vr.load("tests/rulesets/lagoon").action_space(3)
        >>> int(space), sorted(space.labels)
        (21, ['bid', 'claim', 'keep'])
        """
        from .research.actions import action_space

        return action_space(self, players)

    def encode(self, action: Action) -> int:
        """The number of ``action`` (the same at every player count); a decision numbered by
        ordinal needs the game: ``game.encode(action)``.

        >>> import venedig_rules as vr
        >>> rules = vr.load("tests/rulesets/lagoon")
        >>> rules.encode(rules.parse_action("p1 claim(a1)")), rules.decode(6, player=1)
        (6, Action(player=1, name='claim', value='a1'))
        """
        return int(self.action_space(self.players.start).encode(action))

    def decode(self, index: int, player: int) -> Action:
        """The action numbered ``index``, as ``player``'s; a decision numbered by ordinal
        needs the game: ``game.decode(index, player)``."""
        return self.action_space(self.players.start).decode(index, player)

    def observation_shape(self, players: int, kind: str = "full") -> tuple[int]:
        """The shape of ``game.observation(p, kind)`` at ``players`` players: ``(length,)``.

        >>> import venedig_rules as vr
        >>> vr.load("tests/rulesets/lagoon").observation_shape(2)
        (175,)
        """
        from .research.kinds import observation_kind

        return (observation_kind(kind).size(self, players),)
