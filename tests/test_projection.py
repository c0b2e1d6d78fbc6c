"""game.projected_scores(): the ruleset's end scoring run on a copy of the position."""

from __future__ import annotations

import random

import venedig_rules as vr
from venedig_rules.engine.research import projection


def _played(name: str, actions: int, seed: int = 1) -> vr.Game:
    game = vr.load(name).new_game(2, seed)
    chooser = random.Random(seed)
    for _ in range(actions):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    return game


def test_rialto_counts_its_end_scoring_and_leaves_the_game_as_it_was():
    game = _played("rialto", 150)
    state, events, view = game.played.state, len(game.events), game.view(0)
    projected = game.projected_scores()
    assert game.played.state is state and len(game.events) == events and game.view(0) == view
    # leftover coins and councilmen, buildings and districts only add points
    assert all(projected[p] >= game.scores[p] for p in range(2))
    assert projected != game.scores


def test_a_finished_game_projects_its_scores():
    game = _played("rialto", 10_000, seed=2)
    assert game.is_over and game.projected_scores() == game.scores


def test_a_ruleset_without_end_scoring_or_not_yet_able_to_run_it_gives_the_scores():
    saeulen = _played("saeulen", 120)
    assert saeulen.projected_scores() == saeulen.scores  # Säulen scores as it builds
    venedig = _played("venedig", 120)
    assert not venedig.value("ending")
    assert venedig.projected_scores() == venedig.scores  # no one has ended the game yet
    assert projection.projected_scores(venedig, when="no_such_trigger") == venedig.scores


def test_a_decision_the_end_scoring_asks_is_taken_for_the_most_points():
    """Venedig's final exchange asks each player, in secret, how much gold to turn into
    gondola steps: once the end is triggered the projection takes the most steps."""
    game = vr.load("venedig").new_game(2, 0)
    chooser = random.Random(0)
    while not game.value("ending"):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    assert not game.is_over
    # seat 0 holds gold for a step, seat 1 not (seen with this seed)
    assert (game.scores, game.projected_scores()) == ({0: 33, 1: 32}, {0: 34, 1: 32})
