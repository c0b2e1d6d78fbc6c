"""Variant designers (issue 15): one typo in an overlay gives one error located in the overlay;
designers' overlays validate and play; every number they change is a datum that works alone;
new-variant, validate --play and describe --diff/--format json."""

from __future__ import annotations

import json
import random
from pathlib import Path

import pytest
import yaml
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

import venedig_rules as vr
from venedig_rules.cli import main
from venedig_rules.data import overlay_schema
from venedig_rules.data.resources import schemas_root

# -- helpers -----------------------------------------------------------------------------------


def write_variant(folder: Path, game: str, overlay: str, ident: str = "designer") -> Path:
    """A variant file extending bundled ``game``; ``overlay`` is the YAML under ``overlay:``."""
    path = folder / f"{ident}.yaml"
    body = "".join(f"  {line}\n" for line in overlay.strip("\n").splitlines())
    path.write_text(f"extends: {game}\nid: {ident}\ntitle: Designer\noverlay:\n{body}", encoding="utf-8")
    return path


def play_random(rules: vr.Ruleset, players: int, seed: int = 1) -> vr.Game:
    game = rules.new_game(players, seed)
    rng = random.Random(seed)
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    return game


# -- one typo, one error, in the overlay -------------------------------------------------------

#: A new scoring rule (its ``when`` on line 10 of a variant file it starts).
_SCORING_RULE = (
    "scoring:\n  rules:\n    - add:\n        id: extra\n        name: Extra\n"
    "        when: {when}\n        effect: '{effect}'\n"
)
#: The texts of a new decision ``bonus_pick`` with the words ``one`` and ``two``.
_DECISION_TEXTS = "texts:\n  languages:\n" + "".join(
    f"    {lang}:\n      decisions: {{bonus_pick: {{prompt: {prompt}, waiting: '{{player}}', option: '{{value}}'}}}}\n"
    f"      words: {{one: {one}, two: {two}}}\n"
    for lang, prompt, one, two in (("en", "Pick", "one", "two"), ("de", "Wählen", "eins", "zwei"))
)

#: (game, overlay with exactly one typo, the line of the overlay file the error must be on).
#: Line 5 is the first line under ``overlay:``.
ONE_TYPO = {
    "venedig-constant-key": ("venedig", "game:\n  constants:\n    hand_limit: {valeu: 6}", 7),
    "venedig-constant-type": ("venedig", "game:\n  constants:\n    hand_limit: {value: six}", 7),
    "venedig-building-id": ("venedig", 'buildings:\n  buildings:\n    - {id: basilca, points: "9"}', 7),
    "venedig-building-field": ("venedig", 'buildings:\n  buildings:\n    - {id: basilica, pionts: "9"}', 7),
    "venedig-count-type": ("venedig", 'buildings:\n  buildings:\n    - {id: basilica, count: "five"}', 7),
    "venedig-file-kind": ("venedig", 'buildngs:\n  buildings:\n    - {id: basilica, points: "9"}', 5),
    "venedig-dsl": ("venedig", 'buildings:\n  buildings:\n    - {id: basilica, points: "9 +"}', 7),
    "venedig-players-key": ("venedig", "game:\n  players: {mxa: 4}", 6),
    "saeulen-component-id": ("saeulen", "components:\n  components:\n    - {id: pilar, count: 70}", 7),
    "saeulen-constant-meta": (
        "saeulen",
        "game:\n  constants:\n    matching_edge_points: {value: 2, provenence: assumed}",
        7,
    ),
    "saeulen-added-card-key": (
        "saeulen",
        "components:\n  components:\n    - {id: action_card, count: 31}\ncards:\n  cards:\n"
        "    - add: {id: gondolier_p7, name: Gondolier, count: 1, componnet: action_card, type: gondolier}",
        10,
    ),
    "saeulen-added-card-uncounted": (
        "saeulen",
        "cards:\n  cards:\n"
        "    - add: {id: gondolier_p7, name: Gondolier, count: 1, component: action_card, type: gondolier}\n"
        "texts:\n  languages:\n    de:\n      names: {card: {gondolier_p7: Gondoliere}}",
        7,
    ),
    "saeulen-constant-float": ("saeulen", "game:\n  constants:\n    matching_edge_points: 2.5", 7),
    "saeulen-remove-id": ("saeulen", "cards:\n  cards:\n    - {remove: arsonst}", 7),
    "saeulen-pillars-unbalanced": ("saeulen", "components:\n  components:\n    - {id: pillar, count: 7000}", 7),
    "rialto-rounds-valeu": ("rialto", "game:\n  constants:\n    rounds: {valeu: 7}", 7),
    "rialto-maximun": (
        "rialto",
        "game:\n  parameters:\n    tiles:\n      end_a: {maximun: 7}\n"
        "tiles:\n  tiles:\n    - {id: bridge_6_3, params: {end_a: 7, end_b: 2}}",
        8,
    ),
    "rialto-bound-not-raised": ("rialto", "tiles:\n  tiles:\n    - {id: bridge_6_3, params: {end_a: 7, end_b: 2}}", 7),
    "rialto-rounds-alone": ("rialto", "game:\n  constants:\n    rounds: {value: 7}", 7),
    "rialto-round-list-alone": (
        "rialto",
        "game:\n  constants:\n    round_districts: {value: [1, 2, 3, 4, 5, 6, 1]}",
        7,
    ),
    "rialto-rounds-plain": ("rialto", "game:\n  constants:\n    rounds: 7", 7),
    # a misspelt when: the rule would silently never run (it reads no name of its trigger)
    "rialto-when-silent": (
        "rialto",
        _SCORING_RULE.format(when="gam_end", effect="for p in players { victory_points[p] += 1 }"),
        10,
    ),
    # ... and where it reads its trigger's names, no follow-on "unknown name" errors
    "rialto-when-context": (
        "rialto",
        _SCORING_RULE.format(when="councilman_plced", effect="victory_points[who] += 1"),
        10,
    ),
    "rialto-hands-visible": ("rialto", "game:\n  state:\n    hand:\n      visible: all", 8),
    "rialto-decision-no-action-space": (
        "rialto",
        "game:\n  decisions:\n    bonus_pick: {value: number, description: A bonus.}\n"
        + _SCORING_RULE.format(
            when="game_end",
            effect='for p in players { let n = choose p from [1, 2] as "bonus_pick"; victory_points[p] += n }',
        )
        + _DECISION_TEXTS,
        14,
    ),
}


