"""A constant that a game module's Python reads is checked at validate against the kind of
value the module reads (a whole number, true or false, a board track's id, a terrain):
without it, ``draw_single: three`` in the base files validated and failed in play."""

from __future__ import annotations

import importlib
import re
import shutil
from pathlib import Path

import pytest

import venedig_rules as vr
from conftest import TESTS, bundled_copy_with, bundled_with_constant
from venedig_rules.effects.constant_kinds import ConstantKind
from venedig_rules.effects.registry import Registry

RULES = Path(vr.__file__).parent.parent / "rules"

#: A value of the wrong kind for each kind, and the words the error must hold.
WRONG = {
    ConstantKind.COUNT: [("three", '"three" (a string)'), ("-1", "is -1;"), ("2.5", "2.5 (a number)")],
    ConstantKind.FLAG: [("2", "2 (a whole number)"), ('"yes"', '"yes" (a string)')],
    ConstantKind.TEXT: [("[a, b]", "(a list)")],
    ConstantKind.TRACK: [("nowhere", "which is no track of board.yaml")],
    ConstantKind.TERRAIN: [("lava", "which no space of board.yaml has")],
}

CASES = [
    (game, name, kind, value, words)
    for game in ("venedig", "saeulen", "rialto")
    for name, kind in importlib.import_module(f"venedig_rules.games.{game}").PRIMITIVES.constant_kinds.items()
    for value, words in WRONG[kind]
]


def test_every_constant_a_module_reads_has_a_kind():
    """The bundled modules say what they read; a bare name (ANY) would check nothing."""
    assert {kind for *_, kind, _, _ in CASES} <= set(WRONG)
    assert ConstantKind.ANY not in {kind for *_, kind, _, _ in CASES}


@pytest.mark.parametrize(("game", "name", "kind", "value", "words"), CASES, ids=lambda v: str(v)[:20])
def test_a_wrong_value_is_one_located_error(tmp_path: Path, game, name, kind, value, words):
    root, line = bundled_with_constant(tmp_path, game, name, value)
    errors = [e for e in vr.validate(root) if not e.warning]
    assert len(errors) == 1, [e.line() for e in errors]
    [error] = errors
    assert error.code == "rules/constant" and isinstance(error, vr.ConstantError)
    assert error.location.file.endswith("game.yaml") and error.location.line == line
    assert f"constant {name!r} is " in error.message
    # told against the constant's own declaration when it has one, else against the module's kind
    declared = f"(bound constants.{name}." in error.message
    assert declared or (words in error.message and error.message.endswith(f"a game module reads it as {kind.value}"))


def test_a_misspelt_track_says_which_was_meant(tmp_path: Path):
    root, _ = bundled_with_constant(tmp_path, "venedig", "gondola_track", "gondla")
    [error] = vr.validate(root)
    assert "(did you mean 'gondola'?)" in error.message


def test_a_variant_naming_no_track_is_told_at_its_own_line(tmp_path: Path):
    """The variant keeps the base's type (a string), so only the kind check sees it."""
    variant = tmp_path / "wrong_track.yaml"
    variant.write_text(
        "extends: rialto\nid: wrong_track\ntitle: Wrong track\n"
        "overlay:\n  game:\n    constants:\n      doge_track: {value: dodge}\n",
        encoding="utf-8",
    )
    [error] = vr.validate(variant)
    assert error.code == "rules/constant"
    assert Path(error.location.file).name == "wrong_track.yaml" and error.location.line == 7
    assert re.search(
        r"'dodge', which is no track of board\.yaml \(did you mean 'doge'\?\)", error.message.replace('"', "'")
    )


def test_a_per_player_count_value_is_located_at_its_count(tmp_path: Path):
    root, line = bundled_copy_with(
        tmp_path, "venedig", "value: 1", "by_players: {2: 1, 3: one, 4: 1, 5: 1}", "  draw_single:"
    )
    [error] = vr.validate(root)
    assert error.code == "rules/constant" and '"one" (a string)' in error.message
    assert error.location.line == line


def test_a_constant_the_dsl_reads_too_is_told_once_at_its_line(tmp_path: Path):
    """hand_limit is read by a module and by DSL programs (``repeat hand_limit``): the
    programs do not repeat the mistake at each use."""
    root, line = bundled_with_constant(tmp_path, "venedig", "hand_limit", "five")
    [error] = vr.validate(root)
    assert error.code == "rules/constant" and error.location.line == line


def test_a_constant_only_the_dsl_reads_is_typed_by_its_value(tmp_path: Path):
    """The DSL checks knew every constant as 'any' (they saw its declaration, not its value):
    ``hand_size: five`` validated and failed in play."""
    root = tmp_path / "lagoon"
    shutil.copytree(TESTS / "rulesets" / "lagoon", root)
    game = root / "game.yaml"
    game.write_text(
        game.read_text(encoding="utf-8").replace("  hand_size: 3\n", "  hand_size: five\n"), encoding="utf-8"
    )
    [error] = vr.validate(root)
    assert error.code == "dsl/type" and "the count of 'repeat' should be int, not str" in error.message


def test_a_module_kind_is_checked_where_the_data_declares_nothing(tmp_path: Path):
    """gondola_track declares no bound of its own: the module's kind (a track) finds it."""
    root, line = bundled_with_constant(tmp_path, "venedig", "gondola_track", "7")
    [error] = vr.validate(root)
    assert error.location.line == line
    assert (
        error.message
        == "constant 'gondola_track' is 7 (a whole number); a game module reads it as the id of a track of board.yaml"
    )


def test_a_by_players_table_of_mixed_types_is_told_at_the_odd_count(tmp_path: Path):
    root, line = bundled_copy_with(tmp_path, "rialto", '"3": [1, 2, 3]', '"3": five', "  start_coins:")
    [error] = vr.validate(root)
    assert error.code == "rules/constant" and error.location.line == line
    assert error.message == (
        "constant 'start_coins' is \"five\" (a string) for 3 players; its other player counts give a list ([1, 2])"
    )


def test_a_module_declaring_names_only_reads_any_value():
    registry = Registry(constants_read=frozenset({"tide", "moon"}))
    assert registry.constant_kinds == {"moon": ConstantKind.ANY, "tide": ConstantKind.ANY}
    both = registry.extend(Registry(constants_read={"tide": ConstantKind.COUNT}))
    assert both.constant_kinds == {"moon": ConstantKind.ANY, "tide": ConstantKind.COUNT}
