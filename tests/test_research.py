"""Integer actions (rules.action_space, encode/decode, legal_action_ids, apply_index) and
observations (game.observation, rules.observation_shape, information_state_string)."""

from __future__ import annotations

import json
import random
import shutil
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import venedig_rules as vr
from venedig_rules import testing as kit
from venedig_rules.engine.research.actions import PASS_ID, ActionSpaceError
from venedig_rules.errors import InvalidRulesError
from venedig_rules.testing import api_test

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
GAMES = ["saeulen", "rialto", "venedig", str(LAGOON)]
SETTINGS = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@cache
def rules(name: str) -> vr.Ruleset:
    return vr.load(name)


def positions() -> st.SearchStrategy[vr.Game]:
    """A game of a bundled ruleset or the test ruleset, any player count, after some random actions."""
    return kit.positions([rules(name) for name in GAMES], max_actions=300)


# -- integer actions -------------------------------------------------------------------------
@SETTINGS
@given(positions())
def test_every_legal_action_has_a_number_that_decodes_back(game):
    space = game.rules.action_space(game.players)
    for player in game.to_move:
        legal = game.legal_actions(player)
        ids = game.legal_action_ids(player)
        assert ids == sorted(set(ids)) and len(ids) == len(legal)
        assert all(0 <= i < space for i in ids)
        assert sorted(game.decode(i, player) for i in ids) == sorted(legal)
        for action in legal:
            assert game.decode(game.encode(action), player) == action
            block = space.labels.get(action.name)
            if block is not None and not block.ordinal:  # numbered by value: no game needed
                assert game.rules.decode(game.rules.encode(action), player) == action


@SETTINGS
@given(positions(), st.data())
def test_apply_index_applies_the_action_the_number_stands_for(game, data):
    if game.is_over:
        return
    player = data.draw(st.sampled_from(game.to_move))
    index = data.draw(st.sampled_from(game.legal_action_ids(player)))
    action = game.decode(index, player)
    twin = game.clone()
    game.apply_index(index, player)
    assert game.to_json()["state"] == twin.apply(action).to_json()["state"]


def test_the_action_space_is_the_same_at_every_player_count_and_load():
    for name in GAMES:
        sizes = {int(rules(name).action_space(n)) for n in rules(name).players}
        assert len(sizes) == 1
        again = vr.load(name).action_space(rules(name).players.start)
        assert int(again) == sizes.pop() and again.labels.keys() == rules(name).action_space(2).labels.keys()


def test_pass_is_number_zero_and_numbers_follow_the_declared_order():
    space = rules(str(LAGOON)).action_space(2)
    assert rules(str(LAGOON)).encode(vr.Action(1, "pass")) == PASS_ID
    assert rules(str(LAGOON)).decode(PASS_ID, 1) == vr.Action(1, "pass")
    assert [b.label for b in sorted(space.labels.values(), key=lambda b: b.offset)] == ["bid", "claim", "keep"]
    assert space.labels["bid"].values == ("one", "two", "three", "four", "five")  # ids("cards"): file order
    assert space.labels["claim"].offset == 1 + 5 and len(space.labels["claim"].values) == 10


def test_apply_index_refuses_an_illegal_number_and_leaves_the_game():
    game = rules(str(LAGOON)).new_game(2, seed=1)
    before = game.to_json()
    illegal = next(i for i in range(1, 6) if i not in game.legal_action_ids(0))
    with pytest.raises(vr.IllegalActionError):
        game.apply_index(illegal, 0)
    with pytest.raises(vr.IllegalActionError):
        game.apply_index(10_000, 0)
    with pytest.raises(ValueError, match="say whose action"):
        game.apply_index(game.legal_action_ids(0)[0])
    assert game.to_json() == before


def test_a_decision_numbered_by_values_and_ordinal_needs_the_game_only_for_the_unlisted():
    space = rules("venedig").action_space(2)
    block = space.labels["hand_in"]
    assert block.ordinal and block.places == 16384 and block.listed == 2554 == len(block.values)
    small = vr.Action(0, "hand_in", ("swamp_1", "treasure_4"))  # 5 gold: one step, listed
    assert space.decode(space.encode(small), 0) == small
    big = vr.Action(0, "hand_in", ("treasure_6",) * 6)  # 36 gold: only for 7 steps, not listed
    with pytest.raises(ActionSpaceError, match="place among the legal options"):
        space.encode(big)
    assert space.encode(big, legal=[small, big]) == block.offset + block.listed  # the first unlisted one
    assert space.decode(block.offset + block.listed, 0, legal=[small, big]) == big
    with pytest.raises(ActionSpaceError, match="place among the legal options"):
        space.decode(block.offset + block.listed, 0)
    with pytest.raises(ActionSpaceError, match="not legal now"):
        space.decode(block.offset + block.listed + 1, 0, legal=[small, big])


def _variant(tmp_path: Path, old: str, new: str) -> Path:
    target = tmp_path / "lagoon"
    shutil.copytree(LAGOON, target)
    game = target / "game.yaml"
    text = game.read_text()
    assert old in text
    game.write_text(text.replace(old, new))
    return target


def test_an_entry_without_a_decision_is_a_load_error_a_decision_without_an_entry_has_derived_numbers(tmp_path):
    rules = vr.load(_variant(tmp_path / "a", "  keep: {values: 'ids(\"cards\")'}\n", ""))
    space = rules.action_space(2)
    keep = space.labels["keep"]  # its type, card, lists its values: numbered after the declared ones
    assert keep.values == space.labels["bid"].values and keep.offset + keep.size == int(space)
    assert "(derived from its type)" in keep.where
    game = rules.new_game(players=2, seed=1)
    game.apply(game.legal_actions(0)[0])  # it loads and plays
    with pytest.raises(InvalidRulesError) as unknown:
        vr.load(_variant(tmp_path / "b", "  keep: {values:", "  kept: {values:"))
    assert "action_space declares 'kept'" in str(unknown.value)


