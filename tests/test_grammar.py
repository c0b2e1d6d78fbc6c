"""German that a German player would write: nouns carry gender and number, templates choose
article, case and number (``{item:a.nom}``, ``{from:the.dat}``), and the checks find a
case that does not exist or a German noun without the gender its template needs.

The phrases issue 29 quoted ("wandert von der Gebäudevorrat nach die Gebäude", "aus der
Nachziehstapel", "fährt 1 Felder", "von der imaginäre Spieler", "baut Casa", "Palazzo und
keins") must never come back: they are regression tests here, and every text of random full
games of every ruleset and variant is searched for article and noun pairs that cannot agree."""

from __future__ import annotations

import dataclasses
import random
import re
import shutil
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest

import venedig_rules as vr
from venedig_rules.data.resources import rules_root
from venedig_rules.data.texts import Name, languages
from venedig_rules.engine.run.views import HIDDEN
from venedig_rules.engine.seat.grammar import Grammar
from venedig_rules.engine.seat.wording import Wording

#: What the issue quoted, which no German text may hold again.
QUOTED = re.compile(
    r"wandert von der Gebäudevorrat|nach die Gebäude|aus der Nachziehstapel|\b1 Felder\b"
    r"|von der imaginäre Spieler|baut (Casa|Palazzo|Campo|Basilika|Ponte)\b|Palazzo und keins"
)


def engine_move(w: Wording) -> Wording:
    """The wording with no per-game move sentences, so that the engine's ``move`` speaks."""
    w.lang = dataclasses.replace(w.lang, moves={})
    return w


# -- the issue's phrases ------------------------------------------------------------------------
def test_the_engine_move_declines_both_places() -> None:
    w = engine_move(Wording(vr.load("rialto"), "de"))
    move = {"type": "move", "item": "blue_1", "from": ["building_supply", None], "to": ["buildings", 2]}
    assert w.event(move) == "ein blaues Gebäude 1 wandert vom Gebäudevorrat zu den Gebäuden von p2"
    move = {"type": "move", "item": "blue_1", "from": ["buildings", 2], "to": ["building_supply", None]}
    assert w.event(move) == "ein blaues Gebäude 1 wandert von den Gebäuden von p2 zum Gebäudevorrat"
    venedig = engine_move(Wording(vr.load("venedig"), "de"))
    move = {"type": "move", "item": HIDDEN, "from": ["draw_pile", None], "to": ["hand", 1]}
    assert venedig.event(move) == "eine Karte wandert vom Nachziehstapel zur Hand von p1"
    move = {"type": "move", "item": "treasure_4", "from": ["treasure_supply", None], "to": ["gold_tiles", 0]}
    assert venedig.event(move) == "ein Goldschatz mit 4 Gold wandert von den Goldschätzen zum Gold von p0"


def test_a_place_without_gender_takes_the_plain_move_sentence() -> None:
    w = engine_move(Wording(vr.load("rialto"), "de"))
    zones = dict(w.lang.zones)
    zones["building_supply"] = dataclasses.replace(zones["building_supply"], noun=None)
    w.lang = dataclasses.replace(w.lang, zones=zones)
    move = {"type": "move", "item": "blue_1", "from": ["building_supply", None], "to": ["buildings", 2]}
    assert w.event(move) == "ein blaues Gebäude 1 wandert: Gebäudevorrat → die Gebäude von p2"


def test_english_moves_and_articles_stay_as_they_were() -> None:
    w = engine_move(Wording(vr.load("rialto"), "en"))
    move = {"type": "move", "item": "blue_1", "from": ["building_supply", None], "to": ["buildings", 2]}
    assert w.event(move) == "a blue building 1 moves from the building supply to p2's buildings"
    grammar = Grammar(languages(vr.load("venedig").data)["en"].grammar)
    assert grammar.phrase(Name("orange", "oranges", "orange"), "a") == "an orange"
    assert grammar.phrase(Name("card", "cards", "card"), "the", "dat", "other") == "the cards"


