"""Learnable encodings: action numbers with a fixed meaning (few "k-th option" numbers in
play, ``describe``) and the compact observation (its size, and that it hides what the seat
may not see)."""

from __future__ import annotations

import random
from functools import cache
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.engine.research.actions import ActionSpaceError
from venedig_rules.engine.research.compact import compact_layout

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
BUNDLED = ["rialto", "saeulen", "venedig"]
#: The most a compact observation may hold, per seat (issue 31).
COMPACT_LIMIT = 4096
#: The largest share of actions taken in random play that may be numbered by their place.
PLACE_SHARE_LIMIT = 0.10


@cache
def rules(name: str) -> vr.Ruleset:
    return vr.load(name)


def _counts(name: str) -> list[int]:
    """The player counts 2 to 5 the ruleset allows."""
    return [n for n in range(2, 6) if n in rules(name).players]


def _place_numbered(game: vr.Game, action: vr.Action) -> bool:
    """Whether ``action``'s number stands for its place among the legal options now."""
    block = game.rules.action_space(game.players).labels.get(action.name)
    return block is not None and block.number_of(action.value) is None and action.name != "pass"


@pytest.mark.parametrize("name", BUNDLED)
def test_random_play_takes_few_actions_numbered_by_their_place(name, capsys):
    for players in _counts(name):
        taken = by_place = 0
        for seed in range(3):
            chooser = random.Random(seed)
            game = rules(name).new_game(players, seed=seed, record=False)
            while not game.is_over:
                player = chooser.choice(game.to_move)
                action = chooser.choice(game.legal_actions(player))
                taken += 1
                by_place += _place_numbered(game, action)
                game.apply(action)
        share = by_place / taken
        with capsys.disabled():
            print(f"\n{name} {players}p: {by_place} of {taken} actions numbered by their place ({share:.2%})")
        assert share <= PLACE_SHARE_LIMIT


@pytest.mark.parametrize("name", [*BUNDLED, str(LAGOON)])
def test_the_compact_observation_fits_in_4096_numbers(name, capsys):
    for players in rules(name).players:
        (size,) = rules(name).observation_shape(players, kind="compact")
        (full,) = rules(name).observation_shape(players)
        with capsys.disabled():
            print(f"\n{Path(name).name} {players}p: compact observation {size} numbers (full {full})")
        assert size <= COMPACT_LIMIT and size < full
        game = rules(name).new_game(players, seed=players)
        assert len(game.observation(0, kind="compact")) == size


def test_the_compact_layout_is_the_same_in_every_load():
    again = vr.load("rialto")
    assert compact_layout(again, 3) == compact_layout(rules("rialto"), 3)


def test_the_compact_observation_shows_the_seats_own_hand_but_only_the_size_of_others():
    game = rules(str(LAGOON)).new_game(2, seed=7)
    hand = next(b for b in compact_layout(game.rules, 2).blocks if b.name == "hand")
    seen = game.observation(0, kind="compact")
    mine = seen[hand.offset : hand.offset + hand.width]
    theirs = seen[hand.offset + hand.width : hand.offset + 2 * hand.width]
    assert mine[0] == 3 and sum(mine[2:]) == 3  # three cards, each counted by name
    assert theirs[0] == 3 and sum(theirs[1:]) == 0  # three cards, nothing more
    for card in game.value("hand", 0):
        assert mine[2 + hand.words[card]] >= 1


def test_the_compact_observation_names_only_the_seats_own_pending_decision():
    game = rules("rialto").new_game(2, seed=3)
    layout = compact_layout(game.rules, 2)
    start = 2 * 2 + 1
    places = slice(start, start + len(layout.decisions) + 1)
    (mover,) = game.to_move
    label = game.played.state.pending.label
    mine, other = game.observation(mover, kind="compact"), game.observation(1 - mover, kind="compact")
    assert mine[places].count(1.0) == 1 and mine[start + layout.decisions[label]] == 1.0
    assert other[places].count(1.0) == 0


@pytest.mark.parametrize("name", BUNDLED)
def test_a_twin_that_differs_only_in_what_the_seat_cannot_see_has_its_compact_observation(name):
    chooser = random.Random(11)
    game = rules(name).new_game(3, seed=11)
    for _ in range(25):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    for seat in range(3):
        seen = game.observation(seat, kind="compact")
        twins = [game.sample(seat, s) for s in range(6)]
        differing = [t for t in twins if t.played.state.vars != game.played.state.vars]
        assert differing  # the samples deal what the seat cannot see anew
        assert all(t.observation(seat, kind="compact") == seen for t in twins)


