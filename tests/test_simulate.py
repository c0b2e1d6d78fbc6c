"""venedig-rules simulate: the statistics against hand-computed values, the report read from
the rule data, the same numbers for any number of processes (and on Ray), --against, the
plots, and every refusal of bad input with exit status 2."""

from __future__ import annotations

import importlib.util
import json
import math
import re
import shutil
from pathlib import Path

import pytest
import yaml

import venedig_rules as vr
from venedig_rules import bots
from venedig_rules.cli import main
from venedig_rules.simulate import (
    GameFailedError,
    GameRecord,
    Setup,
    Simulation,
    Tally,
    balance_report,
    bot_seed,
    compare,
    game_seed,
    render,
    simulate,
)
from venedig_rules.simulate import run as run_module
from venedig_rules.simulate.run import play_batch
from venedig_rules.simulate.stats import means_p, rates_p, summary, t_two_sided_p, wilson

LAGOON = str(Path(__file__).parent / "rulesets" / "lagoon")
DOCS = Path(__file__).parent.parent / "docs"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["simulate", *args])
    out, err = capsys.readouterr()
    return status, out, err


def lagoon_variant(tmp_path: Path, overlay: str, name: str = "quick_win") -> Path:
    """A variant of a copy of lagoon beside it (a variant may extend only what lies in its folder)."""
    if not (tmp_path / "lagoon").exists():
        shutil.copytree(LAGOON, tmp_path / "lagoon")
    path = tmp_path / f"{name}.yaml"
    path.write_text(f"extends: lagoon\nid: {name}\ntitle: A variant\noverlay:\n{overlay}")
    return path


# -- the statistics, by hand ---------------------------------------------------------------


def test_wilson_interval_by_hand():
    # k = 5, n = 10, z = 1.96: centre (0.5 + z²/20) / (1 + z²/10) = 0.5, half-width
    # z * sqrt(0.025 + z²/400) / (1 + z²/10) = 0.26340
    low, high = wilson(5, 10)
    assert (round(low, 4), round(high, 4)) == (0.2366, 0.7634)
    # k = 0, n = 20: the interval starts at 0 and ends at z²/n / (1 + z²/n) = 0.161125 (z² = 3.841459)
    assert wilson(0, 20) == (0.0, pytest.approx(0.161125, abs=1e-6))
    assert wilson(0, 0) == (0.0, 1.0)


def test_summary_by_hand():
    assert summary([2, 4, 4, 4, 5, 5, 7, 9]) == {"mean": 5.0, "sd": 2.13809, "min": 2, "median": 4.5, "max": 9}
    assert summary([3]) == {"mean": 3.0, "sd": 0.0, "min": 3, "median": 3, "max": 3}
    assert summary([]) is None


def test_fisher_exact_test_by_hand():
    # tea tasting, [[3, 1], [1, 3]]: P(3) = P(1) = 16/70, P(4) = P(0) = 1/70, P(2) = 36/70;
    # the tables no more likely than the one seen: 1 + 16 + 16 + 1 of 70
    assert rates_p(3, 4, 1, 4) == pytest.approx(34 / 70)
    # all against none, 10 each: the two extreme tables of C(20, 10)
    assert rates_p(10, 10, 0, 10) == pytest.approx(2 / math.comb(20, 10))
    assert rates_p(4, 10, 4, 10) == pytest.approx(1.0)
    assert rates_p(0, 0, 3, 5) == 1.0


def test_student_t_against_the_table():
    # two-sided 5% and 1% points of Student's t table
    for t, df, p in ((12.706, 1, 0.05), (2.228, 10, 0.05), (2.042, 30, 0.05), (4.032, 5, 0.01), (1.96, 1e7, 0.05)):
        assert t_two_sided_p(t, df) == pytest.approx(p, abs=2e-4)
    assert t_two_sided_p(0.0, 4) == 1.0