@pytest.mark.parametrize("case", sorted(ONE_TYPO))
def test_one_typo_in_an_overlay_gives_one_error_located_in_the_overlay(tmp_path: Path, case: str):
    game, overlay, line = ONE_TYPO[case]
    path = write_variant(tmp_path, game, overlay)
    errors = vr.validate(path)
    assert len(errors) == 1, "\n".join(map(str, errors))
    (error,) = errors
    assert Path(error.location.file).resolve() == path.resolve(), str(error)
    assert error.location.line == line, str(error)


def test_a_misspelt_constant_name_gives_one_error_located_in_the_overlay(tmp_path: Path):
    path = write_variant(tmp_path, "venedig", "game:\n  constants:\n    hand_limt: {value: 6}")
    errors = vr.validate(path)
    assert len(errors) == 1 and Path(errors[0].location.file).resolve() == path.resolve()
    assert "hand_limit" in errors[0].message


def test_the_error_of_a_value_beyond_its_bound_names_where_the_bound_is_declared(tmp_path: Path):
    path = write_variant(tmp_path, "rialto", ONE_TYPO["rialto-bound-not-raised"][1])
    (error,) = vr.validate(path)
    assert "expected at most 6" in error.message
    assert "parameters.tiles.end_a.maximum at rules/rialto/game.yaml:" in error.message


def test_a_misspelt_when_names_the_trigger_it_meant(tmp_path: Path, capsys):
    path = write_variant(tmp_path, "rialto", ONE_TYPO["rialto-when-context"][1])
    (error,) = vr.validate(path)
    assert "did you mean 'councilman_placed'?" in error.message and "never run" in error.message
    assert error.warning and error.code == "rules/never-runs"  # it loads; --strict fails on it
    assert main(["validate", str(path)]) == 0 and main(["validate", str(path), "--strict"]) == 1


def test_a_visibility_change_that_leaks_names_the_base_line_where_it_leaks(tmp_path: Path):
    path = write_variant(tmp_path, "rialto", ONE_TYPO["rialto-hands-visible"][1])
    (error,) = vr.validate(path)
    assert error.code == "dsl/leak" and "'hand' made visible: all" in error.message
    assert "rules/rialto/game.yaml:" in error.message


