"""Every bundled ruleset as an OpenSpiel game (``pip install 'venedig-rules[openspiel]'``).

Importing this module registers ``venedig_rules_saeulen``, ``venedig_rules_rialto`` and
``venedig_rules_venedig`` (one per bundled ruleset, :data:`GAME_NAMES`) and ``venedig_rules``
(any ruleset: its ``ruleset`` parameter is a bundled id, a folder or a variant file), so
``pyspiel.load_game`` and OpenSpiel's algorithms, its ``ISMCTSBot`` among them, work on them
(docs/research.md)::

    import pyspiel
    import venedig_rules.adapters.openspiel  # registers the games
    game = pyspiel.load_game("venedig_rules_saeulen", {"players": 3, "seed": 7})

Parameters: ``players`` (default: the fewest the ruleset allows), ``seed`` (the generator of
the deals: each new initial state is the next deal of it; -1, the default, deals from secret
seeds), ``variants`` (bundled variant names or paths, comma separated), ``observation``
(the kind of ``observation_tensor``: ``compact``, the default, or ``full``).

- Actions are the ruleset's integer actions (``rules.action_space``): a number names the
  same move in every state (but for the few numbered by their place, docs/research.md), so
  ``num_distinct_actions`` is their count.
- Dynamics: sequential. At a simultaneous decision (``choose each``) the seats to commit
  move one after another, the first of them first, each seeing only its own view: a commit
  is a hidden move, so nobody learns another's before the reveal (OpenSpiel's own
  ``convert_to_turn_based`` does the same).
- Chance: ``SAMPLED_STOCHASTIC``. The engine shuffles and draws inside the actions, from a
  seed the state keeps to itself; there are no chance nodes, so neither the history nor
  anything a seat sees holds a chance outcome that would pin hidden cards.
  ``resample_from_infostate`` deals what a seat cannot see anew (``game.sample``).
- Returns: each player's share of the win at the end (1 for a sole winner, 1/k when k share
  it, 0 otherwise): constant-sum 1, rewarded at the end only.
- ``observation_tensor``: ``game.observation(p, kind)`` (``kind`` the ``observation``
  parameter: compact, at most a few thousand numbers, by default); ``observation_string``: the canonical
  JSON of the seat's view without its event log; ``information_state_string``: the canonical
  JSON of the whole view (``game.information_state_string(p)``), which has perfect recall.
  There is no information-state tensor (the game type says so, and asking for one raises).
"""

from __future__ import annotations

import json
import random
import weakref
from collections.abc import Callable
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
from ..engine.research.kinds import observation_kind
from ..engine.ruleset import Ruleset
from ..engine.seat.seatview import cursor
from ..limits import SEED_BITS

#: The name OpenSpiel knows each bundled ruleset by.
GAME_NAMES: dict[str, str] = {ruleset: f"venedig_rules_{ruleset}" for ruleset in bundled()}
#: The game that loads any ruleset (``ruleset`` parameter).
GENERIC_NAME = "venedig_rules"
#: The ``seed`` parameter that deals every game from a secret seed.
SECRET_DEALS = -1
#: The bits of a sample's seed taken from one draw of OpenSpiel's probability sampler (a double).
_SAMPLE_BITS = 53


@cache
def _load(name: str, variants: tuple[str, ...]) -> Ruleset:
    """A ruleset, loaded once per process (OpenSpiel makes a game again for each copy)."""
    return load(name, variants)


