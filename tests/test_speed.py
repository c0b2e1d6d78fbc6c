"""The fast paths: games that keep no record (``record=False``), the runtime budgets that
stop hostile programs (issue 11, D8/D9), playing by index, and the generated code agreeing
with the reference interpreter on every bundled ruleset."""

from __future__ import annotations

import random
import shutil
import time
from pathlib import Path

import pytest
from reference.machine import ReferenceGame, ReferenceMachine

import venedig_rules as vr
from venedig_rules.bots import ISMCTSBot, RandomBot, play_out
from venedig_rules.engine.game import NotRecordedError
from venedig_rules.engine.run.notation import IllegalActionError
from venedig_rules.errors import GameArgumentError, RuleRuntimeError
from venedig_rules.limits import MAX_INT, MAX_LIST, MAX_STEPS

TESTS = Path(__file__).parent
LAGOON = TESTS / "rulesets" / "lagoon"
BUNDLED = ["venedig", "saeulen", "rialto"]


def random_game(rules: vr.Ruleset, players: int, seed: int, *, record: bool = True, steps: int = 10_000) -> vr.Game:
    game = rules.new_game(players, seed, record=record)
    chooser = random.Random(seed)
    while not game.is_over and steps:
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
        steps -= 1
    return game


# == record=False =============================================================================
@pytest.mark.parametrize("name", [*BUNDLED, str(LAGOON)])
def test_a_game_without_record_plays_exactly_as_a_recorded_one(name):
    rules = vr.load(name)
    players = rules.players.start
    recorded = rules.new_game(players, 11)
    fast = rules.new_game(players, 11, record=False)
    chooser = random.Random(11)
    while not recorded.is_over:
        assert fast.to_move == recorded.to_move and fast.check_invariants() == []
        mover = chooser.choice(recorded.to_move)
        legal = recorded.legal_actions(mover)
        assert fast.legal_actions(mover) == legal
        action = chooser.choice(legal)
        recorded.apply(action)
        fast.apply(action)
        assert fast.fingerprint()[0] == recorded.fingerprint()[0]
        assert fast.position.events == len(recorded.events)
    assert fast.is_over and fast.winners == recorded.winners
    assert fast.to_json() == recorded.to_json()  # a save replays the actions to give the same file


def test_a_game_without_record_refuses_undo_and_its_events_saying_why():
    game = random_game(vr.load(LAGOON), 2, 3, record=False, steps=4)
    for ask in (game.undo, lambda: game.events, lambda: game.view(0), lambda: game.view(1, since=0)):
        with pytest.raises(NotRecordedError, match=r"record=False.*record=True") as info:
            ask()
        assert info.value.code == "play/not_recorded"
    view = game.view(0, since=game.position.events)
    assert view["events"] == [] and view["state"] == game.clone().view(0, since=game.position.events)["state"]


def test_a_game_without_record_keeps_only_its_state():
    game = random_game(vr.load("venedig"), 3, 5, record=False)
    assert game.is_over and game.played.events == [] and len(game.played.history) == 0


def test_bots_play_out_a_game_without_record():
    rules = vr.load("saeulen")
    fast = play_out(rules.new_game(3, 4, record=False), {p: RandomBot(p) for p in range(3)})
    slow = play_out(rules.new_game(3, 4), {p: RandomBot(p) for p in range(3)})
    assert fast.is_over and fast.actions == slow.actions


@pytest.mark.parametrize("name", [*BUNDLED, str(LAGOON)])
def test_a_game_without_record_keeps_the_events_of_the_types_it_is_told(name):
    rules = vr.load(name)
    players = rules.players.start
    kept = ("choice", "commit", "reveal", "game_over", *rules.data["game"].get("events", {}))
    recorded = random_game(rules, players, 8)
    fast = rules.new_game(players, 8, record=False, keep_events=kept)
    for action in recorded.actions:
        fast.apply(action)
    assert fast.events == [e for e in recorded.events if e["type"] in kept]
    assert fast.position.events == len(recorded.events)
    view = fast.view(0, since=fast.position.events)
    assert view["cursor"] == fast.position.events and view["events"] == []
    assert view["state"] == recorded.view(0)["state"]
    with pytest.raises(NotRecordedError):
        fast.undo()