def test_a_new_decision_whose_type_lists_its_values_gets_action_numbers(tmp_path: Path):
    overlay = (
        "game:\n  decisions:\n    bonus_pick: {value: {word: [one, two]}, description: A bonus.}\n"
        + _SCORING_RULE.format(
            when="game_end",
            effect='for p in players { let n = choose p from ["one", "two"] as "bonus_pick"; '
            'if n == "two" { victory_points[p] += 2 } }',
        )
        + _DECISION_TEXTS
    )
    rules = vr.load(write_variant(tmp_path, "rialto", overlay))
    space = rules.action_space(3)
    block = space.labels["bonus_pick"]
    assert block.values == ("one", "two") and block.offset + block.size == int(space)
    assert rules.decode(rules.encode(vr.Action(1, "bonus_pick", "two")), player=1).value == "two"


def test_a_variants_declassify_is_a_warning_with_its_quote_after_the_errors(tmp_path: Path, capsys):
    declassify = 'for p in players { victory_points[p] += declassify(count(hand[p]), "a made-up quote") }'
    path = write_variant(tmp_path, "rialto", _SCORING_RULE.format(when="game_end", effect=declassify))
    rules = vr.load(path)  # a warning does not stop a load
    assert rules.rules_hash
    (warning,) = vr.validate(path)
    assert warning.warning and warning.code == "dsl/declassify" and "'a made-up quote'" in warning.message
    assert warning.location.line == 11 and Path(warning.location.file).resolve() == path.resolve()
    assert main(["validate", str(path)]) == 0
    assert ": warning: dsl/declassify: " in capsys.readouterr().out
    assert main(["validate", str(path), "--strict"]) == 1
    capsys.readouterr()
    # with an error too, the warning prints after it, and the error decides the exit status
    rule = _SCORING_RULE.format(when="game_end", effect="for p in players { victory_points[p] += bogus }")
    both = write_variant(
        tmp_path,
        "rialto",
        rule
        + "\n".join(_SCORING_RULE.format(when="game_end", effect=declassify).splitlines()[2:]).replace(
            "id: extra", "id: extra2"
        ),
    )
    assert main(["validate", str(both)]) == 1
    out = capsys.readouterr().out
    assert out.index(": dsl/name: ") < out.index("warning: dsl/declassify")
    assert main(["validate", str(both), "--format", "json"]) == 1
    (target,) = json.loads(capsys.readouterr().out)["targets"]
    assert [e["code"] for e in target["errors"]] == ["dsl/name"]
    assert [w["code"] for w in target["warnings"]] == ["dsl/declassify"]


def test_describe_declassified_lists_every_declassify_with_its_quote(tmp_path: Path, capsys):
    declassify = 'for p in players { victory_points[p] += declassify(count(hand[p]), "a made-up quote") }'
    path = write_variant(tmp_path, "rialto", _SCORING_RULE.format(when="game_end", effect=declassify))
    assert main(["describe", str(path), "--declassified", "--format", "json"]) == 0
    found = json.loads(capsys.readouterr().out)
    ours = [d for d in found if d["variant"]]
    assert [d["quote"] for d in ours] == ["a made-up quote"] and ours[0]["location"].startswith(str(path))
    assert len(found) > 1 and all(d["location"].startswith("rules/rialto/") for d in found if not d["variant"])
    assert main(["describe", str(path), "--declassified"]) == 0
    assert "[variant]: 'a made-up quote'" in capsys.readouterr().out


def test_rounds_changed_alone_names_the_list_that_must_follow(tmp_path: Path):
    path = write_variant(tmp_path, "rialto", ONE_TYPO["rialto-rounds-alone"][1])
    (error,) = vr.validate(path)
    assert "'round_districts'" in error.message and "give it 7" in error.message


# -- designers' overlays validate and play -----------------------------------------------------

