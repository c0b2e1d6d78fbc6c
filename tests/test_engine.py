"""The engine's promises to front ends, on the test-only lagoon ruleset.

Lagoon (tests/rulesets/lagoon) has every feature the engine must handle: simultaneous
hidden bids (``choose each``), hidden hands (``visible: owner``), hidden secrets, a hidden
shuffled deck, random draws, an optional multi-step choice (``claim`` or ``pass``), an
immediate win (``win(p)``), scoring rules and a winner with a tie breaker (markers).
Each test reads as expectation, then fact.
"""

from __future__ import annotations

import hashlib
import json
import operator
import random
import re
import shutil
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import venedig_rules as vr
from venedig_rules import RuleRuntimeError
from venedig_rules.engine import SaveFileError
from venedig_rules.engine.run.notation import Action, IllegalActionError

ROOT = Path(__file__).resolve().parent.parent
LAGOON = ROOT / "tests" / "rulesets" / "lagoon"
EMBEDDING_GUIDE = ROOT / "docs" / "embedding.md"

# What lagoon's game.yaml declares hidden: `visible: owner` per player, `visible: hidden`.
OWNER_VARS = {"hand", "secret"}
HIDDEN_VARS = {"deck"}


# -- helpers ---------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def rules():
    return vr.load(LAGOON)


def dumps(game) -> str:
    """The save data as text: equal text means byte-identical saves."""
    return json.dumps(game.to_json())


def step(game, rng: random.Random):
    """Apply one random legal action of a random player to move; returns it."""
    player = rng.choice(game.to_move)
    action = rng.choice(game.legal_actions(player))
    game.apply(action)
    return action


def playout(game, seed: int, *, steps: int | None = None, each=None):
    """Random legal play from a seeded generator, to the end or for ``steps`` actions;
    ``each(game)`` runs after every action. Returns the game."""
    rng = random.Random(seed)
    done = 0
    while not game.is_over and (steps is None or done < steps):
        step(game, rng)
        done += 1
        assert done <= game.rules.data["game"]["flow"]["max_actions"], "the game does not end"
        if each is not None:
            each(game)
    return game


def at_claim(rules, players: int = 3, seed: int = 7):
    """A game stopped at the first one-player (claim or pass) decision."""
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while len(game.to_move) != 1 or game.view(game.to_move[0])["decision"]["label"] != "claim":
        step(game, rng)
    return game


def finished(rules, players: int, seed: int):
    return playout(rules.new_game(players=players, seed=seed), seed)


