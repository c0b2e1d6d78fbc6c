"""``decision["forced"]``: true exactly when the seat's only choice is one option, so a client
may answer it for the seat (the web page's "answer forced moves for me")."""

from __future__ import annotations

import random

import pytest

import venedig_rules as vr


@pytest.mark.parametrize("game", ["venedig", "saeulen", "rialto"])
def test_forced_is_true_exactly_when_the_seat_has_one_option(game: str) -> None:
    rules = vr.load(game)
    played = rules.new_game(players=3, seed=11)
    chooser = random.Random(11)
    seen = {True: 0, False: 0}
    while not played.is_over:
        for p in played.to_move:
            decision = played.decision(p)
            assert decision is not None
            assert decision["forced"] is (len(played.legal_actions(p)) == 1)
            assert decision["forced"] is (len(decision["options"]) == 1)
            seen[decision["forced"]] += 1
        mover = chooser.choice(played.to_move)
        played.apply(chooser.choice(played.legal_actions(mover)))
    assert seen[True] and seen[False]  # a random game meets both kinds


def test_venedig_asks_a_player_without_gold_to_keep_it_a_secret_forced_question() -> None:
    # the exchange is asked even of a player with no gold, so that nobody learns who has
    # gold: a client answering it for the seat must not answer faster (docs/web.md)
    game = vr.load("venedig").new_game(players=3, seed=7)
    decision = game.decision(0)
    assert decision is not None
    assert (decision["label"], decision["secret"], decision["forced"]) == ("exchange", True, True)
    assert [o["text"] for o in decision["options"]] == ["Keep the gold"]
    game.apply("p0 pass")
    laying_out = game.decision(0)
    assert laying_out is not None and laying_out["forced"] is False