def test_an_unknown_observation_kind_is_refused_with_the_kinds():
    game = rules(str(LAGOON)).new_game(2, seed=1)
    with pytest.raises(ValueError, match="full, compact"):
        game.observation(0, kind="tiny")
    with pytest.raises(ValueError, match="full, compact"):
        game.rules.observation_shape(2, kind="tiny")


# -- what a number means ---------------------------------------------------------------------
@pytest.mark.parametrize("name", [*BUNDLED, str(LAGOON)])
def test_every_number_is_described_with_its_decision(name):
    space = rules(name).action_space(rules(name).players.start)
    texts = [space.describe(i) for i in range(min(int(space), 2000))]
    assert texts[0].startswith("0: pass")
    assert all(text.startswith(f"{i}: ") and "{" not in text for i, text in enumerate(texts))
    for block in space.labels.values():
        if block.values is not None:
            value = block.values[-1]
            number = block.offset + len(block.values) - 1
            assert space.describe(number) == space.describe(space.encode(vr.Action(0, block.label, value)))


def test_a_described_number_reads_as_the_option_a_seat_is_shown():
    space = rules("rialto").action_space(2)
    take_row = space.labels["take_row"]
    assert (
        space.describe(take_row.offset)
        == f"{take_row.offset}: Choose a card row to take into your hand: Take card row 1"
    )
    assert "Kartenreihe 1" in space.describe(take_row.offset, lang="de")
    assert "[t]" in space.describe(space.labels["play"].offset)  # the stage's type: fixed by the moment
    hand_in = rules("venedig").action_space(2).labels["hand_in"]
    text = rules("venedig").action_space(2).describe(hand_in.offset + hand_in.listed)
    assert "option 1 among the legal 'hand_in' options that have no number of their own" in text
    with pytest.raises(ActionSpaceError, match="not an action number"):
        space.describe(int(space))
    with pytest.raises(ValueError, match="languages"):
        space.describe(1, lang="xx")


def test_a_number_names_the_same_move_in_different_states():
    game = rules("venedig").new_game(3, seed=4)
    chooser = random.Random(4)
    meaning: dict[int, vr.Action] = {}
    for _ in range(150):
        if game.is_over:
            break
        for player in game.to_move:
            for number in game.legal_action_ids(player):
                action = game.decode(number, player)
                if _place_numbered(game, action):
                    continue
                plain = vr.Action(0, action.name, action.value)
                assert meaning.setdefault(number, plain) == plain
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    assert len(meaning) > 30


def test_a_designers_new_decision_gets_numbers_and_words_from_its_type(tmp_path):
    import shutil

    target = tmp_path / "lagoon"
    shutil.copytree(LAGOON, target)
    game_yaml = target / "game.yaml"
    text = game_yaml.read_text()
    entry = "  keep: {values: 'ids(\"cards\")'}\n"
    assert entry in text
    game_yaml.write_text(text.replace(entry, ""))
    assert vr.validate(target) == []
    space = vr.load(target).action_space(2)
    keep = space.labels["keep"]  # numbered after the declared entries, from its type (card)
    assert keep.listed == keep.size == 5 and not keep.ordinal
    assert space.describe(keep.offset).endswith(": Keep bid 1")


def test_a_short_list_of_lists_shows_each_element_with_its_numbers():
    game = rules("rialto").new_game(2, seed=5)
    chooser = random.Random(5)
    while not any(game.value("conn_tiles")):
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    block = next(b for b in compact_layout(game.rules, 2).blocks if b.name == "conn_tiles")
    assert block.items == len(game.value("conn_tiles")) and block.item_numbers == 2
    seen = game.observation(1, kind="compact")
    start = block.offset + 2 + len(block.words) + block.numbers
    for i, element in enumerate(game.value("conn_tiles")):
        place = seen[start + i * block.item_width : start + (i + 1) * block.item_width]
        if element is None:
            assert not any(place)
            continue
        tile, *numbers = element
        assert place[block.words[tile]] == 1.0 and place[len(block.words) :] == [float(n) for n in numbers]


def test_thousands_of_options_numbered_by_place_are_numbered_in_one_pass():
    space = rules("venedig").action_space(2)
    block = space.labels["hand_in"]
    listed = vr.Action(0, "hand_in", block.values[0])
    unlisted = [vr.Action(0, "hand_in", ("treasure_6",) * 6 + ("swamp_1",) * k) for k in range(5000)]
    legal = [listed, *unlisted]
    numbers = space.encode_all(legal)
    assert numbers[0] == block.offset
    assert numbers[1:] == list(range(block.offset + block.listed, block.offset + block.listed + 5000))
    assert [space.encode(a, legal) for a in legal[:3]] == numbers[:3]
    assert space.decode(numbers[-1], 0, legal) == unlisted[-1]