def with_checksum(data: dict) -> dict:
    """``data`` with the checksum recomputed as docs/embedding.md says: sha256 of the
    canonical JSON (sorted keys, no spaces, UTF-8) of every other field."""
    body = {k: v for k, v in data.items() if k != "checksum"}
    text = json.dumps(body, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    return {**body, "checksum": hashlib.sha256(text.encode("utf-8")).hexdigest()}


def lagoon_copy(tmp_path: Path, **edits: tuple[str, str]) -> Path:
    """A copy of lagoon with text replaced in its files: ``game=("old", "new")``."""
    target = tmp_path / "lagoon"
    shutil.copytree(LAGOON, target)
    for kind, (old, new) in edits.items():
        path = target / f"{kind}.yaml"
        text = path.read_text()
        assert text.count(old) == 1, f"{old!r} should occur once in {path.name}"
        path.write_text(text.replace(old, new))
    return target


def bare(events) -> list[dict]:
    """Events without the sentence a view adds to each."""
    return [{k: v for k, v in e.items() if k != "text"} for e in events]


def expected_winners(game) -> tuple[int, ...]:
    """Most points, then most markers left; ties shared (lagoon's scoring.yaml)."""
    key = {p: (game.value("points", p), game.value("markers", p)) for p in range(game.players)}
    best = max(key.values())
    return tuple(p for p in range(game.players) if key[p] == best)


def find_finished(rules, wanted, tries: int = 300):
    """The first finished random game (2 to 4 players, seeds from 0) with ``wanted(game)``."""
    for seed in range(tries):
        for players in (2, 3, 4):
            game = finished(rules, players, seed)
            if wanted(game):
                return game
    pytest.fail(f"no random game in {tries} seeds has the wanted ending")


def may_see(event: dict, player: int) -> bool:
    """Whether ``player`` may see the hidden part of an engine event, by lagoon's declarations."""

    def place_visible(name, index):
        return name not in OWNER_VARS | HIDDEN_VARS or (name in OWNER_VARS and index == player)

    if event["type"] == "change":
        return place_visible(event["var"], event.get("index"))
    if event["type"] == "move":
        return place_visible(*event["from"]) or place_visible(*event["to"])
    if event["type"] == "commit" or (event["type"] == "choice" and event.get("hidden")):
        return event["player"] == player
    return True


def shape(value):
    """A redacted value as views show it."""
    if value is None:
        return None
    return {"hidden": len(value)} if isinstance(value, list) else "?"


# -- to_move and simultaneous decisions ------------------------------------------------------
def test_to_move_at_a_simultaneous_decision_lists_every_uncommitted_player_and_shrinks(rules):
    game = rules.new_game(players=3, seed=7)
    assert game.to_move == (0, 1, 2)
    game.apply(game.legal_actions(2)[0])
    assert game.to_move == (0, 1)
    game.apply(game.legal_actions(0)[-1])
    assert game.to_move == (1,)
    game.apply(game.legal_actions(1)[0])
    assert any(e["type"] == "reveal" for e in game.events)
    assert len(game.to_move) == 1 and game.view(game.to_move[0])["decision"]["label"] == "claim"


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_pending_decision_agrees_with_the_game_on_movers_legal_actions_and_legality(rules, players):
    def agree(game):
        pending = game.position.state.pending
        if pending is None:
            assert game.is_over
            return
        assert pending.movers() == game.to_move
        by_player = pending.legal_by_player()
        assert list(by_player) == list(game.to_move)
        for p in range(players):
            legal = pending.legal_actions(p)
            assert list(legal) == game.legal_actions(p) == list(by_player.get(p, ()))
            assert all(pending.accepts(a) for a in legal)
            assert not pending.accepts(Action(p, "pass")) or Action(p, "pass") in legal
            assert not pending.accepts(Action(p, pending.label, "no such option"))

    playout(rules.new_game(players=players, seed=players), players, each=agree)


def test_the_actions_of_a_simultaneous_decision_are_built_once_not_again_after_each_commit(rules):
    game = rules.new_game(players=3, seed=7)
    waiting = game.legal_actions(1)
    game.apply(game.legal_actions(0)[0])
    # the very same action objects: the decision after a commit shares those built before it
    assert all(map(operator.is_, game.legal_actions(1), waiting)) and game.legal_actions(1) == waiting


def test_a_player_who_has_committed_has_no_legal_actions_and_cannot_commit_again(rules):
    game = rules.new_game(players=3, seed=7)
    first = game.legal_actions(0)[0]
    game.apply(first)
    assert game.legal_actions(0) == []
    before = dumps(game)
    with pytest.raises(IllegalActionError, match="not to move"):
        game.apply(first)
    assert dumps(game) == before


def test_a_commit_is_invisible_in_the_other_players_views_whatever_its_value(rules):
    game = rules.new_game(players=3, seed=7)
    views = {}
    for action in game.legal_actions(1):
        other = game.clone().apply(action)
        views[str(action)] = {p: json.dumps(other.view(p), sort_keys=True) for p in (0, 2)}
    assert len(views) > 1
    for p in (0, 2):
        assert len({v[p] for v in views.values()}) == 1, f"p{p}'s view should not depend on which bid p1 committed"
    other = game.clone().apply(game.legal_actions(1)[0])
    commit = bare(e for e in other.view(0)["events"] if e["type"] == "commit")
    assert commit == [{"type": "commit", "player": 1, "label": "bid", "value": "?", "hidden": True}]
    assert other.view(0)["your_commit"] is None


def test_a_commit_is_visible_to_its_owner_in_view_and_events(rules):
    game = rules.new_game(players=3, seed=7)
    action = game.legal_actions(1)[0]
    game.apply(action)
    view = game.view(1)
    commit = bare(e for e in view["events"] if e["type"] == "commit")
    assert commit == [{"type": "commit", "player": 1, "label": "bid", "value": action.value, "hidden": True}]
    assert view["your_commit"] == action.value, "your_commit should be the committed value, as in the commit event"


def test_the_full_event_list_holds_every_commit_unredacted(rules):
    game = rules.new_game(players=3, seed=7)
    action = game.legal_actions(1)[0]
    game.apply(action)
    assert game.events[-1] == {"type": "commit", "player": 1, "label": "bid", "value": action.value, "hidden": True}


def test_the_reveal_event_shows_every_bid_to_everyone_once_all_are_in(rules):
    game = rules.new_game(players=3, seed=7)
    bids = {p: game.legal_actions(p)[p % 2] for p in (2, 0, 1)}
    for p in (2, 0):
        game.apply(bids[p])
        assert not any(e["type"] == "reveal" for e in game.events)
    game.apply(bids[1])
    reveals = [e for e in game.to_json()["events"] if e["type"] == "reveal"]
    assert reveals == [{"type": "reveal", "label": "bid", "values": [bids[p].value for p in range(3)]}]
    for p in range(3):
        assert bare(e for e in game.view(p)["events"] if e["type"] == "reveal") == reveals
        assert game.view(p)["your_commit"] is None


# -- legal_actions ---------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_legal_actions_are_sorted_unique_and_each_applicable_on_a_clone(rules, players):
    game = rules.new_game(players=players, seed=players)
    rng = random.Random(players)
    checked = 0
    while not game.is_over and checked < 40:
        for p in game.to_move:
            actions = game.legal_actions(p)
            assert actions, f"player {p} is to move but has no legal action"
            assert all(isinstance(a, Action) and a.player == p for a in actions)
            assert actions == sorted(actions, key=str)
            assert len(set(actions)) == len(actions)
            for action in actions:
                trial = game.clone()
                assert trial.apply(action) is trial
        step(game, rng)
        checked += 1


def test_legal_actions_is_a_snapshot_the_caller_may_change(rules):
    game = rules.new_game(players=2, seed=1)
    actions = game.legal_actions(0)
    actions.clear()
    assert game.legal_actions(0)


def test_legal_actions_of_a_player_not_to_move_is_empty(rules):
    game = at_claim(rules)
    others = [p for p in range(3) if p not in game.to_move]
    assert all(game.legal_actions(p) == [] for p in others)


def test_legal_actions_without_player_gives_the_only_mover(rules):
    game = at_claim(rules)
    assert game.legal_actions() == game.legal_actions(game.to_move[0])


def test_legal_actions_without_player_refuses_several_movers(rules):
    game = rules.new_game(players=3, seed=7)
    with pytest.raises(ValueError, match=r"\[0, 1, 2\]"):
        game.legal_actions()


def test_legal_actions_without_player_refuses_when_nobody_is_to_move(rules):
    game = finished(rules, 2, 1)
    assert game.to_move == ()
    with pytest.raises(ValueError, match="nobody is to move"):
        game.legal_actions()


# -- apply -----------------------------------------------------------------------------------
def test_apply_takes_the_action_text_and_returns_the_game(rules):
    by_text, by_action = rules.new_game(players=2, seed=4), rules.new_game(players=2, seed=4)
    action = by_action.legal_actions(0)[1]
    assert by_text.apply(f"  {action}  ") is by_text
    assert by_action.apply(action) is by_action
    assert dumps(by_text) == dumps(by_action)


def test_apply_takes_an_equal_action_built_by_hand(rules):
    game = at_claim(rules)
    legal = game.legal_actions()[0]
    game.apply(Action(legal.player, legal.name, legal.value))
    assert game.actions[-1] == str(legal)


def test_apply_takes_pass_at_an_optional_choice(rules):
    game = at_claim(rules)
    player = game.to_move[0]
    assert f"p{player} pass" in [str(a) for a in game.legal_actions()]
    game.apply(f"p{player} pass")
    assert {"type": "choice", "player": player, "label": "claim", "value": None, "passed": True} in game.events


def illegal_cases(rules):
    """{name: (game, action, words the message must contain)}."""
    simultaneous = rules.new_game(players=3, seed=7)
    claim = at_claim(rules)
    mover = claim.to_move[0]
    other = (mover + 1) % 3
    taken = {s for s, owner in zip(rules.space_ids, claim.value("owner")) if owner is not None}
    water = next(s for s in rules.space_ids if s not in {a.value for a in claim.legal_actions()} | taken)
    over = finished(rules, 2, 5)
    return {
        name: (game, action, words)
        for name, game, action, words in [
            ("wrong player", claim, f"p{other} claim({claim.legal_actions()[0].value})", ["not to move", f"p{other}"]),
            ("no such player", claim, "p9 pass", ["not to move"]),
            ("wrong value", claim, f"p{mover} claim({water})", ["not legal", str(claim.legal_actions()[0])]),
            ("wrong decision name", claim, f"p{mover} bid(five)", ["not legal", "legal:"]),
            ("bid not in hand", simultaneous, "p0 bid(six)", ["not legal", str(simultaneous.legal_actions(0)[0])]),
            ("malformed text", claim, "claim c4 please", ["not an action", "expected"]),
            ("unbalanced list", claim, f"p{mover} claim([a1,a2)", ["expected"]),
            ("missing value", claim, f"p{mover} claim", ["expected a value"]),
            ("after the end", over, "p0 pass", ["game is over"]),
            ("action after the end", over, Action(0, "bid", "five"), ["game is over"]),
        ]
    }


@pytest.mark.parametrize(
    "name",
    [
        "wrong player",
        "no such player",
        "wrong value",
        "wrong decision name",
        "bid not in hand",
        "malformed text",
        "unbalanced list",
        "missing value",
        "after the end",
        "action after the end",
    ],
)
def test_an_illegal_action_raises_illegal_action_error_and_leaves_the_game_untouched(rules, name):
    game, action, words = illegal_cases(rules)[name]
    before, events, moves = dumps(game), len(game.events), game.to_move
    with pytest.raises(IllegalActionError) as info:
        game.apply(action)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), f"{name}: {word!r} should be in the message {str(info.value)!r}"
    assert dumps(game) == before and len(game.events) == events and game.to_move == moves


