"""Loading rulesets: bundled ids, paths, every problem at once, rules_hash, the DSL hook."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data.resources import rules_root
from venedig_rules.errors import DslNameError, DslSyntaxError, DslTypeError


@pytest.mark.parametrize("name", vr.bundled())
def test_every_bundled_ruleset_loads(name):
    rules = vr.load(name)
    assert rules.id == name
    assert len(rules.rules_hash) == 64


@pytest.mark.parametrize("name, variant", [(n, v) for n in vr.bundled() for v in vr.bundled_variants(n)])
def test_every_bundled_variant_loads(name, variant):
    assert vr.load(name, variants=[variant]).variants == (variant,)


def test_the_three_games_are_bundled():
    assert vr.bundled() == ["rialto", "saeulen", "venedig"]


def test_rules_hash_is_stable_and_changes_with_any_datum(tiny: Path):
    first = vr.load(tiny).rules_hash
    assert vr.load(tiny).rules_hash == first
    text = (tiny / "cards.yaml").read_text().replace("count: 4", "count: 3")
    (tiny / "cards.yaml").write_text(text)
    (tiny / "components.yaml").write_text((tiny / "components.yaml").read_text().replace("count: 6", "count: 5"))
    assert vr.load(tiny).rules_hash != first


def test_comments_and_formatting_do_not_change_the_rules_hash(tiny: Path):
    first = vr.load(tiny).rules_hash
    (tiny / "cards.yaml").write_text((tiny / "cards.yaml").read_text() + "# a comment\n\n")
    assert vr.load(tiny).rules_hash == first


def test_one_load_reports_every_problem_in_every_file(tmp_path: Path):
    """A copy of a bundled ruleset with a misspelt key, an unknown reference and a duplicate key
    (the misspelt key is one too many, not a required key missing: a shape the schema refuses
    would stop the checks across files, which find the reference)."""
    copy = tmp_path / "venedig"
    shutil.copytree(rules_root() / "venedig", copy)
    components = (copy / "components.yaml").read_text()
    (copy / "components.yaml").write_text(components.replace("  - id: ", "  - nmae: x\n    id: ", 1))
    cards = (copy / "cards.yaml").read_text()
    (copy / "cards.yaml").write_text(cards.replace("building: palazzo", "building: palazo", 1))
    game = (copy / "game.yaml").read_text()
    (copy / "game.yaml").write_text(game.replace("\ntitle:", "\nid: again\ntitle:", 1))
    errors = vr.validate(copy)
    codes = {e.code for e in errors}
    assert {"rules/schema", "rules/reference", "rules/yaml"} <= codes
    by_code = {e.code: e for e in errors}
    assert "did you mean 'palazzo'" in str(by_code["rules/reference"])
    assert "unknown key 'nmae' (did you mean 'name'?)" in [e.message for e in errors]
    assert Path(by_code["rules/yaml"].location.file).name == "game.yaml"
    assert errors == sorted(errors, key=lambda e: e.sort_key())


def test_missing_game_file_is_reported(tiny: Path):
    (tiny / "game.yaml").unlink()
    errors = vr.validate(tiny)
    assert any(e.code == "rules/file" and "no game.yaml" in e.message for e in errors)


def test_unknown_ruleset_suggests_the_closest():
    with pytest.raises(vr.UnknownRulesetError, match="did you mean 'venedig'"):
        vr.load("venedg")
    assert issubclass(vr.UnknownRulesetError, LookupError)


def test_bundled_rules_load_from_any_working_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert vr.load("saeulen").id == "saeulen"


def test_constants_by_player_count(tiny: Path):
    rules = vr.load(tiny)
    assert rules.constant("coins", players=3) == [1, 2, 3]
    assert rules.constant("hand_limit") == 5
    with pytest.raises(KeyError, match="did you mean 'hand_limit'"):
        rules.constant("hand_limt")
    with pytest.raises(ValueError, match="player count"):
        rules.constant("coins")


# -- the DSL hook: every DSL string goes through the checker, with its location -----------
def fake_checker(text, ptr, positions, context):
    """Stands in for the effect DSL: flags 'oops' as a syntax error, 'nobody' as an unknown
    name and 'count(' without a closing argument as a type error."""
    found = []
    for word, cls in (("oops", DslSyntaxError), ("nobody", DslNameError), ("count()", DslTypeError)):
        if word in text:
            found.append(
                cls(
                    f"{word!r} in {context['list']} item {context['item']['id']!r}",
                    positions.in_scalar(ptr, text.index(word)),
                )
            )
    return found


def test_dsl_hook_sees_every_dsl_string_with_its_context(tiny: Path):
    seen = []
    vr.load(tiny, dsl_checker=lambda text, ptr, pm, ctx: seen.append((ptr, text)) or [])
    assert ("/buildings/buildings/0/points", "1") in seen
    assert ("/invariants/invariants/0/check", "count(cards) == 6") in seen


def test_dsl_problems_are_located_inside_the_yaml_scalar(tiny: Path):
    (tiny / "invariants.yaml").write_text(
        "invariants:\n"
        "  - id: a\n"
        "    check: |\n"
        "      count(cards) ==\n"
        "        oops\n"
        "    message: m\n"
        "  - {id: b, check: 'nobody > 1', message: m}\n"
        "  - {id: c, check: count() == 1, message: m}\n"
    )
    errors = vr.validate(tiny, dsl_checker=fake_checker)
    got = [(e.code, e.location.line, e.location.column) for e in errors]
    assert got == [("dsl/syntax", 5, 9), ("dsl/name", 7, 21), ("dsl/type", 8, 20)]
    assert isinstance(errors[2], TypeError)
