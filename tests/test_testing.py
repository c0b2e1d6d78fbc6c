"""The test kit finds every kind of broken promise, and passes a sound ruleset."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings

import venedig_rules as vr
from venedig_rules import testing
from venedig_rules.cli import main
from venedig_rules.engine.run import views

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
RULES = vr.load(LAGOON)


@pytest.fixture
def lagoon(tmp_path: Path) -> Path:
    target = tmp_path / "lagoon"
    shutil.copytree(LAGOON, target)
    return target


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text()
    assert old in text
    path.write_text(text.replace(old, new))


def test_api_test_passes_the_test_ruleset_at_every_player_count():
    report = testing.api_test(RULES, games=3, seed=5)
    assert report.ok, report.violation
    assert report.by_players == {2: 3, 3: 3, 4: 3}
    assert report.actions > 0


def test_a_false_invariant_is_reported_with_seed_and_actions(lagoon: Path):
    _edit(lagoon / "invariants.yaml", "check: min(points) >= 0", "check: max(points) < 3")
    report = testing.api_test(vr.load(lagoon), games=3)
    v = report.violation
    assert v is not None and v.check == "invariant" and "scores_not_negative" in v.message
    replayed = vr.load(lagoon).replay(v.players, v.seed, v.actions)
    assert replayed.check_invariants()  # the reported actions reproduce it
    assert "replay with rules.replay(" in str(v)


def test_a_game_longer_than_its_declared_bound_is_reported(lagoon: Path):
    _edit(lagoon / "game.yaml", "max_actions: 200", "max_actions: 4")
    report = testing.api_test(vr.load(lagoon), games=1)
    assert report.violation.check == "bound"


def test_a_rule_failing_at_play_time_is_reported(lagoon: Path):
    _edit(lagoon / "game.yaml", "round += 1;", "round += div(1, round - round);")
    report = testing.api_test(vr.load(lagoon), games=1)
    assert report.violation.check == "play" and "div() by zero" in report.violation.message


def test_a_view_that_leaks_hidden_data_is_reported(monkeypatch):
    def no_redaction(rules, values, player, players):
        return {
            name: dict(zip(rules.space_ids, value)) if rules.compiled.state[name].per == "space" else value
            for name, value in views.json_safe(values).items()
        }

    monkeypatch.setattr("venedig_rules.engine.seat.seatview.redact_state", no_redaction)
    report = testing.api_test(RULES, games=1)
    assert report.violation.check == "view" and "hidden" in report.violation.message


def test_raise_on_failure_raises_assertion_error(lagoon: Path):
    _edit(lagoon / "game.yaml", "max_actions: 200", "max_actions: 2")
    with pytest.raises(AssertionError, match="bound failed"):
        testing.api_test(vr.load(lagoon), games=1, raise_on_failure=True)


def test_check_command_reports_ok_and_violations(lagoon: Path, capsys):
    assert main(["check", str(LAGOON), "--games", "2", "--players", "2,3"]) == 0
    assert "ok: 4 games" in capsys.readouterr().out
    _edit(lagoon / "game.yaml", "max_actions: 200", "max_actions: 3")
    assert main(["check", str(lagoon), "--games", "1"]) == 1
    err = capsys.readouterr().err
    assert "bound failed" in err and "replay with" in err


def test_check_refuses_a_data_only_ruleset(data_only, capsys):
    assert main(["check", str(data_only)]) == 2
    assert "rule data only" in capsys.readouterr().err


@settings(max_examples=25, deadline=None)
@given(testing.playouts(RULES))
def test_invariants_hold_in_any_playout(game):
    assert game.check_invariants() == []
    assert testing.find_leak(game, game.view(0), 0) is None


@settings(max_examples=10, deadline=None)
@given(testing.games(RULES, players=[3]))
def test_games_strategy_draws_new_games(game):
    assert game.players == 3 and not game.is_over and game.actions == []


@settings(max_examples=3, deadline=None)
@given(testing.rulesets(extra=[RULES]))
def test_rulesets_strategy_draws_playable_rulesets(rules):
    assert rules.playable


def test_an_invariant_for_the_end_is_checked_only_once_the_game_is_over(lagoon: Path):
    text = (lagoon / "invariants.yaml").read_text()
    (lagoon / "invariants.yaml").write_text(text + "  - {id: no_rounds, when: end, check: round == 0, message: m}\n")
    rules = vr.load(lagoon)
    game = rules.new_game(2, seed=3)
    while not game.is_over:
        game.apply(game.legal_actions(game.to_move[0])[0])
        if not game.is_over:
            assert game.check_invariants() == []
    assert game.check_invariants() == ["no_rounds: m"]
