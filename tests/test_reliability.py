"""Bad input gets a typed, located error and loses nothing: one test per defect of issue 11
(D1-D20), named after it. The Hypothesis fuzz suite that keeps the class closed is
tests/test_fuzz.py."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data.resources import rules_root
from venedig_rules.limits import MAX_FILE_BYTES, MAX_INT

TESTS = Path(__file__).parent
LAGOON = TESTS / "rulesets" / "lagoon"


def problems(path: Path | str, **kwargs: object) -> list[tuple[str, str, int, int, str]]:
    """(code, file name, line, column, message) of every problem loading ``path`` reports."""
    with pytest.raises(vr.InvalidRulesError) as info:
        vr.load(path, **kwargs)  # type: ignore[arg-type]
    return [
        (e.code, Path(e.location.file).name, e.location.line, e.location.column, e.message) for e in info.value.errors
    ]


def codes(path: Path | str) -> set[str]:
    return {p[0] for p in problems(path)}


# -- rule data ---------------------------------------------------------------------------------
def test_d1_a_tag_on_a_mapping_key_is_refused(tiny: Path):
    (tiny / "scoring.yaml").write_text("!!python/object/apply:os.system tracks:\n  - {id: points, name: P}\n")
    [(code, file, line, column, message)] = problems(tiny)
    assert (code, file, line, column) == ("rules/yaml", "scoring.yaml", 1, 1)
    assert "python/object/apply" in message


@pytest.mark.parametrize("digits", [17, 5000, 100_000])
def test_d2_an_integer_literal_too_long_is_a_located_error(tiny: Path, digits: int):
    text = (tiny / "components.yaml").read_text().replace("count: 6", "count: " + "9" * digits)
    (tiny / "components.yaml").write_text(text)
    [(code, file, line, _, message)] = problems(tiny)
    assert (code, file, line) == ("rules/yaml", "components.yaml", 3)
    assert f"to {MAX_INT}" in message and len(message) < 300


def test_d2_the_largest_allowed_integer_loads(tiny: Path):
    game = (tiny / "game.yaml").read_text()
    (tiny / "game.yaml").write_text(game.replace("  hand_limit: 5\n", f"  hand_limit: 5\n  big: {MAX_INT}\n"))
    assert vr.load(tiny).constant("big") == MAX_INT


@pytest.mark.parametrize("content", ["", "# only a comment\n", "\n\n"])
def test_d3_an_empty_rule_file_is_named(tiny: Path, content: str):
    (tiny / "cards.yaml").write_text(content)
    assert problems(tiny) == [
        ("rules/file", "cards.yaml", 0, 0, "cards.yaml should hold a mapping at the top, not nothing")
    ]


def test_d3_a_rule_file_of_an_empty_document_is_named(tiny: Path):
    (tiny / "cards.yaml").write_text("---\n...\n")
    assert [p[:2] for p in problems(tiny)] == [("rules/file", "cards.yaml")]


def test_d3_an_empty_variant_is_named(tmp_path: Path):
    (tmp_path / "v.yaml").write_text("")
    assert [p[:4] for p in problems(tmp_path / "v.yaml")] == [("rules/variant", "v.yaml", 0, 0)]


@pytest.mark.parametrize("ident", ["[a, b]", "{a: 1}", "[]", "5", "null"])
@pytest.mark.parametrize("file, old", [("components.yaml", "id: card"), ("cards.yaml", "id: gold_one")])
def test_d4_an_id_that_is_a_list_or_mapping_is_a_schema_error(tiny: Path, ident: str, file: str, old: str):
    (tiny / file).write_text((tiny / file).read_text().replace(old, f"id: {ident}", 1))
    assert codes(tiny) == {"rules/schema"}


@pytest.mark.parametrize(
    "file, old, new",
    [
        ("cards.yaml", "types:\n  - {id: gold, name: Gold}", "types: -1"),
        ("tiles.yaml", None, "tiles: 5\n"),
        ("board.yaml", None, "grid: {rows: 3}\n"),
        ("game.yaml", None, "id: tiny\ntitle: T\nplayers: {min: 2, max: 3}\nflow: {procedures: [1]}\n"),
        ("components.yaml", None, "components: {a: 1}\n"),
        ("buildings.yaml", None, "buildings: true\n"),
        ("scoring.yaml", None, "tracks: x\nwinner: 3\n"),
        ("invariants.yaml", None, "invariants: [1, [2], {}]\n"),
    ],
)
def test_d18_later_stages_never_run_on_shapes_the_schema_refused(tiny: Path, file: str, old: str | None, new: str):
    path = tiny / file
    text = path.read_text() if path.exists() else ""
    path.write_text(new if old is None else text.replace(old, new, 1))
    found = codes(tiny)
    assert "rules/schema" in found and found <= {"rules/schema", "rules/yaml"}


def test_d18_a_shape_refused_in_the_bundled_games_stops_before_the_checks(tmp_path: Path):
    for game in vr.bundled():
        copy = tmp_path / game
        shutil.copytree(rules_root() / game, copy)
        for kind in ("board", "tiles", "cards", "buildings"):
            if (copy / f"{kind}.yaml").exists():
                text = (copy / f"{kind}.yaml").read_text()
                (copy / f"{kind}.yaml").write_text(text.replace("\n", "\nzz_marker: 1\n", 1))
        (copy / "game.yaml").write_text((copy / "game.yaml").read_text() + "\nplayers: 7\n")
        assert "rules/schema" in codes(copy)


def test_d20_reordering_a_procedures_params_changes_the_rules_hash(tmp_path: Path):
    copy = tmp_path / "lagoon"
    shutil.copytree(LAGOON, copy)
    text = (copy / "game.yaml").read_text()
    assert "params: {who: player, times: int}" in text
    first = vr.load(copy).rules_hash
    (copy / "game.yaml").write_text(text.replace("{who: player, times: int}", "{times: int, who: player}"))
    assert vr.load(copy).rules_hash != first


# -- files: size, pipes, devices -----------------------------------------------------------------
def test_a_rule_file_larger_than_the_limit_is_refused_unread(tiny: Path):
    with (tiny / "tiles.yaml").open("w") as file:
        file.write("# " + "x" * 1000 + "\n")
        file.truncate(MAX_FILE_BYTES + 1)
    [(code, file_name, line, _, message)] = problems(tiny)
    assert (code, file_name, line) == ("rules/file", "tiles.yaml", 0) and str(MAX_FILE_BYTES) in message


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no named pipes here")
def test_a_pipe_as_a_rule_file_or_variant_does_not_hang(tiny: Path, tmp_path: Path):
    (tiny / "tiles.yaml").unlink()
    os.mkfifo(tiny / "tiles.yaml")
    os.mkfifo(tmp_path / "v.yaml")
    assert [p[:2] for p in problems(tiny)] == [("rules/file", "tiles.yaml")]  # a hang would never get here
    assert [p[:2] for p in problems(tmp_path / "v.yaml")] == [("rules/file", "v.yaml")]


@pytest.mark.skipif(not Path("/dev/zero").exists(), reason="no /dev/zero here")
def test_dev_zero_as_a_rule_file_or_variant_does_not_hang(tiny: Path):
    (tiny / "tiles.yaml").unlink()
    (tiny / "tiles.yaml").symlink_to("/dev/zero")  # a link inside the folder to a device
    assert [p[:2] for p in problems(tiny)] == [("rules/file", "tiles.yaml")]
    assert [p[:2] for p in problems("/dev/zero")] == [("rules/file", "zero")]


# -- the DSL at validate: what the checker finds by folding constants ----------------------------
def lagoon_with(tmp_path: Path, line: str) -> Path:
    """A copy of lagoon whose main procedure starts with ``line``."""
    copy = tmp_path / "lagoon"
    shutil.copytree(LAGOON, copy)
    text = (copy / "game.yaml").read_text()
    (copy / "game.yaml").write_text(text.replace("main: |\n", f"main: |\n    {line}\n", 1))
    return copy


@pytest.mark.parametrize(
    "line, code, words",
    [
        ("let x = 5 // 0;", "dsl/value", "by zero"),
        ("let x = 5 % (2 - 2);", "dsl/value", "by zero"),
        ("repeat 1000000 { round += 0 };", "dsl/limit", "runs 1000000 times"),
        ("repeat 1000 { repeat 1000 { round += 0 } };", "dsl/limit", "nested loops"),
        ("let r = range(0, 100000000);", "dsl/limit", "range(0, 100000000)"),
        ("let r = range(0, 10000 * 10000);", "dsl/limit", "range(0, 100000000)"),
        ("let x = 9007199254740991 * 9007199254740991;", "dsl/limit", "the largest number allowed"),
        ("repeat hand_size * 100000 { round += 0 };", "dsl/limit", "times"),
    ],
)
def test_what_the_checker_can_know_before_play_is_a_located_error_at_validate(
    tmp_path: Path, line: str, code: str, words: str
):
    [(found, file, line_no, _, message)] = problems(lagoon_with(tmp_path, line))
    assert (found, file, line_no) == (code, "game.yaml", 34) and words in message


@pytest.mark.parametrize("line", ["repeat 1000 { round += 0 };", "let r = range(0, 10000);", "let x = 7 // 2;"])
def test_constants_within_the_limits_load(tmp_path: Path, line: str):
    assert vr.load(lagoon_with(tmp_path, line)).rules_hash


def test_a_program_nested_too_deep_is_a_located_syntax_error(tmp_path: Path):
    [(code, file, *_, message)] = problems(lagoon_with(tmp_path, "let x = " + "[" * 150 + "1" + "]" * 150 + ";"))
    assert (code, file) == ("dsl/syntax", "game.yaml") and "nested deeper" in message


def test_d2_an_integer_literal_too_long_in_the_dsl_is_a_located_error(tiny: Path):
    game = LAGOON / "game.yaml"
    copy = tiny.parent / "lagoon"
    shutil.copytree(LAGOON, copy)
    text = game.read_text().replace("main: |\n", "main: |\n    let huge = " + "7" * 5000 + ";\n", 1)
    (copy / "game.yaml").write_text(text)
    [(code, file, _, _, message)] = problems(copy)
    assert (code, file) == ("dsl/syntax", "game.yaml") and "too large" in message
