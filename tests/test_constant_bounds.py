"""A game constant may declare what its values may be (``type``, ``minimum``, ``maximum``,
``values``, as an item param does), and every value is held to it at validate, in the base
files and in a variant: a misspelt word (``stage_f_district_bonus: at_onec``) played a
silently different game before, a flag given ``"x"`` played as true."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

import venedig_rules as vr
from conftest import bundled_copy_with, bundled_with_constant

RULES = Path(vr.__file__).parent.parent / "rules"
GAMES = ("rialto", "venedig", "saeulen")


def _declared(game: str) -> dict[str, dict]:
    constants = yaml.safe_load((RULES / game / "game.yaml").read_text(encoding="utf-8"))["constants"]
    return {name: c for name, c in constants.items() if isinstance(c, dict)}


def _with_value(tmp_path: Path, game: str, name: str, value: str) -> tuple[Path, int, int]:
    """A copy of ``game``'s rules with constant ``name``'s value replaced: the root, the
    value's line and the line of the constant's bound (``values``, ``minimum`` or ``type``)."""
    root, line = bundled_with_constant(tmp_path, game, name, value)
    lines = (RULES / game / "game.yaml").read_text(encoding="utf-8").splitlines()
    start = lines.index(f"  {name}:")
    bound = next(
        i for i in range(start, len(lines)) if lines[i].startswith(("    values:", "    minimum:", "    type:"))
    )
    return root, line, bound + 1


def _words(game: str) -> list[tuple[str, str, str]]:
    return [(game, name, c["values"][0]) for name, c in _declared(game).items() if "values" in c]


WORDS = [case for game in GAMES for case in _words(game)]


def test_every_word_a_rule_compares_a_constant_with_is_declared():
    """The words the bundled rules compare a constant with are among its ``values``."""
    for game in GAMES:
        source = "".join(p.read_text(encoding="utf-8") for p in (RULES / game).glob("*.yaml"))
        for name, const in _declared(game).items():
            compared = set(re.findall(rf'\b{name} *[!=]= *"(\w+)"', source))
            if compared or "values" in const:
                assert compared and compared <= set(const.get("values", ())), (game, name, compared)
                assert const["value"] in const["values"]
    assert len(WORDS) == 7


@pytest.mark.parametrize(("game", "name", "word"), WORDS)
def test_a_misspelt_word_is_one_located_error(tmp_path: Path, game: str, name: str, word: str):
    root, line, bound = _with_value(tmp_path, game, name, word + "x")
    [error] = vr.validate(root)
    assert error.code == "rules/constant" and error.location.line == line
    assert f'constant {name!r} is "{word}x"; expected one of ' in error.message
    assert f"(did you mean {word!r}?)" in error.message
    assert f"(bound constants.{name}.values at " in error.message and f"game.yaml:{bound}:5)" in error.message


@pytest.mark.parametrize(
    ("game", "name", "value", "expected"),
    [
        ("rialto", "leftover_cards_kept", '"x"', "expected true or false"),
        ("saeulen", "tile_piles_face_up", "1", "expected true or false"),
        ("rialto", "cards_from_pile", "-1", "expected at least 0"),
        ("venedig", "drain_max", "-2", "expected at least 0"),
        ("rialto", "cards_per_row", "0", "expected at least 1"),
        ("venedig", "partner_rounding", "true", "expected one of 'down', 'up'"),
    ],
)
def test_a_value_out_of_its_bounds_is_one_located_error(tmp_path: Path, game, name, value, expected):
    root, line, _ = _with_value(tmp_path, game, name, value)
    [error] = vr.validate(root)
    assert error.code == "rules/constant" and error.location.line == line
    assert expected in error.message


def test_a_variant_is_held_to_the_base_declaration(tmp_path: Path):
    """A plain value replaces the whole constant, its declaration too: the base's holds."""
    variant = tmp_path / "v.yaml"
    variant.write_text(
        "extends: rialto\nid: v\ntitle: V\noverlay:\n  game:\n    constants:\n"
        "      rounds: 0\n      stage_f_district_bonus: {value: at_stage_ends}\n",
        encoding="utf-8",
    )
    errors = vr.validate(variant)
    assert [(e.code, Path(e.location.file).name, e.location.line) for e in errors] == [
        ("rules/constant", "v.yaml", 7),
        ("rules/constant", "v.yaml", 8),
    ]
    assert "expected at least 1 (bound constants.rounds.minimum at " in errors[0].message
    assert "rules/rialto/game.yaml:" in errors[0].message.replace("\\", "/")
    assert "(did you mean 'at_stage_end'?)" in errors[1].message


def test_a_by_players_flag_of_another_type_is_told_once(tmp_path: Path):
    root, _ = bundled_copy_with(tmp_path, "venedig", '"3": false', '"3": "no"', "  imaginary_player:")
    [error] = vr.validate(root)
    assert error.code == "rules/constant"
    assert "for 3 players; its other player counts give true or false" in error.message


def test_a_param_of_the_wrong_type_is_worded_plainly(tmp_path: Path):
    from venedig_rules.data.value_bounds import value_problem

    assert value_problem({"type": "integer"}, "x").expected == "a whole number"
    assert value_problem({"type": "ids"}, [1]).expected == "a list of ids"
    assert value_problem({"type": "integer", "maximum": 3}, 4).bound == "maximum"
