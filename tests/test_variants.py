"""Variant overlays: merge patch for mappings, patch by id for id lists, located errors."""

from __future__ import annotations

from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data.variants import merge
from venedig_rules.data.yamlsource import loads
from venedig_rules.limits import MAX_VARIANT_CHAIN

LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
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
    # the overlay's own problems first (its shape), the merged ruleset's once it has none
    assert got == [("rules/schema", "bad.yaml", 7, 31)]  # count -1
    variant.write_text(variant.read_text().replace("count: -1", "count: 1"))
    with pytest.raises(vr.InvalidRulesError) as info:
        vr.load(variant)
    got = sorted((e.code, Path(e.location.file).name, e.location.line, e.location.column) for e in info.value.errors)
    assert ("rules/reference", "bad.yaml", 7, 40) in got  # type silver


def test_variants_chain_and_apply_in_order(tiny: Path, tmp_path: Path):
    first = tmp_path / "first.yaml"
    first.write_text(f"extends: {tiny}\nid: first\ntitle: F\noverlay: {{game: {{constants: {{hand_limit: 6}}}}}}\n")
    second = tmp_path / "second.yaml"
    second.write_text("extends: first.yaml\nid: second\ntitle: S\noverlay: {game: {constants: {hand_limit: 8}}}\n")
    rules = vr.load(second)
    assert rules.constant("hand_limit") == 8
    assert rules.variants == ("first", "second")


def _errors(path: Path, **kwargs) -> list[tuple[str, str, int, int, str]]:
    """(code, file name, line, column, message) of every problem loading ``path`` reports."""
    with pytest.raises(vr.InvalidRulesError) as info:
        vr.load(path, **kwargs)
    return [
        (e.code, Path(e.location.file).name, e.location.line, e.location.column, e.message) for e in info.value.errors
    ]


def test_a_variant_that_extends_itself_is_a_located_variant_error(tmp_path: Path):
    loop = tmp_path / "loop.yaml"
    loop.write_text("id: loop\ntitle: L\nextends: loop.yaml\n")
    [(code, file, line, column, message)] = _errors(loop)
    assert (code, file, line, column) == ("rules/variant", "loop.yaml", 3, 10)
    assert "leads back to this variant" in message


def test_variants_that_extend_each_other_in_a_circle_are_refused_where_the_circle_closes(tmp_path: Path):
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\ntitle: A\n")
    (tmp_path / "b.yaml").write_text("extends: a.yaml\nid: b\ntitle: B\n")
    assert [e[:4] for e in _errors(tmp_path / "a.yaml")] == [("rules/variant", "b.yaml", 1, 10)]


def test_a_circle_under_a_variant_with_an_overlay_is_the_one_error(tmp_path: Path):
    # (found by the fuzz suite: the overlay, merged onto no base, was checked against the
    # schemas and reported at <unknown>)
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\ntitle: A\noverlay:\n  cards: {}\n")
    (tmp_path / "b.yaml").write_text("extends: b.yaml\nid: b\ntitle: B\n")
    assert [e[:4] for e in _errors(tmp_path / "a.yaml")] == [("rules/variant", "b.yaml", 1, 10)]


@pytest.mark.parametrize(("extends", "line", "column"), [("extends: ''\n", 1, 10), ("extends: 5\n", 1, 10), ("", 1, 1)])
def test_a_base_variant_without_a_base_under_a_variant_with_an_overlay_is_the_one_error(
    tmp_path: Path, extends: str, line: int, column: int
):
    # (found by the fuzz suite: the overlay, merged onto no base, was checked against the
    # schemas and reported at <unknown>, as in the circle above)
    (tmp_path / "a.yaml").write_text("extends: b.yaml\nid: a\ntitle: A\noverlay:\n  components: {}\n")
    (tmp_path / "b.yaml").write_text(f"{extends}id: b\ntitle: B\n")
    assert [e[:4] for e in _errors(tmp_path / "a.yaml")] == [("rules/schema", "b.yaml", line, column)]


def test_a_long_chain_of_variants_is_refused(tmp_path: Path):
    for n in range(MAX_VARIANT_CHAIN + 1):
        (tmp_path / f"v{n}.yaml").write_text(f"extends: v{n + 1}.yaml\nid: v{n}\ntitle: V\n")
    [(code, *_, message)] = _errors(tmp_path / "v0.yaml")
    assert code == "rules/variant" and "in a row" in message


