"""Every bundled ruleset as an OpenSpiel game (``pip install 'venedig-rules[openspiel]'``).

Importing this module registers ``venedig_rules_saeulen``, ``venedig_rules_rialto`` and
``venedig_rules_venedig`` (one per bundled ruleset, :data:`GAME_NAMES`) and ``venedig_rules``
(any ruleset: its ``ruleset`` parameter is a bundled id, a folder or a variant file), so
``pyspiel.load_game`` and OpenSpiel's algorithms work on them (docs/research.md)::

    import pyspiel
    import venedig_rules.adapters.openspiel  # registers the games
    game = pyspiel.load_game("venedig_rules_saeulen", {"players": 3, "seed": 7})

Parameters: ``players`` (default: the fewest the ruleset allows), ``seed`` (which block of
seeds the first chance node draws from, see below), ``variants`` (bundled variant names or
paths, comma separated).

- Actions are the ruleset's integer actions (``rules.action_space``), plus one more number,
  ``num_distinct_actions() - 1`` (:data:`NOOP_NAME`): what a seat that is not asked plays
  at a simultaneous node.
- Dynamics: a ruleset with a simultaneous decision (``choose each``) is a simultaneous-move
  game; the node is simultaneous while several seats are to commit, otherwise it is one
  seat's turn.
- Chance: the engine draws every shuffle and draw inside an action from the game's seed.
  The game has one chance node, the first: it draws that seed, uniformly among
  :data:`SEEDS` (``seed * SEEDS + outcome``), so each episode is another deal. Chance is
  declared ``EXPLICIT_STOCHASTIC`` with that one node: OpenSpiel cannot serialise a
  ``SAMPLED_STOCHASTIC`` game written in Python (it asks the game for a generator state
  Python games cannot give), and with the seed drawn in the open, replaying a history gives
  the same state, which is how OpenSpiel serialises.
- Returns: each player's share of the win at the end (1 for a sole winner, 1/k when k share
  it, 0 otherwise): constant-sum 1, rewarded at the end only.
- ``observation_tensor``: ``game.observation(p)``; ``observation_string``: the canonical
  JSON of the seat's view without its event log; ``information_state_string``: the canonical
  JSON of the whole view (``game.information_state_string(p)``), which has perfect recall.
"""

from __future__ import annotations

import json
import weakref
from functools import cache
from typing import Any

try:
    import numpy as np
    import pyspiel  # type: ignore[import-not-found]
except ImportError as exc:  # the core never imports this module
    raise ImportError(
        "venedig_rules.adapters.openspiel needs OpenSpiel: pip install 'venedig-rules[openspiel]'"
    ) from exc

from ..bots.evaluate import outcome
from ..data.reading import bundled
from ..engine.game import Game
from ..engine.loading import load
from ..engine.research.actions import action_space
from ..engine.research.observation import observed
from ..engine.ruleset import Ruleset
from ..engine.seat.seatview import cursor

#: The name OpenSpiel knows each bundled ruleset by.
GAME_NAMES: dict[str, str] = {ruleset: f"venedig_rules_{ruleset}" for ruleset in bundled()}
#: The game that loads any ruleset (``ruleset`` parameter).
GENERIC_NAME = "venedig_rules"
#: How many seeds the first chance node draws from.
SEEDS = 1 << 16
#: What ``action_to_string`` calls the extra action of a seat that is not asked.
NOOP_NAME = "noop"


@cache
def _load(name: str, variants: tuple[str, ...]) -> Ruleset:
    """A ruleset, loaded once per process (OpenSpiel makes a game again for each copy)."""
    return load(name, variants)


def _simultaneous(rules: Ruleset) -> bool:
    """Whether the flow has a simultaneous decision (a ``choose each``)."""
    compiled = rules.compiled
    assert compiled is not None
    return any(decision.each for decision in compiled.decision_labels().values())


def _game_type(short_name: str, rules: Ruleset, params: dict[str, Any]) -> Any:
    dynamics = pyspiel.GameType.Dynamics
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"{rules.title} (venedig-rules)",
        dynamics=dynamics.SIMULTANEOUS if _simultaneous(rules) else dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.CONSTANT_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=rules.players.stop - 1,
        min_num_players=rules.players.start,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=True,
        provides_observation_tensor=True,
        provides_factored_observation_string=False,
        parameter_specification=params,
    )


