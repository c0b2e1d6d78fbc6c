"""Budgets that bound work, not rounds (issue 32; docs/errors.md "Limits"): each operation
on lists is charged by the lists it touches, one action emits a bounded number of events,
a value nested too deep never reaches the state, and rule data too large to start a game
is refused by ``validate``, each error naming its limit."""

from __future__ import annotations

import shutil
import time
from pathlib import Path
from typing import Any

import pytest
from test_speed import MAIN_LINE, hostile

import venedig_rules as vr
from venedig_rules.effects.registry import Registry
from venedig_rules.effects.runtime import charged
from venedig_rules.errors import InvalidRulesError, RuleRuntimeError
from venedig_rules.limits import MAX_COMPONENTS, MAX_EVENTS, MAX_STEPS, MAX_VALUE_DEPTH

TESTS = Path(__file__).parent


def refused(tmp_path: Path, program: str, *, events: bool = False) -> RuleRuntimeError:
    """The error of the one action of ``program``, checked to be quick and located."""
    root = hostile(tmp_path, program)
    if events:
        game_file = root / "game.yaml"
        game_file.write_text(game_file.read_text().replace("state:", "events:\n  tick: {fields: {n: number}}\nstate:"))
        texts = root / "texts.yaml"
        texts.write_text(texts.read_text() + "    events:\n      tick: 'tick {n}'\n")
    game = vr.load(root).new_game(2, 0)
    before = game.fingerprint()
    start = time.process_time()
    with pytest.raises(RuleRuntimeError) as info:
        game.apply("p0 go(1)")
    assert time.process_time() - start < 20
    assert info.value.code == "play/rule" and info.value.location is not None
    assert info.value.location.line == MAIN_LINE + (2 if events else 0) and game.fingerprint() == before
    game.view(0), game.to_json()  # the untouched game still gives views and saves
    return info.value


def test_sorting_a_huge_list_many_times_runs_out_of_work_not_of_rounds(tmp_path: Path) -> None:
    # 1,000 rounds: the old budget counted 1,000 steps; the work is 10,000,000 items sorted
    program = "let xs = range(0, 10000); let n = 1000; repeat n { out = sorted(xs) }"
    error = refused(tmp_path, program)
    assert f"more than {MAX_STEPS} steps of work" in error.message and "MAX_STEPS" in error.message


def test_the_machine_charges_a_call_the_longest_of_its_value_and_list_arguments() -> None:
    """``Machine.charged``: what generated code calls for a charged primitive of plain
    parameters instead of its wrapper, with the wrapper's charge."""
    from venedig_rules.engine.run.machine import Machine

    game = vr.load(str(TESTS / "rulesets" / "lagoon")).new_game(2, 0)
    run = Machine(game.rules, 2, game.played.state, None)
    run.left = 100
    assert run.charged((1, 2), (1, 2, 3), (1,) * 5) == (1, 2) and run.left == 95  # the second list
    assert run.charged((1, 2), (1, 2, 3)) == (1, 2) and run.left == 92  # the first
    assert run.charged(tuple(range(10))) == tuple(range(10)) and run.left == 82  # the value
    assert run.charged(7, "abcdefgh") == 7 and run.left == 82  # a word is no list
    run.left = 3
    with pytest.raises(RuleRuntimeError, match="steps of work"):
        run.charged((1,) * 4)


def test_generated_code_has_the_machine_charge_a_primitive_of_plain_parameters(tmp_path: Path) -> None:
    program = "let xs = range(0, 10); out = sorted(xs)"
    source = vr.load(hostile(tmp_path, program)).generated.source
    assert "C.charged(f_sorted(C, (_t" in source and "p_sorted" not in source


def test_a_list_operation_within_the_budget_still_runs(tmp_path: Path) -> None:
    program = "let xs = range(0, 10000); let n = 40; repeat n { out = count(sorted(xs)) }"
    game = vr.load(hostile(tmp_path, program)).new_game(2, 0).apply("p0 go(1)")
    assert game.value("out") == 10_000


def test_an_action_emitting_a_million_events_stops_at_the_cap(tmp_path: Path) -> None:
    program = 'let n = 1000; repeat n { repeat n { event("tick", n: 1) } }'
    error = refused(tmp_path, program, events=True)
    assert f"too many events in one action: more than {MAX_EVENTS}" in error.message and "MAX_EVENTS" in error.message


def test_state_changes_count_as_events(tmp_path: Path) -> None:
    program = "let n = 100000; repeat n { out = 1 }"
    assert "MAX_EVENTS" in refused(tmp_path, program).message


def test_a_list_nested_1500_deep_is_refused_when_made(tmp_path: Path) -> None:
    program = "let xs = []; let n = 1500; repeat n { xs = [xs] }; out = xs"
    error = refused(tmp_path, program)
    assert f"more than {MAX_VALUE_DEPTH} deep" in error.message and "MAX_VALUE_DEPTH" in error.message


def test_a_list_nested_within_the_limit_is_kept(tmp_path: Path) -> None:
    program = f"let xs = []; let n = {MAX_VALUE_DEPTH - 1}; repeat n {{ xs = [xs] }}; out = xs"
    game = vr.load(hostile(tmp_path, program)).new_game(2, 0).apply("p0 go(1)")
    game.to_json(), game.view(0)


def test_100000_cards_fail_validate_naming_the_limit(tmp_path: Path) -> None:
    root = tmp_path / "lagoon"
    shutil.copytree(TESTS / "rulesets" / "lagoon", root)
    cards = root / "cards.yaml"
    cards.write_text(cards.read_text().replace('{id: one, name: "1", count: 3,', '{id: one, name: "1", count: 100000,'))
    components = root / "components.yaml"
    components.write_text(components.read_text().replace("count: 15", "count: 100012"))
    with pytest.raises(InvalidRulesError) as info:
        vr.load(root)
    found = [e for e in info.value.errors if e.code == "rules/limit"]
    assert found and "MAX_COMPONENTS" in found[0].message and str(MAX_COMPONENTS) in found[0].message
    assert found[0].location is not None and Path(found[0].location.file).name == "cards.yaml"


@pytest.mark.parametrize("arity", range(1, 7))
def test_a_game_modules_query_is_charged_its_longest_list_whatever_its_arity(arity: int) -> None:
    # a positional wrapper or a packing one charges it (effects/runtime.py),
    # whichever it gets, the longest list given or given back counts
    registry = Registry()
    params = ", ".join(f"p{i}: tuple" for i in range(arity))
    namespace: dict[str, Any] = {"Context": Any}
    exec(f"def query(ctx: Context, {params}) -> tuple:\n    return (1, 2)\n", namespace)
    registry.primitive()(namespace["query"])
    run = charged(registry.get("query"))

    class Machine:
        left = 1_000

    machine = Machine()
    lists = [tuple(range(3 + 4 * i)) for i in range(arity)]
    assert run(machine, *lists) == (1, 2)
    assert machine.left == 1_000 - max([2, *map(len, lists)])
