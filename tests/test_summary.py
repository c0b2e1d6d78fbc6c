"""The panel of a seat's position (``present.summary``) reads like a board-game site's:
short labels, values in words from ``texts.yaml`` ``summary`` (a count with its noun, a zero
as "no ...", seats by name, hidden things counted), nothing the seat's view does not hold;
golden panels of one position per ruleset, read by people; the panel texts' checks.

Regenerate the golden panels with ``VENEDIG_UPDATE_SUMMARIES=1 python -m pytest
tests/test_summary.py`` (and read the diff)."""

from __future__ import annotations

import os
import random
import re
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules import present
from venedig_rules.engine.game import Game
from venedig_rules.engine.seat.wording import Wording
from venedig_rules.errors import InvalidRulesError
from venedig_rules.present.position import compact_lines, position_lines
from venedig_rules.present.summary import Summary, summary_of_view
from venedig_rules.testing.pictures import hidden_ids

GOLDEN = Path(__file__).parent / "summaries"

#: What no label or value of a panel may be or hold.
FORBIDDEN = {
    "raw id": re.compile(r"\b[a-z]+(?:_[a-z0-9]+)+\b"),
    "echo of nothing": re.compile(r"\b(none|keins|nichts)\b"),
    "a bare flag or zero": re.compile(r"^0$|\b(yes|ja|nein)\b|\bno$"),
    "numbers without a noun": re.compile(r"^\d+(\s+\d+)+$"),
    "a zero that is no 'no ...'": re.compile(r"(?<![\d.,|\u2013-])\b0\b(?![-|\u2013])"),
    "hidden items without a name": re.compile(r"hidden items?\b|verdeckte Teile"),
    "seats as bare numbers": re.compile(r"^\d+(?:(?:, | and | und )\d+)+$"),
}
#: What no part of a player's section may hold: the player again ("p0's coins").
PLAYER_AGAIN = re.compile(r"\bp\d+'s\b|\bvon p\d+\b")


def _configurations() -> list[tuple[str, tuple[str, ...], int]]:
    out = []
    for name in vr.bundled():
        for variants in [(), *[(v,) for v in vr.bundled_variants(name)]]:
            counts = [n for n in vr.load(name, variants=list(variants)).players if n <= 5]
            out += [(name, variants, n) for n in (counts if not variants else [counts[0], counts[-1]])]
    return out


def _positions(name: str, variants: tuple[str, ...], players: int, every: int = 40) -> Iterator[Game]:
    """A full game of random legal moves (seeded by the player count), paused every ``every``
    actions and at the end."""
    game = vr.load(name, variants=list(variants)).new_game(players=players, seed=players)
    rng = random.Random(players)
    yield game
    while not game.is_over:
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
        if len(game.actions) % every == 0:
            yield game
    yield game


@cache
def _names_with_digits(name: str, lang: str) -> tuple[str, ...]:
    """The names of the ruleset's things that hold a digit (``0-gold swamp tile``): a zero in
    a thing's name is no count."""
    wording = Wording(vr.load(name), lang)
    names = {n for kind in wording.lang.names.values() for found in kind.values() for n in (found.one, found.other)}
    return tuple(sorted((n for n in names if re.search(r"\d", n)), key=len, reverse=True))


def _problems(panel: Summary, name: str = "", lang: str = "en") -> list[str]:
    problems = []
    for section in panel["sections"]:
        for part in section["parts"]:
            label, value = part["label"], part["value"]
            for thing in _names_with_digits(name, lang) if name else ():
                value = value.replace(thing, "a thing")
            if not label or not value or label[0] != label[0].upper():
                problems.append(f"an empty or lower-case part {part!r}")
            for what, shape in FORBIDDEN.items():
                for text in (label, value):
                    if shape.search(text):
                        problems.append(f"{what} in {section['title']}: {label}: {value}")
            if section["player"] is not None and (PLAYER_AGAIN.search(label) or re.search(r"\bp\d+\b", label)):
                problems.append(f"the player again in {section['title']}: {label}")
    return problems