def test_welch_test_by_hand():
    # a = 1..4: mean 2.5, variance 5/3; b = 3..7: mean 5, variance 2.5. Squared standard
    # errors 5/12 and 1/2, t = -2.5 / sqrt(11/12), df = (11/12)² / ((5/12)²/3 + (1/2)²/4)
    t = -2.5 / math.sqrt(11 / 12)
    df = (11 / 12) ** 2 / ((5 / 12) ** 2 / 3 + 0.25 / 4)
    assert means_p([1, 2, 3, 4], [3, 4, 5, 6, 7]) == pytest.approx(t_two_sided_p(t, df))
    assert round(df, 4) == 6.9808
    assert means_p([2, 2, 2], [2, 2]) == 1.0 and means_p([2, 2, 2], [3, 3]) == 0.0


# -- the report, from hand-made games -----------------------------------------------------


def record(index: int, scores: tuple[int, ...], winners: tuple[int, ...], first: int, end: str = "done") -> GameRecord:
    return GameRecord(index, index, scores, winners, 10 * (index + 1), index + 1, end, first, True)


def hand_made() -> Simulation:
    records = [
        record(0, (5, 3, 1), (0,), 0),
        record(1, (2, 6, 6), (1, 2), 1, "limit"),  # a shared win
        record(2, (4, 4, 1), (1,), 1),  # a tie on points, broken
        record(3, (0, 1, 7), (2,), 2),
    ]
    setup = Setup("x", 3, ("random",) * 3, 4)
    return Simulation(setup, "x", "X", "hash", records, Tally(), {"cards": []})


def test_report_figures_by_hand():
    report = balance_report(hand_made())
    assert [s["wins"] for s in report["seats"]] == [1, 2, 2]
    assert report["seats"][1]["win_rate"] == 0.5 and report["seats"][1]["ci95"] == list(wilson(2, 4))
    assert report["seats"][2]["score"] == summary([1, 6, 1, 7])
    assert report["ties"] == {"games": 1, "rate": 0.25}
    # the first player won games 0, 1 (shared), 2 and 3: every game
    first = report["first_player"]
    assert (first["wins"], first["win_rate"]) == (4, 1.0)
    assert [p["wins"] for p in first["by_position"]] == [4, 1, 0]  # game 1: seat 2 moves 2nd, after seat 1
    assert first["fair_share"] == round(5 / 12, 6) and first["advantage"] == round(1 - 5 / 12, 6)
    assert report["scores"]["winner"] == summary([5, 6, 4, 7])
    assert report["scores"]["histogram"] == {"0": 1, "1": 3, "2": 1, "3": 1, "4": 2, "5": 1, "6": 2, "7": 1}
    assert report["scores"]["margin"] == summary([2, 4, 0, 6])
    assert report["length"] == {"actions": summary([10, 20, 30, 40]), "rounds": summary([1, 2, 3, 4])}
    assert report["end_reasons"] == {
        "done": {"games": 3, "rate": 0.75, "details": {}},
        "limit": {"games": 1, "rate": 0.25, "details": {}},
    }


def test_a_comparison_with_itself_finds_nothing():
    sim = hand_made()
    against = compare(sim, sim)
    assert all(d["p"] == 1.0 and not d["significant"] for d in against["differences"])
    text = render(balance_report(sim), against)
    assert "seat 0's win rate 25.0% → 25.0%, p = 1.000" in text


# -- rounds, first players and ends come from the rule data ---------------------------------


