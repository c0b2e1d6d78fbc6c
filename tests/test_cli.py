"""The venedig-rules command: list, validate, describe, exit codes and help."""

from __future__ import annotations

import json
import os
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
    assert "two_player" in out
    for name in vr.bundled():
        assert name in out


def test_validate_all_bundled_is_clean(capsys):
    assert main(["validate"]) == 0
    out = capsys.readouterr().out
    assert "rules/venedig: ok" in out and "rules/venedig/variants/two_player.yaml: ok" in out


def test_validate_prints_every_error_one_per_line_and_exits_1(tiny: Path, capsys):
    (tiny / "cards.yaml").write_text((tiny / "cards.yaml").read_text().replace("type: gold\n", "type: gld\n"))
    (tiny / "buildings.yaml").write_text(
        (tiny / "buildings.yaml").read_text().replace("name: Hut", "name: Hut, nmae: Hut")
    )
    assert main(["validate", str(tiny)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 3  # two unknown card types, an unknown key
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
    assert main(["describe", "venedig", "--variant", "two_player"]) == 0
    assert "venedig+two_player" in capsys.readouterr().out


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
    import venedig_rules.cli as cli

    def broken(args: object) -> int:
        raise KeyError("a bug")

    monkeypatch.setattr(cli, "_list", broken)
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
