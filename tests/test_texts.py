"""Texts and declarations as rule data: value types, templates, and the located checks of
texts.yaml and of game.yaml decisions and events (docs/rule-data.md, "Decisions and
events" and "Texts")."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
import yaml

import venedig_rules as vr
from venedig_rules.data.resources import rules_root
from venedig_rules.data.templates import TemplateError, parse_template
from venedig_rules.data.texts import languages
from venedig_rules.data.valuetypes import Ids, TypeSpecError, fits, parse_type, resolve

IDS = Ids({"space": frozenset({"a1", "b1"}), "card": frozenset({"casa_card"}), "building": frozenset({"casa"})})


# -- value types -------------------------------------------------------------------------------
@pytest.mark.parametrize(
    "spec,shown",
    [
        ("space", "space"),
        ({"list": "card"}, "list of card"),
        (["building", {"word": ["alone", "joint"]}], "[building, word (alone, joint)]"),
        ({"one_of": ["player", "word"]}, "one of player | word"),
        ({"per_player": "number"}, "number per player"),
    ],
)
def test_a_type_is_an_id_kind_a_plain_kind_or_a_form(spec, shown):
    assert str(parse_type(spec)) == shown


@pytest.mark.parametrize(
    "spec,message,path",
    [
        ("spce", "unknown type 'spce' (did you mean 'space'?)", ""),
        ({"list": "crad"}, "unknown type 'crad' (did you mean 'card'?)", "/list"),
        ({"one_of": ["player"]}, "one_of takes a list of at least two types", "/one_of"),
        ({"word": []}, "word takes a list of the words it may be", "/word"),
        ([], "an empty list names no type", ""),
        (3, "3 is not a type", ""),
    ],
)
def test_a_type_written_wrongly_says_what_and_where_inside_it(spec, message, path):
    with pytest.raises(TypeSpecError) as info:
        parse_type(spec)
    assert message in info.value.message and info.value.path == path


def test_values_fit_their_types_and_one_of_takes_the_first_that_fits():
    assert fits(parse_type({"list": "space"}), ("a1", "b1"), IDS)
    assert not fits(parse_type({"list": "space"}), ("a1", "z9"), IDS)
    assert fits(parse_type(["building", {"word": ["alone"]}]), ["casa", "alone"], IDS)
    assert not fits(parse_type("player"), 3, IDS, players=3) and fits(parse_type("player"), 2, IDS, players=3)
    assert not fits(parse_type("number"), True, IDS)  # a bool is no number
    either = parse_type({"one_of": ["player", "word"]})
    assert resolve(either, 1, IDS).kind == "player" and resolve(either, "imaginary", IDS).kind == "word"


# -- templates ---------------------------------------------------------------------------------
def test_a_template_has_fields_list_items_formats_and_escaped_braces():
    t = parse_template("{player} takes {value.1:a} ({{really}}) of {n:of=card}")
    assert [(p.field, p.path, p.format, p.arg) for p in t.placeholders] == [
        ("player", (), None, None),
        ("value", (1,), "a", None),
        ("n", (), "of", "card"),
    ]
    assert t.fill(lambda p: p.field.upper()) == "PLAYER takes VALUE ({really}) of N"


@pytest.mark.parametrize("text,offset", [("{player", 0), ("a } b", 2), ("x {Player}", 2), ("{a b}", 0)])
def test_a_malformed_template_is_refused_with_its_offset(text, offset):
    with pytest.raises(TemplateError) as info:
        parse_template(text)
    assert info.value.offset == offset


# -- the bundled texts ---------------------------------------------------------------------------
@pytest.mark.parametrize("game", ["venedig", "rialto", "saeulen"])
def test_every_bundled_game_speaks_english_and_german(game):
    tables = languages(vr.load(game).data)
    assert set(tables) == {"en", "de"}
    assert set(tables["en"].decisions) == set(tables["de"].decisions) == set(vr.load(game).data["game"]["decisions"])


def test_the_german_of_saeulen_is_marked_assumed_and_that_of_the_others_sourced():
    for game, provenance in (("saeulen", "assumed"), ("venedig", "source"), ("rialto", "source")):
        de = yaml.safe_load((rules_root() / game / "texts.yaml").read_text())["languages"]["de"]
        assert de["provenance"] == provenance


# -- located checks ----------------------------------------------------------------------------
def venedig_copy(tmp_path: Path, **edits: tuple[str, str]) -> Path:
    """A copy of the bundled venedig ruleset with one text replacement per file."""
    target = tmp_path / "venedig"
    shutil.copytree(rules_root() / "venedig", target, ignore=shutil.ignore_patterns("variants"))
    for kind, (old, new) in edits.items():
        path = target / f"{kind}.yaml"
        text = path.read_text(encoding="utf-8")
        assert text.count(old) == 1, f"{old!r} should occur once in {path.name}"
        path.write_text(text.replace(old, new), encoding="utf-8")
    return target


def errors_of(root: Path) -> list[tuple[str, str, int, str]]:
    return [(e.code, Path(e.location.file).name, e.location.line, e.message) for e in vr.validate(root)]


def line_of(path: Path, text: str) -> int:
    lines = path.read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_a_decision_without_its_german_texts_is_located_at_the_german_table(tmp_path):
    root = venedig_copy(tmp_path, texts=("          pile: Eine Karte vom Nachziehstapel ziehen\n", ""))
    [(code, file, line, message)] = errors_of(root)
    assert (code, file) == ("rules/text-missing", "texts.yaml")  # a warning: German falls back to English
    assert message.startswith("the option text of decision 'draw' has no German (de) text for 'pile'")
    german = (root / "texts.yaml").read_text(encoding="utf-8").splitlines()
    assert german[line - 1].strip() == "option:" and line > line_of(root / "texts.yaml", "  de:")
    tables = languages(vr.load(root).data)
    assert tables["de"].decisions["draw"].option_for(["pile"]) == tables["en"].decisions["draw"].option_for(["pile"])
    assert tables["de"].decisions["draw"].option_for(["pool", "x"]).text.startswith("{value.1:a} aus der Ablage")


def test_a_text_the_first_language_lacks_is_an_error_with_no_fallback(tmp_path):
    root = venedig_copy(tmp_path, texts=("          pile: Draw a card from the draw pile\n", ""))
    [(code, file, _, message)] = errors_of(root)
    assert (code, file) == ("rules/text", "texts.yaml")
    assert message.startswith("the option text of decision 'draw' has no English (en) text for 'pile'")


def test_a_missing_german_name_is_located_at_the_item(tmp_path):
    root = venedig_copy(
        tmp_path,
        texts=(
            "        ponte: {one: Ponte, other: Ponti, gender: f}\n      tile:\n        swamp_0: {one: Sumpf",
            "      tile:\n        swamp_0: {one: Sumpf",
        ),
    )
    [(code, file, line, message)] = errors_of(root)
    assert (code, file, line) == (
        "rules/text-missing",
        "buildings.yaml",
        line_of(root / "buildings.yaml", "id: ponte"),
    )
    assert message.startswith("building 'ponte' has no German (de) name; expected languages/de/names/building/ponte")
    assert languages(vr.load(root).data)["de"].names["building"]["ponte"].one == "Ponte"  # the English name


def test_an_event_without_its_german_sentence_is_told_in_english_with_a_warning_at_its_declaration(tmp_path):
    root = venedig_copy(tmp_path, texts=('      drain: "{player} legt {space} trocken"\n', ""))
    [(code, file, line, message)] = errors_of(root)
    assert (code, file, line) == ("rules/text-missing", "game.yaml", line_of(root / "game.yaml", "  drain: {fields"))
    assert message.startswith("event 'drain' has no German (de) sentence")
    game = vr.load(root).new_game(players=3, seed=7).apply("p0 pass").apply("p0 pass").apply("p0 drain(k8)")
    said = [e["text"] for e in game.view(1, lang="de")["events"] if e["type"] == "drain"]
    assert said == ["p0 drains K8"]


def test_a_template_naming_an_unknown_field_is_located_inside_it_with_did_you_mean(tmp_path):
    root = venedig_copy(
        tmp_path, texts=('      drain: "{player} drains {space}"', '      drain: "{player} drains {spcae}"')
    )
    [(code, file, line, message)] = errors_of(root)
    assert (code, file, line) == ("rules/text", "texts.yaml", line_of(root / "texts.yaml", "drains {spcae}"))
    assert "names field 'spcae', which it does not have (did you mean 'space'?); fields: player, space, to" in message


def test_a_format_that_does_not_fit_its_field_is_refused(tmp_path):
    root = venedig_copy(tmp_path, texts=("        option: Drain {value}", "        option: Drain {value:count}"))
    [(code, _, _, message)] = errors_of(root)
    assert code == "rules/text" and "formats 'value' (space) as a list, which it is not" in message


def test_an_undeclared_decision_label_is_refused_with_did_you_mean(tmp_path):
    root = venedig_copy(tmp_path, game=('as "drain" or pass', 'as "drian" or pass'))
    found = errors_of(root)
    assert ("rules/declaration", "game.yaml") in {(c, f) for c, f, _, _ in found}
    assert any(
        "decision 'drian' is not declared in game.yaml decisions (did you mean 'drain'?)" in m for *_, m in found
    )


def test_an_event_field_not_declared_is_refused(tmp_path):
    root = venedig_copy(tmp_path, game=('event("drain", player: p, space: s)', 'event("drain", player: p, spot: s)'))
    found = errors_of(root)
    assert any(
        c == "rules/declaration"
        and "event 'drain' has field 'spot', which game.yaml events/drain/fields does not declare" in m
        for c, _, _, m in found
    )


def test_an_event_field_may_not_be_called_text(tmp_path):
    root = venedig_copy(
        tmp_path,
        game=(
            "  drain: {fields: {player: player, space: space}}",
            "  drain: {fields: {player: player, space: space, text: text}}",
        ),
    )
    assert any("declares a field 'text', which every event has already" in m for *_, m in errors_of(root))


def test_a_context_name_that_is_no_local_where_the_decision_is_made_is_refused(tmp_path):
    root = venedig_copy(tmp_path, game=("    context: {b: building}", "    context: {b: building, building: building}"))
    [(code, file, line, message)] = errors_of(root)
    assert (code, file, line) == ("rules/declaration", "game.yaml", line_of(root / "game.yaml", 'as "site"'))
    assert message.startswith("decision 'site' declares context 'building', which is no local where it is made")


def test_a_word_of_an_option_type_needs_its_text_in_every_language(tmp_path):
    root = venedig_copy(
        tmp_path,
        game=("value: [building, {word: [alone, joint]}]", "value: [building, {word: [alone, joint, shared]}]"),
    )
    found = errors_of(root)
    assert {(c, m) for c, _, _, m in found} >= {
        ("rules/text", "word 'shared' has no English (en) text; expected it under languages/en/words in texts.yaml"),
        (
            "rules/text-missing",
            "word 'shared' has no German (de) text; expected it under languages/de/words in texts.yaml",
        ),
    }


def test_an_entry_one_language_has_every_other_needs(tmp_path):
    root = venedig_copy(
        tmp_path, texts=("      step: {one: movement point", "      stride: long\n      step: {one: movement point")
    )
    [(code, _, _, message)] = errors_of(root)
    assert code == "rules/text-missing"
    assert message.startswith("words/stride has a English (en) text but no German (de) one")
    german = venedig_copy(
        tmp_path / "de",
        texts=("      step: {one: Bewegungspunkt", "      stride: lang\n      step: {one: Bewegungspunkt"),
    )
    [(code, _, _, message)] = errors_of(german)  # the first language lacks it: nothing to fall back to
    assert code == "rules/text" and message.startswith("words/stride has a German (de) text but no English (en) one")


def test_a_ruleset_in_a_language_without_engine_defaults_must_give_them(tmp_path):
    root = venedig_copy(tmp_path, texts=("  de:\n    name: Deutsch\n", "  fr:\n    name: Français\n"))
    assert any("has no default engine texts" in m for *_, m in errors_of(root))


# -- a variant changes any text, with no code ----------------------------------------------------
def test_a_variant_changes_a_prompt_and_a_name_without_code(tmp_path):
    variant = tmp_path / "reworded.yaml"
    variant.write_text(
        "extends: venedig\nid: reworded\ntitle: Reworded\noverlay:\n  texts:\n    languages:\n"
        "      en:\n        decisions:\n          play: {prompt: Which cards now?}\n"
        "        names:\n          card:\n            basilica_card: {one: church card, other: church cards}\n"
        "      de:\n        decisions:\n          play: {prompt: Welche Karten jetzt?}\n",
        encoding="utf-8",
    )
    game = vr.load(variant).new_game(players=3, seed=7).apply("p0 pass")  # no exchange: on to laying out
    assert game.decision(0)["prompt"] == "Which cards now?"
    assert game.decision(0)["options"][0]["text"] == "Lay out 1 church card"
    assert game.decision(0, lang="de")["prompt"] == "Welche Karten jetzt?"
    assert vr.load(variant).rules_hash != vr.load("venedig").rules_hash


def test_the_engine_texts_every_ruleset_shares_fit_their_schema_and_fields():
    from venedig_rules.data import schema
    from venedig_rules.data.templates import parse_template
    from venedig_rules.data.texts import ENGINE_FIELDS, FORMATS
    from venedig_rules.data.yamlsource import load

    source = load(rules_root() / "texts.yaml")
    assert schema.validate("texts", source.data, source.positions) == []
    for code in ("en", "de"):
        engine = source.data["languages"][code]["engine"]
        assert set(engine) == set(ENGINE_FIELDS), code
        for key, text in engine.items():
            for p in parse_template(text).placeholders:
                assert p.field in ENGINE_FIELDS[key] and (p.format is None or p.format in FORMATS), (code, key)
