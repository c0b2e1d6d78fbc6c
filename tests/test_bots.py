"""Bots and the seat views they play from."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.bots import GreedyBot, ISMCTSBot, NeedsSamples, RandomBot, Sampler, SeatViews, decide, play_out

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_seat_views_equal_the_games_views_at_every_step(players):
    game = vr.load(LAGOON).new_game(players, seed=players)
    views, chooser = SeatViews(game), random.Random(players)
    while not game.is_over:
        for p in range(players):
            assert views(p) == game.view(p)
        mover = game.to_move[0]
        game.apply(chooser.choice(game.legal_actions(mover)))
    assert all(views(p) == game.view(p) for p in range(players))


def test_seat_views_start_again_after_an_undo_and_another_action():
    game = vr.load(LAGOON).new_game(2, seed=5)
    views = SeatViews(game)
    first, second = game.legal_actions(0)[:2]
    game.apply(first)
    assert views(0) == game.view(0)
    game.undo()
    game.apply(second)  # as many actions as before, but another position
    assert views(0) == game.view(0)
    game.undo()
    assert views(0) == game.view(0)


def test_a_seat_view_handed_out_is_not_changed_by_later_views():
    game = vr.load(LAGOON).new_game(2, seed=5)
    views = SeatViews(game)
    before = views(1)
    count = len(before["events"])
    game.apply(game.legal_actions(0)[0])
    later = views(1)
    assert len(before["events"]) == count and len(later["events"]) > count
    later["events"].clear()
    assert views(1) == game.view(1)


def test_play_out_plays_to_the_end_and_is_repeatable():
    rules = vr.load("venedig")

    def one():
        game = rules.new_game(3, seed=2)
        return play_out(game, {p: RandomBot(seed=p) for p in range(3)}).to_json()

    first = one()
    assert first == one() and first["state"]["over"]


# -- search bots: greedy and ISMCTS, from views and samples only -------------------------------
def test_a_bot_that_reads_no_view_is_given_none_and_no_view_is_built():
    seen = []

    class Reader(RandomBot):
        reads_view = True

        def act(self, view, actions):
            seen.append(view)
            return super().act(view, actions)

    class Blind(Reader):
        reads_view = False

    built = []

    # a subclass, not a patch of Game: the compiled build's Game is an extension type,
    # whose methods cannot be replaced on the class
    class Counted(vr.Game):
        def view(self, *args, **options):
            built.append(1)
            return super().view(*args, **options)

    rules = vr.load(LAGOON)
    play_out(Counted(rules, 2, 5), {0: Blind(0), 1: Blind(1)})
    assert seen and all(v is None for v in seen) and not built
    seen.clear()
    play_out(Counted(rules, 2, 5), {0: Reader(0), 1: Blind(1)})
    assert any(v is None for v in seen) and any(isinstance(v, dict) for v in seen) and built
    assert decide(Blind(0), rules.new_game(2, 5), 0) in rules.new_game(2, 5).legal_actions(0)


def test_the_registry_makes_every_bot_by_name():
    from venedig_rules.bots import BOTS, bot_names, make_bot

    assert bot_names() == ["greedy", "ismcts", "random"] == sorted(BOTS)
    for name in bot_names():
        game = vr.load(LAGOON).new_game(2, seed=4)
        assert decide(make_bot(name, seed=1), game, 0) in game.legal_actions(0)
    with pytest.raises(ValueError, match=r"no bot 'ismct'.*did you mean 'ismcts'"):
        make_bot("ismct")


@pytest.mark.parametrize("make", [lambda s: GreedyBot(seed=s), lambda s: ISMCTSBot(seed=s, iterations=8)])
def test_search_bots_play_games_to_the_end_the_same_way_for_a_seed(make):
    def one() -> dict:
        game = vr.load(LAGOON).new_game(3, seed=9)
        return play_out(game, {p: make(p) for p in range(3)}).to_json()

    first = one()
    assert first["state"]["over"] and first == one()


def test_a_search_bot_asked_without_samples_says_how_to_ask_it():
    game = vr.load(LAGOON).new_game(2, seed=4)
    for bot in (GreedyBot(), ISMCTSBot(iterations=5)):
        with pytest.raises(NeedsSamples, match="decide"):
            bot.act(game.view(0), game.legal_actions(0))
        assert bot.act(game.view(0), game.legal_actions(0)[:1]) == game.legal_actions(0)[0]


def test_ismcts_stops_at_its_time_limit():
    game = vr.load(LAGOON).new_game(2, seed=4)
    assert decide(ISMCTSBot(iterations=None, seconds=0.05), game, 0) in game.legal_actions(0)


class _Recorder:
    """A bot that keeps what it is handed."""

    def __init__(self):
        self.seen: list = []

    def act_with_samples(self, view, actions, sample):
        self.seen.append((view, actions, sample, sample(1).view(view["player"]) == view))
        return actions[0]


def test_a_searching_bot_is_handed_a_view_and_a_sampler_never_the_game():
    game = vr.load(LAGOON).new_game(2, seed=4)
    bot = _Recorder()
    play_out(game, {0: bot, 1: RandomBot(1)}, max_actions=6)
    assert bot.seen
    for view, actions, sample, same in bot.seen:
        assert type(view) is dict and all(isinstance(a, vr.Action) for a in actions)
        assert isinstance(sample, Sampler) and same
        assert not [name for name in dir(sample) if not name.startswith("_") and name not in ("player",)]


def _twins(seed: int) -> tuple[vr.Game, vr.Game, int] | None:
    """A position and a sample of it for the seat to move: two games the seat cannot tell
    apart, with different hidden cards."""
    from venedig_rules.engine.research import sampling

    game = vr.load(LAGOON).new_game(3, seed=seed)
    chooser = random.Random(seed)
    for _ in range(chooser.randrange(0, 12)):
        if game.is_over:
            return None
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    if game.is_over:
        return None
    player = game.to_move[-1]
    if sampling._knowledge(game, player).plan(game.played.state).kept:
        return None
    twin = game.sample(player, seed + 1)
    assert twin.view(player) == game.view(player)
    if [twin.value("hand", p) for p in range(3)] == [game.value("hand", p) for p in range(3)]:
        return None
    return game, twin, player


@pytest.mark.parametrize(
    "make",
    [lambda: RandomBot(3), lambda: GreedyBot(seed=3, samples=2), lambda: ISMCTSBot(seed=3, iterations=6)],
    ids=["random", "greedy", "ismcts"],
)
def test_no_bot_reads_what_its_seat_cannot_see(make):
    """Handed two games that differ only in what the seat cannot see (other hands, the deck,
    others' commits), every bot makes the same choices: it reads its view and its samples,
    nothing else."""
    checked = 0
    for seed in range(40):
        twins = _twins(seed)
        if twins is None:
            continue
        game, twin, player = twins
        assert decide(make(), game, player) == decide(make(), twin, player)
        checked += 1
        if checked == 8:
            break
    assert checked == 8


def test_the_play_command_takes_bots_by_name(capsys):
    from venedig_rules.cli import main

    assert main(["play", str(LAGOON), "--players", "2", "--seed", "3", "--bots", "greedy,random"]) == 0
    assert capsys.readouterr().out.splitlines()[-1].startswith("scores: ")
    assert main(["play", str(LAGOON), "--players", "3", "--bots", "greedy,random"]) == 1
    assert "--bots names 2 bots for 3 seats" in capsys.readouterr().err
    with pytest.raises(SystemExit) as usage:
        main(["play", str(LAGOON), "--bots", "nope"])
    assert usage.value.code == 2 and "no bot 'nope'" in capsys.readouterr().err


def test_a_sampler_tries_other_seeds_before_it_lets_a_refused_sample_through():
    """game.sample refuses a seed none of whose deals fits (NoConsistentDealError); the
    sampler goes on with other seeds (more of the same rejection sampling), and only when
    all of its seeds are refused does the error reach the bot: never the true hidden state."""
    refusing = {"every other": False, "all": False}
    refused: list[int] = []

    class Refusing(vr.Game):  # a sample is a game of its game's class
        def sample(self, player, seed, attempts=20, rand=None):
            if refusing["all"] or (refusing["every other"] and len(refused) % 2 == 0):
                refused.append(seed)
                raise vr.errors.NoConsistentDealError("refused")
            refused.append(seed)
            return super().sample(player, seed, attempts, rand)

    game = Refusing(vr.load(str(LAGOON)), 2, seed=3)
    sampler = Sampler(game, 0)
    refused.clear()
    refusing["every other"] = True
    assert sampler(7).view(0) == game.view(0)
    assert refused[0] == 7 and refused[1] != 7  # the second seed is another
    refusing["all"] = True
    with pytest.raises(vr.errors.NoConsistentDealError):
        sampler(7)