@pytest.mark.parametrize(("name", "variants", "players"), _configurations())
def test_no_panel_text_is_an_id_echo_or_bare_number(name: str, variants: tuple[str, ...], players: int) -> None:
    for game in _positions(name, variants, players):
        for seat in (None, 0, players - 1):
            for lang in ("en", "de"):
                panel = present.summary(game, seat, lang)
                assert [s["player"] for s in panel["sections"]] == [None, *range(players)]
                problems = _problems(panel, name, lang)
                assert not problems, problems[:5]


@pytest.mark.parametrize("name", vr.bundled())
def test_the_panel_holds_only_what_the_seats_view_holds(name: str) -> None:
    for game in _positions(name, (), 3, every=25):
        for seat in (None, 0, 2):
            wording = Wording(game.rules, "en")
            panel = present.summary(game, seat)
            assert panel == summary_of_view(wording, game.view(seat))  # made from the view alone
            texts = " | ".join(f"{p['label']}: {p['value']}" for s in panel["sections"] for p in s["parts"])
            secret = {wording.name(i) for i in hidden_ids(game, seat)}
            shown = {wording.name(i) for i in _ids_in(game.view(seat)["state"])}
            for words in secret - shown:
                assert not re.search(rf"(?<![\w-]){re.escape(words)}(?![\w-])", texts), f"{words!r} leaks to {seat}"


def _ids_in(value: object) -> set[str]:
    if isinstance(value, str):
        return {value}
    if isinstance(value, (list, tuple)):
        return {s for v in value for s in _ids_in(v)}
    if isinstance(value, dict):
        return {s for v in value.values() for s in _ids_in(v)}
    return set()


def test_a_view_holding_another_hand_would_show_it() -> None:
    """The leak test above can fail: a doctored view with another seat's hand is worded."""
    game = vr.load("venedig").new_game(players=3, seed=7)
    view = game.view(1)
    view["state"]["hand"][0] = list(game.value("hand", 0))
    panel = summary_of_view(Wording(game.rules), view)
    assert "hidden" not in panel["sections"][1]["parts"][1]["value"]


def test_zeros_counts_seats_and_hidden_values_read_as_words() -> None:
    rialto = _played("rialto", 3)
    en = {(s["player"], p["label"]): p["value"] for s in present.summary(rialto, 0)["sections"] for p in s["parts"]}
    de = {
        (s["player"], p["label"]): p["value"] for s in present.summary(rialto, 0, "de")["sections"] for p in s["parts"]
    }
    coins = [rialto.value("purse", p) for p in range(3)]
    for p, n in enumerate(coins):
        assert en[(p, "Coins")] == ("no coins" if n == 0 else f"{n} coin{'s' if n != 1 else ''}")
        assert de[(p, "Goldmünzen")] == ("keine Goldmünzen" if n == 0 else f"{n} Goldmünze{'n' if n != 1 else ''}")
    order = " and ".join([", ".join(f"p{p}" for p in rialto.value("doge_order")[:-1]), ""])
    assert en[(None, "Order on the Doge track")] == f"{order}p{rialto.value('doge_order')[-1]}"
    assert en[(1, "Hand")] == f"{len(rialto.value('hand', 1))} cards (hidden)"
    assert de[(1, "Hand")] == f"{len(rialto.value('hand', 1))} Karten (verdeckt)"
    venedig = present.summary(vr.load("venedig").new_game(players=3, seed=7), 0, "de")["sections"]
    assert {"label": "Gondel", "value": "am Start"} in venedig[1]["parts"]
    assert {"label": "Hand", "value": "3 Karten (verdeckt)"} in venedig[2]["parts"]
    assert {"label": "Sumpfplättchen auf dem Plan", "value": "86 Sumpfplättchen (verdeckt)"} in venedig[0]["parts"]


