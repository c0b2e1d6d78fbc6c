"""game.sample(player, seed): a game the seat cannot tell from the real one, for search.

Property tests over random positions of every bundled game (and the test ruleset) at every
player count: the seat's view is the same JSON, what it cannot see is drawn anew, play goes
on legally to the end, and a sample depends on nothing the seat cannot see.
"""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import venedig_rules as vr
from venedig_rules import testing as kit
from venedig_rules.engine.research import sampling

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
GAMES = ["saeulen", "rialto", "venedig", str(LAGOON)]
SETTINGS = settings(max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def rules(name: str) -> vr.Ruleset:
    return vr.load(name)


def positions() -> st.SearchStrategy[vr.Game]:
    """A game of a bundled ruleset or the test ruleset, any player count, after some random actions."""
    return kit.positions([rules(name) for name in GAMES], max_actions=300)


def hidden_values(game: vr.Game, player: int) -> list:
    """The values of every place ``player`` cannot see (the sample's to draw anew)."""
    lay = sampling.layout(game.rules, game.players, player)
    out = []
    for var, slots in lay.hidden.items():
        value = game.value(var)
        out += [value if slot is None else value[slot] for slot in slots]
    return out


def play_to_end(game: vr.Game, seed: int) -> vr.Game:
    chooser = random.Random(seed)
    for _ in range(game.rules.max_actions):
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    return game


@SETTINGS
@given(positions(), st.integers(0, 2**32 - 1))
def test_a_sample_shows_every_seat_what_the_game_shows_it(game, seed):
    for player in range(game.players):
        other = game.sample(player, seed)
        assert other.view(player) == game.view(player)
        assert other.check_invariants() == []
        again = other.sample(player, seed + 1)  # a sample of a sample: the same information set
        assert again.view(player) == game.view(player)
    player = seed % game.players
    other = game.sample(player, seed)
    assert other.information_state_string(player) == game.information_state_string(player)
    assert other.observation(player) == game.observation(player)


@SETTINGS
@given(positions(), st.integers(0, 2**32 - 1))
def test_a_sample_drawn_from_a_given_generator_is_the_one_its_seed_would_draw(game, seed):
    """A search draws its samples from its own generator (``rand``): the deal comes from
    that generator, which it advances, so a generator seeded as the sample would seed its
    own gives the very same sample."""
    player = seed % game.players
    rand = random.Random(seed)
    other = game.sample(player, seed, rand=rand)
    assert other.view(player) == game.view(player) and other.check_invariants() == []
    assert other.to_json()["state"] == game.sample(player, seed).to_json()["state"]
    if sampling._knowledge(game, player).plan(game.played.state).kinds:
        assert rand.getstate() != random.Random(seed).getstate()


@SETTINGS
@given(positions(), st.integers(0, 2**32 - 1), st.data())
def test_play_goes_on_from_a_sample_to_the_end(game, seed, data):
    player = data.draw(st.sampled_from(range(game.players)))
    other = play_to_end(game.sample(player, seed), seed)
    assert other.is_over and other.check_invariants() == []


@SETTINGS
@given(positions(), st.data())
def test_a_sample_redraws_what_the_seat_cannot_see(game, data):
    player = data.draw(st.sampled_from(range(game.players)))
    plan = sampling._knowledge(game, player).plan(game.played.state)
    free = [kind.items for kind in plan.kinds]
    if not any(len(set(items)) > 1 for items in free):
        return  # nothing to redraw: every hidden item of a kind is alike (or none is hidden)
    truth = hidden_values(game, player)
    assert any(hidden_values(game.sample(player, seed), player) != truth for seed in range(16))


@SETTINGS
@given(positions(), st.integers(0, 2**32 - 1), st.integers(0, 2**32 - 1), st.data())
def test_a_sample_depends_only_on_what_the_seat_sees(game, first, second, data):
    """Two games the seat cannot tell apart (the game and one of its samples) give the same
    deal for a seed: where the hidden items lie does not depend on where they lay."""
    player = data.draw(st.sampled_from(range(game.players)))
    twin = game.sample(player, first)
    assert twin.view(player) == game.view(player)
    mine, theirs = game.sample(player, second), twin.sample(player, second)
    assert mine.played.state.vars == theirs.played.state.vars
    if not sampling._knowledge(game, player).plan(game.played.state).held:  # else the frames may name other copies
        assert mine.played.state.pending == theirs.played.state.pending


def test_the_same_seed_gives_the_same_sample_and_another_seed_another_future():
    game = play_to_end(rules("venedig").new_game(3, seed=4), 4)  # a finished game samples too
    assert game.sample(1, 5).to_json()["state"] == game.sample(1, 5).to_json()["state"]
    game = rules("venedig").new_game(3, seed=4)
    one, two = game.sample(0, 1), game.sample(0, 2)
    assert one.to_json()["state"] == game.sample(0, 1).to_json()["state"]
    assert one.played.state.rng != two.played.state.rng != game.played.state.rng


def test_a_sample_keeps_the_seats_own_hand_and_redeals_the_others():
    game = rules(str(LAGOON)).new_game(3, seed=7)
    hands = [game.value("hand", p) for p in range(3)]
    others = [game.sample(0, seed).value("hand") for seed in range(12)]
    assert all(h[0] == hands[0] for h in others)
    assert any(h[1] != hands[1] or h[2] != hands[2] for h in others)
    deck = sorted(game.value("deck") + hands[1] + hands[2])
    assert all(sorted(game.sample(0, s).value("deck") + h[1] + h[2]) == deck for s, h in enumerate(others))


def test_a_card_the_seat_saw_go_into_a_hidden_hand_stays_there():
    """Säulen passes each played card to the next seat's hidden hand, in the open: the
    seat that saw it knows it is there (until that seat plays an unseen card, or its hand
    is otherwise mixed with others)."""
    game = rules("saeulen").new_game(3, seed=11)
    chooser = random.Random(1)
    while game.value("round") < 2 and not game.is_over:
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    passed = [e for e in game.events if e["type"] == "move" and e["from"][0] == "played" and e["to"][0] == "hand"]
    assert passed
    for event in passed[-3:]:
        receiver = event["to"][1]
        for seat in range(3):
            if seat != receiver and event["item"] in game.value("hand", receiver):
                assert all(event["item"] in game.sample(seat, s).value("hand", receiver) for s in range(6))


def test_the_other_seats_commits_are_drawn_again_among_their_own_options():
    game = rules(str(LAGOON)).new_game(3, seed=2)
    game.apply(game.legal_actions(1)[0])  # p1 commits its bid; p0 and p2 still to bid
    commits = {str(game.sample(0, s).played.state.pending.commits[1][0]) for s in range(20)}
    assert len(commits) > 1
    for s in range(10):
        other = game.sample(0, s)
        bid = other.played.state.pending.commits[1][0]
        assert bid in other.value("hand", 1)  # a bid from the hand the sample gave p1
        assert other.view(0) == game.view(0)
        assert other.legal_actions(0) == game.legal_actions(0)


def test_the_seat_own_commit_stays():
    game = rules(str(LAGOON)).new_game(2, seed=2)
    mine = game.legal_actions(0)[-1]
    game.apply(mine)
    assert all(game.sample(0, s).view(0)["your_commit"] == mine.value for s in range(5))


def test_a_sample_hides_others_secrets_in_its_event_log():
    game = rules(str(LAGOON)).new_game(2, seed=2)
    game.apply(game.legal_actions(1)[0])
    other = game.sample(0, 3)
    commit = [e for e in other.events if e["type"] == "commit"][-1]
    assert commit["value"] == "?" and game.events[-1]["value"] != "?"
    draws = [e for e in other.events if e["type"] == "move" and e["to"] == ["hand", 1]]
    assert draws and all(e["item"] == "?" for e in draws)
    assert other.actions == [] and other.seed == 3


def test_sample_refuses_a_seat_that_is_not_at_the_table():
    game = rules(str(LAGOON)).new_game(2, seed=2)
    with pytest.raises(ValueError, match="player 2 is not in this game"):
        game.sample(2, 0)


@SETTINGS
@given(positions(), st.integers(0, 2**32 - 1), st.data())
def test_each_option_of_another_seat_deciding_is_playable_in_a_sample(game, seed, data):
    """A sample for a seat that is not asked recomputes the options of the seat that is,
    from the new deal (Venedig's gold exchange counts the gold the sample gave): each one
    applies."""
    waiting = [p for p in range(game.players) if p not in game.to_move]
    if not waiting or game.is_over:
        return
    other = game.sample(data.draw(st.sampled_from(waiting)), seed)
    for mover in other.to_move:
        for action in other.legal_actions(mover)[:12]:
            other.clone().apply(action)


def test_the_gold_exchange_of_another_seat_is_asked_again_of_the_sampled_gold():
    """Venedig asks the player whose turn it is, in secret, how many steps to buy with 5 gold
    each; its options were counted from its secret gold. A sample for another seat deals
    that gold anew and counts again: every option it offers can be paid."""
    game = rules("venedig").new_game(2, seed=0)
    chooser = random.Random(0)
    for _ in range(71):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    assert game.played.state.pending.label == "exchange" and game.to_move == (0,)
    golds = set()
    for seed in range(12):
        other = game.sample(1, seed)
        assert other.view(1) == game.view(1)
        golds.add(tuple(sorted(other.value("gold_tiles", 0))))
        for action in other.legal_actions(0):
            other.clone().apply(action)  # paying: choosing the gold tiles to hand in
    assert len(golds) > 1  # the gold of the seat deciding is dealt anew, not kept


def test_an_item_the_paused_rules_hold_does_not_stay_in_its_true_place():
    """Rialto's take-row decision: the paused code's locals hold the word 'bridge_card'
    (a loop's last card type). The bridge cards in the other hand and the draw pile are
    dealt anew like every other card; the paused code gets the sample's card instead."""
    game = rules("rialto").new_game(2, seed=0)
    chooser = random.Random(0)
    for _ in range(3):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    plan = sampling._knowledge(game, 0).plan(game.played.state)
    assert "bridge_card" in plan.held and not plan.kept - {pos for pos in plan.kept if pos[0][0] == "bridge_stack"}

    def bridges(g: vr.Game) -> list[int]:
        return [i for i, card in enumerate(g.value("hand", 1)) if card == "bridge_card"]

    assert len({tuple(bridges(game.sample(0, s))) for s in range(20)}) > 1
    for s in range(5):
        play_to_end(game.sample(0, s), s)


def test_a_sample_does_not_depend_on_another_seats_hidden_hand():
    """Two positions that differ only in the cards of another seat's hand (and the draw
    pile they came from) give the same samples, seed for seed, and the same observations."""
    game = rules("rialto").new_game(3, seed=5)
    chooser = random.Random(5)
    for _ in range(40):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    twin = next(t for t in (game.sample(0, s) for s in range(50)) if t.value("hand", 1) != game.value("hand", 1))
    assert twin.observation(0) == game.observation(0) and twin.view(0) == game.view(0)
    for seed in range(10):
        assert game.sample(0, seed).played.state.vars == twin.sample(0, seed).played.state.vars


def test_a_sample_with_no_deal_to_try_is_refused_with_a_typed_error():
    game = rules(str(LAGOON)).new_game(2, seed=2)
    before = game.view(1)
    with pytest.raises(vr.errors.NoConsistentDealError, match="0 deals tried") as refused:
        game.sample(0, seed=3, attempts=0)
    assert refused.value.code == "play/no_deal"
    assert game.view(1) == before
    assert game.sample(0, seed=3).view(0) == game.view(0)  # nothing of the refusal stays


def test_a_position_no_deal_fits_raises_and_never_gives_the_true_hidden_state(monkeypatch):
    """Venedig asks seat 0 how much gold to exchange; a sample for seat 1 asks it again of
    the new deal. Where no deal would leave seat 0 an option (every re-ask refused here),
    the sample is refused: once the real hidden gold stayed in place as a last resort."""
    game = rules("venedig").new_game(2, seed=0)
    chooser = random.Random(0)
    for _ in range(71):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    assert game.to_move == (0,)
    tried = []

    def refused(*args, **kwargs):
        tried.append(args[2])  # the dealt variables
        return sampling._REJECTED, args[3]

    monkeypatch.setattr(sampling, "_pending", refused)
    with pytest.raises(vr.errors.NoConsistentDealError, match="seat 1 cannot see gives seat 0 an option at 'exchange'"):
        game.sample(1, seed=5)
    assert len(tried) == sampling.ATTEMPTS


def test_a_deal_fills_its_free_positions_in_every_order_alike():
    """The deal's shuffle (one draw per position): 6,000 fills of three items into three of
    five positions give each of the six orders about a thousand times, and leave the other
    positions alone."""
    draw = random.Random(0).random
    orders: dict[tuple[str, ...], int] = {}
    for _ in range(6000):
        flat = ["x", None, "y", None, None]
        sampling._fill(["a", "b", "c"], [1, 3, 4], flat, draw)
        assert flat[0] == "x" and flat[2] == "y"
        key = (flat[1], flat[3], flat[4])
        orders[key] = orders.get(key, 0) + 1
    assert sorted(orders) == sorted(
        [("a", "b", "c"), ("a", "c", "b"), ("b", "a", "c"), ("b", "c", "a"), ("c", "a", "b"), ("c", "b", "a")]
    )
    assert all(900 < n < 1100 for n in orders.values()), orders


def test_pinned_items_take_each_free_place_of_theirs_alike():
    """Three copies pinned to the same four positions (as Venedig's gold is to the swamps it
    may lie under): each of the four sets of three positions about as often, whether a draw
    hits a taken position or not."""
    draw = random.Random(1).random
    pins = [sampling._Pin("g", [0, 1, 2, 3])] * 3
    counts: dict[frozenset[int], int] = {}
    for _ in range(4000):
        flat = [None] * 4
        taken = sampling._place_pinned(pins, {"g": 3}, flat, draw)
        assert sorted(i for i, v in enumerate(flat) if v == "g") == sorted(taken)
        counts[frozenset(taken)] = counts.get(frozenset(taken), 0) + 1
    assert len(counts) == 4 and all(900 < n < 1100 for n in counts.values()), counts