def test_views_of_a_game_without_record_tell_no_events_and_so_read_none(monkeypatch):
    """The view of a game without record is its state only: the events it keeps are not
    redacted and told at every view (that made a simulation's views quadratic)."""
    from venedig_rules.bots import SeatViews
    from venedig_rules.engine.seat import logs

    told = []
    monkeypatch.setattr(logs, "redact_event", lambda *args: told.append(args))
    rules = vr.load("venedig")
    game = rules.new_game(2, 4, record=False, keep_events=("choice", "move", "change", "game_over"))
    views, chooser = SeatViews(game), random.Random(4)
    for _ in range(60):
        player = game.to_move[0]
        assert views(player)["events"] == []
        game.apply(chooser.choice(game.legal_actions(player)))
    assert game.events and not told


def test_a_simulation_plays_without_record_and_reads_what_a_recorded_game_gives():
    from venedig_rules.simulate.outcome import read_game
    from venedig_rules.simulate.run import new_game

    rules = vr.load("rialto")
    bots = {p: RandomBot(p) for p in range(3)}
    fast = new_game(rules, 3, 21, bots)
    assert not fast.record
    play_out(fast, bots)
    recorded = play_out(rules.new_game(3, 21), {p: RandomBot(p) for p in range(3)})
    assert read_game(rules, fast, 0, 21, None) == read_game(rules, recorded, 0, 21, None)
    assert new_game(rules, 3, 21, {0: ISMCTSBot(0), 1: RandomBot(1), 2: RandomBot(2)}).record  # samples need events


@pytest.mark.parametrize(
    ("keep", "message"),
    [("choice", "a list of event types"), ([1], "event types"), (5, "a list of event types")],
)
def test_keep_events_must_name_event_types(keep, message):
    with pytest.raises(GameArgumentError, match=message):
        vr.load(LAGOON).new_game(2, 1, record=False, keep_events=keep)


def test_keep_events_is_for_a_game_without_record():
    with pytest.raises(GameArgumentError, match="record=False"):
        vr.load(LAGOON).new_game(2, 1, keep_events=["choice"])


def test_a_game_without_record_gives_no_samples():
    game = random_game(vr.load(LAGOON), 2, 3, record=False, steps=4)
    with pytest.raises(NotRecordedError, match="sample"):
        game.sample(0, seed=1)


def test_check_plays_fast_games_first_and_finds_their_violations(tmp_path):
    from venedig_rules.testing import api_test

    report = api_test(vr.load(LAGOON), games=1, fast_games=4, players=[2, 3])
    assert report.ok and (report.games, report.fast_games) == (2, 8)
    lagoon = tmp_path / "lagoon"
    shutil.copytree(LAGOON, lagoon)
    game_yaml = lagoon / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("max_actions: 200", "max_actions: 3"))
    report = api_test(vr.load(lagoon), games=1, fast_games=4, players=[2])
    assert report.violation is not None and report.violation.check == "bound"
    assert (report.games, report.fast_games) == (0, 1)  # found in the fast phase, by the first game


# == playing by index =========================================================================
def test_apply_legal_plays_the_action_at_that_index():
    rules = vr.load("rialto")
    game, other = rules.new_game(3, 2), rules.new_game(3, 2)
    chooser = random.Random(2)
    for _ in range(40):
        mover = chooser.choice(game.to_move)
        legal = game.legal_actions(mover)
        i = chooser.randrange(len(legal))
        game.apply_legal(i, player=mover)
        other.apply(legal[i])
        assert game.fingerprint() == other.fingerprint()


def test_an_action_legal_actions_gave_plays_as_its_copy_and_a_stale_one_is_still_checked():
    """apply takes the actions legal_actions gave without checking them again: a copy of
    such an action plays the same game, and one from an earlier decision is refused."""
    rules = vr.load("venedig")
    game, other = rules.new_game(3, 5), rules.new_game(3, 5)
    chooser = random.Random(5)
    played = []
    for _ in range(60):
        mover = chooser.choice(game.to_move)
        action = chooser.choice(game.legal_actions(mover))
        game.apply(action)
        other.apply(vr.Action(action.player, action.name, action.value))
        assert game.fingerprint() == other.fingerprint()
        played.append(action)
    stale = next(a for a in played if a not in game.legal_actions(a.player))
    before = game.fingerprint()
    with pytest.raises(IllegalActionError):
        game.apply(stale)
    assert game.fingerprint() == before


@pytest.mark.parametrize("index", [-1, 10_000, True, 1.0, "0"])
def test_apply_legal_refuses_an_index_that_is_no_legal_action(index):
    game = vr.load(LAGOON).new_game(2, 7)
    before = game.fingerprint()
    with pytest.raises(IllegalActionError, match="no legal action"):
        game.apply_legal(index, player=game.to_move[0])
    assert game.fingerprint() == before