def test_list_positions_read_as_what_they_stand_for() -> None:
    from venedig_rules.present.summary_words import PanelWords

    en, de = (PanelWords(Wording(vr.load("rialto"), lang)) for lang in ("en", "de"))
    assert en.value("in_district", [0, 1, 0, 0, 4, 0]) == "San Marco: 1 councilman, San Polo: 4 councilmen"
    assert de.value("in_district", [0, 1, 0, 0, 4, 0]) == "San Marco: 1 Ratsherr, San Polo: 4 Ratsherren"
    assert en.value("in_district", [0] * 6) == "no councilmen"
    assert de.value("in_district", [0] * 6) == "keine Ratsherren"
    tiles = [None] * 12
    tiles[0], tiles[3] = ["bridge_6_3", 6, 3], ["gondola", 1, 1]
    assert en.value("conn_tiles", tiles) == (
        "bridge 6|3 (Cannaregio\u2013San Marco); gondola tile (Santa Croce\u2013San Polo)"
    )
    assert de.value("bonus_up", ["blue", "red"]) == "Bonus des blauen Bereichs; Bonus des roten Bereichs"
    venedig = PanelWords(Wording(vr.load("venedig"), "de"))
    pieces = [["palazzo", 1], ["campo", None], ["ponte", "imaginary"]]
    assert venedig.value("master_piece", pieces) == "Palazzo: p1; Campo: niemand; Ponte: der imaginäre Spieler"
    assert venedig.value("gold_tiles", {"hidden": 2}) == "2 Goldplättchen (Werte verdeckt)"


def test_a_seats_pieces_on_the_board_are_counted_in_its_own_section() -> None:
    game = _played("saeulen", 3)
    markers = list(game.value("marker"))
    for section in present.summary(game, None)["sections"][1:]:
        p = section["player"]
        n = sum(1 for owner in markers if owner == p)
        parts = {part["label"]: part["value"] for part in section["parts"]}
        assert parts["Pillar markers on the board"] == ("no markers" if n == 0 else f"{n} marker{'s' * (n != 1)}")


def test_the_terminal_prints_the_panel() -> None:
    game = _played("rialto", 4)
    wording = Wording(game.rules, "de")
    compact = compact_lines(wording, game.view(1), 1)
    assert len(compact) <= 15
    assert not any(PLAYER_AGAIN.search(line) for line in compact)
    whole = position_lines(wording, game.view(1))
    assert whole[0] == "Tisch:" and "p1 (du):" in whole
    assert any(line.startswith("  Goldmünzen: ") for line in whole)


@cache
def _played(name: str, players: int, actions: int = 60, variants: tuple[str, ...] = ()) -> Game:
    game = vr.load(name, variants=list(variants)).new_game(players=players, seed=3)
    rng = random.Random(1)
    while not game.is_over and len(game.actions) < actions:
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    return game


def _golden_text(name: str) -> str:
    game = _played(name, 3)
    lines = [f"# present.summary(game, 0) of a 3-player {name} game after 60 random moves (seed 3), en then de"]
    for lang in ("en", "de"):
        lines.append(f"## {lang}")
        for section in present.summary(game, 0, lang)["sections"]:
            lines.append(f"### {section['title']}")
            lines += [f"{part['label']}: {part['value']}" for part in section["parts"]]
    return "\n".join(lines) + "\n"


@pytest.mark.parametrize("name", vr.bundled())
def test_golden_panel(name: str) -> None:
    path = GOLDEN / f"{name}-3p.txt"
    text = _golden_text(name)
    if os.environ.get("VENEDIG_UPDATE_SUMMARIES"):
        GOLDEN.mkdir(exist_ok=True)
        path.write_text(text, encoding="utf-8")
    assert path.read_text(encoding="utf-8") == text, "the panel changed: read it, then regenerate (module docstring)"


# -- the texts' checks and fallbacks ---------------------------------------------------------


def _variant(folder: Path, overlay: str) -> Path:
    path = folder / "designer.yaml"
    body = "".join(f"  {line}\n" for line in overlay.strip("\n").splitlines())
    path.write_text(f"extends: rialto\nid: designer\ntitle: Designer\noverlay:\n{body}", encoding="utf-8")
    return path


