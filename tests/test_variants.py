"""Variant overlays: merge patch for mappings, patch by id for id lists, located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data.variants import merge
from venedig_rules.data.yamlsource import loads

BASE = """\
game:
  players: {min: 2, max: 5}
  constants: {hand_limit: 5, drain: 2}
cards:
  - {id: casa, count: 10, params: {cards: 1, spaces: 1}}
  - {id: palazzo, count: 8}
"""


def _merge(overlay: str):
    base = loads(BASE, "base.yaml")
    over = loads(overlay, "over.yaml")
    return merge(base.data, base.positions, over.data, over.positions)


def test_mappings_merge_key_by_key():
    m = _merge("game: {constants: {hand_limit: 6}}")
    assert m.data["game"] == {"players": {"min": 2, "max": 5}, "constants": {"hand_limit": 6, "drain": 2}}


def test_null_removes_a_key():
    m = _merge("game: {constants: {drain: null}}")
    assert m.data["game"]["constants"] == {"hand_limit": 5}


def test_removing_a_missing_key_is_an_error_in_the_overlay():
    m = _merge("game: {constants: {drian: null}}")
    assert [(e.code, e.location.file, e.location.line) for e in m.errors] == [("rules/variant", "over.yaml", 1)]
    assert "did you mean 'drain'" in m.errors[0].message


def test_patch_by_id_changes_one_field_of_one_item():
    m = _merge("cards: [{id: casa, count: 9}]")
    assert m.data["cards"] == [
        {"id": "casa", "count": 9, "params": {"cards": 1, "spaces": 1}},
        {"id": "palazzo", "count": 8},
    ]


def test_patch_by_id_merges_nested_mappings():
    m = _merge("cards: [{id: casa, params: {spaces: 2}}]")
    assert m.data["cards"][0]["params"] == {"cards": 1, "spaces": 2}


def test_add_and_remove_items_by_id():
    m = _merge("cards: [{remove: palazzo}, {add: {id: campo, count: 6}}]")
    assert [c["id"] for c in m.data["cards"]] == ["casa", "campo"]
    assert m.positions.at("/cards/1/count").file == "over.yaml"
    assert m.positions.at("/cards/0/count").file == "base.yaml"


@pytest.mark.parametrize(
    "overlay, message",
    [
        ("cards: [{id: palazo, count: 1}]", "patches 'palazo', which the base does not have (did you mean 'palazzo'?)"),
        ("cards: [{remove: cassa}]", "removes 'cassa', which the base does not have (did you mean 'casa'?)"),
        ("cards: [{add: {id: casa, count: 1}}]", "adds 'casa', which the base already has"),
    ],
)
def test_bad_id_patches_are_located_in_the_overlay(overlay, message):
    m = _merge(overlay)
    assert len(m.errors) == 1 and message in m.errors[0].message
    assert m.errors[0].location.file == "over.yaml"


def test_a_list_that_is_not_an_id_patch_replaces_the_base_list():
    m = _merge("cards: [1, 2]")
    assert m.data["cards"] == [1, 2]


def test_merge_leaves_its_inputs_alone():
    base = loads(BASE, "base.yaml")
    before = repr(base.data)
    over = loads("cards: [{id: casa, count: 1}, {remove: palazzo}]", "over.yaml")
    merge(base.data, base.positions, over.data, over.positions)
    assert repr(base.data) == before


def test_bundled_variant_by_name_changes_the_rules_hash():
    base = vr.load("venedig")
    two = vr.load("venedig", variants=["no_imaginary_player"])
    assert two.variants == ("no_imaginary_player",)
    assert two.name == "venedig+no_imaginary_player"
    assert two.rules_hash != base.rules_hash
    assert two.players == range(2, 3)


def test_variant_file_with_extends_loads_by_path(tiny: Path):
    rules = vr.load(tiny / "variants" / "more_huts.yaml")
    assert rules.items("buildings")[0]["count"] == 3
    assert rules.variants == ("more_huts",)


def test_variant_folder_with_one_overlay_file_per_kind(tiny: Path, tmp_path: Path):
    folder = tmp_path / "cheap"
    folder.mkdir()
    (folder / "variant.yaml").write_text(f"extends: {tiny}\nid: cheap\ntitle: Cheap\n")
    (folder / "game.yaml").write_text("constants: {hand_limit: 7}\n")
    rules = vr.load(folder)
    assert rules.constant("hand_limit") == 7
    assert rules.name == "tiny+cheap"


def test_errors_in_an_overlay_point_into_the_overlay_file(tiny: Path, tmp_path: Path):
    variant = tmp_path / "bad.yaml"
    variant.write_text(
        f"extends: {tiny}\nid: bad\ntitle: Bad\noverlay:\n  cards:\n    cards:\n"
        "      - {id: gold_one, count: -1, type: silver}\n"
    )
    with pytest.raises(vr.InvalidRulesError) as info:
        vr.load(variant)
    got = sorted((e.code, Path(e.location.file).name, e.location.line, e.location.column) for e in info.value.errors)
    assert ("rules/schema", "bad.yaml", 7, 31) in got  # count -1
    assert ("rules/reference", "bad.yaml", 7, 41) in got  # type silver


def test_variants_chain_and_apply_in_order(tiny: Path, tmp_path: Path):
    first = tmp_path / "first.yaml"
    first.write_text(f"extends: {tiny}\nid: first\ntitle: F\noverlay: {{game: {{constants: {{hand_limit: 6}}}}}}\n")
    second = tmp_path / "second.yaml"
    second.write_text("extends: first.yaml\nid: second\ntitle: S\noverlay: {game: {constants: {hand_limit: 8}}}\n")
    rules = vr.load(second)
    assert rules.constant("hand_limit") == 8
    assert rules.variants == ("first", "second")


def test_a_variant_that_extends_itself_is_refused(tmp_path: Path):
    loop = tmp_path / "loop.yaml"
    loop.write_text("extends: loop.yaml\nid: loop\ntitle: L\n")
    with pytest.raises(vr.UnknownRulesetError, match="extends itself"):
        vr.load(loop)


def test_unknown_variant_name_suggests_the_closest():
    with pytest.raises(vr.UnknownRulesetError, match="did you mean 'short_rules_end'"):
        vr.load("venedig", variants=["short_rule_end"])