def _game_type(short_name: str, rules: Ruleset, params: dict[str, Any]) -> Any:
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"{rules.title} (venedig-rules)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
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
    out: dict[str, Any] = {
        "players": rules.players.start,
        "seed": SECRET_DEALS,
        "variants": "",
        "observation": "compact",
    }
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
        defaults = _defaults(self.rules, name if short_name == GENERIC_NAME else None)
        full = {**defaults, **params}
        self.players, self.seed = int(full["players"]), int(full["seed"])
        self.observation_kind = observation_kind(str(full["observation"]))  # a ValueError names the kinds
        if self.players not in self.rules.players:
            raise ValueError(
                f"{self.rules.title} is for {self.rules.players.start}-{self.rules.players.stop - 1} players"
            )
        if self.seed < SECRET_DEALS:
            raise ValueError(f"seed must be {SECRET_DEALS} (secret deals) or a whole number from 0, not {self.seed}")
        # the deals' generator: its seeds never reach a seat (no chance node shows them)
        self._deals = None if self.seed == SECRET_DEALS else random.Random(self.seed)
        super().__init__(
            _game_type(short_name, self.rules, defaults),
            pyspiel.GameInfo(
                num_distinct_actions=int(self.rules.action_space(self.players)),
                max_chance_outcomes=0,
                num_players=self.players,
                min_utility=0.0,
                max_utility=1.0,
                utility_sum=1.0,
                max_game_length=self.rules.max_actions,
            ),
            full,
        )

    def new_initial_state(self) -> VenedigState:
        """A new deal (made when the state is first asked: a copy never costs a deal)."""
        return VenedigState(self)

    def deal(self) -> Game:
        """The engine's game of the next deal: the next seed of the ``seed`` parameter's
        generator, or a secret seed."""
        seed = None if self._deals is None else self._deals.getrandbits(SEED_BITS)
        return self.rules.new_game(self.players, seed)

    def __deepcopy__(self, memo: dict[int, Any]) -> VenedigGame:
        return self  # a game's rules do not change: copies of states share it

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        return (pyspiel.load_game, (str(self),))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> VenedigObserver:
        """The seat's observation (``iig_obs_type`` None or without perfect recall) or its
        information state (perfect recall: a string, no tensor). Only a seat's own: a
        public-only or all-seeing observer is refused."""
        if iig_obs_type is not None and not (
            iig_obs_type.public_info and iig_obs_type.private_info == pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                "venedig-rules games observe for one seat: public and that seat's private information, not "
                f"public_info={iig_obs_type.public_info}, private_info={iig_obs_type.private_info}"
            )
        perfect_recall = bool(iig_obs_type is not None and iig_obs_type.perfect_recall)
        return VenedigObserver(self, perfect_recall)


class VenedigState(pyspiel.State):  # type: ignore[misc]
    """A game in progress; ``state.game`` is the engine's :class:`~venedig_rules.Game` (it
    holds every secret: give bots information states, not the game)."""

    def __init__(self, spiel_game: VenedigGame, holder: _Holder | None = None):
        super().__init__(spiel_game)
        self._holder = holder if holder is not None else _Holder(spiel_game, None)

    @property
    def game(self) -> Game:
        return self._holder.get()

    def current_player(self) -> int:
        game = self.game
        if game.is_over:
            return int(pyspiel.PlayerId.TERMINAL)
        return game.to_move[0]  # the first of several committing at once: commits are hidden

    def chance_outcomes(self) -> list[tuple[int, float]]:
        return []  # chance is sampled inside the actions: no state is a chance node

    def _legal_actions(self, player: int) -> list[int]:
        game = self.game
        if game.is_over or player != game.to_move[0]:
            return []
        return game.legal_action_ids(player)

    def _apply_action(self, action: int) -> None:
        game = self.game
        game.apply_index(action, game.to_move[0])

    def _action_to_string(self, player: int, action: int) -> str:
        game = self.game
        space = self._holder.spiel.rules.action_space(game.players)
        try:
            return str(game.decode(action, player) if player in game.to_move else space.decode(action, player))
        except ValueError:  # a number for a place, which only names a move among the legal ones
            block = space.label_of(action)
            return f"p{player} {block.label}#{action - block.offset - block.listed}"

    def is_terminal(self) -> bool:
        return self.game.is_over

    def returns(self) -> list[float]:
        game = self.game
        return outcome(game) if game.is_over else [0.0] * game.players

    def resample_from_infostate(self, player_id: int, probability_sampler: Callable[[], float]) -> VenedigState:
        """A state ``player_id`` cannot tell from this one (the same information state):
        ``game.sample`` with a seed drawn from ``probability_sampler`` (a callable giving
        numbers in [0, 1), as ``pyspiel.UniformProbabilitySampler``). What the seat cannot
        see, later chance included, is dealt anew. Its history starts empty: OpenSpiel's
        history holds the true moves, hidden ones too, which the sample must not inherit."""
        seed = int(probability_sampler() * (1 << _SAMPLE_BITS))
        spiel = self._holder.spiel
        return VenedigState(spiel, _Holder(spiel, self.game.sample(player_id, seed), sampled=True))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # pyspiel pickles a state with serialize_game_and_state, which a sampled-stochastic
        # game cannot give (it asks a Python game for a generator state): the state's own
        # serialize() holds the history and the engine's game (see _Holder)
        return (_deserialized, (self.get_game(), self.serialize()))

    def __str__(self) -> str:
        game = self.game
        text, events, actions = game.fingerprint()
        return f"seed {game.seed}, {actions} actions, {events} events: {text}"


