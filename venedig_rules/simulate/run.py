"""The games of a simulation: what to play (:class:`Setup`), every game's and every bot's
seed derived from the first seed and the game's index, batches of games played in any
process, and their gathering. The numbers never depend on where or how many processes
play: each game is fixed by its index, and batches are put back in index order.

>>> setup = Setup("tests/rulesets/lagoon", players=2, bots=("random", "random"), games=4, seed=1)
>>> batch = play_batch(setup, range(2, 4))
>>> [r.index for r in batch.records], batch.records[0].seed == game_seed(1, 2)
([2, 3], True)
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..bots import Bot, SeatViews, make_bot
from ..bots.seat import decide, reads_view
from ..data.reading import bundled
from ..engine.game import Game
from ..engine.loading import load
from ..engine.ruleset import Ruleset
from ..errors import VenedigError
from .outcome import ITEM_KINDS, GameRecord, Play, ScorePoint, Tally, events_read, first_player, read_game

#: Called with the number of games just finished.
Progress = Callable[[int], None]


class GameFailedError(VenedigError, RuntimeError):
    """A game of a simulation stopped with an error; the message names its index and seed."""

    code = "simulate/game"


@dataclass(frozen=True)
class Setup:
    """What a simulation plays: ``game`` (a bundled id, ruleset folder or variant file) with
    ``variants``, at ``players`` seats, one bot name per seat (``bots``), ``games`` games from
    the first ``seed``."""

    game: str
    players: int
    bots: tuple[str, ...]
    games: int
    seed: int = 0
    variants: tuple[str, ...] = ()
    #: The hash of the rules every game must be played with ("" until :meth:`pinned`).
    rules_hash: str = ""

    def rules(self) -> Ruleset:
        """The ruleset: read afresh, or once per process when pinned; a pinned setup whose
        files now give other rules (edited since, or different on a Ray node) is refused."""
        if not self.rules_hash:
            return load(self.game, self.variants)
        key = (self.game, self.variants, self.rules_hash)
        if key not in _PINNED:
            rules = load(self.game, self.variants)
            if rules.rules_hash != self.rules_hash:
                raise GameFailedError(
                    f"the rule files of {rules.name} are not those the simulation began with "
                    "(changed since, or different on this machine)"
                )
            _PINNED[key] = rules
        return _PINNED[key]

    def pinned(self) -> tuple[Setup, Ruleset]:
        """This setup with paths made absolute (so that processes started elsewhere, in
        another directory or on a Ray node, read the same files) and pinned to the rules
        read now; and those rules."""
        game = self.game if self.game in bundled() else _absolute(self.game)
        portable = replace(self, game=game, variants=tuple(map(_absolute, self.variants)), rules_hash="")
        rules = portable.rules()
        setup = replace(portable, rules_hash=rules.rules_hash)
        _PINNED[setup.game, setup.variants, setup.rules_hash] = rules  # forked workers find it
        return setup, rules


@dataclass
class Batch:
    """Games played together: their records in index order and their summed tallies; or the
    ``failure`` that stopped one of them."""

    records: list[GameRecord] = field(default_factory=list)
    tally: Tally = field(default_factory=Tally)
    failure: str | None = None


@dataclass
class Simulation:
    """The played games of a setup: ``records`` in index order and the summed ``tally``.
    ``items`` lists each item kind's ids (so that unused items show too)."""

    setup: Setup
    name: str
    title: str
    rules_hash: str
    records: list[GameRecord]
    tally: Tally
    items: dict[str, list[str]]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a simulation started from ``seed``.

    >>> game_seed(0, 1) != game_seed(0, 2) != game_seed(1, 1)
    True
    """
    return _derive(seed, index, "game")


def bot_seed(seed: int, index: int, seat: int) -> int:
    """The seed of the bot on ``seat`` in game ``index``."""
    return _derive(seed, index, f"bot {seat}")


def _derive(seed: int, index: int, role: str) -> int:
    # hashed, not seed + index: simulations from neighbouring seeds share no games, and a
    # game's seed does not depend on the batch or the process that plays it
    digest = hashlib.blake2b(f"{seed}/{index}/{role}".encode(), digest_size=8).digest()
    return int.from_bytes(digest, "big") >> 1  # 63 bits: a non-negative signed 64-bit integer


def new_game(rules: Ruleset, players: int, seed: int, bots: Mapping[int, Bot] | None = None) -> Game:
    """The one place where a simulation creates its games: keeping only the events the
    report reads (``record=False``), unless a bot searches on samples, which follow every
    event of their seat."""
    if bots is not None and not any(hasattr(bot, "act_with_samples") for bot in bots.values()):
        return rules.new_game(players, seed, record=False, keep_events=events_read(rules))
    return rules.new_game(players, seed)


def play_batch(setup: Setup, indices: range) -> Batch:
    """Play the games ``indices`` of ``setup`` (in any process: everything comes from the setup)."""
    batch = Batch()
    try:
        rules = setup.rules()
    except Exception as exc:
        batch.failure = f"{type(exc).__name__}: {exc}"
        return batch
    for index in indices:
        seed = game_seed(setup.seed, index)
        game = None
        try:
            bots = {p: make_bot(name, bot_seed(setup.seed, index, p)) for p, name in enumerate(setup.bots)}
            game = new_game(rules, setup.players, seed, bots)
            first = first_player(rules, game)
            play = watch(game, bots)
            record, counts = read_game(rules, game, index, seed, first, play)
        except Exception as exc:  # any error, from rules or bots, stops the simulation with its game named
            played = len(game.actions) if game is not None else 0
            batch.failure = f"game {index} (seed {seed}) stopped after {played} actions: {type(exc).__name__}: {exc}"
            return batch
        batch.records.append(record)
        batch.tally.add_game(counts)
    return batch


def watch(game: Game, bots: Mapping[int, Bot]) -> Play:
    """Let the bots play ``game`` to the end (or ``flow.max_actions``), as
    :func:`~venedig_rules.bots.play_out` does, noting the scores after each action that
    changed them and the number of legal actions at each decision."""
    limit = game.rules.max_actions
    views = SeatViews(game)
    last = _scores(game)
    history = [ScorePoint(0, last)]
    options = decisions = applied = 0
    while not game.is_over and applied < limit:
        picks = []
        # every pick first, then every apply: a commit applied would change the next seat's view
        for p in game.to_move:
            legal = game.legal_actions(p)
            options += len(legal)
            decisions += 1
            picks.append(decide(bots[p], game, p, views(p) if reads_view(bots[p]) else None, legal))
        for action in picks:
            game.apply(action)
            applied += 1
            scores = _scores(game)
            if scores != last:
                history.append(ScorePoint(applied, scores))
                last = scores
    return Play(tuple(history), options, decisions)


def _scores(game: Game) -> tuple[int, ...]:
    scores = game.scores
    return tuple(scores[p] for p in range(game.players)) if scores else ()


def batches(games: int, jobs: int) -> list[range]:
    """Game indices in batches small enough to keep ``jobs`` processes busy and the progress
    bar moving.

    >>> batches(10, 2)[:3]
    [range(0, 1), range(1, 2), range(2, 3)]
    >>> [len(b) for b in batches(1000, 2)]  # doctest: +ELLIPSIS
    [25, 25, ...]
    """
    # about eight batches per process, so that no process idles long at the end while one
    # plays a last big batch; at most 25 games each, so that the bar moves
    size = max(1, min(25, -(-games // (jobs * 8))))
    return [range(start, min(start + size, games)) for start in range(0, games, size)]


def check_setup(setup: Setup, rules: Ruleset) -> None:
    """Raise ValueError, saying why, when ``setup`` cannot be played with ``rules``."""
    if setup.games < 1:
        raise ValueError(f"the number of games must be at least 1, not {setup.games}")
    if setup.players not in rules.players:
        span = f"{rules.players.start}-{rules.players.stop - 1}"
        raise ValueError(f"{rules.name} is for {span} players, not {setup.players}")
    if len(setup.bots) != setup.players:
        raise ValueError(f"{len(setup.bots)} bot(s) for {setup.players} seats; expected one per seat")
    for name in dict.fromkeys(setup.bots):
        make_bot(name, 0)  # ValueError naming the bots there are


def gather(setup: Setup, rules: Ruleset, done: Iterable[Batch]) -> Simulation:
    """The simulation of finished batches (in any order); the first failure is raised."""
    records: list[GameRecord] = []
    tally = Tally()
    for batch in done:
        if batch.failure:
            raise GameFailedError(f"{rules.name}: {batch.failure}")
        records += batch.records
        tally.add(batch.tally)
    records.sort(key=lambda r: r.index)  # batches finish in any order
    items = {kind: [i["id"] for i in rules.items(*where)] for kind, where in ITEM_KINDS.items()}
    return Simulation(setup, rules.name, rules.title, rules.rules_hash, records, tally, items)


#: Pinned rulesets of this process, by (game, variants, rules hash).
_PINNED: dict[tuple[str, tuple[str, ...], str], Ruleset] = {}


def _absolute(name: str) -> str:
    """A path made absolute; a name that is no file or folder here (a bundled id) as it is."""
    path = Path(name)
    return str(path.resolve()) if path.exists() else name
