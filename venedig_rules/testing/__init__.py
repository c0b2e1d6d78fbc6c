"""The test kit: property checks any ruleset must pass, for the bundled games and your own
variants alike.

May import: every layer below the clients, and ``bots``.

>>> import venedig_rules as vr
>>> from venedig_rules.testing import api_test
>>> report = api_test(vr.load("tests/rulesets/lagoon"), games=2, seed=1)
>>> report.ok, report.games
(True, 6)

``api_test`` plays random legal games to the end at every allowed player count and checks,
after every action: the declared invariants; that a clone equals the game; the save round
trip; the undo round trip; that the legal actions are sorted, unique and each applicable;
that each has a number in the declared ``action_space`` (when the ruleset has one); that
every view is JSON-safe and leaks no hidden datum; that at a secret or simultaneous
decision every option leaves the other seats' views identical (``probe_secret_decision``);
that the game describes itself (``testing.describing``: every decision has a prompt and
distinct option texts in every language whose refs name things that exist, every event has
a sentence, every rule event fits its declaration); and at the end that the game ended
within the declared bound, that its ``play`` log tells no state change and names every
seat, and that replaying the seed
and actions gives the same game.
Once per ruleset it checks the board layout (every space, region, connection and track
step placed), and at the end of each game that ``render`` draws well-formed SVG
with one ``data-space`` element per space and no hidden id (``testing.pictures``).
The first violation is reported with its seed and action list so it can be replayed.

For Hypothesis: ``rulesets()``, ``games(rules)``, ``playouts(rules)`` and ``positions(rules)``
strategies.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from ..engine.game import Game
from ..engine.research.actions import ActionSpaceError, action_space
from ..engine.run.machine import PendingChoice, PendingCommits
from ..engine.run.notation import Action, IllegalActionError, sort_key
from ..engine.seat.seatview import cursor
from .describing import decision_problem, log_problem, summary_problem, view_problem
from .pictures import layout_problems, render_problems

if TYPE_CHECKING:
    from hypothesis.strategies import DrawFn, SearchStrategy

    from ..engine.ruleset import Ruleset
    from ..engine.run.views import GameView

#: The expensive checks (save round trip, every legal action applied, whole event logs) run at
#: steps 1, 2, 4, 8, ..., every ``CHECKPOINT_EVERY``-th step, and at the end.
CHECKPOINT_EVERY = 200


@dataclass
class Violation:
    """The first broken promise: what, and how to get there again."""

    check: str
    message: str
    ruleset: str
    players: int
    seed: int
    actions: list[str]
    state: dict[str, Any] | None = None  # the game's state when it broke, as in a save file

    def __str__(self) -> str:
        replay = (
            f"rules.replay(players={self.players}, seed={self.seed}, actions={self.actions!r})"
            if len(self.actions) <= 40
            else f"rules.replay(players={self.players}, seed={self.seed}, actions=<{len(self.actions)} actions>)"
        )
        return (
            f"{self.check} failed in {self.ruleset} ({self.players} players, seed {self.seed}) after "
            f"{len(self.actions)} actions: {self.message}\n  replay with {replay}"
        )


@dataclass
class Report:
    """What :func:`api_test` played and the first violation it found (``ok`` when none)."""

    ruleset: str
    games: int = 0
    actions: int = 0
    violation: Violation | None = None
    longest: int = 0
    by_players: dict[int, int] = field(default_factory=dict)
    fast_games: int = 0  # games of the fast phase besides (record=False, fewer checks)

    @property
    def ok(self) -> bool:
        """No violation found."""
        return self.violation is None

    def add_game(self, players: int, length: int, fast: bool) -> None:
        """Count one game played, of ``length`` actions, in the fast phase or not."""
        if fast:
            self.fast_games += 1
        else:
            self.games += 1
            self.by_players[players] = self.by_players.get(players, 0) + 1
        self.actions += length
        self.longest = max(self.longest, length)


class _Failed(Exception):
    def __init__(self, check: str, message: str):
        super().__init__(message)
        self.check, self.message = check, message


def api_test(
    rules: Ruleset,
    games: int = 10,
    seed: int = 0,
    players: Iterable[int] | None = None,
    progress: Callable[[int, int], None] | None = None,
    raise_on_failure: bool = False,
    fast_games: int = 0,
) -> Report:
    """Play ``games`` random games per player count and check every promise after each action.

    First, in a fast phase, ``fast_games`` more games per player count are played with
    ``record=False`` (seeds after the full games' own), checking only that each ends within
    the declared bound, that no rule fails and that every invariant holds at each checkpoint
    and at the end: many games cheaply, for the rule errors only many games meet.

    Returns a Report; with ``raise_on_failure`` an AssertionError carries the violation.
    ``progress(done, total)`` is called after each game.

    >>> import venedig_rules as vr
    >>> report = api_test(vr.load("tests/rulesets/lagoon"), games=1, fast_games=5, players=[2])
    >>> report.ok, report.games, report.fast_games
    (True, 1, 5)
    """
    counts = list(players) if players is not None else list(rules.players)
    report = Report(rules.name)
    drawn = layout_problems(rules)
    if drawn:
        return _broken(report, Violation("layout", "; ".join(drawn), rules.name, counts[0], seed, []), raise_on_failure)
    total = (fast_games + games) * len(counts)
    # the fast games first: they find a rule error soonest; their seeds follow the full games'
    phases = [(True, range(games, games + fast_games)), (False, range(games))]
    for fast, seeds in phases:
        for n, g in ((n, g) for n in counts for g in seeds):
            game_seed = seed * 10_007 + g
            violation, length = _fast_game(rules, n, game_seed) if fast else _one_game(rules, n, game_seed)
            report.add_game(n, length, fast)
            if progress:
                progress(report.games + report.fast_games, total)
            if violation is not None:
                return _broken(report, violation, raise_on_failure)
    return report


def _broken(report: Report, violation: Violation, raise_on_failure: bool) -> Report:
    """The report ending at ``violation``; with ``raise_on_failure`` an AssertionError instead."""
    report.violation = violation
    if raise_on_failure:
        raise AssertionError(str(violation))
    return report


def _fast_game(rules: Ruleset, players: int, seed: int) -> tuple[Violation | None, int]:
    """One game of the fast phase: played with ``record=False``; its rules must not fail,
    it must end within the bound, and the invariants must hold at checkpoints and the end."""
    chooser = random.Random(seed)
    game = _started(rules, players, seed, record=False)
    if isinstance(game, Violation):
        return game, 0
    try:
        steps = 0
        while not game.is_over:
            legal = game.legal_actions(chooser.choice(_movers(game, steps)))
            if not legal:
                raise _Failed("legal", "a player to move has no legal action")
            game.apply(chooser.choice(legal))
            steps += 1
            if _is_checkpoint(steps):
                _check_invariants(game)
        _check_invariants(game)
    except _Failed as exc:
        return Violation(exc.check, exc.message, rules.name, players, seed, game.actions), len(game.actions)
    except Exception as exc:  # a rule failing at play time
        return Violation("play", f"{type(exc).__name__}: {exc}", rules.name, players, seed, game.actions), len(
            game.actions
        )
    return None, len(game.actions)


def _started(rules: Ruleset, players: int, seed: int, record: bool) -> Game | Violation:
    """A new game, or the violation of a flow that fails before the first decision."""
    try:
        return rules.new_game(players, seed, record=record)
    except Exception as exc:
        return Violation("play", f"{type(exc).__name__}: {exc}", rules.name, players, seed, [])


def _movers(game: Game, steps: int) -> tuple[int, ...]:
    """The players to move after ``steps`` actions; a violation when the game ran past its
    bound or nobody is to move before it ends."""
    bound = game.rules.max_actions
    if bound and steps >= bound:
        raise _Failed("bound", f"the game did not end within flow.max_actions = {bound} actions")
    movers = game.to_move
    if not movers:
        raise _Failed("to_move", "the game is not over but nobody is to move")
    return movers


def _one_game(rules: Ruleset, players: int, seed: int) -> tuple[Violation | None, int]:
    chooser = random.Random(seed)
    game = _started(rules, players, seed, record=True)
    if isinstance(game, Violation):
        return game, 0
    try:
        check_state(game, full=True)
        steps = 0
        while not game.is_over:
            action = chooser.choice(game.legal_actions(chooser.choice(_movers(game, steps))))
            # each seat's cursor before the action: between checkpoints only the new events of
            # each view are checked, which keeps a long game linear
            seen = [cursor(game, p) for p in range(players)]
            _check_undo(game, action)  # leaves the action applied: this is the game's step
            steps += 1
            check_state(game, full=_is_checkpoint(steps), chooser=chooser, seen=seen)
        check_state(game, full=True)
        problem = log_problem(game)
        if problem:
            raise _Failed("log", problem)
        problem = summary_problem(game)
        if problem:
            raise _Failed("summary", problem)
        check_pictures(game)
        replayed = rules.replay(players, seed, game.actions)
        if replayed.to_json() != game.to_json():
            raise _Failed("determinism", "replaying the seed and actions gives a different game")
    except _Failed as exc:
        state = _safe_json(game)
        return Violation(exc.check, exc.message, rules.name, players, seed, game.actions, state), len(game.actions)
    except Exception as exc:  # a rule failing at play time is a violation too
        return Violation(
            "play", f"{type(exc).__name__}: {exc}", rules.name, players, seed, game.actions, _safe_json(game)
        ), len(game.actions)
    return None, len(game.actions)


def _check_invariants(game: Game) -> None:
    failed = game.check_invariants()
    if failed:
        raise _Failed("invariant", "; ".join(failed))


def _is_checkpoint(step: int) -> bool:
    """Steps that get the expensive checks: powers of two and every CHECKPOINT_EVERY-th, so
    a game of n actions costs O(n) plus a few replays, not O(n^2)."""
    return step & (step - 1) == 0 or step % CHECKPOINT_EVERY == 0


def check_state(
    game: Game, full: bool = False, chooser: random.Random | None = None, seen: Sequence[int] | None = None
) -> None:
    """Run the per-state checks on ``game``; raises ``_Failed`` naming the broken promise.

    Every time: invariants, clone, legal actions (sorted, unique, a sample applicable), the
    views' state and each seat's events since its cursor in ``seen``. With ``full``: every
    legal action applied, the whole event log of every view, and the save round trip.
    """
    _check_invariants(game)
    snapshot = game.fingerprint()
    if game.clone().fingerprint() != snapshot or game.clone().events != game.events:
        raise _Failed("clone", "a clone differs from the game")
    for p in game.to_move:
        _check_legal_actions(game, p, snapshot, full, chooser)
    probe_secret_decision(game, full, chooser)
    for p in range(game.players):
        _check_view(game, p, full, 0 if full or seen is None else seen[p])
    problem = decision_problem(game)
    if problem:
        raise _Failed("decision", problem)
    if full:
        whole = game.to_json()
        # through JSON text, as a save file goes: a tuple or a non-string key would not survive
        restored = Game.from_json(game.rules, json.loads(json.dumps(whole)))
        if restored.to_json() != whole:
            raise _Failed("save", "to_json -> game_from_json does not give the same game")


def _check_legal_actions(
    game: Game, p: int, snapshot: tuple[str, int, int], full: bool, chooser: random.Random | None
) -> None:
    """Player ``p``'s legal actions are sorted, unique, not none, numbered in the action space
    (when declared), and applicable to a clone without changing the game (its ``snapshot``
    fingerprint): all of them with ``full``, else a sample of three."""
    actions = game.legal_actions(p)
    texts = [str(a) for a in actions]
    if actions != sorted(actions, key=sort_key) or len(set(texts)) != len(texts):
        raise _Failed("legal_actions", f"player {p}'s legal actions are not sorted and unique: {texts[:10]}")
    if not actions:
        raise _Failed("legal_actions", f"player {p} is to move but has no legal action")
    if "action_space" in game.rules.data["game"]:
        space = action_space(game.rules, game.players)
        try:
            for action in actions:
                space.encode(action, actions)
        except ActionSpaceError as exc:
            raise _Failed("action_space", str(exc)) from None
    sample = actions if full else (chooser or random).sample(actions, min(3, len(actions)))
    for action in sample:
        trial = game.clone()
        try:
            trial.apply(action)
        except IllegalActionError as exc:
            raise _Failed("legal_actions", f"legal action {action} is refused: {exc}") from None
        if game.fingerprint() != snapshot:
            raise _Failed("clone", f"applying {action} to a clone changed the game")


def _check_view(game: Game, p: int, full: bool, since: int) -> None:
    """Player ``p``'s view with the events after ``since`` is JSON-safe, leaks nothing hidden
    and describes itself; with ``full``, its cursor is past its last event."""
    view = game.view(p, since=since)
    try:
        json.dumps(view)
    except (TypeError, ValueError) as exc:
        raise _Failed("view", f"player {p}'s view is not JSON-safe: {exc}") from None
    leak = find_leak(game, view, p)
    if leak:
        raise _Failed("view", f"player {p}'s view shows {leak}")
    problem = view_problem(game, view)
    if problem:
        raise _Failed("text", f"player {p}'s view: {problem}")
    if full and game.view(p, since=view["cursor"])["events"]:
        raise _Failed("cursor", f"player {p}'s view(p, since=view['cursor']) still has events")


def probe_secret_decision(game: Game, full: bool = True, chooser: random.Random | None = None) -> None:
    """At a ``secretly`` decision, or a simultaneous one others still have to commit to,
    every option of a mover leaves the other seats' views (state, decision and the new
    events) identical: applied to clones, compared. A secret decision whose value the rules
    show (``declassify`` in the DSL: ``compiled.revealed_decisions``) is exempt. Raises
    ``_Failed`` naming the decision, the two options and the seat that tells them apart;
    without ``full``, a sample of a few options per mover is compared."""
    pending = game.position.state.pending
    if game.is_over or pending is None:
        return
    if isinstance(pending, PendingChoice):
        compiled = game.rules.compiled
        if not pending.secret or (compiled is not None and pending.label in compiled.revealed_decisions):
            return
    elif not (isinstance(pending, PendingCommits) and len(game.to_move) > 1):
        return
    seen = [cursor(game, q) for q in range(game.players)]
    for mover in game.to_move:
        actions = game.legal_actions(mover)
        if not full and len(actions) > 4:
            actions = (chooser or random).sample(actions, 4)
        # every option is compared with the first: the others' views after it
        first: Action | None = None
        first_views: list[GameView] = []
        for action in actions:
            trial = game.clone().apply(action)
            views = [trial.view(q, since=seen[q]) for q in range(game.players) if q != mover]
            if first is None:
                first, first_views = action, views
                continue
            for q_view, p_view in zip(first_views, views):
                if q_view != p_view:
                    raise _Failed(
                        "secret_decision",
                        f'at the secret decision "{pending.label}", {first} and {action} leave player '
                        f"{q_view['player']} different views",
                    )


def check_pictures(game: Game) -> None:
    """The board drawing checks (:mod:`venedig_rules.testing.pictures`) for a spectator and seat 0;
    raises ``_Failed`` naming the first problem."""
    for seat in (None, 0):
        problems = render_problems(game, seat)
        if problems:
            raise _Failed("render", problems[0])


def _check_undo(game: Game, action: Action) -> None:
    """Apply ``action``, undo it, and apply it again: the undo must restore the game (state
    and log), and the second apply give what the first gave."""
    before = game.fingerprint()
    n_events = len(game.events)
    game.apply(action)
    after = game.fingerprint()
    game.undo()
    if game.fingerprint() != before or len(game.events) != n_events:
        raise _Failed("undo", f"undo after {action} does not restore the game")
    game.apply(action)
    if game.fingerprint() != after:
        raise _Failed("undo", f"applying {action} again after undo gives a different game")


def find_leak(game: Game, view: Mapping[str, Any], player: int) -> str | None:
    """A description of the first hidden datum ``view`` shows to ``player``, or None.

    Independent of the redaction code: it compares the view with the true values using
    only the declared visibility of each state variable.
    """
    rules = game.rules
    compiled = rules.compiled
    assert compiled is not None  # a Game exists only for a ruleset with a flow

    def may_see(name: str, index: Any) -> bool:
        decl = rules.state_visibility(name)
        return decl == "all" or (decl == "owner" and compiled.state[name].per == "player" and index == player)

    for name, info in compiled.state.items():
        truth, shown = game.value(name), view["state"][name]
        places: list[tuple[int | str | None, Any, Any]]  # (player or space or nothing, true value, shown)
        if info.per == "player":
            places = [(p, truth[p], shown[p]) for p in range(game.players)]
        elif info.per == "space":
            places = [(s, truth[i], shown[s]) for i, s in enumerate(rules.space_ids)]
        else:
            places = [(None, truth, shown)]
        for where, value, seen in places:
            if not may_see(name, where) and seen != _shape(value):
                return f"hidden {name}{'' if where is None else f'[{where}]'} = {seen!r}"
    # the events must not tell what the state hides: a change, a move, another's commit or secret choice
    for event in view["events"]:
        kind = event["type"]
        if kind == "change" and not may_see(event["var"], event.get("index")) and not _is_shape(event["value"]):
            return f"a change of hidden {event['var']}: {event!r}"
        if kind == "move" and not (may_see(*event["from"]) or may_see(*event["to"])) and event["item"] != "?":
            return f"a hidden item moving: {event!r}"
        if kind == "commit" and event["player"] != player and not _is_shape(event["value"]):
            return f"another player's commit: {event!r}"
        if kind == "choice" and event.get("hidden") and event["player"] != player and not _is_shape(event["value"]):
            return f"another player's secret choice: {event!r}"
    if view["decision"] is not None and player not in game.to_move:
        return "a decision of a player who is not to move"
    return None


def _shape(value: Any) -> Any:
    """What a seat may see of a hidden value: a list's length only, else ``"?"``."""
    if value is None:
        return None
    if isinstance(value, (list, tuple)):
        return {"hidden": len(value)}
    return "?"


