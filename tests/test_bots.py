"""Bots and the seat views they play from."""

from __future__ import annotations

import random
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.bots import RandomBot, SeatViews, play_out

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
