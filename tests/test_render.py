"""Rendering a position as SVG: one element per space, pieces where the layout puts them, only
what the seat may see, and the ``render`` command's output and errors."""

from __future__ import annotations

import doctest
import importlib.util
import json
import random
import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.cli import main
from venedig_rules.engine.seat.wording import Wording
from venedig_rules.present.render import render_svg, render_view
from venedig_rules.present.zones import SEPARATOR, TIMES, describe_value
from venedig_rules.testing.pictures import hidden_ids, render_problems

SVG = "{http://www.w3.org/2000/svg}"
LAGOON = Path(__file__).parent / "rulesets" / "lagoon"
BUNDLED = [(name, variants) for name in vr.bundled() for variants in [(), *[(v,) for v in vr.bundled_variants(name)]]]


@cache
def _rules(name: str | Path, variants: tuple[str, ...] = ()) -> vr.Ruleset:
    return vr.load(name, variants=variants)


def _played(rules: vr.Ruleset, players: int, seed: int, actions: int) -> vr.Game:
    game = rules.new_game(players, seed)
    chooser = random.Random(seed)
    while len(game.actions) < actions and not game.is_over:
        game.apply(chooser.choice(game.legal_actions(chooser.choice(game.to_move))))
    return game


def _tree(picture: str) -> ET.Element:
    return ET.fromstring(picture)


def _with(root: ET.Element, attribute: str) -> list[ET.Element]:
    return [el for el in root.iter() if el.get(attribute) is not None]


@pytest.mark.parametrize(("name", "variants"), BUNDLED, ids=lambda v: "+".join(v) if isinstance(v, tuple) else v)
def test_one_data_space_element_per_space_for_every_seat_and_a_spectator(name, variants):
    rules = _rules(name, tuple(variants))
    game = _played(rules, rules.players.start, seed=3, actions=60)
    for seat in (None, *range(game.players)):
        root = _tree(render_svg(game, seat))
        spaces = [el.get("data-space") for el in _with(root, "data-space")]
        assert sorted(spaces) == sorted(rules.board.spaces)
        assert render_problems(game, seat) == []


def test_the_test_ruleset_without_drawing_data_renders_by_default():
    rules = _rules(LAGOON)
    game = _played(rules, 3, seed=1, actions=10)
    root = _tree(render_svg(game))
    assert len(_with(root, "data-space")) == len(rules.board.spaces) == 13
    assert {el.get("data-region") for el in _with(root, "data-region")} == {"west", "east"}


def test_rialto_draws_its_districts_connections_and_both_tracks():
    rules = _rules("rialto")
    game = _played(rules, 4, seed=2, actions=150)
    root = _tree(render_svg(game))
    assert len(_with(root, "data-space")) == 0
    assert len(_with(root, "data-region")) == 6 and len(_with(root, "data-connection")) == 12
    steps = [(el.get("data-track"), el.get("data-step")) for el in _with(root, "data-step")]
    assert len([s for s in steps if s[0] == "doge"]) == 41 and len([s for s in steps if s[0] == "victory_points"]) == 50
    tiles = game.value("conn_tiles")
    placed = [el for el in _with(root, "data-item") if el.get("data-item").startswith(("bridge", "gondola"))]
    assert len(placed) == sum(t is not None for t in tiles) > 0
    for el in placed:  # each placed tile shows the values of its two ends
        texts = [t.text for t in el.iter(f"{SVG}text")]
        assert len(texts) == 2 and all(t.isdigit() for t in texts)


def test_doge_counters_on_one_step_are_stacked_with_the_top_counter_drawn_last():
    game = _rules("rialto").new_game(4, seed=5)
    root = _tree(render_svg(game))
    pieces = next(el for el in root.iter(f"{SVG}g") if el.get("data-var") == "doge_step")
    drawn = [int(c.get("data-player")) for c in pieces.iter(f"{SVG}circle")]
    order = game.value("doge_order")
    assert set(game.value("doge_step")) == {0} and drawn == list(reversed(order))


def test_gondolas_stand_on_their_track_steps():
    rules = _rules("venedig")
    game = _played(rules, 3, seed=4, actions=80)
    layout = rules.board.layout()
    steps = {s["step"]: s["center"] for s in layout["tracks"]["gondola"]["steps"]}
    root = _tree(render_svg(game))
    pieces = next(el for el in root.iter(f"{SVG}g") if el.get("data-var") == "gondola")
    for circle in pieces.iter(f"{SVG}circle"):
        p = int(circle.get("data-player"))
        assert [float(circle.get("cx")), float(circle.get("cy"))] == steps[game.value("gondola", p)]