def test_apply_refuses_something_that_is_no_action_at_all_without_changing_the_game(rules):
    game = rules.new_game(players=2, seed=1)
    before = dumps(game)
    for junk in (None, 42, ("p0", "bid", "five")):
        with pytest.raises((IllegalActionError, TypeError)):
            game.apply(junk)
    assert dumps(game) == before


def test_a_rule_that_fails_during_apply_raises_rule_runtime_error_and_rolls_back(tmp_path):
    folder = lagoon_copy(
        tmp_path, game=("owner[s] = who;", 'owner[s] = who; if s == "a1" { move("nowhere", deck, discard) };')
    )
    game = at_claim(vr.load(folder))
    player = game.to_move[0]
    assert f"p{player} claim(a1)" in [str(a) for a in game.legal_actions()]
    before = dumps(game)
    with pytest.raises(RuleRuntimeError) as info:
        game.apply(f"p{player} claim(a1)")
    assert "nowhere" in str(info.value) and "game.yaml" in str(info.value)
    assert dumps(game) == before
    game.apply(f"p{player} pass")  # the game goes on


@pytest.mark.parametrize("record", [True, False])
def test_the_actions_after_a_failed_one_run_as_in_a_game_where_none_failed(tmp_path, record):
    """A game runs every action on one machine: nothing of a failed run stays in it."""
    failure = 'owner[s] = who; if s == "a1" { move("nowhere", deck, discard) };'  # after a write
    rules = vr.load(lagoon_copy(tmp_path, game=("owner[s] = who;", failure)))
    played = at_claim(rules).actions
    failing, clean = (rules.new_game(players=3, seed=7, record=record) for _ in range(2))
    for game in (failing, clean):
        for action in played:
            game.apply(action)
    player = failing.to_move[0]
    with pytest.raises(RuleRuntimeError):
        failing.apply(f"p{player} claim(a1)")
    for game in (failing, clean):
        game.apply(f"p{player} pass")
        playout(game, 5)
    assert failing.fingerprint() == clean.fingerprint() and dumps(failing) == dumps(clean)


# -- undo --------------------------------------------------------------------------------------
def test_undo_restores_the_exact_previous_save_step_by_step_back_to_the_start(rules):
    game = rules.new_game(players=3, seed=11)
    saves = [dumps(game)]
    rng = random.Random(11)
    for _ in range(12):
        step(game, rng)
        saves.append(dumps(game))
    for expected in reversed(saves[:-1]):
        assert game.undo() is game
        assert dumps(game) == expected
    assert game.actions == []
    with pytest.raises(IndexError):
        game.undo()
    assert dumps(game) == saves[0]


def test_undo_then_the_same_action_gives_the_same_game(rules):
    game = at_claim(rules)
    action = game.legal_actions()[0]
    after = dumps(game.clone().apply(action))
    game.apply(game.legal_actions()[-1]).undo()
    assert dumps(game.apply(action)) == after


def test_undo_at_a_new_game_raises_index_error(rules):
    with pytest.raises(IndexError):
        rules.new_game(players=2, seed=0).undo()


def test_undo_takes_back_the_end_of_the_game(rules):
    game = finished(rules, 2, 3)
    game.undo()
    assert not game.is_over and game.to_move and game.winners == ()


def test_a_game_continues_every_earlier_position_until_an_undo_takes_it_back_past_one(rules):
    game = rules.new_game(players=3, seed=4)
    rng = random.Random(4)
    positions = [game.position]
    for _ in range(6):
        step(game, rng)
        positions.append(game.position)
    assert all(game.continues(p) for p in positions)
    assert [p.actions for p in positions] == list(range(7))
    assert positions[-1].events == len(game.events)
    clone = game.clone()
    game.undo().undo()
    assert [game.continues(p) for p in positions] == [True] * 5 + [False] * 2
    assert all(clone.continues(p) for p in positions)  # a clone goes on by itself
    game.apply(game.legal_actions(game.to_move[0])[0])
    assert game.continues(positions[4]) and not game.continues(positions[6])


# -- clone -----------------------------------------------------------------------------------
def test_a_clone_is_equal_in_to_json(rules):
    game = playout(rules.new_game(players=3, seed=2), 2, steps=9)
    assert dumps(game.clone()) == dumps(game)


def test_a_clone_is_independent_of_the_original(rules):
    game = playout(rules.new_game(players=3, seed=2), 2, steps=9)
    before = dumps(game)
    other = game.clone()
    playout(other, 5, steps=6)
    assert dumps(game) == before
    other.undo()
    assert dumps(game) == before
    game.apply(game.legal_actions(game.to_move[0])[0])
    assert dumps(other) != dumps(game)


# -- saving and loading ----------------------------------------------------------------------
@pytest.mark.parametrize("players,steps", [(2, 0), (3, 5), (4, 17), (3, None)])
def test_a_save_survives_json_text_and_loads_equal(rules, players, steps):
    game = playout(rules.new_game(players=players, seed=3), 3, steps=steps)
    data = json.loads(json.dumps(game.to_json()))
    loaded = rules.game_from_json(data)
    assert loaded.to_json() == game.to_json()
    assert loaded.to_move == game.to_move and loaded.is_over == game.is_over
    for p in range(players):
        assert loaded.legal_actions(p) == game.legal_actions(p)
        assert loaded.view(p) == game.view(p)


def test_a_loaded_game_plays_on_like_the_original(rules):
    game = playout(rules.new_game(players=3, seed=8), 8, steps=7)
    loaded = rules.game_from_json(json.loads(json.dumps(game.to_json())))
    rng = random.Random(1)
    while not game.is_over:
        action = step(game, rng)
        loaded.apply(str(action))
        assert dumps(loaded) == dumps(game)
    loaded.undo()
    assert not loaded.is_over


def test_a_save_names_its_format_version_rules_and_checksum(rules):
    data = rules.new_game(players=2, seed=5).to_json()
    assert data["format"] == "venedig-rules/game" and data["version"] == 2
    assert data["rules_hash"] == rules.rules_hash and data["ruleset"] == rules.name
    assert (data["players"], data["seed"], data["actions"]) == (2, 5, [])
    assert data == with_checksum(data), "the checksum should follow the documented scheme"


def saved(rules) -> dict:
    return json.loads(json.dumps(playout(rules.new_game(players=3, seed=6), 6, steps=8).to_json()))


def refused(rules, data, *words):
    with pytest.raises(SaveFileError) as info:
        rules.game_from_json(data)
    assert isinstance(info.value, ValueError)
    for word in words:
        assert word in str(info.value), f"{word!r} should be in {str(info.value)!r}"


