"""The venedig-rules command: list, validate, describe, exit codes and help."""

from __future__ import annotations

import json
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
    (tiny / "buildings.yaml").write_text((tiny / "buildings.yaml").read_text().replace("name: Hut", "nmae: Hut"))
    assert main(["validate", str(tiny)]) == 1
    lines = capsys.readouterr().out.splitlines()
    assert len(lines) == 4  # two unknown card types, an unknown key, a missing name
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