@pytest.mark.parametrize(
    ("overlay", "line", "message"),
    [
        (
            "texts:\n  languages:\n    en:\n      summary:\n        parts:\n          purce: {label: Coins}",
            10,
            "panel text for state variable 'purce', which game.yaml state does not declare (did you mean 'purse'?)",
        ),
        (
            "texts:\n  summary:\n    leave_out: [doge_rnak]",
            7,
            "panel text for state variable 'doge_rnak', which game.yaml state does not declare",
        ),
        (
            "texts:\n  summary:\n    keys: {purse: distrct}",
            7,
            "is \"distrct\"; expected one of 'district', 'connection', 'track', 'player'",
        ),
        (
            "texts:\n  languages:\n    en:\n      summary:\n        parts:\n"
            '          purse: {label: Coins, value: "{nn}"}',
            10,
            "the value of 'purse' names field 'nn', which it does not have (did you mean 'n'?)",
        ),
    ],
)
def test_a_wrong_panel_text_is_located(tmp_path: Path, overlay: str, line: int, message: str) -> None:
    path = _variant(tmp_path, overlay)
    with pytest.raises(InvalidRulesError) as caught:
        vr.load("rialto", variants=[str(path)])
    errors = caught.value.errors
    assert len(errors) == 1 and message in errors[0].message, [e.line() for e in errors]
    assert errors[0].location.file.endswith("designer.yaml") and errors[0].location.line == line


def test_a_variable_without_a_panel_text_gets_a_made_label(tmp_path: Path) -> None:
    overlay = "texts:\n  languages:\n" + "".join(
        f"    {lang}:\n      summary:\n        parts:\n          purse: null\n          supply_coins: null\n"
        for lang in ("en", "de")
    )
    rules = vr.load("rialto", variants=[str(_variant(tmp_path, overlay))])
    game = rules.new_game(players=3, seed=3)
    for lang, table_label in (("en", "Coins in the general supply"), ("de", "Goldmünzen im allgemeinen Vorrat")):
        panel = present.summary(game, 0, lang)
        assert table_label in {p["label"] for p in panel["sections"][0]["parts"]}
        assert "Purse" in {p["label"] for p in panel["sections"][1]["parts"]}
        assert not _problems(panel, "rialto", lang)


def test_the_forbidden_shapes_catch_the_old_panel() -> None:
    """What the panel read before it was worded: each part alone is caught."""
    old = [
        ("p0's victory points", "6"),
        ("Pillar markers", "6 0"),
        ("Coins", "0"),
        ("Order on the Doge track", "0, 2 and 1"),
        ("Master builder pieces", "Palazzo: 1, Campo: none"),
        ("Gold", "1 hidden items"),
        ("Buildings", "blue_1"),
        ("the round", "2"),
        ("Coins", "0 coins"),
        ("Pillars", "A5 yes"),
    ]
    for label, value in old:
        panel: Summary = {
            "seat": 0,
            "sections": [{"title": "p0 (you)", "player": 0, "parts": [{"label": label, "value": value}]}],
        }
        assert _problems(panel), (label, value)


def test_a_part_german_lacks_falls_back_to_the_first_languages_with_a_warning(tmp_path: Path) -> None:
    from venedig_rules.engine.loading import validate

    overlay = "texts:\n  languages:\n    de:\n      summary:\n        parts:\n          purse: null\n"
    path = _variant(tmp_path, overlay)
    problems = validate("rialto", [str(path)])
    assert [p.code for p in problems] == ["rules/text-missing"]
    assert "summary part 'purse' has a English (en) text but no German (de) one" in problems[0].message
    game = vr.load("rialto", variants=[str(path)]).new_game(players=3, seed=3)
    parts = {p["label"]: p["value"] for p in present.summary(game, 0, "de")["sections"][2]["parts"]}
    n = game.value("purse", 1)
    assert parts["Coins"] == ("no coins" if n == 0 else f"{n} coin{'s' * (n != 1)}")  # English, never an id


def test_rialtos_phase_number_is_left_to_the_stage_and_the_log() -> None:
    """``Phase: 2`` is a state echo: the panel shows the stage in words instead."""
    game = vr.load("rialto").new_game(players=3, seed=3)
    rng = random.Random(3)
    for _ in range(60):
        game = game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    for lang, stage in (("en", "Stage"), ("de", "Abschnitt")):
        table = {p["label"]: p["value"] for p in present.summary(game, 0, lang)["sections"][0]["parts"]}
        assert "Phase" not in table
        assert table[stage] in {"Doge cards", "Dogenkarten"}