def _defaults(rules: Ruleset, ruleset: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {"players": rules.players.start, "seed": 0, "variants": ""}
    if ruleset is not None:
        out["ruleset"] = ruleset
    return out


class VenedigGame(pyspiel.Game):  # type: ignore[misc]
    """A ruleset at one player count, as an OpenSpiel game."""

    def __init__(self, short_name: str, params: dict[str, Any] | None, ruleset: str | None = None):
        params = dict(params or {})
        name = str(params.get("ruleset", ruleset))
        variants = [v for v in str(params.get("variants", "")).split(",") if v.strip()]
        self.rules = _load(name, tuple(variants))
        full = {**_defaults(self.rules, name if short_name == GENERIC_NAME else None), **params}
        self.players, self.seed = int(full["players"]), int(full["seed"])
        if self.players not in self.rules.players:
            raise ValueError(
                f"{self.rules.title} is for {self.rules.players.start}-{self.rules.players.stop - 1} players"
            )
        self.space = self.rules.action_space(self.players)
        self.noop = int(self.space)
        super().__init__(
            _game_type(short_name, self.rules, _defaults(self.rules, name if short_name == GENERIC_NAME else None)),
            pyspiel.GameInfo(
                num_distinct_actions=int(self.space) + 1,
                max_chance_outcomes=SEEDS,
                num_players=self.players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=self.rules.max_actions,
            ),
            full,
        )

    def new_initial_state(self) -> VenedigState:
        return VenedigState(self)

    def __deepcopy__(self, memo: dict[int, Any]) -> VenedigGame:
        return self  # a game does not change: copies of states share it

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (pyspiel.load_game, (str(self),))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> VenedigObserver:
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return VenedigObserver(self, perfect_recall)


class VenedigState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; ``state.game`` is the engine's :class:`~venedig_rules.Game` (None
    until the first chance node has drawn its seed)."""

    def __init__(self, spiel_game: VenedigGame):
        super().__init__(spiel_game)
        self._holder = _Holder(None, spiel_game)
        self._players, self._seed, self._noop = spiel_game.players, spiel_game.seed, spiel_game.noop

    @property
    def game(self) -> Game:
        game = self._holder.game
        if game is None:
            raise ValueError("the seed is not drawn yet: this is the chance node")
        return game

    def current_player(self) -> int:
        game = self._holder.game
        if game is None:
            return int(pyspiel.PlayerId.CHANCE)
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        movers = game.to_move
        return int(pyspiel.PlayerId.SIMULTANEOUS) if len(movers) > 1 else movers[0]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return list(_outcomes())  # a copy: the caller may change it

    def _legal_actions(self, player: int) -> list[int]:
        game = self._holder.game
        if game is None or game.is_over:
            return []
        movers = game.to_move
        if player in movers:
            return game.legal_action_ids(player)
        return [self._noop] if len(movers) > 1 else []

    def _apply_action(self, action: int) -> None:
        if self._holder.game is None:
            self._holder.game = self._holder.spiel.rules.new_game(self._players, self._seed * SEEDS + action)
            return
        self.game.apply_index(action, self.game.to_move[0])

    def _apply_actions(self, actions: list[int]) -> None:
        game = self.game
        picks = [game.decode(actions[p], p) for p in game.to_move]  # all from the same position
        for pick in picks:
            game.apply(pick)

    def _action_to_string(self, player: int, action: int) -> str:
        if self._holder.game is None or player == int(pyspiel.PlayerId.CHANCE):
            return f"seed {self._seed * SEEDS + action}"
        if action == self._noop:
            return NOOP_NAME
        game = self.game
        try:
            space = action_space(game.rules, game.players)
            return str(game.decode(action, player) if player in game.to_move else space.decode(action, player))
        except ValueError:
            block = action_space(game.rules, game.players).label_of(action)
            return f"p{player} {block.label}#{action - block.offset}"

    def is_terminal(self) -> bool:
        return self._holder.game is not None and self._holder.game.is_over

    def returns(self) -> list[float]:
        return outcome(self.game) if self.is_terminal() else [0.0] * self._players

    def __str__(self) -> str:
        if self._holder.game is None:
            return "chance: the seed is not drawn yet"
        text, events, actions = self.game.fingerprint()
        return f"seed {self.game.seed}, {actions} actions, {events} events: {text}"


class _Holder:
    """The engine's game inside a state. OpenSpiel copies a state by pickling it; a game in
    this process is copied with ``game.clone()`` (cheap: states are shared), elsewhere it is
    replayed from its seed and actions. The OpenSpiel game (and its ruleset) is shared."""

    __slots__ = ("__weakref__", "game", "spiel")

    def __init__(self, game: Game | None, spiel: VenedigGame):
        self.game, self.spiel = game, spiel

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(None if self.game is None else self.game.clone(), self.spiel)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        if self.game is None:
            return (_restore, (None, None, (), self.spiel))
        _LIVE[id(self.game)] = self.game
        return (_restore, (id(self.game), self.game.seed, tuple(self.game.actions), self.spiel))


#: Games of this process by id, so that unpickling a state here clones its game
_LIVE: weakref.WeakValueDictionary[int, Game] = weakref.WeakValueDictionary()


def _restore(key: int | None, seed: int | None, actions: tuple[str, ...], spiel: VenedigGame) -> _Holder:
    if key is None or seed is None:
        return _Holder(None, spiel)
    game = _LIVE.get(key)
    if game is not None and game.seed == seed and tuple(game.actions) == actions:
        return _Holder(game.clone(), spiel)
    return _Holder(spiel.rules.replay(spiel.players, seed, actions), spiel)


class VenedigObserver:
    """OpenSpiel's Python observer: the seat's observation vector and its text forms."""

    def __init__(self, game: VenedigGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        size = game.rules.observation_shape(game.players)[0]
        self.tensor = np.zeros(size, np.float32)
        self.dict = {"observation": self.tensor}

    def set_from(self, state: VenedigState, player: int) -> None:
        if state._holder.game is None:  # the chance node: nothing to see yet
            self.tensor.fill(0.0)
        else:
            # written from the few entries that are not 0: the full list has tens of thousands
            entries = observed(state.game, player).entries
            self.tensor.fill(0.0)
            self.tensor[list(entries)] = list(entries.values())

    def string_from(self, state: VenedigState, player: int) -> str:
        if state._holder.game is None:
            return "chance"
        if self.perfect_recall:
            return state.game.information_state_string(player)
        game = state.game
        view = dict(game.view(player, since=cursor(game, player)))  # the log is not part of an observation
        del view["events"]
        return json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)


#: The registered game classes (kept alive while OpenSpiel holds them).
_FACTORIES: list[type] = []


def _init_for(short_name: str, ruleset: str) -> Any:
    def __init__(self: VenedigGame, params: dict[str, Any] | None = None) -> None:
        VenedigGame.__init__(self, short_name, params, ruleset)

    return __init__


def register() -> list[str]:
    """Register every bundled ruleset (and the generic game) with OpenSpiel, once; returns the
    names. Importing this module does it."""
    known = set(pyspiel.registered_names())
    names = []
    for ruleset, short_name in [*GAME_NAMES.items(), ("venedig", GENERIC_NAME)]:
        names.append(short_name)
        if short_name in known:
            continue
        rules = _load(ruleset, ())
        generic = short_name == GENERIC_NAME
        defaults = _defaults(rules, ruleset if generic else None)
        # a class, not a closure: OpenSpiel keeps the factory until the interpreter is gone
        # and must not be the last to let go of a Python function then
        factory = type(
            f"VenedigGame_{ruleset}",
            (VenedigGame,),
            {"__init__": _init_for(short_name, ruleset), "__module__": __name__},
        )
        _FACTORIES.append(factory)
        globals()[factory.__name__] = factory  # pickle finds a game's class by its name
        pyspiel.register_game(_game_type(short_name, rules, defaults), factory)
    return names


def load_game(ruleset: str, players: int | None = None, seed: int = 0, variants: tuple[str, ...] = ()) -> Any:
    """``pyspiel.load_game`` for a ruleset by id, folder or variant file."""
    register()
    params: dict[str, Any] = {"ruleset": str(ruleset), "seed": seed, "variants": ",".join(map(str, variants))}
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(GENERIC_NAME, params)


register()


@cache
def _outcomes() -> tuple[tuple[int, float], ...]:
    """The chance node's outcomes, each as likely: made once (65,536 pairs took 60 ms)."""
    return tuple((outcome, 1.0 / SEEDS) for outcome in range(SEEDS))
