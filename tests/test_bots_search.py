"""The pieces of the search bots: progressive widening, the estimate from the seat's view,
root parallelism and its merge, and GreedyBot's look through the rest of its turn. All
deterministic (seeded, counted in iterations), none timed."""

from __future__ import annotations

import math
import random
from functools import partial
from pathlib import Path
from typing import Any, NamedTuple

import pytest

import venedig_rules as vr
from conftest import midgame
from venedig_rules.bots import GreedyBot, ISMCTSBot, Sampler, decide
from venedig_rules.bots.evaluate import estimate, margin, score_scale
from venedig_rules.bots.greedy import TurnSearch, judge
from venedig_rules.bots.ismcts import DEFAULT_ITERATIONS
from venedig_rules.bots.parallel import RootStat, WorkerFailed, can_fork, merge, run_forked
from venedig_rules.bots.widening import Widening
from venedig_rules.engine.run.draws import choice

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
needs_fork = pytest.mark.skipif(not can_fork(), reason="workers fork")


def _deciding(name: str | Path, seed: int) -> tuple[vr.Game, int]:
    """A 2-player position where the seat to move has several options."""
    for actions in range(seed, seed + 200):
        game = midgame(name, 2, seed, actions)
        if not game.is_over and len(game.legal_actions(game.to_move[0])) > 2:
            return game, game.to_move[0]
    raise AssertionError("no such position")


def test_a_search_without_lookahead_takes_no_prior_and_tries_the_root_at_random():
    game, player = _deciding("rialto", seed=5)
    actions = game.legal_actions(player)
    sampler = Sampler(game, player)
    for lookahead, samples in ((0, 12), (50, 13)):  # the prior plays on a sample of its own
        taken: list[int] = []

        def sample(seed: int, rand: random.Random | None = None) -> vr.Game:
            taken.append(seed)  # noqa: B023 - the list of this round, used in this round
            return sampler(seed, rand)

        bot = ISMCTSBot(seed=1, iterations=12, lookahead=lookahead, widening=Widening(1.0, 0.0))
        bot.act_with_samples(None, actions, sample)  # type: ignore[arg-type]
        assert len(taken) == samples
    firsts = set()
    for seed in range(12):  # widening of one option: the root's only child is the one tried first
        bot = ISMCTSBot(seed=seed, iterations=3, lookahead=0, widening=Widening(1.0, 0.0))
        bot.act_with_samples(None, actions, sampler)
        firsts.update(bot.last_search)
    assert len(firsts) > 1


def test_a_search_draws_its_samples_from_its_own_generator():
    """Each iteration's sample is dealt from the search's generator (no generator seeded a
    sample); the prior's sample, taken before the search, from its seed alone."""
    game, player = _deciding("saeulen", seed=2)
    sampler = Sampler(game, player)
    given: list[object] = []

    def sample(seed: int, rand: random.Random | None = None) -> vr.Game:
        given.append(rand)
        return sampler(seed, rand)

    ISMCTSBot(seed=3, iterations=8).act_with_samples(None, game.legal_actions(player), sample)  # type: ignore[arg-type]
    assert given[0] is None and len(given) == 9
    assert all(isinstance(rand, random.Random) for rand in given[1:]) and len(set(map(id, given[1:]))) == 1


def test_a_search_draws_an_option_as_the_standard_library_does():
    """``draws.choice`` is compiled in the built package; the standard library's
    ``choice`` draws the same option and leaves the generator in the same state."""
    for seed in range(300):
        for n in (1, 2, 3, 5, 8, 9, 33):
            items = list(range(n))
            mine, theirs = random.Random(seed), random.Random(seed)
            assert [choice(mine, items) for _ in range(3)] == [theirs.choice(items) for _ in range(3)]
            assert mine.getstate() == theirs.getstate()
    with pytest.raises(IndexError):
        choice(random.Random(0), [])


# -- widening --------------------------------------------------------------------------------
def test_widening_allows_more_options_as_a_node_is_visited_more():
    widening = Widening(constant=1.0, exponent=0.5)
    limits = [widening.limit(n) for n in range(0, 400)]
    assert limits[0] == 1 and limits == sorted(limits) and limits[-1] == 20
    assert Widening(constant=1.0, exponent=0.0).limit(10_000) == 1