def test_a_decision_whose_type_lists_no_values_needs_an_entry_located_at_its_choose(tmp_path):
    folder = _variant(tmp_path, "  keep: {values: 'ids(\"cards\")'}\n", "")
    game = folder / "game.yaml"
    game.write_text(game.read_text().replace("keep: {value: card,", "keep: {value: any,"))
    (error,) = vr.validate(folder)
    assert "decision 'keep' has no action_space entry" in error.message
    assert error.location.file.endswith("scoring.yaml") and 'as "keep"' in error.detail  # where it is chosen


def test_action_space_code_may_not_read_the_state(tmp_path):
    with pytest.raises(InvalidRulesError, match="hand"):
        vr.load(_variant(tmp_path, "keep: {values: 'ids(\"cards\")'}", "keep: {values: 'flatten(hand)'}"))


def test_a_legal_action_outside_the_declared_space_is_found_with_its_place(tmp_path):
    narrow = vr.load(_variant(tmp_path, "claim: {values: 'spaces(terrain: \"land\")'}", "claim: {values: '[\"a1\"]'}"))
    with pytest.raises(ActionSpaceError, match=r"game\.yaml:\d+:\d+: the values of 'claim'"):
        narrow.encode(vr.Action(0, "claim", "b1"))
    report = api_test(narrow, games=3, seed=1, players=[2])
    assert not report.ok and report.violation.check == "action_space"
    assert "game.yaml:" in report.violation.message and "claim" in report.violation.message


def test_a_ruleset_without_an_action_space_says_so(tmp_path):
    target = tmp_path / "lagoon"
    shutil.copytree(LAGOON, target)
    game = target / "game.yaml"
    text = game.read_text()
    game.write_text(text[: text.index("action_space:")])  # lagoon's section ends the file
    with pytest.raises(ActionSpaceError, match="declares no action_space"):
        vr.load(target).action_space(2)


# -- observations ----------------------------------------------------------------------------
@SETTINGS
@given(positions())
def test_an_observation_has_the_declared_shape_and_shows_nothing_hidden(game):
    for player in range(game.players):
        seen = game.observation(player)
        assert (len(seen),) == game.rules.observation_shape(game.players)
        assert all(isinstance(x, float) for x in seen)
        assert seen[player] == 1.0 and sum(seen[: game.players]) == 1.0
        # what the seat cannot see is drawn anew in a sample: the observation stays the same
        sample = game.sample(player, 1)
        assert sample.observation(player) == seen
        compact = game.observation(player, kind="compact")
        assert (len(compact),) == game.rules.observation_shape(game.players, kind="compact")
        assert sample.observation(player, kind="compact") == compact and compact[player] == 1.0


def test_an_observation_shows_the_seats_own_hand_but_only_the_size_of_others():
    game = rules(str(LAGOON)).new_game(2, seed=7)
    from venedig_rules.engine.research.observation import observation_layout

    layout = observation_layout(game.rules, 2)
    hand = next(b for b in layout.blocks if b.name == "hand")
    seen = game.observation(0)
    mine = seen[hand.offset : hand.offset + hand.width]
    theirs = seen[hand.offset + hand.width : hand.offset + 2 * hand.width]
    assert mine[0] == 3 and sum(mine[1:]) == 3  # three cards, each counted by name
    assert theirs[0] == 3 and sum(theirs[1:]) == 0  # three cards, nothing more
    for card in game.value("hand", 0):
        assert mine[1 + layout.index[card]] >= 1


def test_the_information_state_string_is_the_canonical_json_of_the_view():
    game = rules("rialto").new_game(3, seed=5)
    chooser = random.Random(5)
    for _ in range(40):
        text = game.information_state_string(1)
        assert text == json.dumps(game.view(1), sort_keys=True, separators=(",", ":"), ensure_ascii=False)
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    game.undo()
    assert json.loads(game.information_state_string(1)) == game.view(1)


# -- the examples of the docs ----------------------------------------------------------------
DOCS = Path(__file__).resolve().parent.parent / "docs"


def _blocks(page: str) -> list[str]:
    import re

    return re.findall(r"```python\n(.*?)```", (DOCS / page).read_text(encoding="utf-8"), re.S)


def _run(page: str, adapters: bool) -> int:
    import importlib.util

    names: dict = {}
    ran = 0
    for block in _blocks(page):
        needs = [m for m in ("pyspiel", "pettingzoo") if f"import {m}" in block or f"adapters.{m}" in block]
        if bool(needs) != adapters or any(importlib.util.find_spec(m) is None for m in needs):
            continue  # the other kind, or the extra is not installed here (tests/test_adapters.py says so)
        exec(compile(block, f"docs/{page}", "exec"), names)
        ran += 1
    return ran


@pytest.mark.parametrize("page", ["bots.md", "research.md"])
def test_the_examples_of_the_bot_and_research_guides_run(page, capsys, monkeypatch):
    from venedig_rules import bots

    monkeypatch.setattr(bots, "BOTS", dict(bots.BOTS))  # bots.md registers a bot of its own
    assert _run(page, adapters=False) >= 2


@pytest.mark.slow
def test_the_adapter_examples_of_the_research_guide_run(capsys):
    pytest.importorskip("pyspiel", reason="OpenSpiel is not installed: pip install -e '.[openspiel]'")
    pytest.importorskip("pettingzoo", reason="PettingZoo is not installed: pip install -e '.[pettingzoo]'")
    assert _run("research.md", adapters=True) == 4