DESIGNS = {
    "venedig_basilica_9_hand_6": (
        "venedig",
        'game:\n  constants:\n    hand_limit: {value: 6}\nbuildings:\n  buildings:\n    - {id: basilica, points: "9"}',
    ),
    "saeulen_70_pillars_edges_2": (
        "saeulen",
        "components:\n  components:\n    - {id: pillar, count: 70}\n"
        "game:\n  constants:\n    matching_edge_points: {value: 2}",
    ),
    "saeulen_new_role_card": (
        "saeulen",
        "components:\n  components:\n    - {id: action_card, count: 31}\ncards:\n  cards:\n"
        "    - add: {id: gondolier_p7, name: Gondolier, count: 1, component: action_card, type: gondolier}\n"
        "texts:\n  languages:\n    de:\n      names: {card: {gondolier_p7: Gondoliere}}",
    ),
    "rialto_bridges_2_7_seven_rounds": (
        "rialto",
        "game:\n  constants:\n    rounds: {value: 7}\n    round_districts: {value: [1, 2, 3, 4, 5, 6, 1]}\n"
        "  parameters:\n    tiles:\n      end_a: {maximum: 7}\n"
        "tiles:\n  tiles:\n    - {id: bridge_6_3, params: {end_a: 7, end_b: 2}}\n"
        "    - {id: bridge_5_4, params: {end_a: 6, end_b: 3}}",
    ),
}


@pytest.mark.parametrize("design", sorted(DESIGNS))
def test_a_designers_overlay_validates_and_plays(tmp_path: Path, design: str):
    game, overlay = DESIGNS[design]
    path = write_variant(tmp_path, game, overlay, ident=design)
    assert vr.validate(path) == []
    rules = vr.load(path)
    for players in (2, 3):
        assert play_random(rules, players).is_over


def test_the_designers_numbers_are_live(tmp_path: Path):
    venedig = vr.load(write_variant(tmp_path, "venedig", DESIGNS["venedig_basilica_9_hand_6"][1], "v"))
    assert venedig.constant("hand_limit") == 6
    assert {b["id"]: b["points"] for b in venedig.items("buildings")}["basilica"] == "9"
    saeulen = vr.load(write_variant(tmp_path, "saeulen", DESIGNS["saeulen_70_pillars_edges_2"][1], "s"))
    assert saeulen.constant("matching_edge_points") == 2
    assert {c["id"]: c.get("count") for c in saeulen.items("components")}["pillar"] == 70
    rialto = vr.load(write_variant(tmp_path, "rialto", DESIGNS["rialto_bridges_2_7_seven_rounds"][1], "r"))
    game = play_random(rialto, 3)
    districts = [e for e in game.events if e["type"] == "district"]
    assert [e["round"] for e in districts] == [1, 2, 3, 4, 5, 6, 7]
    assert districts[6]["district"] == districts[0]["district"]  # round 7 in the district of round tile 1


def test_the_round_districts_datum_changes_the_order_of_the_districts(tmp_path: Path):
    order = write_variant(tmp_path, "rialto", "game:\n  constants:\n    round_districts: {value: [6, 5, 4, 3, 2, 1]}")
    base_game, game = play_random(vr.load("rialto"), 2), play_random(vr.load(order), 2)
    base_districts = [e["district"] for e in base_game.events if e["type"] == "district"]
    districts = [e["district"] for e in game.events if e["type"] == "district"]
    assert districts == base_districts[::-1]


# -- overlay schemas and the starter file ------------------------------------------------------


@pytest.mark.parametrize("kind", overlay_schema.PATCHED_KINDS)
def test_the_overlay_schemas_are_generated_from_the_base_schemas(kind: str):
    path = schemas_root() / overlay_schema.OVERLAY_DIR / f"{kind}.schema.json"
    assert path.read_text(encoding="utf-8") == overlay_schema.render(kind), (
        "regenerate with: python -m venedig_rules.data.overlay_schema"
    )
    Draft202012Validator.check_schema(json.loads(path.read_text(encoding="utf-8")))


def editor_errors(variant: Path) -> list[str]:
    """What an editor following the file's ``$schema`` line reports (plain jsonschema, files by path)."""
    first = variant.read_text(encoding="utf-8").splitlines()[0]
    schema_path = (variant.parent / first.split("$schema=", 1)[1]).resolve()

    def retrieve(uri: str) -> Resource:
        return Resource.from_contents(json.loads((schema_path.parent / uri).read_text(encoding="utf-8")))

    schema = json.loads(schema_path.read_text(encoding="utf-8"))
    validator = Draft202012Validator(schema, registry=Registry(retrieve=retrieve))
    return [e.message for e in validator.iter_errors(yaml.safe_load(variant.read_text(encoding="utf-8")))]