def _is_shape(seen: Any) -> bool:
    """Whether ``seen`` is a hidden value's shape (:func:`_shape`) rather than the value."""
    return seen is None or seen == "?" or (isinstance(seen, dict) and set(seen) == {"hidden"})


def _safe_json(game: Game) -> dict[str, Any] | None:
    # a game a rule broke may not even save: the violation is then reported without its state
    try:
        state: dict[str, Any] = game.to_json()["state"]
    except Exception:
        return None
    return state


# -- Hypothesis strategies ------------------------------------------------------------------
def rulesets(extra: Iterable[Ruleset] = ()) -> SearchStrategy[Ruleset]:
    """A strategy drawing a playable ruleset: the bundled playable ones and ``extra``."""
    from hypothesis import strategies as st

    from ..data.reading import bundled
    from ..engine.loading import load

    candidates = [r for r in (load(n) for n in bundled()) if r.playable] + list(extra)
    if not candidates:
        raise ValueError("no playable ruleset to draw from: pass extra=[your ruleset]")
    return st.sampled_from(candidates)


def games(rules: Ruleset, players: Iterable[int] | None = None) -> SearchStrategy[Game]:
    """A strategy drawing a new game of ``rules`` (any allowed player count, any seed)."""
    from hypothesis import strategies as st

    counts = list(players) if players is not None else list(rules.players)
    return st.builds(
        lambda n, seed: rules.new_game(n, seed), st.sampled_from(counts), st.integers(min_value=0, max_value=2**32 - 1)
    )