def test_saeulen_pillars_markers_and_tiles_are_drawn_on_their_squares():
    rules = _rules("saeulen")
    game = _played(rules, 3, seed=1, actions=120)
    root = _tree(render_svg(game))
    space = {el.get("data-space"): el for el in _with(root, "data-space")}
    covered = {s for _, spaces in game.value("built") for s in spaces}
    for sid in rules.board.spaces - covered:
        circles = list(space[sid].iter(f"{SVG}circle"))
        assert len(circles) == int(game.value("has_pillar", sid)) + (game.value("marker", sid) is not None), sid
    outlines = [el for el in root.iter(f"{SVG}path") if el.get("data-item")]
    assert len(outlines) == len(game.value("built"))


def _zone_items(root: ET.Element) -> dict[tuple[str, str | None], set[str]]:
    """What each zone line lists, by (zone, player): the names, without their counts."""
    out = {}
    for g in _with(root, "data-zone"):
        text = " ".join(" ".join(t.text or "" for t in g.iter(f"{SVG}text")).split())  # lines joined again
        listed = text.split(": ", 1)[1] if ": " in text else ""
        out[(g.get("data-zone"), g.get("data-player"))] = {
            item.split(f" {TIMES}")[0].strip() for item in listed.split(SEPARATOR)
        }
    return out


@pytest.mark.parametrize("name", vr.bundled())
@pytest.mark.parametrize("seed", [1, 2])
def test_a_spectator_never_sees_a_hidden_card_or_tile(name, seed):
    rules = _rules(name)
    game = _played(rules, rules.players.stop - 1, seed=seed, actions=90)
    picture = render_svg(game)
    hidden = hidden_ids(game, None)
    assert hidden, "the position should hold hidden cards or tiles"
    assert not [ident for ident in hidden if ident in picture]
    visible = set(json.dumps(game.view(None)["state"]).split('"'))  # every text the spectator's view holds
    wording = Wording(rules)
    secret_names = {describe_value(wording, i) for i in hidden} - {describe_value(wording, i) for i in visible}
    for zone, items in _zone_items(_tree(picture)).items():
        assert not items & secret_names, f"zone {zone} shows {items & secret_names}"


def test_a_seat_sees_its_own_hand_and_only_the_size_of_the_others():
    rules = _rules("saeulen")
    game = _played(rules, 3, seed=1, actions=30)
    zones = _zone_items(_tree(render_svg(game, seat=1)))
    wording = Wording(rules)
    assert zones[("hand", "1")] == {wording.name(c) for c in game.value("hand", 1)}
    assert zones[("hand", "0")] == {f"{len(game.value('hand', 0))} hidden action cards"}


def test_the_leak_check_finds_a_hidden_card_in_a_doctored_picture():
    rules = _rules("venedig")
    game = _played(rules, 3, seed=1, actions=20)
    view = game.view(None)
    view["state"]["gold_tiles"] = [list(game.value("gold_tiles", p)) for p in range(3)]
    picture = render_view(rules, view)
    assert [ident for ident in hidden_ids(game, None) if ident in picture]


def test_render_svg_refuses_a_seat_that_is_not_in_the_game():
    game = _rules("venedig").new_game(2, seed=1)
    with pytest.raises(ValueError, match="2 is not a seat of this game"):
        render_svg(game, seat=2)


# -- the command ---------------------------------------------------------------------------------
def test_render_writes_an_svg_of_a_random_position(tmp_path: Path, capsys):
    out = tmp_path / "venedig.svg"
    code = main(
        ["render", "venedig", "--players", "3", "--seed", "1", "--actions", "40", "--seat", "2", "--out", str(out)]
    )
    assert code == 0
    assert capsys.readouterr().out.startswith(f"wrote {out} (venedig, 3 players, seed 1, after 40 actions, seen by p2")
    expected = render_svg(_played(_rules("venedig"), 3, seed=1, actions=40), seat=2)
    assert out.read_text(encoding="utf-8") == expected


def test_render_of_a_saved_game_and_to_standard_output(tmp_path: Path, capsys):
    game = _played(_rules("rialto", ("german_summary",)), 3, seed=7, actions=25)
    save = tmp_path / "game.json"
    save.write_text(json.dumps(game.to_json()))
    assert main(["render", "rialto", "--variant", "german_summary", "--save", str(save), "--out", "-"]) == 0
    assert capsys.readouterr().out == render_svg(game)