def test_new_variant_writes_a_starter_that_validates_with_a_working_schema_line(tmp_path: Path, capsys):
    path = tmp_path / "sub" / "big_hands.yaml"
    assert main(["new-variant", "venedig", str(path)]) == 0
    text = path.read_text(encoding="utf-8")
    assert text.startswith("# yaml-language-server: $schema=") and "id: big_hands" in text
    assert vr.validate(path) == []
    assert editor_errors(path) == []
    # the designer uncomments the block and changes a constant, with a typo the editor sees
    lines = text.replace("overlay: {}\n", "").splitlines()
    start = lines.index("# overlay:")
    body = [line[2:] for line in lines[start : start + 3]] + ["      hand_limit: {valeu: 6}"]
    path.write_text("\n".join(lines[:start] + body) + "\n", encoding="utf-8")
    assert any("valeu" in message for message in editor_errors(path))
    (error,) = vr.validate(path)
    assert "unknown key 'valeu' (did you mean 'value'?)" in error.message
    assert main(["new-variant", "venedig", str(path)]) == 2  # never replaces a file silently


def test_new_variant_refuses_a_file_name_that_is_not_an_id(tmp_path: Path, capsys):
    assert main(["new-variant", "venedig", str(tmp_path / "Big Hands.yaml")]) == 2
    assert "<id>.yaml" in capsys.readouterr().err


# -- validate --play, describe --diff / --format json -----------------------------------------


def test_validate_play_reports_the_first_runtime_error_located(tmp_path: Path, capsys):
    path = write_variant(
        tmp_path, "rialto", "game:\n  constants:\n    rounds: 7\n    round_districts: [1, 2, 3, 4, 5, 6, 7]"
    )
    assert main(["validate", str(path)]) == 0  # the data agree: only playing shows round tile 7 is missing
    capsys.readouterr()
    assert main(["validate", str(path), "--play", "1", "--format", "json"]) == 1
    (error,) = json.loads(capsys.readouterr().out)["targets"][0]["errors"]
    assert error["code"] == "play/rule" and error["file"] == "rules/rialto/game.yaml" and error["line"] > 0
    assert "index 6 is out of range" in error["message"] and "seed 0" in error["message"]


