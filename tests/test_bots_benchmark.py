"""benchmarks/bots.py keeps the protocol's games apart: a log, its summary, and a run that
plays only the games its logs do not hold (the strength figures themselves are measured by
the script, not here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import venedig_rules as vr

SCRIPT = Path(__file__).resolve().parent.parent / "benchmarks" / "bots.py"


def _bots(*args: str | Path) -> subprocess.CompletedProcess[str]:
    command = [sys.executable, str(SCRIPT), "--pairings", "random:random", "--rulesets", "rialto", "--jobs", "1"]
    return subprocess.run([*command, *map(str, args)], capture_output=True, text=True, timeout=300)


def _indexes(log: Path) -> list[int]:
    return [json.loads(line)["index"] for line in log.read_text().splitlines()]


def test_a_run_skips_the_games_its_logs_hold(tmp_path: Path) -> None:
    log = tmp_path / "games.jsonl"
    first = _bots("--games", "2", "--log", log)
    assert first.returncode == 0, first.stderr
    assert sorted(_indexes(log)) == [0, 1]
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert {(line["build"], line["version"]) for line in lines} == {("pure", vr.__version__)}  # the checkout's

    rest = _bots("--games", "4", "--skip-logged", log, "--log", log)
    assert rest.returncode == 0, rest.stderr
    assert "2 of these 4 games are logged already: playing the other 2" in rest.stdout
    assert sorted(_indexes(log)) == [0, 1, 2, 3]  # games 0 and 1 not played again

    summary = subprocess.run(
        [sys.executable, str(SCRIPT), "--summarize", str(log)], capture_output=True, text=True, timeout=60
    )
    assert "4 games from 1 log file(s)" in summary.stdout
    assert "random:random" in summary.stdout

    markdown = subprocess.run(
        [sys.executable, str(SCRIPT), "--summarize", str(log), "--markdown"], capture_output=True, text=True, timeout=60
    )
    head, rule, row = markdown.stdout.splitlines()
    assert head == "| ruleset | pairing | A wins | share | Wilson 95% | target | s/game | played by |"
    assert rule == "|---|---|---|---|---|---|---|---|"
    won = sum(json.loads(line)["share"] for line in log.read_text().splitlines())
    assert row.startswith(f"| rialto | `random:random` | {won:g}/4 | {won / 4:.0%} | ")
    assert row.endswith(" | 4 pure |")  # no target for this pairing: its cell is empty


def test_a_missing_log_to_skip_is_named(tmp_path: Path) -> None:
    missing = tmp_path / "nope.jsonl"
    run = _bots("--games", "1", "--skip-logged", missing)
    assert run.returncode != 0
    assert f"--skip-logged: no log file {missing}" in run.stderr


def test_markdown_is_a_form_of_the_summary() -> None:
    run = subprocess.run([sys.executable, str(SCRIPT), "--markdown"], capture_output=True, text=True, timeout=60)
    assert run.returncode == 2
    assert "--markdown prints the table of --summarize: give the logs to summarize" in run.stderr
