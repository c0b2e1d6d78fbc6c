"""The venedig-rules command: list, validate, describe, exit codes and help."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.cli import main


def run(*args: str) -> tuple[int, str, str]:
    proc = subprocess.run([sys.executable, "-m", "venedig_rules", *args], capture_output=True, text=True)
    return proc.returncode, proc.stdout, proc.stderr


def test_list_shows_every_bundled_ruleset_with_title_and_players(capsys):
    assert main(["list"]) == 0
    out = capsys.readouterr().out
    assert "Die Säulen von Venedig" in out and "2-6" in out
    assert "no_imaginary_player" in out
    for name in vr.bundled():
        assert name in out


def test_validate_all_bundled_is_clean(capsys):
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "rules/venedig: ok" in out and "rules/venedig/variants/no_imaginary_player.yaml: ok" in out


def test_validate_prints_every_error_one_per_line_and_exits_1(tiny: Path, capsys):
    (tiny / "cards.yaml").write_text((tiny / "cards.yaml").read_text().replace("type: gold\n", "type: gld\n"))
    (tiny / "buildings.yaml").write_text(
        (tiny / "buildings.yaml").read_text().replace("name: Hut", "name: Hut, nmae: Hut")
    )
    assert main(["validate", str(tiny)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3  # two unknown card types, an unknown key (the missing name is that typo: not repeated)
    assert all(line.count(":") >= 4 for line in lines)
    assert any("cards.yaml:8:11: rules/reference: unknown card type 'gld'" in line for line in lines)


def test_validate_a_single_rule_file_checks_its_ruleset(tiny: Path, capsys):
    assert main(["validate", str(tiny / "cards.yaml")]) == 0


def test_validate_json_format_for_tools(tiny: Path, capsys):
    (tiny / "cards.yaml").write_text((tiny / "cards.yaml").read_text().replace("count: 4", "count: four"))
    assert main(["validate", "--format", "json", str(tiny)]) == 1
    report = json.loads(capsys.readouterr().out)
    assert report["ok"] is False
    error = report["targets"][0]["errors"][0]
    assert set(error) == {"file", "line", "column", "code", "message"}


def test_usage_errors_exit_2():
    assert run("validate", "/no/such/ruleset")[0] == 2
    assert run("describe")[0] == 2
    assert run("frobnicate")[0] == 2
    assert run()[0] == 2


@pytest.mark.parametrize("name", vr.bundled())
def test_describe_prints_tables(name, capsys):
    assert main(["describe", name]) == 0
    out = capsys.readouterr().out
    assert "Components" in out and "players" in out
    rules = vr.load(name)
    for item in rules.items("components"):
        assert item["id"] in out


def test_describe_with_a_variant(capsys):
    assert main(["describe", "venedig", "--variant", "short_rules_end"]) == 0
    assert "venedig+short_rules_end" in capsys.readouterr().out


@pytest.mark.parametrize("command", ["list", "validate", "describe"])
def test_every_command_has_help_with_an_example(command):
    code, out, _ = run(command, "--help")
    assert code == 0 and "example" in out


def test_python_dash_m_runs_the_same_command():
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("venedig-rules ")


# -- issue 11: no traceback, a usage error exits 2 -----------------------------------------------
LAGOON_DIR = str(Path(__file__).parent / "rulesets" / "lagoon")


@pytest.mark.parametrize(
    "args",
    [
        ["check", LAGOON_DIR, "--games", "-1"],
        ["check", LAGOON_DIR, "--games", "0"],
        ["check", LAGOON_DIR, "--games", "9" * 5000],
        ["check", LAGOON_DIR, "--players", ",,"],
        ["check", LAGOON_DIR, "--players", ""],
        ["check", LAGOON_DIR, "--players", "9" * 5000],
        ["play", LAGOON_DIR, "--human", ","],
    ],
)
def test_d16_counts_that_would_check_nothing_are_usage_errors(capsys, args: list[str]):
    with pytest.raises(SystemExit) as info:
        main(args)
    assert info.value.code == 2
    err = capsys.readouterr().err
    assert "error: argument" in err and "Traceback" not in err and len(err) < 1000


def test_d17_playthrough_update_into_a_folder_that_cannot_be_made_is_one_line(capsys):
    assert main(["playthrough", LAGOON_DIR, "--update", "--dir", "/proc/nope/x"]) == 1
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and "cannot write to /proc/nope/x" in err


def test_an_unexpected_exception_is_one_line_asking_for_a_report(capsys, monkeypatch):
    from venedig_rules.cli import listing

    def broken() -> list[str]:
        raise KeyError("a bug")

    monkeypatch.setattr(listing, "bundled", broken)
    assert main(["list"]) == 1
    err = capsys.readouterr().err
    assert err.startswith("venedig-rules: internal error: KeyError: 'a bug'") and "please report" in err
    assert "Traceback" not in err


def test_a_variant_in_a_circle_exits_1_with_its_location(tmp_path: Path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\ntitle: A\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nid: b\ntitle: B\n")
    code, out, err = run("validate", str(tmp_path / "a.yaml"))
    assert code == 1 and "b.yaml:1:10: rules/variant:" in out + err and "Traceback" not in err


def test_d14_play_human_with_stdin_closed_ends_without_a_traceback():
    proc = subprocess.run(
        [sys.executable, "-m", "venedig_rules", "play", LAGOON_DIR, "--human", "0"],
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        preexec_fn=lambda: os.close(0),
    )
    assert proc.returncode in (0, 1) and "Traceback" not in proc.stderr and "internal error" not in proc.stderr


def test_d15_play_into_a_pipe_closed_early_ends_without_a_traceback():
    proc = subprocess.Popen(
        [sys.executable, "-m", "venedig_rules", "play", "saeulen", "rialto", "venedig", "--seed", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read().decode()
    proc.wait(timeout=120)
    assert "Traceback" not in err and "internal error" not in err


# -- play ----------------------------------------------------------------------------------------------
def test_play_prints_sentences_only_and_names_the_seats(capsys):
    assert main(["play", "venedig", "--players", "3", "--seed", "1", "--names", "Ada,Ben,Cy"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[0] == "Venedig: 3 players, seed 1"
    assert lines[1] == "  The game is set up" and lines[-4].startswith("  Ada: ")  # then how the points were made
    assert "  Ada's turn (turn 1)" in lines and "  The game is over: " in "\n".join(lines)
    assert lines[-1].startswith("scores: Ada ")  # the last line, as scripts read it
    text = "\n".join(lines)
    assert " is now " not in text and "->" not in text and "draw_pile" not in text
    assert not re.search(r"\bp\d\b", text) and "the draw pile: " not in text  # no state changes


def test_play_verbose_adds_the_state_changes(capsys):
    main(["play", "venedig", "--players", "3", "--seed", "1"])
    quiet = capsys.readouterr().out.splitlines()
    main(["play", "venedig", "--players", "3", "--seed", "1", "--verbose"])
    verbose = capsys.readouterr().out.splitlines()
    assert len(verbose) > 2 * len(quiet) and "  the draw pile: 42 items" in verbose
    assert "  the draw pile: 42 items" not in quiet and "  The game is set up" in quiet  # the quiet one is the log


def test_play_in_german(capsys):
    assert main(["play", "rialto", "--players", "3", "--seed", "1", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    assert "Das Spiel ist zu Ende" in out and "Runde 1 beginnt: der Rundenmarker zieht nach" in out


def test_play_refuses_a_language_the_game_lacks_and_bad_names(capsys):
    assert main(["play", "venedig", "--lang", "fr"]) == 2
    assert "venedig has no texts in 'fr'; its languages: en, de" in capsys.readouterr().err
    with pytest.raises(SystemExit):
        main(["play", "venedig", "--names", "Ada,Ada"])


def test_play_with_a_human_and_no_input_stops_with_a_sentence_and_a_failure():
    proc = subprocess.run(
        [sys.executable, "-m", "venedig_rules", "play", "venedig", "--human", "0"],
        capture_output=True,
        text=True,
        stdin=subprocess.DEVNULL,
    )
    first = vr.load("venedig").new_game(players=2, seed=0).decision(0)
    assert first is not None and proc.returncode == 1 and proc.stderr == ""
    assert proc.stdout.rstrip().endswith("The input ended before the game did: the game is left unfinished.")
    assert f"-- {first['prompt']} --" in proc.stdout and f"  1. {first['options'][0]['text']}" in proc.stdout


def test_play_into_a_closed_pipe_ends_quietly():
    cmd = f"{sys.executable} -m venedig_rules play saeulen rialto venedig --seed 1 | head -1"
    proc = subprocess.run(cmd, shell=True, capture_output=True, text=True)
    assert proc.stdout == "Die Säulen von Venedig: 2 players, seed 1\n" and proc.stderr == ""


def test_a_human_picks_by_number_or_by_part_of_a_text(monkeypatch, capsys):
    answers = iter(["?", "zzz", "palazzo", "2", "q"])  # (the gold is kept for them) then lay out
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    assert main(["play", "venedig", "--players", "3", "--seed", "7", "--human", "0"]) == 0
    out = capsys.readouterr().out
    assert "  Only one choice: Keep the gold\n  p0 keeps the gold" in out  # answered, not asked
    assert "Convert gold" not in out
    assert "u   take back your last action" in out  # ? shows the help
    assert "no option contains 'zzz'" in out
    assert "    2. Lay out 1 Basilica card and 1 Palazzo card" in out
    assert "  p0 lays out 1 Basilica card and 1 Palazzo card" in out


def test_a_human_is_asked_even_a_forced_decision_with_ask_forced(monkeypatch, capsys):
    answers = iter(["1", "q"])
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    assert main(["play", "venedig", "--players", "3", "--seed", "7", "--human", "0", "--ask-forced"]) == 0
    out = capsys.readouterr().out
    assert "Only one choice" not in out and "    1. Keep the gold" in out and "  p0 keeps the gold" in out


def test_a_human_reads_the_options_in_natural_order_a_pass_last(monkeypatch, capsys):
    answers = iter(["8", "q"])  # lay out no cards: the drain decision follows
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    main(["play", "venedig", "--players", "3", "--seed", "7", "--human", "0"])
    out = capsys.readouterr().out
    drains = [line.split(". ", 1)[1] for line in out.splitlines() if ". Drain " in line]
    assert drains.index("Drain C3") < drains.index("Drain C10") < drains.index("Drain D1")
    assert "    8. Lay out no cards" in out  # the pass comes last


def test_a_human_takes_back_an_action_the_table_allows_and_saves(monkeypatch, capsys, tmp_path):
    save = tmp_path / "game.json"
    answers = iter(["8", "u", "8", "u", f"s {save}", "q"])  # lay out none, undo (twice); save
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    assert main(["play", "venedig", "--players", "3", "--seed", "7", "--human", "0"]) == 0
    out = capsys.readouterr().out
    assert out.count("  Taken back: Lay out no cards") == 2 and f"Saved to {save}" in out
    assert "p0 play" not in out  # no action notation
    saved = json.loads(save.read_text())
    assert saved["actions"] == ["p0 pass"] and vr.load("venedig").game_from_json(saved).actions == ["p0 pass"]


def test_taking_back_a_choice_also_takes_back_the_forced_answers_after_it(monkeypatch, capsys):
    # 2 players: reveal no card for the imaginary player, then the gold is kept for p0 (one
    # option); u takes back both, else the forced answer would only be given again
    answers = iter(["2", "u", "q"])
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    assert main(["play", "venedig", "--seed", "2", "--human", "0", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    taken = out[out.index("Zurückgenommen") :]
    assert taken.startswith("Zurückgenommen: Gold behalten\n  Zurückgenommen: Keine Karte aufdecken\n")


def test_a_human_reads_a_compact_position_and_german_words(monkeypatch, capsys, tmp_path):
    answers = iter(["p", "?", "s", f"s {tmp_path}", "q"])
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    assert main(["play", "venedig", "--players", "3", "--seed", "7", "--human", "0", "--lang", "de"]) == 0
    out = capsys.readouterr().out
    compact = out[out.index("-- p0: deine Lage --") :].split("\n-- ")[0].splitlines()[1:]
    assert len(compact) <= 15 and "  Gebäudevorrat: 18 Casas, 5 Palazzi, 5 Campi, 4 Basiliken und 5 Ponti" in compact
    assert not any(line.startswith("  p1") or "von p" in line for line in compact)  # its own, no other's
    assert "Nummer, Teil eines Textes" in out and "  p1:\n    Gondel: am Start\n    Hand: 3 Karten (verdeckt)" in out
    assert out.startswith("Venedig: 3 Spieler, Seed 7; du spielst p0\n")
    assert "  Nur eine Wahl: Gold behalten" in out and "  u   deinen letzten Zug zurücknehmen" in out
    assert f"  Speichern in '{tmp_path}' geht nicht: " in out and "  s braucht einen Dateinamen" in out
    for english in ("players", "seed", "take back", "save", "Only one choice", "cannot"):
        assert english not in out


def test_a_human_is_told_why_an_action_cannot_be_taken_back(monkeypatch, capsys):
    answers = iter(["8", "drain(a7)", "u", "q"])  # (the gold is kept) pass, drain (its gold is seen)
    monkeypatch.setattr("builtins.input", lambda *_: next(answers))
    main(["play", "venedig", "--players", "3", "--seed", "7", "--human", "0"])
    out = capsys.readouterr().out
    assert "  Cannot take it back: “p0 drains A7” showed what was hidden (p0 takes a" in out
    assert "Taken back" not in out and "drain(a7)" not in out


def test_a_file_that_cannot_be_written_is_a_one_line_usage_error(tmp_path, capsys):
    blocker = tmp_path / "a_file"
    blocker.write_text("not a folder")
    assert main(["new-variant", "venedig", str(blocker / "big_hands.yaml")]) == 2
    err = capsys.readouterr().err
    assert err.startswith("venedig-rules: error: ") and str(blocker) in err
    assert "internal error" not in err and "Traceback" not in err and len(err.strip().splitlines()) == 1