# == runtime budgets (issue 11: D8, D9) =======================================================
HEAD = """\
id: calc
title: Calc
players: {min: 2, max: 4}
state:
  out: {type: any, start: null}
decisions:
  go: {value: any}
flow:
  max_actions: 10
  procedures:
    grow:
      params: {n: int}
      body: |
        if n > 0 { grow(n - 1); grow(n - 1) }
  main: |
    let go = choose 0 from [1] as "go";
"""
#: The lines of the program under test and of the recursion's body in game.yaml.
MAIN_LINE = HEAD.count("\n") + 1
GROW_LINE = HEAD[: HEAD.index("if n > 0")].count("\n") + 1

#: Each count is bound by a ``let`` so that only play finds it too large (validate refuses
#: the constant forms: dsl/limit, tests/test_reliability.py).
HOSTILE = {
    "nested repeats": "let n = 100000; let k = 0; repeat n { repeat n { k += 1 } }; out = k",
    "a state change in a long loop": "let n = 100000; repeat n { out = 1 }",
    "branching recursion": "grow(60)",
    "repeated squaring": "let n = 2; repeat 100 { n = n * n }; out = n",
    "a list doubling": "let xs = [1]; repeat 100 { xs = xs + xs }; out = xs",
    "nested lists": "let xs = [1, 2]; repeat 100 { xs = [xs, xs, xs] }; out = xs",
    "a long range": "let n = 100000000; out = range(0, n)",
}


def hostile(tmp_path: Path, program: str) -> Path:
    root = tmp_path / "calc"
    root.mkdir()
    (root / "components.yaml").write_text("components:\n  - {id: marker, name: Marker, count: 1}\n")
    (root / "game.yaml").write_text(HEAD + "    " + program + "\n")
    (root / "texts.yaml").write_text(
        "languages:\n  en:\n    decisions:\n      go: {prompt: Go, waiting: '{player} goes', option: '{value}'}\n"
    )
    return root


@pytest.mark.parametrize("program", list(HOSTILE.values()), ids=list(HOSTILE))
def test_a_hostile_program_is_stopped_by_a_budget_at_its_statement_and_the_game_is_untouched(tmp_path, program):
    root = hostile(tmp_path, program)
    game = vr.load(root).new_game(2, 0)
    before, save = game.fingerprint(), game.to_json()
    start = time.process_time()
    with pytest.raises(RuleRuntimeError) as info:
        game.apply("p0 go(1)")
    assert time.process_time() - start < 20  # the budget stops it, long before hours
    error = info.value
    assert error.code == "play/rule" and error.location is not None
    assert Path(error.location.file).name == "game.yaml" and error.location.line in (MAIN_LINE, GROW_LINE)
    assert "too" in error.message  # too long, too big, too many steps
    assert game.fingerprint() == before and game.to_json() == save
    game.view(0)  # the untouched game still gives views


def test_the_step_budget_says_how_many_steps_an_action_may_take(tmp_path):
    game = vr.load(hostile(tmp_path, HOSTILE["nested repeats"])).new_game(2, 0)
    with pytest.raises(RuleRuntimeError, match=f"more than {MAX_STEPS} steps"):
        game.apply("p0 go(1)")


@pytest.mark.parametrize(
    ("program", "message"),
    [
        ("let big = 9007199254740991; out = big + 1", "too big"),
        (f"let big = {MAX_INT}; out = big * 2", "too big"),
        (f"let n = {MAX_LIST + 1}; out = range(0, n)", f"more than {MAX_LIST} numbers"),
    ],
)
def test_a_value_past_its_budget_is_refused_where_it_is_made(tmp_path, program, message):
    game = vr.load(hostile(tmp_path, program)).new_game(2, 0)
    with pytest.raises(RuleRuntimeError, match=message) as info:
        game.apply("p0 go(1)")
    assert info.value.location is not None and info.value.location.line == MAIN_LINE


def test_a_program_within_the_budgets_runs_to_its_end(tmp_path):
    program = (
        f"let n = 0; let a = 1000; let b = 900; let m = {MAX_LIST}; repeat a {{ repeat b {{ n += 1 }} }}; "
        "out = [n, range(0, m)[-1]]"
    )
    game = vr.load(hostile(tmp_path, program)).new_game(2, 0).apply("p0 go(1)")
    assert game.value("out") == (900_000, MAX_LIST - 1)
    game.to_json(), game.view(1)