def test_the_quoted_german_reads_right() -> None:
    venedig = Wording(vr.load("venedig"), "de")
    assert venedig.event({"type": "gondola", "player": 0, "steps": 1, "from_step": 3, "to_step": 4}) == (
        "die Gondel von p0 fährt 1 Feld weit, von 3 bis 4"
    )
    assert (
        venedig.event({"type": "built", "building": "casa", "site": ["e3"], "master": 0}) == "p0 baut eine Casa auf E3"
    )
    built = {"type": "built", "building": "campo", "site": ["e3"], "master": "imaginary"}
    assert venedig.event(built) == "der imaginäre Spieler baut einen Campo auf E3"
    points = {"type": "points", "building": "palazzo", "points": 2, "master": "imaginary"}
    assert venedig.event(points) == "der Palazzo ist 2 wert (Baumeister: der imaginäre Spieler)"
    rialto = Wording(vr.load("rialto"), "de")
    councilman = {"type": "councilman", "player": 1, "source": "general", "district": "castello"}
    assert rialto.event(councilman) == "p1 stellt einen Ratsherrn aus dem allgemeinen Vorrat nach Castello"
    saeulen = Wording(vr.load("saeulen"), "de")
    move = {"type": "move", "item": "lawyer_p3", "from": ["hand", 0], "to": ["hand", 1]}
    assert saeulen.event(move) == "p0 gibt p1 einen Advokaten (3+)"
    give = {"type": "choice", "label": "give", "player": 0, "value": "lawyer_p3"}
    assert saeulen.event(give) == "p0 gibt einen Advokaten (3+) zurück"


def test_adjectives_decline_after_every_article() -> None:
    de = languages(vr.load("rialto").data)["de"]
    g, green = Grammar(de.grammar), de.names["building"]["green_1"]
    forms = {(art, case): g.phrase(green, art, case) for art in ("the", "a", "none") for case in ("nom", "dat")}
    assert forms == {
        ("the", "nom"): "das grüne Gebäude 1",
        ("the", "dat"): "dem grünen Gebäude 1",
        ("a", "nom"): "ein grünes Gebäude 1",
        ("a", "dat"): "einem grünen Gebäude 1",
        ("none", "nom"): "grünes Gebäude 1",
        ("none", "dat"): "grünem Gebäude 1",
    }
    assert g.phrase(green, "the", "dat", "other") == "den grünen Gebäuden 1"
    lawyer = languages(vr.load("saeulen").data)["de"].names["card_type"]["lawyer"]
    assert [g.phrase(lawyer, "the", c) for c in ("nom", "acc", "dat")] == [
        "der Advokat",
        "den Advokaten",
        "dem Advokaten",
    ]


def test_a_count_takes_the_case_its_sentence_asks() -> None:
    saeulen = vr.load("saeulen")
    assert saeulen.describe_item("pitch_dipper_3_1_p2", "de")["text"].endswith(
        "dann 1 eigenen Säulenmarker auf leere Säulen legen."
    )
    assert saeulen.describe_item("pitch_dipper_4_2_p2", "de")["text"].endswith(
        "dann 2 eigene Säulenmarker auf leere Säulen legen."
    )


def test_contractions_join_only_a_preposition_and_the_article_after_it() -> None:
    g = Grammar(languages(vr.load("venedig").data)["de"].grammar)
    assert g.contract(["Von ", "dem Nachziehstapel"], {1}) == "Vom Nachziehstapel"
    assert g.contract(["zu ", "der Hand von p1"], {1}) == "zur Hand von p1"
    assert g.contract(["Advokat von ", "dem"], {1}) == "Advokat von dem"  # no noun after it: no article
    assert g.contract(["davon ", "dem Stapel"], {1}) == "davon dem Stapel"


# -- the checks ----------------------------------------------------------------------------------
def venedig_copy(tmp_path: Path, old: str, new: str) -> Path:
    target = tmp_path / "venedig"
    shutil.copytree(rules_root() / "venedig", target, ignore=shutil.ignore_patterns("variants"))
    path = target / "texts.yaml"
    text = path.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    path.write_text(text.replace(old, new), encoding="utf-8")
    return target


def errors(root: Path) -> list[tuple[str, int, str]]:
    return [(e.code, e.location.line, e.message) for e in vr.validate(root)]


def line_of(root: Path, text: str) -> int:
    lines = (root / "texts.yaml").read_text(encoding="utf-8").splitlines()
    return next(i for i, line in enumerate(lines, 1) if text in line)


def test_an_unknown_case_is_refused_inside_the_template(tmp_path: Path) -> None:
    root = venedig_copy(tmp_path, '"{to_player} zieht {item:a}"', '"{to_player} zieht {item:a.dativ}"')
    [(code, line, message)] = errors(root)
    assert (code, line) == ("rules/text", line_of(root, "{item:a.dativ}"))
    assert "asks for 'dativ', which is no case or number (did you mean 'dat'?)" in message


def test_a_case_on_a_format_that_takes_none_is_refused(tmp_path: Path) -> None:
    root = venedig_copy(tmp_path, '"{player} spielt {cards:count} aus"', '"{player} spielt {cards:count.dat} aus"')
    [(code, _, message)] = errors(root)
    assert (
        code == "rules/text"
        and "gives format 'count' a case or number (dat); only the, a, name, plural and of" in message
    )