def playouts(
    rules: Ruleset, players: Iterable[int] | None = None, max_actions: int | None = None
) -> SearchStrategy[Game]:
    """A strategy drawing a game after some legal actions chosen by Hypothesis (so failing
    examples shrink to short action lists)."""
    from hypothesis import strategies as st

    limit = max_actions if max_actions is not None else rules.max_actions

    @st.composite
    def build(draw: DrawFn) -> Game:
        game = draw(games(rules, players))
        steps = draw(st.integers(min_value=0, max_value=limit))
        for _ in range(steps):
            if game.is_over:
                break
            mover = draw(st.sampled_from(game.to_move))
            game.apply(draw(st.sampled_from(game.legal_actions(mover))))
        return game

    return build()


def positions(rules: Iterable[Ruleset], max_actions: int = 300) -> SearchStrategy[Game]:
    """A strategy drawing a game of one of ``rules`` at any player count after up to
    ``max_actions`` random legal actions, chosen by a generator seeded from the drawn seed
    (quicker than ``playouts`` for long games; examples shrink to fewer actions)."""
    from hypothesis import strategies as st

    choices = list(rules)

    @st.composite
    def build(draw: st.DrawFn) -> Game:
        ruleset = draw(st.sampled_from(choices))
        players = draw(st.sampled_from(list(ruleset.players)))
        seed = draw(st.integers(min_value=0, max_value=2**32 - 1))
        game = ruleset.new_game(players, seed)
        chooser = random.Random(seed)
        for _ in range(draw(st.integers(min_value=0, max_value=max_actions))):
            if game.is_over:
                break
            game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
        return game

    return build()