#: Two ways a program grows a list an item at a time: a local added to, a state variable put to
#: (``{item}``: the item's text); each leaves the list's length in ``out``.
GROWN = {
    "a local list added to": "let xs = []; let n = {n}; for i in range(0, n) {{ xs += [{item}] }}; out = count(xs)",
    "a state list put to": "out = []; let n = {n}; for i in range(0, n) {{ put({item}, out) }}; out = count(out)",
}


@pytest.mark.parametrize("grown", list(GROWN.values()), ids=list(GROWN))
def test_a_list_grown_an_item_at_a_time_is_counted_in_linear_time(tmp_path, monkeypatch, grown):
    """``out += [[...]]`` or ``put([...], out)`` in a loop counts the new item only, not the
    whole list again (that was quadratic: numbering Säulen's actions took half a minute, and
    Säulen walked its built tiles whole at every tile put)."""
    from venedig_rules.effects import runtime

    walked = []
    walk = runtime._items_left

    def counting(*args):
        walked.append(1)
        return walk(*args)

    monkeypatch.setattr(runtime, "_items_left", counting)
    program = grown.format(n=5000, item="[i, [i, i]]")
    game = vr.load(hostile(tmp_path, program)).new_game(2, 0).apply("p0 go(1)")
    assert game.value("out") == 5000
    if not walked:  # compiled, the walk is a cpdef function (runtime.pxd) called in C
        pytest.skip("the compiled build's walks are C calls, which the patch does not see")
    assert len(walked) < 10 * 5000  # a walk of the whole list at every step: 12,500,000


@pytest.mark.parametrize("grown", list(GROWN.values()), ids=list(GROWN))
@pytest.mark.parametrize(("n", "refused"), [(7000, False), (9000, True)])
def test_a_list_grown_an_item_at_a_time_keeps_the_items_budget(tmp_path, n, refused, grown):
    """Each item below holds 12 more: 13 x 7,000 is within 100,000 items, 13 x 9,000 not."""
    program = grown.format(n=n, item="[i, i, i, i, i, i, i, i, i, i, i, i]")
    game = vr.load(hostile(tmp_path, program)).new_game(2, 0)
    if refused:
        with pytest.raises(RuleRuntimeError, match="items in all"):
            game.apply("p0 go(1)")
    else:
        assert game.apply("p0 go(1)").value("out") == n


@pytest.mark.parametrize("name", BUNDLED)
def test_playing_by_number_numbers_the_actions_once(name, monkeypatch):
    from venedig_rules.effects import Compiled

    rules = vr.load(name)
    labels = []
    listed = Compiled.decision_labels
    monkeypatch.setattr(Compiled, "decision_labels", lambda self: labels.append(1) or listed(self))
    game, chooser = rules.new_game(2, 3, record=False), random.Random(3)
    for _ in range(30):
        player = game.to_move[0]
        game.apply_index(chooser.choice(game.legal_action_ids(player)), player)
    assert len(labels) <= 1


# == the generated code and the reference interpreter =========================================
@pytest.mark.parametrize("name", [*BUNDLED, str(LAGOON)])
def test_the_generated_code_plays_every_game_as_the_reference_interpreter(name):
    rules = vr.load(name)
    for players in rules.players:
        seed = 100 + players
        game, reference = rules.new_game(players, seed), ReferenceGame(rules, players, seed)
        chooser = random.Random(seed)
        while True:
            assert game.events == reference.events
            s, r = game.played.state, reference.played.state
            assert (s.vars, s.rng, s.over, s.winners, s.pending) == (r.vars, r.rng, r.over, r.winners, r.pending)
            if game.is_over:
                break
            mover = chooser.choice(game.to_move)
            legal = game.legal_actions(mover)
            assert reference.legal_actions(mover) == legal
            action = chooser.choice(legal)
            game.apply(action)
            reference.apply(action)


def test_the_reference_game_acts_on_the_reference_machine():
    """The comparison above compares two engines: a reference game's actions run on the
    reference machine (its ``_resume`` overrides the game's, which the compiled build calls
    as a C function from ``apply`` and ``apply_legal``)."""
    rules = vr.load(str(LAGOON))
    reference = ReferenceGame(rules, 2, seed=7)
    reference.apply(reference.legal_actions(reference.to_move[0])[0])
    reference.apply_legal(0, reference.to_move[0])
    assert type(reference._machine) is ReferenceMachine
    assert type(rules.new_game(2, seed=7).apply_legal(0, 1)._machine) is not ReferenceMachine