def test_a_german_noun_without_gender_is_refused_where_a_template_needs_its_article(tmp_path: Path) -> None:
    root = venedig_copy(tmp_path, "campo: {one: Campo, other: Campi, gender: m}", "campo: {one: Campo, other: Campi}")
    [(code, line, message)] = errors(root)
    assert (code, line) == ("rules/text", line_of(root, "campo: {one: Campo, other: Campi}"))
    assert message.startswith("the de name of building 'campo' has no gender, but the text 'decisions/site/prompt'")


def test_a_gender_the_language_lacks_is_refused_at_the_noun(tmp_path: Path) -> None:
    root = venedig_copy(
        tmp_path, "ponte: {one: Ponte, other: Ponti, gender: f}", "ponte: {one: Ponte, other: Ponti, gender: w}"
    )
    [(code, line, message)] = errors(root)
    assert (code, line) == ("rules/text", line_of(root, "gender: w}"))
    assert message == "the de noun names/building/ponte has gender 'w'; expected one of m, f, n"


def test_a_move_sentence_declining_a_place_needs_the_place_as_a_noun(tmp_path: Path) -> None:
    root = venedig_copy(tmp_path, '"{to_player} zieht {item:a}"', '"{to_player} zieht {item:a} aus {from:the.dat}"')
    assert errors(root) == []
    root = venedig_copy(
        tmp_path / "2",
        "draw_pile: {name: {one: Nachziehstapel, other: Nachziehstapel, gender: m}",
        "draw_pile: {name: der Nachziehstapel",
    )
    path = root / "texts.yaml"
    path.write_text(
        path.read_text(encoding="utf-8").replace(
            '"{to_player} zieht {item:a}"', '"{to_player} zieht {item:a} aus {from:the.dat}"'
        ),
        encoding="utf-8",
    )
    [(code, line, message)] = errors(root)
    assert (code, line) == ("rules/text", line_of(root, "draw_pile: {name: der Nachziehstapel"))
    assert "state variable 'draw_pile' has no gender" in message


def test_old_name_forms_still_load_and_read_as_written(tmp_path: Path) -> None:
    card = "casa_card: {one: Casa-Karte, other: Casa-Karten, gender: f}"
    draw = {"type": "move", "item": "casa_card", "from": ["draw_pile", None], "to": ["hand", 0]}
    root = venedig_copy(tmp_path, card, "casa_card: {one: Casa-Karte, other: Casa-Karten, a: eine Casa-Karte}")
    assert errors(root) == []
    assert Wording(vr.load(root), "de").event(draw) == "p0 zieht eine Casa-Karte"
    root = venedig_copy(tmp_path / "2", card, "casa_card: Casa-Karte")
    assert errors(root) == []
    assert Wording(vr.load(root), "de").event(draw) == "p0 zieht Casa-Karte"


# -- every text of random games ----------------------------------------------------------------
def _configurations() -> Iterator[tuple[str, tuple[str, ...], int]]:
    for name in vr.bundled():
        for variants in [(), *[(v,) for v in vr.bundled_variants(name)]]:
            counts = [n for n in vr.load(name, variants=list(variants)).players if 2 <= n <= 5]
            yield from ((name, variants, n) for n in (counts if not variants else counts[:1]))


@cache
def _texts(name: str, variants: tuple[str, ...], players: int, lang: str) -> frozenset[str]:
    """Every text a random full game shows in ``lang``: each decision's prompt and options
    as it comes, the log with its details, the event sentences of a seat and a spectator."""
    game = vr.load(name, variants=list(variants)).new_game(players=players, seed=players)
    rng, texts = random.Random(players), set()
    while not game.is_over:
        for seat in game.to_move:
            decision = game.decision(seat, lang=lang)
            if decision is not None:
                texts |= {decision["prompt"], *(o["text"] for o in decision["options"])}
        game.apply(rng.choice(game.legal_actions(game.to_move[0])))
    for seat in (None, 0):
        texts |= {t for e in game.log(seat, lang=lang) for t in [e["text"], *e["details"]]}
        texts |= {e["text"] for e in game.view(seat, lang=lang)["events"]}
    return frozenset(texts)


