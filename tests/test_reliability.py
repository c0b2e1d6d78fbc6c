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
    path = lagoon_with(tmp_path, line)
    first = (path / "game.yaml").read_text().splitlines().index("  main: |") + 2  # the line added
    [(found, file, line_no, _, message)] = problems(path)
    assert (found, file, line_no) == (code, "game.yaml", first) and words in message


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


# -- actions: players and values match by type (D10, D11), numbers of bounded size (D19) ---------
@pytest.fixture(scope="module")
def saeulen() -> vr.Ruleset:
    return vr.load("saeulen")


def assert_refused_and_unchanged(game: vr.Game, action: object, error: type[Exception] = vr.IllegalActionError) -> None:
    before = (game.to_json(), len(game.events), game.to_move)
    with pytest.raises(error):
        game.apply(action)  # type: ignore[arg-type]
    assert (game.to_json(), len(game.events), game.to_move) == before


@pytest.mark.parametrize("player", [0.0, False, True, "0", None, 1.5])
def test_d10_a_player_that_is_no_whole_number_is_refused_and_never_recorded(saeulen: vr.Ruleset, player: object):
    game = saeulen.new_game(3, seed=2)
    value = game.legal_actions(0)[0].value
    assert_refused_and_unchanged(game, vr.Action(player, "steal", value))  # type: ignore[arg-type]
    assert vr.Ruleset.game_from_json(saeulen, game.to_json()).to_json() == game.to_json()


@pytest.mark.parametrize("value", [True, 1.0, [1], "1"])
def test_d11_a_value_equal_but_of_another_kind_is_refused(saeulen: vr.Ruleset, value: object):
    game = saeulen.new_game(3, seed=2)
    assert vr.Action(0, "steal", 1) in game.legal_actions(0)
    assert_refused_and_unchanged(game, vr.Action(0, "steal", value))
    game.apply(vr.Action(0, "steal", 1))  # the same action with the value's own kind is legal


@pytest.mark.parametrize("digits", [1001, 4301, 100_000])
def test_d19_an_action_text_with_a_huge_number_is_a_typed_error(saeulen: vr.Ruleset, digits: int):
    game = saeulen.new_game(3, seed=2)
    for text in (f"p0 steal({'9' * digits})", f"p{'9' * digits} steal(1)", f"p0 steal([1,{'9' * digits}])"):
        with pytest.raises(vr.ActionSyntaxError, match=r"digits|characters long"):
            vr.parse_action(text)
        assert_refused_and_unchanged(game, text)
    assert_refused_and_unchanged(game, vr.Action(0, "steal", 10**digits))


@pytest.mark.parametrize(
    "text", ["p0 steal(" + "[" * 40 + "1" + "]" * 40 + ")", "p0 steal(" + "x" * 70_000 + ")", b"p0 steal(1)"]
)
def test_action_texts_too_deep_too_long_or_not_text_are_syntax_errors(saeulen: vr.Ruleset, text: object):
    with pytest.raises(vr.ActionSyntaxError):
        vr.parse_action(text)  # type: ignore[arg-type]
    assert_refused_and_unchanged(saeulen.new_game(3, seed=2), text)


@pytest.mark.parametrize(
    "action", [object(), 5, {"player": 0}, vr.Action(0, "Steal", 1), vr.Action(0, "steal", {1: 2})]
)
def test_anything_else_given_as_an_action_is_refused(saeulen: vr.Ruleset, action: object):
    assert_refused_and_unchanged(saeulen.new_game(3, seed=2), action)


# -- seeds (D12) and saves ----------------------------------------------------------------------
@pytest.mark.parametrize(
    "seed",
    [10**5000, -(10**5000), 2**300, 1.0, True, "1"],
    ids=["5001 digits", "-5001 digits", "2**300", "1.0", "True", "'1'"],
)
def test_d12_a_seed_that_is_no_whole_number_of_at_most_256_bits_is_a_typed_error(saeulen: vr.Ruleset, seed: object):
    with pytest.raises(vr.GameArgumentError, match="seed") as info:
        saeulen.new_game(3, seed=seed)  # type: ignore[arg-type]
    assert len(str(info.value)) < 200