def test_describe_diff_lists_each_changed_datum_with_its_variant(tmp_path: Path, capsys):
    path = write_variant(tmp_path, "venedig", DESIGNS["venedig_basilica_9_hand_6"][1], "basilica_nine")
    assert main(["describe", str(path), "--diff", "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    got = {(c["path"], c["base"], c["value"], c["provenance"]) for c in data["changes"]}
    assert got == {
        ("game/constants/hand_limit", 5, 6, "variant basilica_nine"),
        ("buildings/buildings/basilica/points", "7", "9", "variant basilica_nine"),
    }
    assert all(c["location"].startswith(str(path)) or "basilica_nine.yaml" in c["location"] for c in data["changes"])
    assert main(["describe", str(path), "--diff"]) == 0
    assert "variant basilica_nine" in capsys.readouterr().out


def test_describe_diff_prints_a_changed_procedure_as_a_full_unified_diff(tmp_path: Path, capsys):
    body = vr.load("rialto").data["game"]["flow"]["procedures"]["phase_one"]["body"]
    changed = body.replace(
        "discard_rows()", "discard_rows();\n# a designer's long note, far longer than any table cell\nround = round"
    )
    overlay = yaml.safe_dump({"game": {"flow": {"procedures": {"phase_one": {"body": changed}}}}}, sort_keys=False)
    path = write_variant(tmp_path, "rialto", overlay, "noted")
    assert main(["describe", str(path), "--diff"]) == 0
    out = capsys.readouterr().out
    assert "--- base game/flow/procedures/phase_one/body" in out
    assert "+# a designer's long note, far longer than any table cell" in out and "-discard_rows()" in out


def test_describe_json_gives_constants_with_their_sources_and_the_assumed_data(tmp_path: Path, capsys):
    path = write_variant(tmp_path, "venedig", DESIGNS["venedig_basilica_9_hand_6"][1], "basilica_nine")
    assert main(["describe", str(path), "--format", "json"]) == 0
    data = json.loads(capsys.readouterr().out)
    hand = data["constants"]["hand_limit"]
    assert hand["value"] == 6 and hand["provenance"] == "variant basilica_nine" and hand["description"]
    assert data["constants"]["start_hand_size"]["provenance"] == "source"
    assert data["constants"]["start_hand_size"]["source"]
    assert data["assumed"] and all({"path", "note", "location"} <= set(a) for a in data["assumed"])
    assert main(["describe", "rialto"]) == 0
    text = capsys.readouterr().out
    assert "Constants in detail" in text and "Assumed data" in text


# -- the designer's tutorial (docs/variants.md) runs -------------------------------------------

DOCS = Path(__file__).resolve().parent.parent / "docs"


def test_the_tutorial_runs_from_new_variant_to_a_balance_report(tmp_path: Path, monkeypatch, capsys):
    import re

    text = (DOCS / "variants.md").read_text(encoding="utf-8")
    design = next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "id: seven_rounds" in b)
    commands = [line.split() for b in re.findall(r"```shell\n(.*?)```", text, re.S) for line in b.splitlines()]
    monkeypatch.chdir(tmp_path)
    outputs = []
    for words in commands:
        assert words[0] == "venedig-rules"
        if "--games" in words:
            words[words.index("--games") + 1] = "2"
        assert main(words[1:]) == 0, words
        outputs.append(capsys.readouterr().out)
        if words[1] == "new-variant":
            assert vr.validate(tmp_path / "seven_rounds.yaml") == []  # the starter, as written
            (tmp_path / "seven_rounds.yaml").write_text(design, encoding="utf-8")  # the designer's edit
    assert "variant seven_rounds" in outputs[3] and "game/constants/round_districts" in outputs[3]
    # the errors the tutorial shows are the ones a typo gives
    shown = re.search(r"one typo gives one error.*?```text\n(.*?)```", text, re.S).group(1).splitlines()
    edits = [
        ("rounds: {value: 7}", "rounds: {valeu: 7}"),
        ("end_a: {maximum: 7}", "end_b: {maximum: 6}"),  # the bound left as it was
        ("      round_districts: {value: [1, 2, 3, 4, 5, 6, 1]}   # the round tile of each round\n", ""),
    ]
    for (old, new), line in zip(edits, shown, strict=True):
        assert old in design
        (tmp_path / "seven_rounds.yaml").write_text(design.replace(old, new), encoding="utf-8")
        (error,) = vr.validate(tmp_path / "seven_rounds.yaml")
        assert str(error) == line or (error.code == "rules/count" and str(error).split(": ", 1)[0] in line)


def test_the_tutorials_balance_reading_is_in_the_reports_words_with_its_plot(tmp_path: Path, capsys):
    import re

    text = (DOCS / "variants.md").read_text(encoding="utf-8")
    reading = re.search(r"\*\*A balance reading\.\*\*.*?```text\n(.*?)```(.*?)\n## ", text, re.S)
    assert reading is not None
    lines, rest = reading.group(1).splitlines(), reading.group(2)
    design = next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "id: seven_rounds" in b)
    (tmp_path / "seven_rounds.yaml").write_text(design, encoding="utf-8")
    args = ["simulate", str(tmp_path / "seven_rounds.yaml"), "--players", "3", "--games", "2", "--jobs", "1"]
    assert main([*args, "--against", "rialto"]) == 0

    def shape(line: str) -> str:  # a report line with its numbers and significance left out
        return re.sub(r"\d+(\.\d+)?", "#", line).replace("p < #", "p = #").removesuffix(" *")

    printed = {shape(line) for line in capsys.readouterr().out.splitlines()}
    for line in lines:  # each figure the reading quotes is one the report prints, in its words
        assert shape(line) in printed, line
    (image,) = re.findall(r"!\[[^]]*\]\((images/[^)]+\.png)\)", rest)
    assert (DOCS / image).is_file() and (DOCS / "images" / "make_variants.py").is_file()
    assert "python docs/images/make_variants.py" in text


def test_the_tutorials_procedure_insert_validates_and_its_typo_gives_the_error_shown(tmp_path: Path):
    import re

    text = (DOCS / "variants.md").read_text(encoding="utf-8")
    design = next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "id: seven_rounds" in b)
    insert = next(b for b in re.findall(r"```yaml\n(.*?)```", text, re.S) if "after: discard_rows" in b)
    anchor = next(line for line in design.splitlines(keepends=True) if "end_a: {maximum: 7}" in line)
    path = tmp_path / "seven_rounds.yaml"
    path.write_text(design.replace(anchor, anchor + insert), encoding="utf-8")
    assert vr.validate(path) == []
    assert "hand_bonus[p] = 1" in vr.load(path).data["game"]["flow"]["procedures"]["phase_one"]["body"]
    shown = re.search(r"A misspelt step is one error.*?```text\n(.*?)\n```", text, re.S).group(1)
    path.write_text(design.replace(anchor, anchor + insert.replace("after: discard_rows", "after: discard_row")))
    (error,) = vr.validate(path)
    assert str(error).replace(str(tmp_path) + "/", "") == shown