@pytest.mark.parametrize("data", [None, [], "venedig", 3, {}])
def test_from_json_refuses_what_is_not_a_save(rules, data):
    refused(rules, data, "not a venedig-rules saved game")


def test_from_json_refuses_another_format(rules):
    refused(rules, with_checksum({**saved(rules), "format": "chess/game"}), "format")


def test_from_json_refuses_another_version(rules):
    refused(rules, with_checksum({**saved(rules), "version": 3}), "version", "3")


def test_from_json_refuses_a_save_from_a_copy_with_one_changed_number(rules, tmp_path):
    other = vr.load(lagoon_copy(tmp_path, game=("win_points: 15", "win_points: 16")))
    assert other.rules_hash != rules.rules_hash
    data = json.loads(json.dumps(playout(other.new_game(players=3, seed=6), 6, steps=8).to_json()))
    refused(rules, data, "other rules", "rules_hash")
    refused(other, saved(rules), "other rules", "rules_hash")


def test_from_json_refuses_a_save_from_a_variant(rules, tmp_path):
    path = tmp_path / "deeper.yaml"
    path.write_text(
        f"extends: {LAGOON}\nid: deeper\ntitle: Deeper lagoon\n"
        "overlay:\n  game:\n    constants:\n      win_points: 16\n"
    )
    variant = vr.load(LAGOON, variants=[path])
    assert variant.name == "lagoon+deeper"
    data = variant.new_game(players=2, seed=1).to_json()
    refused(rules, data, "other rules", "lagoon+deeper")


def test_from_json_refuses_a_changed_checksum(rules):
    data = saved(rules)
    data["checksum"] = "0" * 64
    refused(rules, data, "checksum")


def test_from_json_refuses_a_changed_field_without_a_new_checksum(rules):
    data = saved(rules)
    data["state"]["vars"]["points"][0] += 10
    refused(rules, data, "checksum")


def test_from_json_refuses_a_tampered_state_with_a_recomputed_checksum(rules):
    data = saved(rules)
    data["state"]["vars"]["points"][0] += 10
    refused(rules, with_checksum(data), "state does not follow")


@pytest.mark.parametrize("ruleset", [[], None, "venedig", "saeulen"])
def test_from_json_refuses_another_ruleset_name_with_a_recomputed_checksum(rules, ruleset):
    data = saved(rules)
    data["ruleset"] = ruleset
    refused(rules, with_checksum(data), "fields ruleset differ")


def test_from_json_refuses_a_field_no_save_has_with_a_recomputed_checksum(rules):
    data = saved(rules)
    data["owner"] = "p1"
    refused(rules, with_checksum(data), "fields owner differ")


def test_from_json_refuses_a_tampered_hand_with_a_recomputed_checksum(rules):
    data = saved(rules)
    hand = data["state"]["vars"]["hand"]
    hand[0], hand[1] = hand[1], hand[0]
    refused(rules, with_checksum(data), "state does not follow")


def test_from_json_refuses_an_illegal_action_list_with_a_recomputed_checksum(rules):
    data = saved(rules)
    data["actions"].append("p0 claim(nowhere)")
    refused(rules, with_checksum(data), "cannot be replayed")


def test_from_json_refuses_actions_that_are_not_text_with_a_recomputed_checksum(rules):
    data = saved(rules)
    data["actions"].append(5)
    refused(rules, with_checksum(data))


def test_from_json_refuses_a_tampered_event_log_with_a_recomputed_checksum(rules):
    data = saved(rules)
    data["events"][0]["why"] = "tampered"
    try:
        loaded = rules.game_from_json(with_checksum(data))
    except SaveFileError:
        return
    assert loaded.to_json() == with_checksum(data), (
        "from_json should refuse a save whose events do not follow from its actions, not load another game"
    )


def _moves_to_a_seat(data: dict) -> list[dict]:
    return [e for e in data["events"] if e["type"] == "move" and isinstance(e["to"][1], int)]


@pytest.mark.parametrize("kind", [bool, float])
def test_from_json_refuses_a_seat_number_of_another_kind_with_a_recomputed_checksum(rules, kind):
    # to Python true is 1 and 1.0 is 1: a save compared with == took either for the seat, and
    # gave a game whose save is not the one loaded (found by test_fuzz on the compiled build)
    data = saved(rules)
    moved = next(e for e in _moves_to_a_seat(data) if e["to"][1] in (0, 1))
    moved["to"][1] = kind(moved["to"][1])
    refused(rules, with_checksum(data), "events does not follow")


def test_from_json_refuses_a_field_the_game_does_not_write_with_a_recomputed_checksum(rules):
    refused(rules, with_checksum({**saved(rules), "comment": None}), "fields comment differ")


def test_from_json_refuses_a_bad_player_count_with_a_recomputed_checksum(rules):
    data = saved(rules)
    data["players"] = 9
    refused(rules, with_checksum(data), "9")


# -- determinism -------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_same_seed_and_actions_give_byte_identical_saves(rules, players):
    first = finished(rules, players, 21)
    second = vr.load(LAGOON).replay(players, 21, first.actions)
    assert dumps(second) == dumps(first)
    assert json.dumps(second.to_json(), sort_keys=True) == json.dumps(first.to_json(), sort_keys=True)


def test_different_seeds_usually_give_different_games(rules):
    starts = {json.dumps(rules.new_game(players=3, seed=seed).to_json()["state"]) for seed in range(10)}
    assert len(starts) >= 9


def test_chance_lives_in_the_state_so_undo_and_redo_draw_the_same(rules):
    game = rules.new_game(players=2, seed=9)
    for p in (0, 1):
        game.apply(game.legal_actions(p)[0])
    after = dumps(game)
    game.undo()
    game.apply(game.legal_actions(1)[0])
    assert dumps(game) == after


# -- views -------------------------------------------------------------------------------------
def views_along_a_playout(rules, players, seed):
    """(game, player, view) at every decision of a random game, for every player."""
    game = rules.new_game(players=players, seed=seed)
    rng = random.Random(seed)
    while True:
        for p in range(players):
            yield game, p, game.view(p)
        if game.is_over:
            return
        step(game, rng)


@pytest.mark.parametrize("players", [2, 4])
def test_views_are_json_safe(rules, players):
    for _, _, view in views_along_a_playout(rules, players, 1):
        assert json.loads(json.dumps(view, allow_nan=False)) == view