def test_a_search_with_narrow_widening_tries_only_the_best_ranked_option_at_the_root():
    game, player = _deciding("venedig", seed=3)
    narrow = ISMCTSBot(seed=1, iterations=30, widening=Widening(constant=1.0, exponent=0.0))
    decide(narrow, game, player)
    assert len(narrow.last_search) == 1
    wide = ISMCTSBot(seed=1, iterations=30)
    decide(wide, game, player)
    options = len(game.legal_actions(player))
    assert 1 < len(wide.last_search) <= min(options, Widening().limit(30))
    assert sum(s.visits for s in wide.last_search.values()) == 30


def test_the_root_is_ranked_by_each_options_value_at_the_end_of_the_turn():
    game, player = _deciding("rialto", seed=5)
    bot = ISMCTSBot(seed=2, lookahead=10_000)  # every way through the turn
    actions = game.legal_actions(player)
    one = Sampler(game, player)(7)
    prior = bot._root_prior(one, actions, player)
    assert sorted(prior) == sorted(actions) and one.actions == []
    values = list(prior.values())
    assert values == sorted(values, reverse=True) and all(0.0 <= v <= 1.0 for v in values)
    ends = {}
    for action in actions:
        ends[action] = TurnSearch().best(one.apply(action), player, 10_000, random.Random(0))
        one.undo()
    assert max(ends, key=ends.__getitem__) in [k for k, v in prior.items() if v == values[0]]


# -- the estimate ----------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["venedig", "rialto", "saeulen"])
def test_the_estimate_reads_only_the_seats_view_and_the_rule_data(name):
    game = midgame(name, 2, seed=9, actions=60)
    player = game.to_move[0]
    for seed in range(3):
        other = game.sample(player, seed)
        assert estimate(other) == estimate(game)  # what the seat cannot see changes nothing
    track = next(t for t in game.rules.items("scoring", "tracks") if t["id"] == game.rules.winner_track)
    if isinstance(track.get("max"), int):
        assert score_scale(game) == max(1.0, (track["max"] - track.get("min", 0)) / 10)
    value = estimate(game)
    for p in range(2):
        lead = margin(game, p)
        assert (value[p] > 0.5) == (lead > 0) and (value[p] == 0.5) == (lead == 0)


def test_the_estimate_of_a_finished_game_is_the_share_of_the_win():
    game = midgame(LAGOON, 3, seed=2, actions=10_000)
    assert game.is_over
    value = estimate(game)
    assert sum(value) == pytest.approx(1.0)
    assert all(value[p] == (1 / len(game.winners) if p in game.winners else 0.0) for p in range(3))


# -- root parallelism ------------------------------------------------------------------------
def test_merge_adds_visits_and_rewards_action_by_action():
    merged = merge([{"a": RootStat(2, 1.0), "b": RootStat(1, 0.0)}, {"b": RootStat(3, 2.5)}, {}])
    assert merged == {"a": RootStat(2, 1.0), "b": RootStat(4, 2.5)}


@needs_fork
def test_forked_workers_find_what_the_same_searches_find_in_one_process():
    game, player = _deciding("rialto", seed=4)
    bot = ISMCTSBot(seed=3, iterations=10)
    sampler = Sampler(game, player)
    order = [str(a) for a in game.legal_actions(player)]
    jobs = [partial(bot._search, seed, 10, None, sampler, player, order) for seed in (11, 12, 13)]
    here = [job() for job in jobs]
    assert run_forked(jobs) == here
    assert sum(s.visits for s in merge(here).values()) == 30


@needs_fork
def test_ismcts_with_workers_splits_its_iterations_and_repeats_for_a_seed():
    game, player = _deciding("saeulen", seed=2)

    def search() -> tuple[Any, dict[str, RootStat]]:
        bot = ISMCTSBot(seed=5, iterations=21, workers=2)
        picked = decide(bot, game, player)
        return picked, bot.last_search

    first, second = search(), search()
    assert first == second
    assert first[0] in game.legal_actions(player)
    assert sum(s.visits for s in first[1].values()) == 21


@needs_fork
def test_a_failing_worker_is_reported():
    def fails() -> int:
        raise KeyError("lost")

    with pytest.raises(WorkerFailed, match="KeyError: 'lost'"):
        run_forked([lambda: 1, fails])