def test_extends_naming_a_folder_that_is_no_ruleset_is_a_located_variant_error(tmp_path: Path):
    (tmp_path / "empty").mkdir()
    variant = tmp_path / "v.yaml"
    variant.write_text("extends: empty\nid: v\ntitle: V\n")
    [(code, file, line, column, message)] = _errors(variant)
    assert (code, file, line, column) == ("rules/variant", "v.yaml", 1, 10)
    assert "no ruleset" in message


@pytest.mark.parametrize("extends", ["../../etc/passwd", "/etc/passwd", "/proc/self/environ", "../outside", "/nope"])
def test_extends_may_not_leave_the_variants_folder_and_says_nothing_of_what_is_there(tmp_path: Path, extends: str):
    home = tmp_path / "uploads" / "user"
    home.mkdir(parents=True)
    (tmp_path / "uploads" / "outside").mkdir()
    (tmp_path / "uploads" / "outside" / "game.yaml").write_text("secret_key: 1\n")
    variant = home / "v.yaml"
    variant.write_text(f"extends: {extends!r}\nid: v\ntitle: V\n")
    [(code, file, line, column, message)] = _errors(variant)
    assert (code, file, line, column) == ("rules/variant", "v.yaml", 1, 10)
    assert "outside the variant's folder" in message
    assert "secret_key" not in message and "root" not in message and str(tmp_path) not in message


def test_a_link_out_of_the_variants_folder_is_refused_too(tmp_path: Path, tiny: Path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "base").symlink_to(tiny)
    variant = home / "v.yaml"
    variant.write_text("extends: base\nid: v\ntitle: V\n")
    assert "outside the variant's folder" in _errors(variant)[0][4]
    assert vr.load(variant, allow_extends=[tiny]).name == "tiny+v"


def test_allow_extends_trusts_more_folders(tmp_path: Path):
    variant = tmp_path / "deeper.yaml"
    variant.write_text(f"extends: {LAGOON}\nid: deeper\ntitle: Deeper\n")
    assert "outside the variant's folder" in _errors(variant)[0][4]
    assert vr.load(variant, allow_extends=[LAGOON.parent]).name == "lagoon+deeper"


def test_a_variant_in_a_rulesets_variants_folder_may_extend_its_ruleset(tiny: Path):
    assert vr.load(tiny / "variants" / "more_huts.yaml").name == "tiny+more_huts"


def test_a_rule_file_that_links_out_of_its_folder_is_refused(tiny: Path, tmp_path: Path):
    (tmp_path / "elsewhere.yaml").write_text("secret: 1\n")
    (tiny / "scoring.yaml").unlink()
    (tiny / "scoring.yaml").symlink_to(tmp_path / "elsewhere.yaml")
    [(code, file, *_, message)] = _errors(tiny)
    assert (code, file) == ("rules/file", "scoring.yaml") and "outside its folder" in message


@pytest.mark.parametrize(
    "overlay, message",
    [
        ("overlay: [1, 2]", "should be a mapping"),
        ("overlay: {cards: {cards: [{remove: [gold_one, gold_two]}]}}", "'remove' needs the id of an item"),
        ("overlay: {cards: {cards: [{id: [gold_one, gold_two], count: 1}]}}", "'id' needs the id of an item"),
        ("overlay: {cards: {cards: [{id: {a: 1}, count: 1}]}}", "'id' needs the id of an item"),
        ("overlay: {cards: {cards: [{add: {id: [x], count: 1}}]}}", "'add' needs a mapping with an 'id'"),
        ("overlay: {cards: {cards: [{add: 5}]}}", "'add' needs a mapping with an 'id'"),
        ("overlay: {cards: [1, 2]}", "should be a mapping"),
        ("overlay: {cards: 7}", "should be a mapping"),
    ],
)
def test_overlays_of_the_wrong_shape_are_located_errors(tiny: Path, overlay: str, message: str):
    variant = tiny / "variants" / "odd.yaml"
    variant.write_text(f"extends: ..\nid: odd\ntitle: Odd\n{overlay}\n")
    errors = _errors(variant)
    assert any(message in e[4] and e[1] == "odd.yaml" and e[2] == 4 for e in errors), errors


def test_an_empty_variant_file_is_named_in_its_error(tmp_path: Path):
    variant = tmp_path / "empty.yaml"
    variant.write_text("# nothing yet\n")
    assert [e[:4] for e in _errors(variant)] == [("rules/variant", "empty.yaml", 0, 0)]


def test_unknown_variant_name_suggests_the_closest():
    with pytest.raises(vr.UnknownRulesetError, match="did you mean 'short_rules_end'"):
        vr.load("venedig", variants=["short_rule_end"])