@pytest.mark.parametrize("players", [2, 3, 4])
def test_views_hide_other_hands_and_secrets_and_the_deck(rules, players):
    for game, p, view in views_along_a_playout(rules, players, players):
        state = view["state"]
        assert state["deck"] == {"hidden": len(game.value("deck"))}
        for q in range(players):
            if q == p:
                assert state["hand"][q] == list(game.value("hand", q))
                assert state["secret"][q] == game.value("secret", q)
            else:
                assert state["hand"][q] == {"hidden": len(game.value("hand", q))}
                assert state["secret"][q] == "?"
        assert state["discard"] == list(game.value("discard"))
        assert state["points"] == [game.value("points", q) for q in range(players)]
        assert state["owner"] == {s: game.value("owner", s) for s in game.rules.space_ids}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_events_in_views_are_redacted_the_same_way(rules, players):
    game = finished(rules, players, 30 + players)
    full = game.to_json()["events"]
    for p in range(players):
        shown = bare(game.view(p)["events"])
        assert len(shown) == len(full)
        for event, seen in zip(full, shown):
            if may_see(event, p):
                assert seen == event
            else:
                hidden_field = "item" if event["type"] == "move" else "value"
                assert seen == {**event, hidden_field: shape(event[hidden_field])}, (
                    f"p{p} should see {event} redacted, not {seen}"
                )


def test_seats_share_the_events_they_see_as_they_are_and_nothing_else(rules):
    """The copies of events seen as they are are made once for all seats: a seat's view
    is the same whichever seats asked before it, and a redacted event is its own."""
    game = finished(rules, 3, 33)
    for order in ((0, 1, 2, None), (None, 2, 1, 0)):
        played = game.clone()
        views = {p: played.view(p)["events"] for p in order}
        for p in order:
            alone = game.clone().view(p)["events"]
            assert views[p] == alone
    hidden = [i for i, e in enumerate(views[0]) if e.get("item") == "?" or e.get("value") == "?"]
    assert hidden, "the game has events p0 sees redacted"
    assert any(views[1][i] != views[0][i] for i in hidden), "some event p1 sees as it is"


def test_a_clone_of_a_viewed_game_gives_the_views_of_a_fresh_game_however_either_goes_on(rules):
    """A clone starts from its original's seat logs: whatever either game does after (go
    on, undo, go another way), the clone's views are those of a game that never gave one."""
    game, rng = rules.new_game(players=3, seed=5), random.Random(5)
    for _ in range(12):
        step(game, rng)
    for p in (0, 1, 2, None):
        game.view(p)
    clone = game.clone()
    for _ in range(3):
        game.undo()
    for _ in range(5):
        step(game, rng)  # the original goes another way
        step(clone, rng)
    fresh = vr.Game.from_json(rules, json.loads(json.dumps(clone.to_json())))
    for p in (0, 1, 2, None):
        assert clone.view(p) == fresh.view(p)
    assert all(game.view(p) == vr.Game.from_json(rules, game.to_json()).view(p) for p in (0, 1, 2))


def test_a_clone_of_a_viewed_game_tells_only_its_new_events(rules, monkeypatch):
    from venedig_rules.engine.seat.wording import Wording

    game, rng = finished(rules, 3, 34), random.Random(34)
    while game.is_over:
        game.undo()
    for p in range(3):
        game.view(p)
    told = []
    event = Wording.event
    monkeypatch.setattr(Wording, "event", lambda self, e: told.append(e) or event(self, e))
    clone = game.clone()
    cursor = clone.view(0)["cursor"]
    step(clone, rng)
    new = clone.view(0, since=cursor)["events"]
    assert len(told) <= len(new) < len(clone.events) // 4


def test_a_player_sees_their_own_draws_and_no_one_else_does(rules):
    game = rules.new_game(players=3, seed=7)
    hand = list(game.value("hand", 1))

    def draws(view):
        return [e["item"] for e in view["events"] if e["type"] == "move" and e["to"] == ["hand", 1]]

    assert draws(game.view(1)) == hand
    assert draws(game.view(0)) == draws(game.view(2)) == ["?"] * len(hand)


def test_a_view_shows_the_decision_only_to_a_player_to_move(rules):
    game = at_claim(rules)
    mover = game.to_move[0]
    view = game.view(mover)
    decision = view["decision"]
    assert (decision["label"], decision["actions"]) == ("claim", [str(a) for a in game.legal_actions(mover)])
    assert decision["prompt"] == game.decision(mover)["prompt"] == "Choose a free land space to claim, or stop"
    assert view["to_move"] == [mover] and view["player"] == mover and view["players"] == 3
    assert all(game.view(p)["decision"] is None for p in range(3) if p != mover)


def test_a_private_rule_event_is_shown_only_to_its_addressee(tmp_path):
    folder = lagoon_copy(
        tmp_path,
        game=(
            "secret[p] = random(secret_kinds) + 1",
            'secret[p] = random(secret_kinds) + 1; event("peek", to: p, secret: secret[p])',
        ),
        texts=("    events:\n", '    events:\n      peek: "{to} learns the secret number {secret}"\n'),
    )
    game_yaml = folder / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("events:\n", "events:\n  peek: {fields: {secret: number}}\n", 1))
    game = vr.load(folder).new_game(players=3, seed=7)
    for p in range(3):
        peeks = [e for e in game.view(p)["events"] if e["type"] == "peek"]
        secret = game.value("secret", p)
        assert peeks == [{"type": "peek", "to": p, "secret": secret, "text": f"p{p} learns the secret number {secret}"}]


def test_a_secret_decision_with_pass_is_asked_even_without_options(tmp_path):
    # whether a secret decision has options must not show: with none, only the pass is left
    peek = "{prompt: 'Peek, or not', waiting: '{player} may peek', option: 'Peek at {value}', pass: Do not peek}"
    texts = ("      keep:\n", f"      peek: {peek}\n      keep:\n")
    declared = ("decisions:\n", "decisions:\n  peek: {value: card}\n")
    secret = ("shuffle(deck);", 'shuffle(deck); let peek = choose 1 from [] as "peek" or pass secretly;')
    peeking = lagoon_copy(tmp_path / "secret", game=secret, texts=texts)
    path = peeking / "game.yaml"
    path.write_text(path.read_text().replace(*declared, 1))
    game = vr.load(peeking).new_game(players=3, seed=7)
    assert game.to_move == (1,) and [str(a) for a in game.legal_actions(1)] == ["p1 pass"]
    game.apply("p1 pass")
    assert next(e for e in game.events if e.get("label") == "peek")["passed"] is True
    public = ("shuffle(deck);", 'shuffle(deck); let peek = choose 1 from [] as "peek" or pass;')
    peeking = lagoon_copy(tmp_path / "public", game=public, texts=texts)
    path = peeking / "game.yaml"
    path.write_text(path.read_text().replace(*declared, 1))
    game = vr.load(peeking).new_game(players=3, seed=7)
    assert not [e for e in game.events if e.get("label") == "peek"]  # not secret: none at once, unasked


# -- the end -----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [2, 3, 4])
def test_at_the_end_nobody_moves_and_scores_and_winners_are_set(rules, players):
    game = finished(rules, players, 40 + players)
    assert game.is_over and game.to_move == ()
    assert all(game.legal_actions(p) == [] for p in range(players))
    assert game.scores == {p: game.value("points", p) for p in range(players)}
    assert game.winners == expected_winners(game)
    assert game.events[-1] == {"type": "game_over"}
    assert all(game.view(p)["over"] and game.view(p)["winners"] == list(game.winners) for p in range(players))


