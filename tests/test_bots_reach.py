"""No bot can get to the real game: nothing reachable from a bot, from the sampler it is
handed or from a sample (attributes, slots, ``__dict__``, closure cells, containers, weak
references) is the real ``Game`` or a part of its state.

The walk does not enter modules or a function's ``__globals__``: from there every object
of the process is reachable (``sys.modules``), and a bot that imports ``gc`` is not honest
by any rule. What it checks is that honest code, reading what it is handed, cannot stumble
on the truth.
"""

from __future__ import annotations

import types
import weakref
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import venedig_rules as vr
from conftest import midgame
from venedig_rules.bots import GreedyBot, ISMCTSBot, Sampler, decide

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"


_EMPTY = object()


def _edges(obj: Any) -> Iterator[tuple[str, Any]]:
    """The objects ``obj`` leads to, each with the step that reaches it."""
    if isinstance(obj, dict | types.MappingProxyType):
        for key, value in list(obj.items()):
            yield f"[key {key!r}]", key
            yield f"[{key!r}]", value
        return
    if isinstance(obj, list | tuple | set | frozenset):
        for i, value in enumerate(list(obj)):
            yield f"[{i}]", value
        return
    if isinstance(obj, weakref.ref):
        yield "()", obj()
        return
    if isinstance(obj, types.FunctionType):
        for i, cell in enumerate(obj.__closure__ or ()):
            contents = getattr(cell, "cell_contents", _EMPTY)  # an empty cell has none
            if contents is not _EMPTY:
                yield f".__closure__[{i}]", contents
        yield ".__defaults__", obj.__defaults__
        yield ".__kwdefaults__", obj.__kwdefaults__
        yield ".__dict__", obj.__dict__
        return
    if isinstance(obj, types.MethodType):
        yield ".__self__", obj.__self__
        yield ".__func__", obj.__func__
        return
    if isinstance(obj, type):
        yield ".__dict__", obj.__dict__
        return
    yield ".__class__", type(obj)
    found = getattr(obj, "__dict__", None)
    if isinstance(found, dict):
        yield ".__dict__", found
    for cls in type(obj).__mro__:
        for slot in cls.__dict__.get("__slots__", ()):
            name = f"_{cls.__name__.lstrip('_')}{slot}" if slot.startswith("__") and not slot.endswith("__") else slot
            value = getattr(obj, name, _EMPTY)  # an unset slot has none
            if value is not _EMPTY:
                yield f".{name}", value
    if isinstance(obj, weakref.WeakKeyDictionary | weakref.WeakValueDictionary):
        yield ".items()", list(obj.items())


_LEAVES = (str, bytes, int, float, complex, bool, type(None), types.ModuleType, types.BuiltinFunctionType)


def path_to(start: Any, targets: dict[int, str], limit: int = 2_000_000) -> str | None:
    """The first path from ``start`` to an object whose id is in ``targets`` (breadth first)."""
    seen: set[int] = set()
    queue: list[tuple[Any, str]] = [(start, "bot")]
    keep: list[Any] = []  # objects made on the walk (weakref targets, .items()) stay alive
    while queue:
        next_queue: list[tuple[Any, str]] = []
        for obj, path in queue:
            if id(obj) in targets:
                return f"{path} is {targets[id(obj)]}"
            if id(obj) in seen or isinstance(obj, _LEAVES):
                continue
            seen.add(id(obj))
            keep.append(obj)
            if len(seen) > limit:
                raise AssertionError(f"the walk from the bot passed {limit} objects")
            next_queue.extend((child, path + step) for step, child in _edges(obj))
        queue = next_queue
    return None


def _truth(game: vr.Game) -> dict[int, str]:
    """The real game and the parts of it that hold what seats cannot see: its record of
    play, state, variables, event log, undo history and the seats' knowledge kept for
    sampling (which mirrors the true values)."""
    play = game._play
    state = play.state
    truth = {
        id(game): "the real game",
        id(play): "the real game's record of play",
        id(state): "the real game's state",
        id(state.vars): "the real game's variables",
        id(play.events): "the real game's event log",
        id(play.history): "the real game's undo history",
    }
    for seat, memo in (play.knowledge or {}).items():
        truth[id(memo)] = f"the real game's knowledge of seat {seat}"
        # what the sampler works from: the true values it mirrors, the pins, the plan of the deal
        for name in ("mirror", "pins", "concealed", "in_hidden", "_plan"):
            part = getattr(memo, name, None)
            if part is not None:
                truth[id(part)] = f"the real game's knowledge of seat {seat}: {name}"
    for i, event in enumerate(play.events):
        truth[id(event)] = f"event {i} of the real game's log"  # a shared dict could be changed
    return truth


@pytest.mark.parametrize("name", [LAGOON, "rialto"])
def test_no_path_leads_from_a_sampler_or_its_samples_to_the_real_game(name):
    game = midgame(name, 2, seed=4, actions=6)
    player = game.to_move[0]
    sampler = Sampler(game, player)
    samples = [sampler(seed) for seed in range(3)]
    samples.append(samples[0].sample(player, 9))  # a sample of a sample
    truth = _truth(game)
    assert any("knowledge" in what for what in truth.values())  # the true mirror is looked for too
    for start in (sampler, *samples):
        assert path_to(start, truth) is None


@pytest.mark.parametrize("make", [lambda: GreedyBot(seed=1), lambda: ISMCTSBot(seed=1, iterations=15)])
def test_no_path_leads_from_a_bot_that_has_played_to_the_real_game(make):
    game = midgame(LAGOON, 2, seed=6, actions=0)
    bot = make()
    while not game.is_over:
        player = game.to_move[0]
        game.apply(decide(bot, game, player) if player == 0 else game.legal_actions(player)[0])
    assert path_to(bot, _truth(game)) is None


def test_the_walk_finds_a_path_where_there_is_one():
    game = midgame(LAGOON, 2, seed=4, actions=5)

    class Leaky:
        def __init__(self) -> None:
            self.later = lambda: game  # a closure cell holds it
            self.ref = weakref.ref(game._play.state)

    assert path_to(Leaky(), _truth(game)) is not None
    assert "__closure__" in (path_to(Leaky().later, _truth(game)) or "")