def test_venedig_rounds_are_turns_per_player_and_ends_are_the_game_ends_reason():
    sim = simulate(Setup("venedig", 3, ("random",) * 3, 2, seed=5), jobs=1)
    report = balance_report(sim)
    turns = sim.tally.counts["event", "turn"]
    assert sum(r.rounds or 0 for r in sim.records) in range(turns // 3, turns // 3 + 3)
    assert set(report["end_reasons"]) <= {"goal reached", "type used up", "turn limit"}
    detail = {"goal reached": "gondola", "type used up": "building", "turn limit": "player"}
    assert all(detail[end] in v["details"] for end, v in report["end_reasons"].items())
    assert report["first_player"]["games"] == 2
    assert report["items"]["buildings"]["casa"]["built"]["count"] > 0
    assert report["decisions"]["play"]["count"] > 0


def test_an_end_by_a_building_type_used_up_names_the_type(tmp_path: Path):
    # one Casa stands on the board at setup, one is in the supply: the first Casa built ends
    # the game, and the report says it was the Casa that ran out
    path = tmp_path / "one_casa.yaml"
    path.write_text(
        "extends: venedig\nid: one_casa\ntitle: One Casa\noverlay:\n"
        "  buildings: {buildings: [{id: casa, count: 2}]}\n"
        "  components: {components: [{id: casa_piece, count: 2}]}\n",
        encoding="utf-8",
    )
    report = balance_report(simulate(Setup(str(path), 3, ("random",) * 3, 3, seed=1), jobs=1))
    (end,) = report["end_reasons"]
    assert end == "type used up"
    assert report["end_reasons"][end]["details"]["building"] == {"casa": 3}
    assert "gondola" not in report["end_reasons"][end]["details"]  # a field the end left none is no detail
    assert "  type used up, by building: casa 3" in render(report).splitlines()


def test_an_end_at_the_turn_limit_has_no_building_or_gondola_detail(tmp_path: Path):
    path = tmp_path / "short.yaml"
    path.write_text(
        "extends: venedig\nid: short\ntitle: Short\noverlay:\n"
        "  game: {constants: {max_turns: {value: 4}, end_on_type_exhausted: {value: false}}}\n",
        encoding="utf-8",
    )
    report = balance_report(simulate(Setup(str(path), 3, ("random",) * 3, 2, seed=1), jobs=1))
    assert report["end_reasons"]["turn limit"]["games"] == 2
    assert sorted(report["end_reasons"]["turn limit"]["details"]) == ["player", "reason"]


def test_rialto_plays_its_rounds_and_names_its_first_player():
    report = balance_report(simulate(Setup("rialto", 2, ("random",) * 2, 2, seed=1), jobs=1))
    assert report["length"]["rounds"]["min"] == report["length"]["rounds"]["max"] == 6
    assert report["end_reasons"] == {"all rounds played": {"games": 2, "rate": 1.0, "details": {}}}
    assert report["first_player"] is not None


def test_a_variant_that_names_no_state_variable_is_refused_in_the_overlay(tmp_path: Path, capsys):
    path = lagoon_variant(
        tmp_path, "  game:\n    flow:\n      report:\n        rounds: {state: rund}\n        end_events: {bidz: x}\n"
    )
    status, _, err = run(capsys, str(path), "--games", "2")
    assert status == 1
    assert f"{path}:8:25: rules/reference: " in err and f"{path}:9:22: rules/reference: " in err
    assert "unknown state variable 'rund' (did you mean 'round'?)" in err
    assert "unknown event 'bidz' (did you mean 'bids'?)" in err


# -- the same numbers however the games are played -----------------------------------------


def test_same_json_for_one_and_two_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        status, out, _ = run(
            capsys, LAGOON, "--games", "30", "--players", "3", "--seed", "9", "--jobs", jobs, "--format", "json"
        )
        assert status == 0
        outs.append(out)
    assert outs[0] == outs[1]
    report = json.loads(outs[0])
    assert report["games"] == 30 and report["seed"] == 9
    assert {"win_rate", "ci95"} <= set(report["seats"][0])
    assert {"games", "seats", "length", "end_reasons", "first_player", "ties", "scores", "decisions"} <= set(report)


def test_seeds_are_fixed_by_the_first_seed_and_the_index():
    assert game_seed(0, 0) == 8249014348001178989  # a report's games must never change silently
    sim = simulate(Setup(LAGOON, 2, ("random", "random"), 3, seed=4), jobs=1)
    again = simulate(Setup(LAGOON, 2, ("random", "random"), 3, seed=4), jobs=1)
    assert sim.records == again.records
    assert [r.seed for r in sim.records] == [game_seed(4, i) for i in range(3)]
    rules = vr.load(LAGOON)
    for r in sim.records:  # each game can be played again from its seeds alone
        game = rules.new_game(2, game_seed(4, r.index))
        bots.play_out(game, {p: bots.make_bot("random", bot_seed(4, r.index, p)) for p in range(2)})
        assert (len(game.actions), tuple(game.winners)) == (r.actions, r.winners)
        assert tuple(game.scores.values()) == r.scores


def test_rules_are_read_afresh_and_a_pinned_setup_refuses_edited_files(tmp_path: Path, monkeypatch):
    path = lagoon_variant(tmp_path, "  game:\n    constants:\n      win_points: 2\n")
    setup = Setup(str(path), 2, ("random", "random"), 3)
    quick = simulate(setup, jobs=1)
    pinned, _ = setup.pinned()
    path.write_text(path.read_text().replace("win_points: 2", "win_points: 40"))
    assert simulate(setup, jobs=1).records != quick.records  # the edit counts at once
    monkeypatch.setattr(run_module, "_PINNED", {})  # a process that did not start with the simulation
    failure = play_batch(pinned, range(1)).failure
    assert failure is not None and "are not those the simulation began with" in failure


# -- --against ---------------------------------------------------------------------------


def test_against_a_bundled_variant_same_numbers_for_any_jobs(capsys):
    outs = []
    for jobs in ("1", "2"):
        args = ("rialto", "--variant", "german_summary", "--against", "rialto", "--games", "2", "--jobs", jobs)
        status, out, _ = run(capsys, *args, "--format", "json")
        assert status == 0
        outs.append(out)
    assert outs[0] == outs[1]
    against = json.loads(outs[0])["against"]
    assert against["ruleset"] == "rialto" and against["report"]["games"] == 2
    first = against["differences"][0]
    assert first["what"] == "seat 0's win rate" and {"base", "variant", "p", "significant"} <= set(first)


def test_against_finds_a_real_difference(tmp_path: Path, capsys):
    variant = lagoon_variant(tmp_path, "  game:\n    constants:\n      win_points: 2\n")
    status, out, _ = run(capsys, str(variant), "--against", LAGOON, "--games", "20", "--jobs", "1")
    assert status == 0
    line = next(x for x in out.splitlines() if "the mean length in rounds" in x)
    assert line.strip().startswith("the mean length in rounds 5.0 → ") and "p < 0.001 *" in line


# -- plots and files ------------------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs the sim extra")
def test_out_writes_the_json_the_games_and_the_plots(tmp_path: Path, capsys):
    out_dir = tmp_path / "report"
    status, _, err = run(capsys, LAGOON, "--games", "6", "--jobs", "1", "--against", LAGOON, "--out", str(out_dir))
    assert status == 0
    data = json.loads((out_dir / "report.json").read_text())
    assert data["games"] == 6 and data["against"]["report"]["games"] == 6
    games = (out_dir / "games.jsonl").read_text().splitlines()
    assert [json.loads(line)["index"] for line in games] == list(range(6))
    for stem in ("win_rates", "scores", "length", "end_reasons", "lead"):
        assert (out_dir / f"{stem}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
        assert "<svg" in (out_dir / f"{stem}.svg").read_text()
    assert f"wrote {out_dir / 'report.json'}" in err


# -- refusals ----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("venedg", "--games", "2"), "no bundled ruleset or path 'venedg' (did you mean 'venedig'?)"),
        ((LAGOON, "--games", "0"), "argument --games: expected a number of at least 1, got 0"),
        ((LAGOON, "--games", "-3"), "argument --games: expected a number of at least 1, got -3"),
        ((LAGOON, "--games", "ten"), "argument --games: expected a whole number, got 'ten'"),
        ((LAGOON, "--games", "2", "--bots", "randm"), "no bot 'randm' (did you mean 'random'?); bots: "),
        ((LAGOON, "--games", "2", "--bots", "random,random,random"), "--bots names 3 bots for 2 players"),
        ((LAGOON, "--games", "2", "--bots", "random,,random"), "expected bot names separated by commas"),
        ((LAGOON, "--games", "2", "--players", "9"), "lagoon is for 2-4 players, not 9"),
        ((LAGOON, "--games", "2", "--jobs", "0"), "argument --jobs: expected a number of at least 1, got 0"),
        ((LAGOON, "--games", "2", "--engine", "spark"), "argument --engine: invalid choice: 'spark'"),
        ((LAGOON,), "the following arguments are required: --games"),
        ((LAGOON, "--games", "2", "--out", __file__), f"--out {__file__}: not a folder"),
    ],
)
def test_bad_input_is_refused_with_exit_2(args, message, capsys):
    try:
        status = main(["simulate", *args])
    except SystemExit as exc:  # argparse refuses before the command runs
        status = exc.code
    err = capsys.readouterr().err
    assert status == 2
    assert message in err
    assert "Traceback" not in err