def test_before_the_end_there_are_no_winners(rules):
    game = rules.new_game(players=2, seed=0)
    assert not game.is_over and game.winners == ()
    assert game.scores == {0: 0, 1: 0}


def test_a_tie_on_points_is_broken_by_markers_left(rules):
    def tied_on_points_one_winner(g):
        return len(g.winners) == 1 and list(g.scores.values()).count(max(g.scores.values())) > 1

    game = find_finished(rules, tied_on_points_one_winner)
    top = max(game.scores.values())
    tied = [p for p in game.scores if game.scores[p] == top]
    (winner,) = game.winners
    assert winner in tied
    assert all(game.value("markers", winner) > game.value("markers", p) for p in tied if p != winner)


def test_a_full_tie_is_shared(rules):
    game = find_finished(rules, lambda g: len(g.winners) > 1)
    assert len({(game.value("points", p), game.value("markers", p)) for p in game.winners}) == 1
    assert game.winners == expected_winners(game)


def test_win_ends_the_game_at_once_with_that_winner(tmp_path):
    early = vr.load(lagoon_copy(tmp_path, game=("win_points: 15", "win_points: 3")))
    for seed in range(50):
        game = finished(early, 2, seed)
        if game.value("round") < 5:
            break
    else:
        pytest.fail("no game reached 3 points before the last round")
    points = {p: game.value("points", p) for p in range(2)}
    assert game.is_over and game.to_move == ()
    assert game.winners == (min(p for p in points if points[p] >= 3),)
    assert game.events[-1] == {"type": "game_over"}


def test_win_skips_the_end_of_game_scoring(tmp_path):
    early = vr.load(lagoon_copy(tmp_path, game=("win_points: 15", "win_points: 3")))
    game = next(g for g in (finished(early, 3, s) for s in range(50)) if g.value("round") < 5)
    last_claim = max(i for i, e in enumerate(game.events) if e["type"] == "claim")
    after = game.events[last_claim + 1 :]
    assert after[-1] == {"type": "game_over"}
    assert not [e for e in after if e.get("var") == "points"], "secret_bonus and region_majority should not run"


# -- values and invariants ---------------------------------------------------------------------
def test_value_gives_whole_variables_and_indexed_parts(rules):
    game = at_claim(rules)
    assert game.value("round") == 1
    assert game.value("points") == tuple(game.value("points", p) for p in range(3))
    assert game.value("hand", 0) == game.value("hand")[0]
    space = rules.space_ids[0]
    assert game.value("owner", space) == game.value("owner")[0]
    assert len(game.value("deck")) + len(game.value("discard")) + sum(len(h) for h in game.value("hand")) == 15


@pytest.mark.parametrize("players", [2, 3, 4])
def test_invariants_hold_through_random_playouts(rules, players):
    def check(game):
        assert game.check_invariants() == [], f"after {game.actions}"

    for seed in range(8):
        game = rules.new_game(players=players, seed=seed)
        check(game)
        playout(game, seed, each=check)
        assert game.is_over


def test_a_broken_invariant_is_reported_by_its_id_and_message(tmp_path):
    broken = vr.load(lagoon_copy(tmp_path, invariants=("== 4 * player_count()", "== 5 * player_count()")))
    messages = broken.new_game(players=2, seed=0).check_invariants()
    assert len(messages) == 1 and messages[0].startswith("markers_conserved: every marker")


# -- new_game ----------------------------------------------------------------------------------
@pytest.mark.parametrize("players", [0, 1, 5])
def test_new_game_refuses_a_player_count_outside_the_ruleset_range(rules, players):
    with pytest.raises(ValueError, match=r"2-4 players"):
        rules.new_game(players=players, seed=0)


def test_new_game_refuses_a_data_only_ruleset_with_a_clear_error(data_only):
    data_only = vr.load(data_only)
    assert not data_only.playable
    with pytest.raises(vr.VenedigError, match="no flow"):
        data_only.new_game(players=3, seed=0)


def test_new_game_numbers_players_from_zero(rules):
    game = rules.new_game(players=4, seed=0)
    assert game.players == 4 and game.to_move == (0, 1, 2, 3)
    assert [a.player for a in game.legal_actions(3)] == [3] * len(game.legal_actions(3))


# -- action text -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "text,action",
    [
        ("p1 claim(c4)", Action(1, "claim", "c4")),
        ("p0 place([c4,d4])", Action(0, "place", ("c4", "d4"))),
        ("p2 pass", Action(2, "pass")),
        ("p3 pay(12)", Action(3, "pay", 12)),
        ('p0 name("San Marco")', Action(0, "name", "San Marco")),
        ("p1 pick(none)", Action(1, "pick", None)),
        ("p1 nest([[a,1],[]])", Action(1, "nest", (("a", 1), ()))),
    ],
)
def test_action_text_parses_and_prints_back(rules, text, action):
    assert rules.parse_action(text) == action
    assert str(action) == text
    assert vr.Ruleset.parse_action(str(action)) == action


@pytest.mark.parametrize(
    "text", ["", "claim(c4)", "p1", "P1 pass", "p1 claim(c4", "p1 claim(c4) x", "p1 claim([a,b)", "px pass"]
)
def test_parse_action_refuses_bad_text_with_a_value_error(rules, text):
    with pytest.raises(ValueError, match="expected"):
        rules.parse_action(text)


def test_every_legal_action_prints_as_text_that_parses_back(rules):
    game = rules.new_game(players=3, seed=12)
    rng = random.Random(12)
    while not game.is_over:
        for p in game.to_move:
            for action in game.legal_actions(p):
                assert rules.parse_action(str(action)) == action
        step(game, rng)


# -- errors ------------------------------------------------------------------------------------
@pytest.mark.parametrize("error", [IllegalActionError, SaveFileError, RuleRuntimeError])
def test_every_play_error_is_a_venedig_error_and_a_value_error(error):
    assert issubclass(error, ValueError)
    assert issubclass(error, vr.VenedigError), (
        f"{error.__name__} should derive from VenedigError, as docs/errors.md promises for every error"
    )


# -- the embedding guide -----------------------------------------------------------------------
def guide_loop() -> str:
    text = EMBEDDING_GUIDE.read_text()
    blocks = re.findall(r"```python\n(# A complete front-end loop.*?)```", text, re.S)
    assert len(blocks) == 1, "docs/embedding.md should have one '# A complete front-end loop' block"
    return blocks[0]


def test_the_embedding_guide_loop_is_about_twenty_lines():
    lines = [line for line in guide_loop().splitlines() if line.strip()]
    assert 12 <= len(lines) <= 26