def test_a_typo_in_a_variant_folders_overlay_file_is_one_error_in_that_file(tmp_path: Path):
    folder = tmp_path / "big"
    folder.mkdir()
    (folder / "variant.yaml").write_text("extends: venedig\nid: big\ntitle: Big\n", encoding="utf-8")
    (folder / "game.yaml").write_text("constants:\n  hand_limit: {valeu: 6}\n", encoding="utf-8")
    (error,) = vr.validate(folder)
    assert (Path(error.location.file).name, error.location.line) == ("game.yaml", 2) and "'valeu'" in error.message
    (folder / "game.yaml").write_text("constants:\n  hand_limit: {value: 6}\n", encoding="utf-8")
    assert vr.validate(folder) == [] and vr.load(folder).constant("hand_limit") == 6


# -- a procedure changed step by step -------------------------------------------------------------

_STEP_EDITS = """game:
  flow:
    procedures:
      phase_one:
        body:
          - after: discard_rows
            insert: for p in players { hand_bonus[p] = 1 }
    main:
      - before: trigger
        insert: for p in players { victory_points[p] += 1 }
      - replace: end_game
        with: end_game()
"""


def test_a_step_edit_inserts_into_a_procedure_without_copying_it(tmp_path: Path):
    base = vr.load("rialto").data["game"]["flow"]
    rules = vr.load(write_variant(tmp_path, "rialto", _STEP_EDITS, "stepped"))
    flow = rules.data["game"]["flow"]
    phase_one = flow["procedures"]["phase_one"]["body"]
    assert phase_one.startswith(base["procedures"]["phase_one"]["body"].rstrip()[:-1].rstrip())
    assert phase_one.rstrip().endswith("discard_rows();\nfor p in players { hand_bonus[p] = 1 }")
    before, after = flow["main"].split("for p in players { victory_points[p] += 1 };")
    assert base["main"].startswith(before) and after.strip().startswith('trigger("game_end")')
    play_random(rules, 3)  # and it plays


def test_a_step_edit_naming_no_step_is_one_error_at_its_line(tmp_path: Path):
    path = write_variant(tmp_path, "rialto", _STEP_EDITS.replace("after: discard_rows", "after: discard_row"))
    (error,) = vr.validate(path)
    assert error.code == "rules/variant" and error.location.line == 10
    assert "no step 'discard_row'" in error.message and "did you mean 'discard_rows'?" in error.message


def test_a_dsl_error_in_an_inserted_step_is_located_at_its_line_in_the_overlay(tmp_path: Path):
    path = write_variant(tmp_path, "rialto", _STEP_EDITS.replace("hand_bonus[p] = 1", "hand_bonuss[p] = 1"))
    (error,) = vr.validate(path)
    assert error.code == "dsl/name" and "did you mean 'hand_bonus'?" in error.message
    line = next(n for n, text in enumerate(path.read_text().splitlines(), 1) if "hand_bonuss" in text)
    column = path.read_text().splitlines()[line - 1].index("hand_bonuss") + 1
    assert error.location == vr.Location(str(path), line, column)
    # a replacing step too, in main
    other = write_variant(tmp_path, "rialto", _STEP_EDITS.replace("with: end_game()", "with: end_gam()"), "b")
    (error,) = vr.validate(other)
    lines = other.read_text().splitlines()
    line = next(n for n, text in enumerate(lines, 1) if "end_gam()" in text)
    assert error.location == vr.Location(str(other), line, lines[line - 1].index("end_gam") + 1)


def test_a_step_edit_with_two_places_is_one_schema_error(tmp_path: Path):
    path = write_variant(
        tmp_path, "rialto", _STEP_EDITS.replace("after: discard_rows", "after: x\n            before: y")
    )
    errors = vr.validate(path)
    assert len(errors) == 1 and Path(errors[0].location.file).resolve() == path.resolve(), errors