def _noun_heads(name: str) -> dict[str, set[str]]:
    """German singular nouns of a ruleset by gender (``m``, ``f``, ``n``), and ``plural``:
    plurals that differ from their singular."""
    de = languages(vr.load(name).data)["de"]
    nouns = [n for kind in de.names.values() for n in kind.values()] + list(de.words.values())
    nouns += [z for zone in de.zones.values() for z in (zone.noun, zone.whole_noun, zone.hidden_noun) if z]
    heads: dict[str, set[str]] = {"m": set(), "f": set(), "n": set(), "plural": set()}
    for noun in nouns:
        if noun.gender in heads and not noun.plural_only and noun.one != noun.other:
            heads[noun.gender].add(noun.one)
            heads["plural"].add(noun.other)
    return heads


def _disagreements(name: str) -> re.Pattern[str]:
    """Article and noun pairs that cannot agree in any case: ``der`` or ``den`` before a neuter
    singular, ``das`` before a masculine or feminine one, ``dem``/``vom`` before a feminine,
    ``von der``/``aus der`` before a masculine or neuter, an indefinite article of another
    gender, ``1`` before a plural; an adjective may stand between."""
    heads = _noun_heads(name)

    def alt(*genders: str) -> str:
        return "|".join(sorted((re.escape(w) for g in genders for w in heads[g]), key=len, reverse=True)) or "(?!)"

    adj, end = r"(?:[a-zäöü]+e[nmrs]? )?", r"(?![\w-])"
    return re.compile(
        rf"\b(?:der|den) {adj}(?:{alt('n')})(?![\w-])(?! ?[,(])"
        rf"|\bdas {adj}(?:{alt('m', 'f')}){end}"
        rf"|\b(?:dem|vom|zum|einem) {adj}(?:{alt('f')}){end}"
        rf"|\b(?:[Vv]on|[Aa]us|[Mm]it|[Zz]u) der {adj}(?:{alt('m', 'n')}){end}"
        rf"|\bein {adj}(?:{alt('f')}){end}|\beine {adj}(?:{alt('m', 'n')}){end}|\beinen {adj}(?:{alt('f', 'n')}){end}"
        rf"|(?<![\d\u2013|.])\b1 (?:{alt('plural')}){end}"
    )


@pytest.mark.parametrize(("name", "variants", "players"), list(_configurations()))
def test_no_german_text_of_a_random_game_pairs_an_article_with_the_wrong_noun(
    name: str, variants: tuple[str, ...], players: int
) -> None:
    bad = _disagreements(name)
    for text in _texts(name, variants, players, "de"):
        assert not QUOTED.search(text), text
        found = bad.search(text)
        assert found is None, f"{found.group(0)!r} in {text!r}"


@pytest.mark.parametrize(("name", "variants", "players"), list(_configurations()))
def test_no_english_text_of_a_random_game_doubles_or_misses_an_article(
    name: str, variants: tuple[str, ...], players: int
) -> None:
    for text in _texts(name, variants, players, "en"):
        assert not re.search(r"\b(?:the|an?) (?:the|an?)\b|\ba [aeiou]", text), text


def test_the_detector_finds_what_it_should() -> None:
    bad = _disagreements("venedig")
    for text in ("p0 baut ein Casa", "wandert von der Gebäudevorrat", "die Gondel fährt 1 Felder", "das Palazzo"):
        assert bad.search(text) or QUOTED.search(text), text
    for text in ("p0 baut eine Casa", "wandert vom Gebäudevorrat", "die Gondel fährt 1 Feld", "der Palazzo"):
        assert not bad.search(text) and not QUOTED.search(text), text


def test_a_count_of_nothing_reads_no_and_an_items_count_takes_its_own_name() -> None:
    """Rialto's play options: ``Play 1 Councilman card and no Jokers``, not ``Play 1
    councilman and 0 Jokers`` (the piece's word spelt like the card type, a bare zero)."""
    game = vr.load("rialto").new_game(players=3, seed=3)
    rng = random.Random(3)
    found: dict[str, list[str]] = {}
    while not game.is_over and len(found) < 2:  # the first play of cards with a Joker in hand
        mover = game.to_move[0]
        for lang in ("en", "de"):
            options = [o["text"] for o in game.decision(mover, lang=lang)["options"]]
            if any(re.search(r" and |und ", o) and "Joker" in o for o in options):
                found[lang] = options
        game = game.apply(rng.choice(game.legal_actions(mover)))
    assert any(re.fullmatch(r"Play \d [A-Z]\w+ cards? and no Jokers", o) for o in found["en"]), found["en"]
    assert any(re.fullmatch(r"\d \w+karten? und keine Joker ausspielen", o) for o in found["de"]), found["de"]
    assert not [o for lang in found for o in found[lang] if re.search(r"\b0 |councilman and|Ratsherrn und", o)]