def test_ismcts_budgets():
    assert ISMCTSBot().iterations == DEFAULT_ITERATIONS and ISMCTSBot().seconds is None
    timed = ISMCTSBot(seconds=1)
    assert timed.iterations is None and timed.seconds == 1
    for bad in ({"iterations": 0}, {"seconds": 0}, {"workers": 0}, {"rollout_depth": -1}, {"rollout_depth": 2.5}):
        with pytest.raises(ValueError, match="ISMCTSBot needs"):
            ISMCTSBot(**bad)


# -- GreedyBot's look through its turn -------------------------------------------------------
class _Move(NamedTuple):
    name: str
    player: int

    def __str__(self) -> str:
        return self.name


class _Rules(NamedTuple):
    winner_track: str = "points"


class _RowBack:
    """A turn of player 0 with a cost one decision later: "take" scores 3 at once but then
    the only option is "pay", which costs 5; "wait" scores 1 and ends the turn."""

    players = 2
    rules = _Rules()

    def __init__(self) -> None:
        self.done: list[str] = []

    @property
    def scores(self) -> dict[int, int]:
        points = {"take": 3, "pay": -5, "wait": 1}
        return {0: sum(points[m] for m in self.done), 1: 0}

    @property
    def is_over(self) -> bool:
        return False

    @property
    def winners(self) -> tuple[int, ...]:
        return ()

    @property
    def to_move(self) -> tuple[int, ...]:
        return (0,) if self.done in ([], ["take"]) else (1,)

    def legal_actions(self, player: int) -> list[_Move]:
        if self.done == ["take"]:
            return [_Move("pay", 0)]
        return [_Move("take", 0), _Move("wait", 0)] if not self.done else [_Move("end", 1)]

    def apply(self, action: _Move) -> _RowBack:
        self.done.append(action.name)
        return self

    def undo(self) -> _RowBack:
        self.done.pop()
        return self


def test_the_turn_search_pays_a_cost_that_comes_one_decision_later():
    game: Any = _RowBack()
    turn = TurnSearch()
    take, wait = game.legal_actions(0)
    after_take = turn.best(game.apply(take), 0, budget=10, rand=random.Random(0))
    assert game.done == ["take"]
    game.undo()
    after_wait = turn.best(game.apply(wait), 0, budget=10, rand=random.Random(0))
    game.undo()
    assert (after_take, after_wait) == (-2, 1)
    assert judge(game.apply(take), 0) == 3  # what one ply would have seen
    game.undo()
    # with no budget left the turn is still played to its end (at random: here, the one way)
    assert turn.best(game.apply(take), 0, budget=0, rand=random.Random(0)) == -2


def test_greedy_bot_looks_through_its_turn_before_it_judges():
    game: Any = _RowBack()
    for seed in range(5):
        bot = GreedyBot(seed=seed, samples=1)
        assert str(bot.act_with_samples({}, game.legal_actions(0), lambda _seed: game)) == "wait"
    assert game.done == []


def test_greedy_bot_is_repeatable_and_honest_on_a_real_game():
    game, player = _deciding("venedig", seed=6)
    picks = {str(decide(GreedyBot(seed=4), game, player)) for _ in range(2)}
    assert len(picks) == 1 and picks <= {str(a) for a in game.legal_actions(player)}


def test_the_ucb_weighing_picks_the_first_best_by_the_formula_within_and_beyond_its_log_table():
    """_best_by_ucb (a table of logs up to 4,095 offers, math.log beyond): the first action
    whose child has the highest mean + c * sqrt(log(offers) / visits), untried ones skipped."""
    from venedig_rules.bots.ismcts import _best_by_ucb, _Node

    rand = random.Random(3)
    for _ in range(200):
        actions, found = [], []
        for i in range(rand.randint(1, 12)):
            actions.append(f"a{i}")
            child = None
            if rand.random() < 0.8 or i == 0:
                child = _Node(0, available=rand.choice([1, 2, 50, 4095, 4096, 9000]))
                child.visits = rand.randint(1, min(child.available, 500))
                child.reward = child.visits * rand.random()
            found.append(child)
        value = {
            a: c.reward / c.visits + 0.7 * math.sqrt(math.log(c.available) / c.visits)
            for a, c in zip(actions, found)
            if c is not None
        }
        best = max(value.values())
        expected = next(a for a in actions if a in value and value[a] >= best - 1e-12)
        assert _best_by_ucb(actions, found, 0.7) == expected
    with pytest.raises(ValueError, match="no option of this node has been tried"):
        _best_by_ucb(["a"], [None], 0.7)