def test_d12_a_save_with_a_huge_seed_is_refused(saeulen: vr.Ruleset):
    data = saeulen.new_game(3, seed=2).to_json()
    for seed in (10**5000, 2**300, True):
        with pytest.raises(vr.SaveFileError):
            saeulen.game_from_json({**data, "seed": seed})


def test_without_a_seed_a_game_draws_a_full_width_secret_one(saeulen: vr.Ruleset):
    seeds = {saeulen.new_game(3).seed for _ in range(20)}
    assert len(seeds) == 20 and max(seeds).bit_length() > 40 and all(0 <= s < 2**64 for s in seeds)
    game = saeulen.new_game(3)
    assert saeulen.new_game(3, seed=game.seed).view(0) == game.view(0)  # the seed it drew replays it


def test_every_bit_of_a_wide_seed_counts(saeulen: vr.Ruleset):
    views = {json_text(saeulen.new_game(3, seed=5 + (k << 64)).view(0)) for k in range(4)}
    assert len(views) == 4


def json_text(value: object) -> str:
    import json

    return json.dumps(value, sort_keys=True)


# -- views (D13): a spectator sees only what is public; anything else that is no seat is refused -
@pytest.mark.parametrize("name", ["saeulen", "rialto", "venedig", str(LAGOON)])
def test_d13_a_spectator_sees_no_more_than_any_seat(name: str):
    import random

    rules = vr.load(name)
    game = rules.new_game(3, seed=4)
    rnd = random.Random(4)
    for _ in range(40):
        if not game.to_move:
            break
        game.apply(rnd.choice(game.legal_actions(game.to_move[0])))
    spectator = game.view(None)
    assert spectator == game.view(spectator=True) and spectator["player"] is None and spectator["decision"] is None
    seats = [game.view(p) for p in range(3)]
    for event in spectator["events"]:
        assert any(event in seat["events"] for seat in seats), event
    for key, value in spectator["state"].items():
        assert no_more_than(value, [seat["state"][key] for seat in seats]), key


def no_more_than(value: object, seats: list[object]) -> bool:
    """Whether a spectator's ``value`` shows nothing that is not shown to two seats (a seat's own
    secret is shown to one): equal to their values, hidden, or a list each of whose parts
    shows no more than the seats' same parts."""
    if value == "?" or (isinstance(value, dict) and set(value) == {"hidden"}) or seats.count(value) >= 2:
        return True
    return (
        isinstance(value, list)
        and all(isinstance(s, list) and len(s) == len(value) for s in seats)
        and all(no_more_than(part, [s[i] for s in seats]) for i, part in enumerate(value))
    )  # type: ignore[index]


def test_d13_a_spectators_events_hide_every_hand(tmp_path: Path):
    game = vr.load(LAGOON).new_game(2, seed=1)
    private = [e for e in game.events if e["type"] == "move" and e["to"][0] == "hand"]
    assert private
    shown = game.view(None)["events"]
    assert not any(e.get("item") == "two" and e.get("to", [None])[0] == "hand" for e in shown)
    assert json_text(game.view(None)) != json_text(game.view(0))


@pytest.mark.parametrize("seat", [True, False, 99, -1, "0", 0.0, 3])
def test_d13_anything_else_that_is_no_seat_is_refused(seat: object):
    game = vr.load(LAGOON).new_game(3, seed=1)
    with pytest.raises(vr.GameArgumentError, match="not a seat"):
        game.view(seat)  # type: ignore[arg-type]


def test_d13_a_view_is_a_seats_or_a_spectators_not_both():
    game = vr.load(LAGOON).new_game(3, seed=1)
    with pytest.raises(vr.GameArgumentError):
        game.view(0, spectator=True)
    with pytest.raises(vr.GameArgumentError):
        game.view(0, since=-1)


def test_the_limits_the_checker_applies_are_those_of_play():
    from venedig_rules.effects import compile as compiler
    from venedig_rules.limits import MAX_REPEAT

    assert compiler.MAX_REPEAT == MAX_REPEAT  # effects/compile.py keeps its own name for it


def test_an_action_name_thousands_of_characters_long_is_refused_in_a_short_message():
    # found by the fuzz suite: the name was echoed whole in "expected a value ... after <name>"
    with pytest.raises(vr.ActionSyntaxError) as refused:
        vr.parse_action("p1 pass" + "9" * 5000)
    assert len(str(refused.value)) < 300 and "expected a value in parentheses after" in str(refused.value)