@pytest.mark.parametrize(
    ("args", "code", "message"),
    [
        (["venedg"], 2, "no bundled ruleset or path 'venedg' (did you mean 'venedig'?)"),
        (["venedig", "--players", "7"], 2, "Venedig is for 2-5 players, not 7"),
        (["venedig", "--seat", "2"], 2, "--seat 2 is not in this game; expected 0 to 1"),
        (["venedig", "--actions", "-3"], 2, "--actions must be 0 or more, not -3"),
        (["venedig", "--save", "{save}", "--actions", "3"], 2, "give either --save or --players/--seed/--actions"),
        (["venedig", "--save", "{missing}"], 2, "cannot read"),
        (["venedig", "--save", "{not_json}"], 1, "not a saved game: Expecting"),
        (["venedig", "--save", "{other_rules}"], 1, "the game was played with other rules"),
        (["venedig", "--out", "{no_dir}"], 1, "cannot write"),
    ],
)
def test_render_errors_are_one_line_with_exit_1_or_2(tmp_path: Path, capsys, args, code, message):
    contents = {
        "save": lambda: json.dumps(_rules("venedig").new_game(2, 1).to_json()),
        "not_json": lambda: "{",
        "other_rules": lambda: json.dumps(_rules("rialto").new_game(2, 1).to_json()),
    }
    files = {}
    for key in ("save", "missing", "not_json", "other_rules", "no_dir"):
        files[key] = tmp_path / "no" / "such" / "dir.svg" if key == "no_dir" else tmp_path / f"{key}.json"
        if key in contents and "{" + key + "}" in args:
            files[key].write_text(contents[key]())
    argv = [a.format(**{k: str(v) for k, v in files.items()}) for a in args]
    if "--out" not in argv:
        argv += ["--out", str(tmp_path / "out.svg")]
    status = main(["render", *argv])  # an exception escaping main would fail the test: no traceback
    err = capsys.readouterr().err
    assert status == code and message in err, err
    assert len(err.strip().splitlines()) == 1


def test_render_needs_an_output_and_has_help_with_an_example(capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["render", "venedig"])
    assert exit_.value.code == 2 and "--out" in capsys.readouterr().err
    proc = subprocess.run([sys.executable, "-m", "venedig_rules", "render", "--help"], capture_output=True, text=True)
    assert proc.returncode == 0 and "example" in proc.stdout and "--seat" in proc.stdout


def test_the_check_command_reports_a_picture_without_a_space(monkeypatch):
    from venedig_rules.testing import api_test, pictures

    draw = pictures.render_svg
    monkeypatch.setattr(pictures, "render_svg", lambda game, seat: draw(game, seat).replace('data-space="a1"', "", 1))
    report = api_test(_rules(LAGOON), games=1, players=[2])
    assert report.violation is not None and report.violation.check == "render"
    assert "missing ['a1']" in report.violation.message


def test_the_check_command_reports_a_layout_without_a_space(monkeypatch):
    from venedig_rules.data.board import Board
    from venedig_rules.testing import api_test

    lay_out = Board.layout

    def without_a1(board: Board):
        layout = lay_out(board)
        layout["spaces"].pop("a1", None)
        return layout

    monkeypatch.setattr(Board, "layout", without_a1)
    report = api_test(_rules(LAGOON), games=1, players=[2])
    assert (
        report.violation is not None
        and report.violation.check == "layout"
        and "missing ['a1']" in str(report.violation)
    )


# -- the docs ------------------------------------------------------------------------------------
ROOT = Path(__file__).resolve().parent.parent


def test_the_embedding_guide_examples_run(capsys):
    path = ROOT / "docs" / "embedding.md"
    test = doctest.DocTestParser().get_doctest(path.read_text(encoding="utf-8"), {}, path.name, str(path), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS)
    runner.run(test)
    assert test.examples and runner.summarize(verbose=False).failed == 0, capsys.readouterr().out


def test_the_pictures_in_the_docs_exist_and_their_script_draws_mid_game_positions():
    docs = [ROOT / "README.md", ROOT / "docs" / "embedding.md", *sorted((ROOT / "docs" / "games").glob("*.md"))]
    for doc in docs:
        for target in re.findall(r"!\[[^\]]*\]\(([^)]+\.png)\)", doc.read_text(encoding="utf-8")):
            assert (doc.parent / target).is_file(), f"{doc.name} shows {target}, which is missing"
    spec = importlib.util.spec_from_file_location("make_pictures", ROOT / "docs" / "images" / "make.py")
    make = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(make)
    assert set(make.POSITIONS) == set(vr.bundled())
    for name, (players, seed, actions) in make.POSITIONS.items():
        game = _played(_rules(name), players, seed, actions)
        assert len(game.actions) == actions and not game.is_over, name
        assert (ROOT / "docs" / "images" / f"{name}.svg").is_file()


def test_the_picture_speaks_the_view_language_with_the_names_given():
    game = _played(_rules("saeulen"), 3, seed=1, actions=30)
    german = render_svg(game, seat=1, lang="de", names=["Anna", "Ben", "Cem"])
    english = render_svg(game, seat=1)
    assert "aus der Sicht von Ben" in german and "Tisch" in german and "Am Zug:" in german
    assert "Ben (du)" in german and "p1 (you)" in english
    assert "seen by p1" in english and "Table" in english
    # the same position and the same zones, only the words differ
    assert _zone_items(_tree(german)).keys() == _zone_items(_tree(english)).keys()


def test_render_refuses_a_language_the_rules_lack(tmp_path, capsys):
    assert main(["render", "venedig", "--lang", "xx", "--out", str(tmp_path / "x.svg")]) == 2
    assert "venedig has no texts in 'xx'; its languages: en, de" in capsys.readouterr().err
    assert not (tmp_path / "x.svg").exists()