def test_against_a_base_for_other_player_counts_is_refused(capsys):
    status, _, err = run(capsys, "venedig", "--games", "2", "--players", "5", "--against", LAGOON)
    assert (status, err.strip()) == (2, "venedig-rules simulate: error: --against: lagoon is for 2-4 players, not 5")


def test_a_data_only_ruleset_is_refused(data_only: Path, capsys):
    status, _, err = run(capsys, str(data_only), "--games", "2")
    assert status == 2 and "cannot be played" in err


def test_without_the_extra_one_line_names_the_install(monkeypatch, capsys):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "rich" else real(name, *a))
    status, out, err = run(capsys, LAGOON, "--games", "2")
    assert (status, out) == (2, "")
    assert (
        err == "venedig-rules simulate: error: simulate needs the sim extra (rich is missing): "
        "pip install 'venedig-rules[sim]'\n"
    )
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *a: None if name == "ray" else real(name, *a))
    status, _, err = run(capsys, LAGOON, "--games", "2", "--engine", "ray")
    assert status == 2 and err.endswith("pip install 'venedig-rules[ray]'\n") and err.count("\n") == 1


def test_a_game_that_fails_names_its_index_and_seed(monkeypatch):
    class Broken:
        def __init__(self, seed: int = 0):
            self.moves = 0

        def act(self, view, actions):
            self.moves += 1
            if self.moves > 3:
                raise RuntimeError("the bot gives up")
            return actions[0]

    monkeypatch.setitem(bots.BOTS, "broken", Broken)
    with pytest.raises(
        GameFailedError,
        match=rf"lagoon: game 0 \(seed {game_seed(0, 0)}\) stopped after \d+ actions: "
        "RuntimeError: the bot gives up",
    ):
        simulate(Setup(LAGOON, 2, ("broken", "random"), 4), jobs=1)