def test_the_editor_schema_accepts_step_edits(tmp_path: Path):
    path = write_variant(tmp_path, "rialto", _STEP_EDITS, "stepped")
    path.write_text(f"# yaml-language-server: $schema={schemas_root() / 'variant.schema.json'}\n" + path.read_text())
    assert editor_errors(path) == []
    bad = path.read_text().replace("insert: for p in players { hand_bonus", "inserted: for p in players { hand_bonus")
    path.write_text(bad)
    assert editor_errors(path)


# -- a designer who writes one language (rules/text-missing) -----------------------------------

#: A new building, decision and words in English alone: German falls back to English.
_ONE_LANGUAGE = """\
components:
  components:
    - {id: building_tile, count: 61}
buildings:
  buildings:
    - add:
        id: blue_bonus
        name: Blue bonus building
        count: 1
        component: building_tile
        params: {colour: blue, phase: 3, value: 1, upgrade_by: 1}
        points: value
        ability: "victory_points[self] += 1"
game:
  decisions:
    bonus_pick: {value: {word: [one, two]}, description: A bonus.}
scoring:
  rules:
    - add:
        id: extra
        name: Extra
        when: game_end
        effect: 'for p in players { let n = choose p from ["one", "two"] as "bonus_pick"; victory_points[p] += 1 }'
texts:
  languages:
    en:
      decisions: {bonus_pick: {prompt: Pick a bonus, waiting: "{player} picks a bonus", option: "Bonus {value}"}}
      words: {one: one point, two: two points}
      items: {blue_bonus: "Phase III: score 1 victory point."}
"""


def _texts(node: object) -> list[str]:
    """Every text people read in a view, decision or log: the values of ``text``,
    ``prompt`` and ``name`` keys, and a log's details."""
    if isinstance(node, dict):
        found = [v for k, v in node.items() if k in ("text", "prompt", "name", "waiting") and isinstance(v, str)]
        found += [d for d in node.get("details", []) if isinstance(d, str)]
        return found + [t for v in node.values() for t in _texts(v)]
    if isinstance(node, list):
        return [t for v in node for t in _texts(v)]
    return []


def test_a_translation_left_out_is_one_located_warning_each(tmp_path: Path, capsys):
    path = write_variant(tmp_path, "rialto", _ONE_LANGUAGE, "onelang")
    lines = path.read_text(encoding="utf-8").splitlines()
    found = vr.validate(path)
    assert all(w.warning and w.code == "rules/text-missing" for w in found), found
    assert all(Path(w.location.file).resolve() == path.resolve() for w in found)
    at = {w.message.split(";")[0]: lines[w.location.line - 1].strip() for w in found}
    declared = "bonus_pick: {value: {word: [one, two]}, description: A bonus.}"
    assert at == {
        "building 'blue_bonus' has no German (de) name": "id: blue_bonus",
        "decision 'bonus_pick' has no German (de) texts": declared,
        "word 'one' has no German (de) text": declared,
        "word 'two' has no German (de) text": declared,
        "items/blue_bonus has a English (en) text but no German (de) one": _ONE_LANGUAGE.splitlines()[-1].strip(),
    }
    assert main(["validate", str(path)]) == 0
    assert capsys.readouterr().out.count(": warning: rules/text-missing: ") == 5
    assert main(["validate", str(path), "--strict"]) == 1


def test_a_translation_left_out_reads_the_first_language_in_play(tmp_path: Path):
    rules = vr.load(write_variant(tmp_path, "rialto", _ONE_LANGUAGE, "onelang"))
    game, rng, asked = rules.new_game(3, 1), random.Random(1), None
    while not game.is_over:
        player = game.to_move[0]
        decision = game.decision(player, lang="de")
        if decision["label"] == "bonus_pick":
            asked = decision
        game.apply(rng.choice(game.legal_actions(player)))
    assert asked is not None and asked["prompt"] == "Pick a bonus"
    assert [o["text"] for o in asked["options"]] == ["Bonus one point", "Bonus two points"]
    german = _texts(game.view(0, lang="de")) + _texts(game.log(0, lang="de"))
    assert any("Blue bonus building" in t for t in german)  # the English name, in German sentences
    assert not any("blue_bonus" in t or "bonus_pick" in t for t in german)  # never a raw id
    assert any("Gebäude" in t for t in german)  # the rest is German still
    assert rules.describe_item("blue_bonus", lang="de") == {
        "name": "Blue bonus building",
        "text": "Phase III: score 1 victory point.",
    }
