"""The balance metrics of ``simulate`` (docs/simulate.md), checked where they are known by
construction: on the test ruleset ``runaway`` seat 0 leads from the first state to the last
and every decision has three legal actions; on hand-made score histories the lead turns.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from venedig_rules.simulate import Setup, balance_report, compare, render, simulate
from venedig_rules.simulate.metrics import decisiveness, drama, lead_changes, leader
from venedig_rules.simulate.outcome import ScorePoint
from venedig_rules.simulate.stats import binomial_p

RUNAWAY = str(Path(__file__).parent / "rulesets" / "runaway")
LAGOON = str(Path(__file__).parent / "rulesets" / "lagoon")


@pytest.fixture(scope="module")
def runaway() -> dict[str, object]:
    sim = simulate(Setup(RUNAWAY, players=3, bots=("random",) * 3, games=12, seed=2), jobs=1)
    return {"sim": sim, "report": balance_report(sim)}


def test_a_leader_that_never_changes_is_decisive_without_drama(runaway: dict[str, object]) -> None:
    m = runaway["report"]["metrics"]  # type: ignore[index]
    assert m["decisiveness"] == {"mean": 1.0, "sd": 0.0, "games": 12}
    assert m["lead_changes"]["mean"] == 0.0 and m["lead_changes"]["per_action"] == 0.0
    assert m["drama"]["mean"] == 0.0


def test_duration_branching_spread_balance_and_draws_are_the_constructed_ones(runaway: dict[str, object]) -> None:
    m = runaway["report"]["metrics"]  # type: ignore[index]
    assert m["duration"]["actions"]["mean"] == 12 and m["duration"]["rounds"]["mean"] == 4  # 4 rounds of 3 takes
    assert m["branching_factor"]["mean"] == 3.0  # three cards to take at every decision
    assert m["score_spread"]["mean"] == 5  # 1 + 4 * 2 against 4 * 1
    assert m["balance"] == {"spread": 1.0, "value": 0.0, "win_rates": [1.0, 0.0, 0.0]}
    assert m["drawishness"]["rate"] == 0.0 and m["drawishness"]["timeouts"] == 0


def test_the_first_player_always_winning_fails_the_binomial_test(runaway: dict[str, object]) -> None:
    first = runaway["report"]["metrics"]["first_player"]  # type: ignore[index]
    assert first["rate"] == 1.0 and first["fair_share"] == pytest.approx(1 / 3, abs=1e-6)
    assert first["p"] == pytest.approx(binomial_p(12, 12, 1 / 3), abs=1e-6) and first["p"] < 1e-5
    assert [s["advantage"] for s in first["seats"]] == pytest.approx([2 / 3, -1 / 3, -1 / 3], abs=1e-6)


def test_score_history_values_and_items_come_from_events(runaway: dict[str, object]) -> None:
    report, sim = runaway["report"], runaway["sim"]
    values = report["values"]["gain.points"]  # type: ignore[index]
    assert values["per_game"] == 16  # 4 rounds of 2 + 1 + 1 points carried by 'gain' events
    assert sum(g["per_game"] for g in values["by"]["card"].values()) == 16  # by the card taken
    rates = report["item_win_rates"]["card_types"]["token"]  # type: ignore[index]
    assert rates["used"] == 36 and rates["win_rate"] == pytest.approx(1 / 3, abs=1e-6)
    # a line of games.jsonl as write_report writes it (the plots it writes too need the sim extra)
    game = json.loads(json.dumps(sim.records[0].to_dict()))  # type: ignore[attr-defined]
    history = game["score_history"]
    assert history[0] == [0, [1, 0, 0]] and history[-1] == [12, [9, 4, 4]]
    assert [a for a, _ in history] == list(range(0, 13))  # every take scores


def test_against_gives_each_metric_a_difference_and_p_value(runaway: dict[str, object]) -> None:
    sim = runaway["sim"]
    lagoon = simulate(Setup(LAGOON, players=3, bots=("random",) * 3, games=12, seed=2), jobs=1)
    against = compare(sim, lagoon)  # type: ignore[arg-type]
    keys = {d["key"]: d for d in against["differences"]}
    for name in ("decisiveness", "lead_changes", "drama", "branching_factor", "score_spread", "duration.actions"):
        assert 0.0 <= keys[f"metrics.{name}.mean"]["p"] <= 1.0
    assert keys["metrics.decisiveness.mean"]["variant"] == 1.0
    assert keys["metrics.balance.spread"]["test"] == "permutation"
    assert keys["metrics.balance.spread"]["significant"]  # always seat 0 against a lagoon of chance
    text = render(runaway["report"], against)  # type: ignore[arg-type]
    assert "decisiveness: 1.000" in text and "the mean decisiveness" in text


def test_lead_changes_and_drama_on_a_turned_game() -> None:
    history = [ScorePoint(0, (0, 0)), ScorePoint(2, (0, 3)), ScorePoint(4, (5, 3)), ScorePoint(6, (5, 7))]
    assert leader((5, 5)) is None
    assert lead_changes(history) == 2
    assert decisiveness(history, 1, 8) == 0.25  # seat 1 leads for good from action 6 of 8
    assert decisiveness(history, 0, 8) == 0.0  # seat 0 (won on a tie-breaker, say) never leads at the end
    assert drama(history, 1, 8) == 2.0  # 2 points behind for the 2 actions from 4 to 6