# -- Ray ---------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def local_ray():
    ray = pytest.importorskip("ray")
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield ray
    ray.shutdown()


def test_ray_gives_the_same_numbers_as_local_processes(local_ray):
    setup = Setup(LAGOON, 3, ("random",) * 3, 24, seed=2)
    on_ray = balance_report(simulate(setup, engine="ray"))
    assert on_ray == balance_report(simulate(setup, jobs=2))
    assert local_ray.is_initialized()  # a Ray started by the caller is left running


# -- the guide's examples run -------------------------------------------------------------


def blocks(text: str, language: str) -> list[str]:
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


@pytest.mark.skipif(importlib.util.find_spec("matplotlib") is None, reason="needs the sim extra")
def test_every_command_of_the_guides_runs(tmp_path: Path, monkeypatch, capsys):
    guide, variants = (DOCS / "simulate.md").read_text(), (DOCS / "variants.md").read_text()
    monkeypatch.chdir(tmp_path)  # where --out writes
    commands = [
        line.split("#")[0].split()
        for text in (guide, variants)
        for block in [*blocks(text, "sh"), *re.findall(r"`(venedig-rules simulate [^`]*)`", text)]
        for line in block.splitlines()
        if line.startswith("venedig-rules simulate ") and "--games" in line
    ]
    assert len(commands) >= 3
    for words in commands:
        words = [*words[2:]]
        words[words.index("--games") + 1] = "2"  # the same command, quicker
        assert main(["simulate", *words]) == 0, words
    capsys.readouterr()


def test_the_guides_python_example_runs(capsys):
    code = blocks((DOCS / "simulate.md").read_text(), "python")[0]
    exec(re.sub(r"games=\d+", "games=2", code), {})
    assert "seat 0's win rate" in capsys.readouterr().out


def test_the_guide_shows_the_bundled_report_declarations():
    shown = {
        block.split(":")[0].lstrip("# "): yaml.safe_load(block)["report"]
        for block in blocks((DOCS / "simulate.md").read_text(), "yaml")
    }
    titles = {rules.title: rules for rules in map(vr.load, vr.bundled())}
    assert set(shown) == set(titles)
    for title, report in shown.items():
        assert report == titles[title].data["game"]["flow"]["report"], title