def test_the_embedding_guide_loop_plays_a_game_to_the_end(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # a bundled game: it runs from any folder
    namespace: dict = {"__name__": "embedding_guide"}
    exec(compile(guide_loop(), str(EMBEDDING_GUIDE), "exec"), namespace)
    game = namespace["game"]
    out = capsys.readouterr().out
    assert game.is_over and game.winners
    assert "Choose the action card you play this round -> Play " in out and "winners" in out
    assert len(out.splitlines()) == len(game.actions) + 1


@pytest.mark.parametrize("players", [2, 4])
def test_the_fingerprint_is_the_saved_state_as_sorted_json_and_the_log_lengths(rules, players):
    game, chooser = rules.new_game(players, seed=players), random.Random(players)
    while True:
        saved = game.to_json()
        assert game.fingerprint() == (
            json.dumps(saved["state"], sort_keys=True),
            len(saved["events"]),
            len(saved["actions"]),
        )
        if game.is_over:
            break
        game.apply(chooser.choice(game.legal_actions(game.to_move[0])))


def test_the_machines_quick_pending_choice_is_the_dataclass_with_every_field():
    """``PendingChoice.at_once`` sets the frozen dataclass's slots itself (speed): it must
    give what the constructor gives, and set every field the class declares."""
    import dataclasses

    from venedig_rules.engine.run.machine import PendingChoice

    values = (2, "place", (("a", "b"), ("c", "d")), True, "cells", True)
    quick = PendingChoice.at_once(*values)
    assert quick == PendingChoice(*values) and hash(quick) == hash(PendingChoice(*values))
    names = [f.name for f in dataclasses.fields(PendingChoice)]
    assert [name for name in names if hasattr(quick, name)] == names
    assert quick._actions is None and quick.actions is quick._actions  # its cache, declared
    with pytest.raises(dataclasses.FrozenInstanceError):
        quick.player = 0  # type: ignore[misc]


def test_the_machines_quick_pending_commits_is_the_dataclass_with_every_field():
    """``PendingCommits.at_once`` and ``committed`` set the frozen dataclass's slots
    themselves (speed), as ``PendingChoice.at_once`` does; a commit keeps the actions built."""
    import dataclasses

    from venedig_rules.engine.run.machine import PendingCommits

    values = ((0, 2), "bid", ((1, 2), (3,)), (None, None), "bids")
    quick = PendingCommits.at_once(*values)
    assert quick == PendingCommits(*values) and hash(quick) == hash(PendingCommits(*values))
    names = [f.name for f in dataclasses.fields(PendingCommits)]
    assert [name for name in names if hasattr(quick, name)] == names
    actions = quick.actions
    after = quick.committed(2, 3)
    assert after == PendingCommits((0, 2), "bid", ((1, 2), (3,)), (None, (3,)), "bids")
    assert after._actions is actions and after.movers() == (0,)
    with pytest.raises(dataclasses.FrozenInstanceError):
        after.label = "x"  # type: ignore[misc]


def test_the_games_reading_of_a_decisions_actions_is_the_decisions_own():
    """``actions_of`` and ``forget_actions``, what the game calls at every action, give
    and let go of what the decision's own methods do, for either kind of decision and for
    every player (none for one not to move)."""
    from venedig_rules.engine.run.machine import PendingChoice, PendingCommits, actions_of, forget_actions

    choice = PendingChoice(1, "place", ("a", "b"), True, "cells")
    commits = PendingCommits((0, 2), "bid", ((1, 2), (3,)), (None, (3,)), "bids")
    for pending in (choice, commits):
        for player in range(4):
            assert actions_of(pending, player) == pending.legal_actions(player)
        forget_actions(pending)
        assert pending._actions is None
        assert actions_of(pending, 0) is actions_of(pending, 0)  # built once, then kept
    assert [str(a) for a in actions_of(choice, 1)] == ["p1 place(a)", "p1 place(b)", "p1 pass"]
    assert actions_of(commits, 2) == () and [str(a) for a in actions_of(commits, 0)] == ["p0 bid(1)", "p0 bid(2)"]


def test_an_option_offered_again_gets_the_action_made_before_but_never_one_of_another_kind():
    """Decisions share the Action of an option offered before (speed), kept apart by player,
    label and the options' kind: ``1`` and ``True`` are equal in Python, yet ``p0 x(1)`` and
    ``p0 x(true)`` are different actions."""
    from venedig_rules.engine.run import machine

    first = machine._actions(0, "x", ("a", "b"), False)
    again = machine._actions(0, "x", ("b", "c"), True)
    assert again[0] is first[1] and again == (Action(0, "x", "b"), Action(0, "x", "c"), Action(0, "pass"))
    assert machine._actions(1, "x", ("b",), False)[0] is not first[1]  # another player's
    assert machine._actions(0, "y", ("b",), False)[0] is not first[1]  # another decision's
    numbers = machine._actions(0, "x", (1, 2), False)
    truths = machine._actions(0, "x", (True,), False)
    lists = machine._actions(0, "x", ((1, 2), (True, 2)), False)  # two kinds: made afresh
    assert [type(a.value) for a in numbers + truths] == [int, int, bool]
    assert [type(a.value[0]) for a in lists] == [int, bool]
    assert [type(a.value[0]) for a in machine._actions(0, "x", ((True, 2),), False)] == [bool]
    assert [type(a.value[0]) for a in machine._actions(0, "x", ((1, 2),), False)] == [int]
    assert str(machine._actions(0, "x", (True,), False)[0]) == "p0 x(true)"


def test_a_long_decision_gets_the_actions_made_before_and_makes_the_others():
    """A decision of ``LOOKED_UP_FROM`` options or more finds its kept actions in one pass
    (the pure package's ``looked_up``) and makes only those it lacks."""
    from venedig_rules.engine.run import machine, ordered

    size = min(ordered.LOOKED_UP_FROM, 40)
    options = tuple(f"long {n:02}" for n in range(size))
    some = machine._actions(0, "long", options[::3], False)
    actions = machine._actions(0, "long", options, True)
    assert actions == tuple(Action(0, "long", o) for o in options) + (Action(0, "pass"),)
    assert actions[::3][: len(some)] == some and all(a is b for a, b in zip(actions[::3], some))
    assert all(a is b for a, b in zip(machine._actions(0, "long", options, False), actions))
    assert ordered.looked_up({"a": 1}, ("b", "a")) == [None, 1]


def test_the_actions_kept_for_sharing_stay_bounded(monkeypatch):
    from venedig_rules.engine.run import machine

    monkeypatch.setattr(machine, "MADE_MAX", 100)
    for n in range(250):
        machine._actions(n % 3, "bounded", (f"option {n}", n), False)  # two kinds: not kept
        machine._actions(n % 3, "bounded", (f"option {n}",), False)
        assert sum(map(len, machine._made.values())) <= 100
    kept = machine._actions(0, "bounded", ("option 249",), False)
    assert machine._actions(0, "bounded", ("option 249",), False)[0] is kept[0]


def _plain_kind_by_definition(options):
    """The plain kind of ``options`` as a set of types, as _plain_kind documents it."""
    kinds = {type(o) for o in options}
    if kinds in ({str}, {int}):
        return kinds.pop().__name__
    if kinds == {tuple}:
        inner = {type(item) for option in options for item in option}
        if inner in ({str}, set()):
            return "tuple of str"
        if inner == {int}:
            return "tuple of int"
    return None


_ATOMS = st.one_of(st.integers(-3, 3), st.booleans(), st.sampled_from(["a", "b"]), st.none())


@given(st.lists(st.one_of(_ATOMS, st.lists(_ATOMS, max_size=3).map(tuple)), max_size=6))
def test_the_plain_kind_of_options_is_their_one_type_of_words_numbers_or_lists_of_one(options):
    from venedig_rules.engine.run import machine

    assert machine._plain_kind(options) == _plain_kind_by_definition(options)
    distinct = dict.fromkeys(options)  # as _options passes them (1 and True are one key)
    assert machine._plain_kind(distinct) == _plain_kind_by_definition(list(distinct))


def test_an_item_param_is_frozen_once_per_ruleset_and_an_error_is_never_kept():
    """Machine.param keeps each (item, param, default) it answered for the ruleset's life;
    an unknown item fails every time, and a default that cannot be a key is answered anyway."""
    from venedig_rules.engine.run.machine import Machine

    rules = vr.load("rialto")
    game = rules.new_game(2, 1)
    machine = Machine(rules, 2, game.played.state, None)
    assert machine.param("green_1", "value") == rules.item_param("green_1", "value") == 1
    assert rules.param_values[("green_1", "value", ())] == 1
    assert machine.param("green_1", "nothing", 5) == 5 and machine.param("green_1", "nothing", 6) == 6
    assert machine.param("green_1", "value", [0]) == 1  # a list default: no key, still an answer
    for _ in range(2):
        with pytest.raises(RuleRuntimeError, match="no item 'no_such_card'"):
            machine.param("no_such_card", "value")
    assert not any(key[0] == "no_such_card" for key in rules.param_values)


@pytest.mark.parametrize(
    "value, message",
    [
        ((0, 2**60, 1), "a number of 19 digits is too big"),
        ((0, (2**60,)), "a number of 19 digits is too big"),
        (tuple(range(17)), None),
        ((1, ("a", 2), None, True), None),
    ],
)
def test_a_short_list_written_to_the_state_is_checked_for_numbers_too_big(value, message):
    """A list of players is written without a walk of its items; a number too big in it,
    or nested deeper, is refused all the same (a game module's write)."""
    from venedig_rules.engine.run.machine import Machine

    rules = vr.load("rialto")
    machine = Machine(rules, 2, rules.new_game(2, 1).played.state, None)
    if message is None:
        machine.write("turn_queue", None, value)
        assert machine.read("turn_queue") == value
    else:
        with pytest.raises(RuleRuntimeError, match=message):
            machine.write("turn_queue", None, value)


def test_new_games_start_from_equal_variables_that_are_never_one_dict():
    """The starting variables are made once per player count; each game gets its own dict."""
    from venedig_rules.engine.run.machine import initial_state

    rules = vr.load("rialto")
    a, b = initial_state(rules, 3, 1), initial_state(rules, 3, 2)
    assert a.vars == b.vars and a.vars is not b.vars
    assert initial_state(rules, 2, 1).vars != a.vars  # per-player values: one per seat


def _splitmix_below(state, n):
    """below() as SplitMix64's definition reads: draw again from 2**64 - 2**64 % n up."""
    mask = (1 << 64) - 1
    limit = (1 << 64) - ((1 << 64) % n)
    while True:
        state = (state + 0x9E3779B97F4A7C15) & mask
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & mask
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & mask
        value = z ^ (z >> 31)
        if value < limit:
            return state, value % n


@pytest.mark.parametrize("n", [0, -3, (1 << 64) + 1, 1 << 200])
def test_a_bound_of_no_64_bit_draw_is_refused(n):
    """A bound beyond 2**64 once drew for ever (no 64-bit value fell below its limit)."""
    from venedig_rules.engine.run import rng

    with pytest.raises(ValueError, match=r"a bound from 1 to 2\*\*64, not"):
        rng.below(rng.seed_state(1), n)


@given(
    st.integers(0, (1 << 64) - 1),
    st.one_of(st.integers(1, 1000), st.integers(1, 1 << 64), st.sampled_from([3 << 62, (1 << 63) + 1, 1 << 64])),
)
def test_random_draws_are_splitmix64s_below_every_bound(state, n):
    """rng.below and rng.shuffled draw in 64-bit steps (C integers in the compiled build):
    the numbers of the plain definition, also for bounds where most draws are drawn again."""
    from venedig_rules.engine.run import rng

    assert rng.below(state, n) == _splitmix_below(state, n)
    out, expected = list(range(12)), state
    for i in range(len(out) - 1, 0, -1):
        expected, j = _splitmix_below(expected, i + 1)
        out[i], out[j] = out[j], out[i]
    assert rng.shuffled(state, range(12)) == (expected, tuple(out))


def _moved_by_definition(machine, item, source, source_index, target, target_index) -> None:
    """``move(item, source, target)`` as read, remove, read, append and two writes."""
    items = tuple(machine.read(source, source_index))
    if item not in items:
        raise RuleRuntimeError(f"{item!r} is not in {source}")
    position = items.index(item)
    machine.write(source, source_index, items[:position] + items[position + 1 :], None)
    machine.write(target, target_index, tuple(machine.read(target, target_index)) + (item,), None)


@pytest.mark.parametrize(
    "item, source, source_index, target, target_index, error",
    [
        ("four", "deck", None, "hand", 0, None),
        ("two", "hand", 0, "hand", 1, None),
        ("one", "hand", 1, "hand", 1, None),  # to the end of the same hand
        ("five", "deck", None, "deck", None, None),
        ("five", "hand", 0, "discard", None, None),
        ("three", "hand", True, "discard", None, "is not a player"),  # True is no seat
        ("six", "deck", None, "discard", None, "is not in"),
        ("four", "deck", None, "hand", None, "one value per player"),
        ("two", "hand", 0, "hand", 2, "is not a player"),
        ("two", "hand", -1, "discard", None, "is not a player"),
    ],
)
def test_a_move_changes_the_state_as_its_reads_and_writes_would(
    item, source, source_index, target, target_index, error
):
    """Machine.move_between reads and writes the variables itself (the pure package's call
    of read and write cost most of a move): the same variables, events and errors."""
    from venedig_rules.engine.run.machine import Machine

    rules = vr.load("tests/rulesets/lagoon")
    state = rules.new_game(2, 1).played.state
    moved, plain = Machine(rules, 2, state, []), Machine(rules, 2, state, [])
    if error is None:
        moved.move_between(item, source, source_index, target, target_index)
        _moved_by_definition(plain, item, source, source_index, target, target_index)
        plain.events.append(moved.events[-1])  # the move's one event, as move_between makes it
        assert moved.events == plain.events and len(moved.events) == 1
    else:
        with pytest.raises(RuleRuntimeError, match=error):
            moved.move_between(item, source, source_index, target, target_index)
        with pytest.raises(RuleRuntimeError, match=error):
            _moved_by_definition(plain, item, source, source_index, target, target_index)
    assert moved.vars == plain.vars
    assert state.vars == rules.new_game(2, 1).played.state.vars  # the snapshot is never changed