def _deserialized(spiel: VenedigGame, text: str) -> VenedigState:
    state: VenedigState = spiel.deserialize_state(text)
    return state


class _Holder:
    """The engine's game inside a state, dealt when first asked. OpenSpiel copies a state by
    deep-copying its attributes and serialises it by pickling them: a game in this process
    is copied with ``game.clone()`` (cheap: states are shared), elsewhere it is replayed
    from its seed and actions. The OpenSpiel game (and its ruleset) is shared."""

    __slots__ = ("__weakref__", "game", "sampled", "spiel")

    def __init__(self, spiel: VenedigGame, game: Game | None, sampled: bool = False):
        self.spiel, self.game, self.sampled = spiel, game, sampled

    def get(self) -> Game:
        if self.game is None:
            self.game = self.spiel.deal()
        return self.game

    def __deepcopy__(self, memo: dict[int, Any]) -> _Holder:
        return _Holder(self.spiel, self.get().clone(), self.sampled)

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        game = self.get()
        _LIVE[id(game)] = game
        return (_restore, (id(game), game.seed, tuple(game.actions), self.spiel, self.sampled))


#: Games of this process by id, so that unpickling a state here clones its game
_LIVE: weakref.WeakValueDictionary[int, Game] = weakref.WeakValueDictionary()


def _restore(key: int, seed: int, actions: tuple[str, ...], spiel: VenedigGame, sampled: bool = False) -> _Holder:
    game = _LIVE.get(key)
    if game is not None and game.seed == seed and tuple(game.actions) == actions:
        return _Holder(spiel, game.clone(), sampled)
    if sampled:
        raise ValueError(
            "a state from resample_from_infostate can be copied in its process only: no seed and actions make it"
        )
    return _Holder(spiel, spiel.rules.replay(spiel.players, seed, actions))


class VenedigObserver:
    """OpenSpiel's Python observer: the seat's observation vector and its text forms, or
    (``perfect_recall``) its information state as text, with no tensor."""

    def __init__(self, game: VenedigGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.kind = game.observation_kind
        if perfect_recall:
            self.tensor: Any = None
            self.dict: dict[str, Any] = {}
        else:
            self.tensor = np.zeros(self.kind.size(game.rules, game.players), np.float32)
            self.dict = {"observation": self.tensor}

    def set_from(self, state: VenedigState, player: int) -> None:
        if self.tensor is None:
            raise ValueError(
                "venedig-rules games have no information-state tensor (provides_information_state_tensor "
                "is False): use information_state_string, or observation_tensor (no memory of past moves)"
            )
        # written from the few entries that are not 0: the full list has tens of thousands
        entries = self.kind.observed(state.game, player).entries
        self.tensor.fill(0.0)
        self.tensor[list(entries)] = list(entries.values())

    def string_from(self, state: VenedigState, player: int) -> str:
        game = state.game
        if self.perfect_recall:
            return game.information_state_string(player)
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


def load_game(
    ruleset: str,
    players: int | None = None,
    seed: int = SECRET_DEALS,
    variants: tuple[str, ...] = (),
    observation: str = "compact",
) -> Any:
    """``pyspiel.load_game`` for a ruleset by id, folder or variant file (``observation``:
    the kind of ``observation_tensor``, ``compact`` or ``full``)."""
    register()
    params: dict[str, Any] = {
        "ruleset": str(ruleset),
        "seed": seed,
        "variants": ",".join(map(str, variants)),
        "observation": observation,
    }
    if players is not None:
        params["players"] = players
    return pyspiel.load_game(GENERIC_NAME, params)


register()
