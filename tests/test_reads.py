"""Every game constant and item param a ruleset declares is read by its rules (issue 10:
"Data that looks configurable must be: the rules read it, or it is not in the data")."""

from __future__ import annotations

import ast
import importlib
import inspect
import shutil
from pathlib import Path

import pytest
import yaml

import venedig_rules as vr
from conftest import TESTS

GAMES = ("venedig", "saeulen", "rialto")
LAGOON = TESTS / "rulesets" / "lagoon"

#: String literals of a game module that name a declared datum but are no read of it.
NOT_READS = {"rialto": {"side"}}  # rialto.py reads the board regions' "side", not the bonus tiles' param


def _lagoon(tmp_path: Path) -> Path:
    root = tmp_path / "lagoon"
    shutil.copytree(LAGOON, root)
    return root


def _unread(errors: list[vr.RulesError]) -> list[vr.RulesError]:
    return [e for e in errors if e.code == "rules/unread"]


def test_bundled_rulesets_read_everything_they_declare():
    for game in GAMES:
        assert vr.validate(game) == []


def test_a_constant_nothing_reads_is_a_located_error(tmp_path: Path):
    root = _lagoon(tmp_path)
    text = (root / "game.yaml").read_text()
    (root / "game.yaml").write_text(text.replace("  hand_size: 3\n", "  hand_size: 3\n  tide_height: 4\n", 1))
    [error] = _unread(vr.validate(root))
    assert error.location.file.endswith("game.yaml") and error.location.line == 10
    assert "constant 'tide_height' is read by no rule" in error.message


def test_a_param_nothing_reads_is_a_located_error(tmp_path: Path):
    root = _lagoon(tmp_path)
    game = root / "game.yaml"
    text = game.read_text()
    game.write_text(text.replace("    value: {type", "    shine: {type: integer, default: 0}\n    value: {type", 1))
    [error] = _unread(vr.validate(root))
    assert error.location.line == 17 and "param 'shine' of cards is read by no rule" in error.message


def test_a_misspelt_constant_in_an_overlay_is_reported_at_the_overlay_line(tmp_path: Path):
    root = _lagoon(tmp_path)
    variant = tmp_path / "bigger_hands.yaml"
    variant.write_text(
        f"extends: {root}\nid: bigger_hands\ntitle: Bigger hands\n"
        "overlay:\n  game:\n    constants:\n      hand_sise: 5\n"
    )
    [error] = _unread(vr.validate(variant))
    assert Path(error.location.file).name == "bigger_hands.yaml" and error.location.line == 7
    assert "constant 'hand_sise' is read by no rule" in error.message
    assert "(did you mean 'hand_size'?)" in error.message


def test_a_param_for_people_only_says_so(tmp_path: Path):
    root = _lagoon(tmp_path)
    game = root / "game.yaml"
    text = game.read_text()
    shine = "    shine: {type: string, default: none, read_by: people}\n"
    game.write_text(text.replace("    value: {type", shine + "    value: {type", 1))
    assert _unread(vr.validate(root)) == []


@pytest.mark.parametrize("game", GAMES)
def test_game_module_declares_exactly_the_data_its_source_reads(game: str):
    """Each string literal of the module's source that names a constant or param of the
    ruleset is a read the module must declare; each declared name is in the source."""
    module = importlib.import_module(f"venedig_rules.games.{game}")
    data = yaml.safe_load((Path(vr.__file__).parent.parent / "rules" / game / "game.yaml").read_text())
    constants = set(data.get("constants") or {})
    params = {name for declared in (data.get("parameters") or {}).values() for name in declared}
    literals = {
        node.value
        for node in ast.walk(ast.parse(inspect.getsource(module)))
        if isinstance(node, ast.Constant) and isinstance(node.value, str)
    } - NOT_READS.get(game, set())
    registry = module.PRIMITIVES
    assert set(registry.constant_kinds) == literals & constants
    assert registry.params_read == literals & params


def test_game_module_reads_count_for_the_check(tmp_path: Path):
    """Without the module's declaration its constants would be unread: the declaration is live."""
    module = importlib.import_module("venedig_rules.games.rialto")
    saved = module.PRIMITIVES.constants_read
    try:
        module.PRIMITIVES.constants_read = frozenset()
        errors = _unread(vr.validate("rialto"))
    finally:
        module.PRIMITIVES.constants_read = saved
    assert sorted(e.message.split("'")[1] for e in errors) == ["doge_track"]
